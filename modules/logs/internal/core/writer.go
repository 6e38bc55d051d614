package core

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"
)

// The writer: one goroutine takes what the module records from a bounded
// queue and writes it in batches, each batch in one statement, so that a
// burst of device events costs a few round trips and nobody who records
// waits for the database.
const (
	// queueSize bounds what waits to be written; beyond it, entries are
	// dropped (and counted) rather than hold up their senders.
	queueSize = 8192
	// batchSize is the most entries one statement inserts.
	batchSize = 500
)

// item is one thing to write: an entry, or a user seen (or both, for a
// sign-in).
type item struct {
	entry *Entry
	seen  *activity
}

type writer struct {
	db      *bun.DB
	log     *slog.Logger
	queue   chan item
	dropped prometheus.Counter
	written prometheus.Counter
	// publish announces an entry once it is stored.
	publish func(Entry)

	mu      sync.Mutex
	running bool
	stop    chan struct{}
	done    chan struct{}
}

func newWriter(bdb *bun.DB, log *slog.Logger, dropped, written prometheus.Counter, publish func(Entry)) *writer {
	return &writer{db: bdb, log: log, queue: make(chan item, queueSize), dropped: dropped, written: written, publish: publish}
}

// add queues it without waiting; it is dropped when the writer is not
// running or the queue is full.
func (w *writer) add(it item) {
	// The lock orders add before close: what is queued before the stop is
	// written by the drain.
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.running {
		w.dropped.Inc()
		return
	}
	select {
	case w.queue <- it:
	default:
		w.dropped.Inc()
	}
}

// start runs the writer until close.
func (w *writer) start() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.running {
		return
	}
	w.running = true
	w.stop, w.done = make(chan struct{}), make(chan struct{})
	go w.run()
}

// close stops taking items, writes what is queued and returns when it is
// written or ctx ends.
func (w *writer) close(ctx context.Context) error {
	w.mu.Lock()
	if !w.running {
		w.mu.Unlock()
		return nil
	}
	w.running = false
	close(w.stop)
	w.mu.Unlock()
	select {
	case <-w.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("log entries not all written at shutdown: %w", ctx.Err())
	}
}

func (w *writer) run() {
	defer close(w.done)
	for {
		select {
		case it := <-w.queue:
			w.write(w.batch(it))
		case <-w.stop:
			// What was queued before the stop is written; add queues
			// nothing after it.
			for len(w.queue) > 0 {
				w.write(w.batch(<-w.queue))
			}
			return
		}
	}
}

// batch gathers first and whatever else is queued, up to batchSize.
func (w *writer) batch(first item) []item {
	batch := []item{first}
	for len(batch) < batchSize {
		select {
		case it := <-w.queue:
			batch = append(batch, it)
		default:
			return batch
		}
	}
	return batch
}

// write stores a batch and announces its entries. A batch the database
// refuses as a whole (an entry whose company or user was deleted meanwhile)
// is written entry by entry, so that one bad entry costs only itself.
func (w *writer) write(batch []item) {
	// The writer outlives no request: its writes end only with the database.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var entries []Entry
	seen := map[int64]*activity{}
	for _, it := range batch {
		if it.entry != nil {
			entries = append(entries, *it.entry)
		}
		if it.seen != nil {
			if prev, ok := seen[it.seen.UserID]; !ok || it.seen.LastSeenAt.After(prev.LastSeenAt) {
				seen[it.seen.UserID] = it.seen
			}
		}
	}
	if len(entries) > 0 {
		stored, err := w.insert(ctx, entries)
		if err != nil {
			stored = nil
			for _, e := range entries {
				one, err := w.insert(ctx, []Entry{e})
				if err != nil {
					w.dropped.Inc()
					w.log.Warn("log entry not written", "type", e.Type, "company_id", e.Company(), "err", err)
					continue
				}
				stored = append(stored, one...)
			}
		}
		w.written.Add(float64(len(stored)))
		for _, e := range stored {
			w.publish(e)
		}
	}
	for _, a := range seen {
		if err := upsertActivity(ctx, w.db, a); err != nil {
			w.log.Warn("user activity not written", "user_id", a.UserID, "err", err)
		}
	}
}

// insert writes entries in one statement and returns them with their ids.
func (w *writer) insert(ctx context.Context, entries []Entry) ([]Entry, error) {
	if _, err := w.db.NewInsert().Model(&entries).Returning("id").Exec(ctx); err != nil {
		return nil, fmt.Errorf("insert %d log entries: %w", len(entries), err)
	}
	return entries, nil
}
