package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/modules/ingest"
)

// runner stands in for runBatch: it records the batches it is given and
// finishes each job, the first batch only once gate is closed (when set).
// A job of company 0 fails.
type runner struct {
	mu      sync.Mutex
	gate    chan struct{}
	entered chan struct{} // receives once per batch that has begun
	batches [][]*job
	ran     map[*job]bool // jobs whose batch was through when they were finished
}

func newRunner() *runner { return &runner{entered: make(chan struct{}, 1000), ran: map[*job]bool{}} }

func (r *runner) run(batch []*job) {
	r.entered <- struct{}{}
	r.mu.Lock()
	first := len(r.batches) == 0
	r.batches = append(r.batches, batch)
	r.mu.Unlock()
	if first && r.gate != nil {
		<-r.gate
	}
	r.mu.Lock()
	for _, j := range batch {
		r.ran[j] = true
	}
	r.mu.Unlock()
	for _, j := range batch {
		var err error
		if j.company == 0 {
			err = errors.New("refused")
		}
		j.finish(err)
	}
}

func (r *runner) wasRun(j *job) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ran[j]
}

func uplinkJob(company int64, i int) *job {
	eui := fmt.Sprintf("70b3d57ed0%06x", i)
	return &job{company: company, msg: ingest.Message{Kind: ingest.KindUplink, DevEUI: eui, Uplink: &ingest.Uplink{DevEUI: eui}}}
}

func startCommitter(t *testing.T, r *runner, loops int) *committer {
	t.Helper()
	c := newCommitter(r.run, slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx, cancel := context.WithCancel(context.Background())
	c.start(ctx, loops)
	t.Cleanup(func() { cancel(); c.shut() })
	return c
}

// TestCommitterBatchesConcurrentUplinks: uplinks that arrive while a batch
// is under way are handled together in the next one, and none is answered
// before the batch that holds it is through.
func TestCommitterBatchesConcurrentUplinks(t *testing.T) {
	r := newRunner()
	r.gate = make(chan struct{})
	c := startCommitter(t, r, 1)

	first := make(chan error, 1)
	go func() { first <- c.do(context.Background(), uplinkJob(1, 0)) }()
	<-r.entered // the first uplink's batch has begun and waits at the gate

	const n = 20
	var wg sync.WaitGroup
	errc := make(chan error, n)
	for i := 1; i <= n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j := uplinkJob(1, i)
			if err := c.do(context.Background(), j); err != nil {
				errc <- err
				return
			}
			if !r.wasRun(j) {
				errc <- fmt.Errorf("uplink %d answered before its batch was through", i)
			}
		}()
	}
	time.Sleep(200 * time.Millisecond) // let the 20 queue up behind the first
	select {
	case err := <-first:
		t.Fatalf("the first uplink was answered before its batch was through: %v", err)
	default:
	}
	close(r.gate)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	batches, jobs := c.stats()
	if jobs != n+1 || batches != 2 {
		t.Errorf("%d uplinks in %d batches, want %d in 2 (the first alone, then the rest together)", jobs, batches, n+1)
	}
}

// TestCommitterAnswersEachJobItsOwnOutcome: a job that fails in a batch
// fails alone.
func TestCommitterAnswersEachJobItsOwnOutcome(t *testing.T) {
	r := newRunner()
	r.gate = make(chan struct{})
	c := startCommitter(t, r, 1)
	go func() { _ = c.do(context.Background(), uplinkJob(1, 0)) }()
	<-r.entered

	results := make(map[int]error)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 1; i <= 5; i++ {
		company := int64(1)
		if i == 3 {
			company = 0
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := c.do(context.Background(), uplinkJob(company, i))
			mu.Lock()
			results[i] = err
			mu.Unlock()
		}()
	}
	time.Sleep(200 * time.Millisecond)
	close(r.gate)
	wg.Wait()
	for i := 1; i <= 5; i++ {
		if (results[i] != nil) != (i == 3) {
			t.Errorf("uplink %d: %v", i, results[i])
		}
	}
}

// TestCommitterStopsWaitingWithTheRequest: a request that ends while its
// batch is under way returns at once with its context's error.
func TestCommitterStopsWaitingWithTheRequest(t *testing.T) {
	r := newRunner()
	r.gate = make(chan struct{})
	defer close(r.gate)
	c := startCommitter(t, r, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := c.do(ctx, uplinkJob(1, 1)); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want the context's deadline", err)
	}
}

// TestCommitterRunsAloneWhenNotRunning: before start and after shut, a job
// is run alone in its caller.
func TestCommitterRunsAloneWhenNotRunning(t *testing.T) {
	r := newRunner()
	c := newCommitter(r.run, slog.New(slog.NewTextHandler(io.Discard, nil)))
	before := uplinkJob(1, 1)
	if err := c.do(context.Background(), before); err != nil || !r.wasRun(before) {
		t.Fatalf("before start: %v", err)
	}
	c.start(context.Background(), 2)
	if err := c.do(context.Background(), uplinkJob(1, 2)); err != nil {
		t.Fatalf("running: %v", err)
	}
	c.shut()
	after := uplinkJob(1, 3)
	if err := c.do(context.Background(), after); err != nil || !r.wasRun(after) {
		t.Fatalf("after shut: %v", err)
	}
	if batches, _ := c.stats(); batches != 1 {
		t.Errorf("%d batches through the committers, want 1", batches)
	}
	if err := c.do(context.Background(), uplinkJob(0, 4)); err == nil {
		t.Error("a failing job alone: no error")
	}
}
