package core

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// fakeStore records the batches written to it. A write first waits for
// gate (when set), then fails when a point's key is "refused", else makes
// the points durable, in that order.
type fakeStore struct {
	mu      sync.Mutex
	gate    chan struct{}
	entered chan struct{} // receives once per write that has begun
	batches [][]tsdb.Point
	durable map[tsdb.Point]bool
}

func newFakeStore() *fakeStore {
	return &fakeStore{entered: make(chan struct{}, 1000), durable: map[tsdb.Point]bool{}}
}

func (f *fakeStore) Write(ctx context.Context, points []tsdb.Point) error {
	f.entered <- struct{}{}
	if f.gate != nil {
		<-f.gate
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.batches = append(f.batches, points)
	for _, p := range points {
		if p.Key == "refused" {
			return errors.New("the database refuses the value")
		}
	}
	for _, p := range points {
		f.durable[p] = true
	}
	return nil
}

func (f *fakeStore) isDurable(points []tsdb.Point) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range points {
		if !f.durable[p] {
			return false
		}
	}
	return true
}

// uplinkPoints is one uplink of node i: two values at one time.
func uplinkPoints(i int, key string) []tsdb.Point {
	t := time.Date(2026, 11, 1, 12, 0, i, 0, time.UTC)
	s := tsdb.Series{Company: 1, DevEUI: fmt.Sprintf("70b3d57ed0%06x", i), Key: key}
	return []tsdb.Point{tsdb.Number(s, t, float64(i)), tsdb.Number(tsdb.Series{Company: 1, DevEUI: s.DevEUI, Key: "battery"}, t, 3.6)}
}

func startCommitter(t *testing.T, f *fakeStore, loops int) *committer {
	t.Helper()
	c := newCommitter(f.Write, slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx, cancel := context.WithCancel(context.Background())
	c.start(ctx, loops)
	t.Cleanup(func() { cancel(); c.shut() })
	return c
}

// TestCommitterBatchesConcurrentUplinks: uplinks that arrive while a write
// is under way are written together in the next one, and none is answered
// before the write that holds its points has returned.
func TestCommitterBatchesConcurrentUplinks(t *testing.T) {
	f := newFakeStore()
	f.gate = make(chan struct{})
	c := startCommitter(t, f, 1)

	first := make(chan error, 1)
	go func() { first <- c.Write(context.Background(), uplinkPoints(0, "temperature")) }()
	<-f.entered // the first uplink's write has begun and waits at the gate

	const n = 20
	var wg sync.WaitGroup
	errc := make(chan error, n)
	for i := 1; i <= n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			points := uplinkPoints(i, "temperature")
			if err := c.Write(context.Background(), points); err != nil {
				errc <- err
				return
			}
			if !f.isDurable(points) {
				errc <- fmt.Errorf("uplink %d answered before its points were durable", i)
			}
		}()
	}
	time.Sleep(200 * time.Millisecond) // let the 20 queue up behind the first
	select {
	case err := <-first:
		t.Fatalf("the first uplink was answered before its write returned: %v", err)
	default:
	}
	close(f.gate)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	batches, uplinks := c.stats()
	if uplinks != n+1 || batches != 2 {
		t.Errorf("%d uplinks in %d batches, want %d in 2 (the first alone, then the rest together)", uplinks, batches, n+1)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.batches) != 2 || len(f.batches[1]) != 2*n {
		t.Errorf("store saw batches of %v points", lens(f.batches))
	}
}

func lens(b [][]tsdb.Point) []int {
	out := make([]int, len(b))
	for i := range b {
		out[i] = len(b[i])
	}
	return out
}

// TestCommitterIsolatesAFailingUplink: when a batch fails, its uplinks are
// written one by one, so only the one the store refuses gets the error.
func TestCommitterIsolatesAFailingUplink(t *testing.T) {
	f := newFakeStore()
	f.gate = make(chan struct{})
	c := startCommitter(t, f, 1)
	go func() { _ = c.Write(context.Background(), uplinkPoints(0, "temperature")) }()
	<-f.entered

	results := make(map[int]error)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 1; i <= 5; i++ {
		key := "temperature"
		if i == 3 {
			key = "refused"
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := c.Write(context.Background(), uplinkPoints(i, key))
			mu.Lock()
			results[i] = err
			mu.Unlock()
		}()
	}
	time.Sleep(200 * time.Millisecond)
	close(f.gate)
	wg.Wait()
	for i := 1; i <= 5; i++ {
		if (results[i] != nil) != (i == 3) {
			t.Errorf("uplink %d: %v", i, results[i])
		}
	}
	if !f.isDurable(uplinkPoints(4, "temperature")) {
		t.Error("a good uplink of the failed batch was not stored")
	}
}

// TestCommitterRefusesInvalidPointsAlone: an uplink with an invalid point
// gets the validation error without reaching the store.
func TestCommitterRefusesInvalidPointsAlone(t *testing.T) {
	f := newFakeStore()
	c := startCommitter(t, f, 2)
	bad := uplinkPoints(1, "temperature")
	bad[0].DevEUI = "not-a-deveui"
	if err := c.Write(context.Background(), bad); errs.KindOf(err) != errs.Invalid {
		t.Errorf("got %v, want an errs.Invalid error", err)
	}
	if len(f.entered) != 0 {
		t.Error("an invalid uplink reached the store")
	}
}

// TestCommitterStopsWaitingWithTheRequest: a request that ends while its
// batch is being written returns at once with its context's error.
func TestCommitterStopsWaitingWithTheRequest(t *testing.T) {
	f := newFakeStore()
	f.gate = make(chan struct{})
	defer close(f.gate)
	c := startCommitter(t, f, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := c.Write(ctx, uplinkPoints(1, "temperature")); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want the context's deadline", err)
	}
}

// TestCommitterWritesDirectlyWhenNotRunning: before start and after shut,
// a write goes straight to the store.
func TestCommitterWritesDirectlyWhenNotRunning(t *testing.T) {
	f := newFakeStore()
	c := newCommitter(f.Write, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := c.Write(context.Background(), uplinkPoints(1, "temperature")); err != nil || !f.isDurable(uplinkPoints(1, "temperature")) {
		t.Fatalf("before start: %v", err)
	}
	c.start(context.Background(), 2)
	if err := c.Write(context.Background(), uplinkPoints(2, "temperature")); err != nil {
		t.Fatalf("running: %v", err)
	}
	c.shut()
	if err := c.Write(context.Background(), uplinkPoints(3, "temperature")); err != nil || !f.isDurable(uplinkPoints(3, "temperature")) {
		t.Fatalf("after shut: %v", err)
	}
	if batches, _ := c.stats(); batches != 1 {
		t.Errorf("%d batches through the committers, want 1", batches)
	}
}
