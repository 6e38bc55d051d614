package core

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// Group commit. Each uplink's points used to be one transaction of their
// own, so every uplink waited for a commit (and a WAL flush) of its own, and
// every commit paid the store's fixed round trips (lock the series, read the
// hours, insert, summarise, upsert the hours). The committer instead gathers
// the points of the uplinks that arrive while a write is under way and
// writes them together in one tsdb.Store.Write, one transaction; each
// request still waits until the write that holds its points has returned,
// so a 2xx is still sent only for points that are durable. Under light load
// a batch is one uplink and nothing waits longer than before; under heavy
// load the batches grow to what arrived during one commit.

// Committer tuning. Two committers let one batch be built and sent while
// the other's commit is flushed, so the database is never idle between
// batches; one or four did no better in bench/ingest.
const (
	committers     = 2
	maxBatchPoints = 5_000            // points of one batch: about 1,000 uplinks of 5 values
	batchTimeout   = 30 * time.Second // one batch's write, whatever the requests' contexts
)

// pending is one uplink's points waiting for their batch.
type pending struct {
	points []tsdb.Point
	done   chan error // buffered: the committer never waits for the request
}

// committer writes the points of concurrent uplinks in shared batches.
type committer struct {
	write func(ctx context.Context, points []tsdb.Point) error
	log   *slog.Logger
	// queue is unbuffered: a send succeeds only when a running committer
	// takes it, so nothing is left behind in a buffer when they stop.
	queue chan *pending
	stop  chan struct{}
	// running is set by start: before it, writes go straight to the store.
	running atomic.Bool
	wg      sync.WaitGroup
	once    sync.Once
	// observe, when set, is told each batch's size and write time.
	observe func(uplinks int, took time.Duration)
	// batches and uplinks count what was written, for tests.
	mu               sync.Mutex
	batches, uplinks int64
}

func newCommitter(write func(ctx context.Context, points []tsdb.Point) error, log *slog.Logger) *committer {
	return &committer{write: write, log: log, queue: make(chan *pending), stop: make(chan struct{})}
}

// start runs n committer loops until ctx is done or shut is called.
func (c *committer) start(ctx context.Context, n int) {
	c.running.Store(true)
	for range n {
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			c.loop(ctx)
		}()
	}
}

// shut stops the loops after their current batch and waits for them. Writes
// after it go straight to the store.
func (c *committer) shut() {
	c.once.Do(func() { close(c.stop) })
	c.wg.Wait()
}

// Write stores points together with those of other uplinks written at the
// same time and returns once the batch that holds them is durable, or with
// the error that batch (or, after a failed batch, these points alone) met.
// The points are validated first, so that a bad uplink fails alone. When
// ctx ends first, Write returns its error; the points may still be stored,
// as a request cancelled during a commit's flush may be.
func (c *committer) Write(ctx context.Context, points []tsdb.Point) error {
	if len(points) == 0 {
		return nil
	}
	if err := tsdb.ValidatePoints(points); err != nil {
		return err
	}
	if !c.running.Load() {
		return c.write(ctx, points)
	}
	p := &pending{points: points, done: make(chan error, 1)}
	select {
	case c.queue <- p:
	case <-c.stop:
		return c.write(ctx, points)
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-p.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *committer) loop(ctx context.Context) {
	for {
		var first *pending
		select {
		case first = <-c.queue:
		case <-c.stop:
			return
		case <-ctx.Done():
			c.once.Do(func() { close(c.stop) })
			return
		}
		batch := []*pending{first}
		n := len(first.points)
	gather: // whatever is waiting now joins, up to the limit
		for n < maxBatchPoints {
			select {
			case p := <-c.queue:
				batch = append(batch, p)
				n += len(p.points)
			default:
				break gather
			}
		}
		c.commit(batch, n)
	}
}

// commit writes a batch and tells each of its uplinks the outcome. A batch
// of several that fails is retried uplink by uplink, so that one uplink's
// problem (a value the database refuses) is not every uplink's.
func (c *committer) commit(batch []*pending, n int) {
	points := batch[0].points
	if len(batch) > 1 {
		points = make([]tsdb.Point, 0, n)
		for _, p := range batch {
			points = append(points, p.points...)
		}
	}
	t0 := time.Now()
	err := c.writeAlone(points)
	if c.observe != nil {
		c.observe(len(batch), time.Since(t0))
	}
	c.mu.Lock()
	c.batches++
	c.uplinks += int64(len(batch))
	c.mu.Unlock()
	if err == nil || len(batch) == 1 {
		for _, p := range batch {
			p.done <- err
		}
		return
	}
	c.log.Warn("batch of uplinks failed, writing them one by one", "uplinks", len(batch), "points", n, "err", err)
	for _, p := range batch {
		p.done <- c.writeAlone(p.points)
	}
}

// writeAlone runs one write with its own deadline: a batch belongs to no
// single request, so no request's cancellation may cut it short.
func (c *committer) writeAlone(points []tsdb.Point) error {
	ctx, cancel := context.WithTimeout(context.Background(), batchTimeout)
	defer cancel()
	return c.write(ctx, slices.Clip(points))
}

// stats returns how many batches and uplinks have been written.
func (c *committer) stats() (batches, uplinks int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.batches, c.uplinks
}
