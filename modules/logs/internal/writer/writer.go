// Package writer writes what the logs module records: one goroutine takes
// it from a bounded queue and writes it in batches, each batch in one
// statement, so that a burst of device events costs a few round trips and
// nobody who records waits for the database.
package writer

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/modules/logs"
	"github.com/fieldhub/fieldhub/modules/logs/internal/store"
)

const (
	// queueSize bounds what waits to be written; beyond it, entries are
	// dropped (and counted) rather than hold up their senders.
	queueSize = 8192
	// batchSize is the most entries one statement inserts.
	batchSize = 500
)

// Item is one thing to write: an entry, or a user seen (or both, for a
// sign-in).
type Item struct {
	Entry *logs.Entry
	Seen  *store.Activity
}

// Writer is the queue and the goroutine that empties it.
type Writer struct {
	db      *bun.DB
	log     *slog.Logger
	queue   chan Item
	dropped prometheus.Counter
	written prometheus.Counter
	// publish announces an entry once it is stored.
	publish func(logs.Entry)

	mu      sync.Mutex
	running bool
	stop    chan struct{}
	done    chan struct{}
}

// New returns a writer, not yet running, that writes to bdb, counts what it
// drops and writes, and announces each entry it stored through publish.
func New(bdb *bun.DB, log *slog.Logger, dropped, written prometheus.Counter, publish func(logs.Entry)) *Writer {
	return &Writer{db: bdb, log: log, queue: make(chan Item, queueSize), dropped: dropped, written: written, publish: publish}
}

// Add queues it without waiting; it is dropped when the writer is not
// running or the queue is full.
func (w *Writer) Add(it Item) {
	// The lock orders Add before Close: what is queued before the stop is
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

// Start runs the writer until Close.
func (w *Writer) Start() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.running {
		return
	}
	w.running = true
	w.stop, w.done = make(chan struct{}), make(chan struct{})
	go w.run()
}

// Close stops taking items, writes what is queued and returns when it is
// written or ctx ends.
func (w *Writer) Close(ctx context.Context) error {
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

func (w *Writer) run() {
	defer close(w.done)
	for {
		select {
		case it := <-w.queue:
			w.write(w.batch(it))
		case <-w.stop:
			// What was queued before the stop is written; Add queues
			// nothing after it.
			for len(w.queue) > 0 {
				w.write(w.batch(<-w.queue))
			}
			return
		}
	}
}

// batch gathers first and whatever else is queued, up to batchSize.
func (w *Writer) batch(first Item) []Item {
	batch := []Item{first}
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
func (w *Writer) write(batch []Item) {
	// The writer outlives no request: its writes end only with the database.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var entries []logs.Entry
	seen := map[int64]*store.Activity{}
	for _, it := range batch {
		if it.Entry != nil {
			entries = append(entries, *it.Entry)
		}
		if it.Seen != nil {
			if prev, ok := seen[it.Seen.UserID]; !ok || it.Seen.LastSeenAt.After(prev.LastSeenAt) {
				seen[it.Seen.UserID] = it.Seen
			}
		}
	}
	// The users' activity first: whoever hears of a LOGIN entry (the live
	// feed, a test waiting for it) finds the sign-in counted already.
	for _, a := range seen {
		if err := store.UpsertActivity(ctx, w.db, a); err != nil {
			w.log.Warn("user activity not written", "user_id", a.UserID, "err", err)
		}
	}
	if len(entries) > 0 {
		stored, err := store.InsertEntries(ctx, w.db, entries)
		if err != nil {
			stored = nil
			for _, e := range entries {
				one, err := store.InsertEntries(ctx, w.db, []logs.Entry{e})
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
}
