package feed

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// provider is a feed server whose answer a test changes.
type provider struct {
	mu     sync.Mutex
	status int
	body   []byte
	hits   atomic.Int32
}

func (p *provider) set(status int, body []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.status, p.body = status, body
}

func (p *provider) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	p.hits.Add(1)
	p.mu.Lock()
	defer p.mu.Unlock()
	w.Header().Set("Content-Type", "application/rss+xml")
	w.WriteHeader(p.status)
	w.Write(p.body)
}

// clock is a test's time, moved by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

func TestCacheRefreshAndStaleWhileError(t *testing.T) {
	t.Parallel()
	p := &provider{status: 200, body: readFixture(t, "rss.xml")}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	clk := &clock{t: time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)}
	c := NewCache(srv.URL+"/feed.xml", 15*time.Minute, Client(), slog.New(slog.DiscardHandler))
	c.SetClock(clk.now)
	ctx := context.Background()

	f := c.Get(ctx)
	if !f.Configured || f.Failed || len(f.Items) != 4 || f.Title != "Fieldhub & friends" || !f.FetchedAt.Equal(clk.t) {
		t.Fatalf("first fetch: %+v", f)
	}
	// A relative link resolves against the server the feed came from.
	if f.Items[0].Link != srv.URL+"/2026/node" {
		t.Errorf("relative link: %q", f.Items[0].Link)
	}

	// Within the refresh time the provider is not asked again.
	clk.advance(14 * time.Minute)
	c.Get(ctx)
	if n := p.hits.Load(); n != 1 {
		t.Errorf("fetched %d times within the refresh time", n)
	}

	// After it, it is; a failure keeps the items it had and says so.
	p.set(http.StatusInternalServerError, []byte("boom"))
	clk.advance(2 * time.Minute)
	f = c.Get(ctx)
	if n := p.hits.Load(); n != 2 {
		t.Errorf("fetched %d times after the refresh time", n)
	}
	if !f.Failed || len(f.Items) != 4 || !f.FetchedAt.Equal(clk.t.Add(-16*time.Minute)) {
		t.Errorf("after a failure: failed %t, %d items, fetched at %v", f.Failed, len(f.Items), f.FetchedAt)
	}

	// A failed provider is asked again after a tenth of the refresh time
	// (at least a minute), not on every view.
	clk.advance(30 * time.Second)
	c.Get(ctx)
	if n := p.hits.Load(); n != 2 {
		t.Errorf("a failed feed fetched again at once (%d fetches)", n)
	}
	p.set(http.StatusOK, readFixture(t, "atom.xml"))
	clk.advance(time.Minute)
	f = c.Get(ctx)
	if f.Failed || f.Title != "Provider updates" || len(f.Items) != 2 {
		t.Errorf("after the provider mended: %+v", f)
	}

	// A document that is not a feed is a failure too.
	p.set(http.StatusOK, []byte("<html>maintenance</html>"))
	clk.advance(15 * time.Minute)
	if f = c.Get(ctx); !f.Failed || f.Title != "Provider updates" {
		t.Errorf("an HTML page: %+v", f)
	}
}

func TestCacheClosedPortFails(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	c := NewCache("http://"+addr+"/feed", 15*time.Minute, Client(), slog.New(slog.DiscardHandler))
	if f := c.Get(context.Background()); !f.Configured || !f.Failed || len(f.Items) != 0 || !f.FetchedAt.IsZero() {
		t.Errorf("closed port: %+v", f)
	}
}

func TestCacheWithoutFeed(t *testing.T) {
	t.Parallel()
	c := NewCache("", 15*time.Minute, Client(), slog.New(slog.DiscardHandler))
	if f := c.Get(context.Background()); f.Configured || f.Failed || c.Configured() {
		t.Errorf("no feed: %+v", f)
	}
}
