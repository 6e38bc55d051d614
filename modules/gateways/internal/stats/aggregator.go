// Package stats counts, in memory, the receptions of the uplinks the
// ingest publishes (ingest.UplinkReceived) per company and gateway, and
// adds them to the database every few seconds: the cost per uplink is a
// map update under a lock, and the database sees one transaction per
// flush whatever the traffic. Each instance adds its own counts, so that
// several instances on PostgreSQL sum up.
package stats

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/modules/gateways/internal/store"
	"github.com/fieldhub/fieldhub/modules/ingest"
)

// samplesPerFlush bounds the samples of one gateway written at one flush:
// the newest ones; under heavy traffic the ring still turns over.
const samplesPerFlush = 8

// maxReceptions bounds the receptions of one uplink that count: a network
// server names a handful; a body naming thousands would only grow the
// tables.
const maxReceptions = 64

// FlushEvery is how often the counts go to the database.
const FlushEvery = 5 * time.Second

// pending is what one gateway's receptions added since the last flush.
type pending struct {
	first, last time.Time
	counts      map[time.Time]int64 // by clock hour; one or two entries
	samples     [samplesPerFlush]store.Sample
	n           int // samples taken, of which the last samplesPerFlush are kept
}

// Aggregator keeps the receptions since the last flush.
type Aggregator struct {
	db  *bun.DB
	log *slog.Logger

	mu      sync.Mutex
	pending map[store.Key]*pending
	flushMu sync.Mutex // one flush at a time
}

// New returns an aggregator that writes to bdb.
func New(bdb *bun.DB, log *slog.Logger) *Aggregator {
	return &Aggregator{db: bdb, log: log, pending: map[store.Key]*pending{}}
}

// Observe counts the receptions of one uplink. A gateway named twice in
// one uplink counts once; a gateway id that is not an EUI (The Things
// Stack's gateway id of a gateway without EUI) is not counted, since
// gateways are registered by EUI.
func (a *Aggregator) Observe(e ingest.UplinkReceived) {
	if len(e.Receptions) == 0 || e.CompanyID == 0 {
		return
	}
	at := e.Time.UTC()
	if now := time.Now().UTC(); at.IsZero() || at.After(now) {
		at = now
	}
	hour := store.HourOf(at)
	var seen [8]string // the EUIs of this uplink so far, to count each once
	named := seen[:0]
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, r := range e.Receptions[:min(len(e.Receptions), maxReceptions)] {
		eui, ok := parseEUI(r.GatewayID)
		if !ok || slices.Contains(named, eui) {
			continue
		}
		named = append(named, eui)
		k := store.Key{CompanyID: e.CompanyID, EUI: eui}
		p := a.pending[k]
		if p == nil {
			p = &pending{first: at, last: at, counts: make(map[time.Time]int64, 1)}
			a.pending[k] = p
		}
		p.first, p.last = minTime(p.first, at), maxTime(p.last, at)
		p.counts[hour]++
		if r.RSSI != nil || r.SNR != nil {
			p.samples[p.n%samplesPerFlush] = store.Sample{Key: k, At: at, RSSI: r.RSSI, SNR: r.SNR}
			p.n++
		}
	}
}

// parseEUI is gateways.NormaliseEUI and gateways.ValidEUI in one pass
// without a regular expression: it runs for every reception.
func parseEUI(s string) (string, bool) {
	var b [16]byte
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '-' || c == ':':
			continue
		case n == len(b):
			return "", false
		case c >= '0' && c <= '9' || c >= 'A' && c <= 'F':
		case c >= 'a' && c <= 'f':
			c -= 'a' - 'A'
		default:
			return "", false
		}
		b[n] = c
		n++
	}
	if n != len(b) {
		return "", false
	}
	if s == string(b[:]) { // already in the stored form: no copy
		return s, true
	}
	return string(b[:]), true
}

// Flush adds what was observed since the last flush to the database. On
// failure the batch is dropped (and logged): statistics are a view, not a
// record, and holding them would grow memory while the database is away.
func (a *Aggregator) Flush(ctx context.Context) error {
	a.flushMu.Lock()
	defer a.flushMu.Unlock()
	a.mu.Lock()
	taken := a.pending
	if len(taken) == 0 {
		a.mu.Unlock()
		return nil
	}
	a.pending = make(map[store.Key]*pending, len(taken))
	a.mu.Unlock()
	b := &store.Batch{}
	for k, p := range taken {
		kept := min(p.n, samplesPerFlush)
		b.Seen = append(b.Seen, store.Seen{Key: k, First: p.first, Last: p.last, Samples: kept})
		for hour, n := range p.counts {
			b.Counts = append(b.Counts, store.Count{Key: k, Bucket: hour, Uplinks: n})
		}
		// The kept samples, oldest first, numbered for their ring slots.
		for i := range kept {
			s := p.samples[(p.n-kept+i)%samplesPerFlush]
			s.Slot = i
			b.Samples = append(b.Samples, s)
		}
	}
	if err := store.AddBatch(ctx, a.db, b); err != nil {
		a.log.Warn("gateway statistics dropped", "gateways", len(taken), "err", err)
		return err
	}
	return nil
}

// Run flushes every FlushEvery until ctx is done, then once more.
func (a *Aggregator) Run(ctx context.Context, done chan<- struct{}) {
	defer close(done)
	t := time.NewTicker(FlushEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			_ = a.Flush(fctx)
			cancel()
			return
		case <-t.C:
			_ = a.Flush(ctx)
		}
	}
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
