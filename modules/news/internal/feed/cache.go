package feed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/modules/news"
)

// maxFeedBytes is the largest feed read; a bigger one is a failed fetch.
const maxFeedBytes = 4 << 20

// fetchTimeout bounds one fetch, so that a slow provider holds the page
// (which waits for it through htmx, not in its first answer) for no longer.
const fetchTimeout = 10 * time.Second

// Cache keeps the configured feed: Get fetches it when what it holds is
// older than the refresh time, and when a fetch fails it keeps the items
// of the last fetch that worked (stale-while-error) and says it failed.
// A failed fetch is retried after a tenth of the refresh time, at least a
// minute, so that a provider that is down is not asked on every page view.
// It is safe for concurrent use; one fetch runs at a time.
type Cache struct {
	url     string
	refresh time.Duration
	client  *http.Client
	log     *slog.Logger
	now     func() time.Time

	mu        sync.Mutex
	title     string
	items     []news.Item
	fetchedAt time.Time // the last fetch that worked
	triedAt   time.Time // the last fetch, worked or not
	failed    bool
}

// NewCache keeps the feed at feedURL ("" for none), fetched through client
// again after refresh.
func NewCache(feedURL string, refresh time.Duration, client *http.Client, log *slog.Logger) *Cache {
	return &Cache{url: feedURL, refresh: refresh, client: client, log: log, now: time.Now}
}

// SetClock replaces the clock, for tests of the refresh.
func (c *Cache) SetClock(now func() time.Time) { c.now = now }

// Get returns the feed, fetched first when what the cache holds is due.
// Message is left for the caller to word.
func (c *Cache) Get(ctx context.Context) news.Feed {
	if c.url == "" {
		return news.Feed{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if c.due(now) {
		c.triedAt = now
		// A visitor who leaves must not make the fetch fail for everyone.
		title, items, err := c.fetch(context.WithoutCancel(ctx))
		if err != nil {
			c.failed = true
			c.log.Warn("news feed fetch failed", "url", c.url, "err", err, "stale_items", len(c.items))
		} else {
			c.title, c.items, c.fetchedAt, c.failed = title, items, now, false
		}
	}
	return news.Feed{Configured: true, Title: c.title, Items: c.items, FetchedAt: c.fetchedAt, Failed: c.failed}
}

// due reports whether the feed is fetched again now.
func (c *Cache) due(now time.Time) bool {
	if c.triedAt.IsZero() {
		return true
	}
	if c.failed {
		return now.Sub(c.triedAt) >= max(c.refresh/10, time.Minute)
	}
	return now.Sub(c.fetchedAt) >= c.refresh
}

// fetch reads and parses the feed.
func (c *Cache) fetch(ctx context.Context) (string, []news.Item, error) {
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return "", nil, err
	}
	req.Header.Set("Accept", "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.8")
	req.Header.Set("User-Agent", "Fieldhub news")
	resp, err := c.client.Do(req)
	if err != nil {
		return "", nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", nil, fmt.Errorf("GET %s: %s", c.url, resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxFeedBytes+1))
	if err != nil {
		return "", nil, err
	}
	if len(data) > maxFeedBytes {
		return "", nil, errors.New("the feed is larger than 4 MiB")
	}
	// Relative links resolve against where the feed was read from.
	base, _ := url.Parse(resp.Request.URL.String())
	return Parse(data, base)
}

// Client is the HTTP client the feed is fetched with: the operator chose
// the address, so it may be on a private network (unlike the addresses
// companies choose, which go through kernel/egress); it follows up to three
// redirects, such as http to https.
func Client() *http.Client {
	return &http.Client{CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= 3 {
			return errors.New("more than 3 redirects")
		}
		return nil
	}}
}

// Configured reports whether a feed is configured.
func (c *Cache) Configured() bool { return c.url != "" }
