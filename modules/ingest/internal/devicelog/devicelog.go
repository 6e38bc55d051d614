// Package devicelog publishes the ingest's device events
// (ingest.DeviceEvent) for the log, with their English text from the
// catalog, and spaces out the ones that repeat. The pipeline reports what
// messages say about devices.
package devicelog

import (
	"context"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/modules/ingest"
)

// repeatEvery is how often the same DevEUI may report the same repeating
// trouble (heard without a node, a decoder that fails): a device that sends
// every minute would otherwise fill the log with one line.
const repeatEvery = 15 * time.Minute

// Reporter publishes device events.
type Reporter struct {
	host   *kernel.Host
	now    func() time.Time
	logged throttle
}

// New returns a reporter on host's bus and catalogs.
func New(host *kernel.Host) *Reporter { return &Reporter{host: host, now: time.Now} }

// Report publishes e, its English text from the catalog. The bus queues it
// for the logs module, whose handler never waits, so the message that
// caused it goes on at once.
func (r *Reporter) Report(ctx context.Context, e ingest.DeviceEvent) {
	if e.Message == "" && e.MessageID != "" {
		e.Message = r.host.Catalogs.T(i18n.Default, e.MessageID, e.Args)
	}
	e.Time = r.now().UTC()
	r.host.Bus.Publish(context.WithoutCancel(ctx), e)
}

// Allow reports whether a repeating event named key (its kind, company
// and DevEUI) may be published now, and notes it: once every 15 minutes.
func (r *Reporter) Allow(key string) bool { return r.logged.allow(key, r.now()) }

// throttle remembers when a repeating event was last published.
type throttle struct {
	mu   sync.Mutex
	last map[string]time.Time
}

// allow reports whether key may be published at now, and notes it.
func (t *throttle) allow(key string, now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if at, ok := t.last[key]; ok && now.Sub(at) < repeatEvery {
		return false
	}
	if t.last == nil || len(t.last) >= 10_000 {
		// Bounded: forgetting early costs at most one line more per DevEUI.
		t.last = map[string]time.Time{}
	}
	t.last[key] = now
	return true
}

// Number formats a reading for a log line, "–" when there is none.
func Number(v *float64) string {
	if v == nil {
		return "–"
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

// Clip shortens s to at most n bytes, on a character boundary.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}
