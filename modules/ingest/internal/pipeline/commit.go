package pipeline

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Group commit. An uplink used to cost a few statements of its own (the
// tag, its keys, the node's state, each its own commit and so its own WAL
// flush) beside a transaction for its points. The committer instead gathers
// the uplinks (and device statuses) that arrive while a batch is under way
// and handles them together in the next (batch.go): one lookup of all their
// tags, one tsdb.Store.Write of all their points, one statement for the
// keys they bring and one for the nodes' states. A batch never runs a
// codec: it hands an uplink that a codec decodes back to its request, which
// decodes it within its company's decode budget and brings it to a later
// batch, so that one company's slow codec holds up that company's uplinks
// alone. Each request still waits until the batch that holds it is
// through, so a 2xx is still sent only for what is durable. Under light
// load a batch is one uplink and nothing waits longer than before; under
// heavy load a batch is what arrived during the one before.

// Committer tuning. Two committers let one batch be gathered and sent while
// the other's commits are flushed, so the database is never idle between
// batches.
const (
	committers   = 2
	maxBatchJobs = 1_000            // uplinks of one batch: about 5,000 points of 5 values each
	batchTimeout = 30 * time.Second // each step of a batch, whatever the requests' contexts
)

// committer runs the jobs of concurrent requests in shared batches.
type committer struct {
	// run handles a batch: it finishes every job, the last thing it does
	// with each.
	run func(batch []*job)
	log *slog.Logger
	// queue is unbuffered: a send succeeds only when a running committer
	// takes it, so nothing is left behind in a buffer when they stop.
	queue chan *job
	stop  chan struct{}
	// running is set by start: before it, jobs run alone in the caller.
	running atomic.Bool
	wg      sync.WaitGroup
	once    sync.Once
	// observe, when set, is told each batch's size and time.
	observe func(jobs int, took time.Duration)
	// batches and jobs count what the loops ran, for tests.
	mu            sync.Mutex
	batches, jobs int64
}

func newCommitter(run func(batch []*job), log *slog.Logger) *committer {
	return &committer{run: run, log: log, queue: make(chan *job), stop: make(chan struct{})}
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

// shut stops the loops after their current batch and waits for them. Jobs
// after it run alone in their caller.
func (c *committer) shut() {
	c.once.Do(func() { close(c.stop) })
	c.wg.Wait()
}

// do runs j in a batch with the jobs of other requests made at the same time
// and returns once that batch is through with j, with j's error. When ctx
// ends first, do returns its error; j may still be carried out, as a
// request cancelled during a commit's flush may be.
func (c *committer) do(ctx context.Context, j *job) error {
	j.done = make(chan struct{})
	if !c.running.Load() {
		c.runAlone(j)
		return j.err
	}
	select {
	case c.queue <- j:
	case <-c.stop:
		c.runAlone(j)
		return j.err
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-j.done:
		return j.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *committer) runAlone(j *job) { c.run([]*job{j}) }

func (c *committer) loop(ctx context.Context) {
	for {
		var first *job
		select {
		case first = <-c.queue:
		case <-c.stop:
			return
		case <-ctx.Done():
			c.once.Do(func() { close(c.stop) })
			return
		}
		batch := []*job{first}
	gather: // whatever is waiting now joins, up to the limit
		for len(batch) < maxBatchJobs {
			select {
			case j := <-c.queue:
				batch = append(batch, j)
			default:
				break gather
			}
		}
		t0 := time.Now()
		c.run(batch)
		if c.observe != nil {
			c.observe(len(batch), time.Since(t0))
		}
		c.count(len(batch))
	}
}

func (c *committer) count(jobs int) {
	c.mu.Lock()
	c.batches++
	c.jobs += int64(jobs)
	c.mu.Unlock()
}

// stats returns how many batches and jobs the loops have run.
func (c *committer) stats() (batches, jobs int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.batches, c.jobs
}
