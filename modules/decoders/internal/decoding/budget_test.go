package decoding

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// clock is the budget's clock in these tests: it moves only when told,
// and a wait of the budget is a channel the test fires.
type clock struct {
	mu    sync.Mutex
	now   time.Time
	waits chan wait
}

type wait struct {
	d    time.Duration
	fire chan time.Time
}

func newClock() *clock {
	return &clock{now: time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC), waits: make(chan wait, 100)}
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func (c *clock) after(d time.Duration) <-chan time.Time {
	w := wait{d: d, fire: make(chan time.Time, 1)}
	c.waits <- w
	return w.fire
}

func testBudget(concurrency int, rate time.Duration) (*budget, *clock) {
	c := newClock()
	b := newBudget(concurrency, rate)
	b.now, b.after = c.Now, c.after
	return b, c
}

// acquired runs acquire in the background and reports its outcome.
func acquired(b *budget, ctx context.Context, company int64) chan func(time.Duration) {
	out := make(chan func(time.Duration), 1)
	go func() {
		release, err := b.acquire(ctx, company)
		if err != nil {
			release = nil
		}
		out <- release
	}()
	return out
}

// TestBudgetTimeIsPerCompany: a company that spent its codec time waits
// for it to fill again, and another company's decodes start at once
// meanwhile.
func TestBudgetTimeIsPerCompany(t *testing.T) {
	t.Parallel()
	b, c := testBudget(1, 100*time.Millisecond)
	ctx := context.Background()
	const looping, other = 1, 2

	// A codec at a 300 ms limit spends three seconds' worth of looping's
	// budget at once.
	release, err := b.acquire(ctx, looping)
	if err != nil {
		t.Fatal(err)
	}
	release(300 * time.Millisecond)

	next := acquired(b, ctx, looping)
	w := <-c.waits // looping's next decode waits on its budget
	if w.d < 2*time.Second || w.d > 2100*time.Millisecond {
		t.Errorf("looping waits %v, want the 2 s its bucket needs to fill above zero", w.d)
	}
	// Meanwhile other's decodes start at once, again and again.
	for i := range 5 {
		r, err := b.acquire(ctx, other)
		if err != nil {
			t.Fatal(err)
		}
		r(10 * time.Millisecond)
		c.advance(100 * time.Millisecond)
		select {
		case <-next:
			t.Fatalf("looping's decode started after %d of other's, its budget spent", i+1)
		default:
		}
	}
	select {
	case w := <-c.waits:
		t.Fatalf("other's decodes waited %v", w.d)
	default:
	}
	// Once enough time has passed, looping's decode starts.
	c.advance(1600 * time.Millisecond)
	w.fire <- c.Now()
	if r := <-next; r == nil {
		t.Fatal("looping's decode did not start once its budget filled")
	} else {
		r(time.Millisecond)
	}
}

// TestBudgetConcurrencyIsPerCompany: a company's decodes beyond its
// concurrency wait for one of its own to end; another company's do not.
func TestBudgetConcurrencyIsPerCompany(t *testing.T) {
	t.Parallel()
	b, c := testBudget(2, time.Second)
	ctx := context.Background()
	var running []func(time.Duration)
	for range 2 {
		r, err := b.acquire(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		running = append(running, r)
	}
	third := acquired(b, ctx, 1)
	for range 3 {
		r, err := b.acquire(ctx, 2)
		if err != nil {
			t.Fatal(err)
		}
		r(time.Millisecond)
	}
	select {
	case <-third:
		t.Fatal("a third decode of company 1 started while two ran")
	default:
	}
	running[0](time.Millisecond)
	if r := <-third; r == nil {
		t.Fatal("the third decode did not start once one ended")
	} else {
		r(time.Millisecond)
	}
	running[1](time.Millisecond)
	running[1](time.Millisecond) // a second release changes nothing
	c.advance(time.Second)
	b.prune()
	if n := b.size(); n != 0 {
		t.Errorf("%d lanes kept after every decode ended with full budgets", n)
	}
}

// TestBudgetWaitEndsWithTheContext: a decode waiting on its company's
// budget gives up with its request, and holds nothing afterwards.
func TestBudgetWaitEndsWithTheContext(t *testing.T) {
	t.Parallel()
	b, c := testBudget(1, 100*time.Millisecond)
	r, err := b.acquire(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	r(time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan error, 1)
	go func() {
		_, err := b.acquire(ctx, 1)
		out <- err
	}()
	<-c.waits
	cancel()
	if err := <-out; !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want the context's error", err)
	}
	// The slot is free again: with the budget filled, a decode starts.
	c.advance(time.Second)
	r, err = b.acquire(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	r(0)
}

// TestBudgetDefaults: zero values take a share of the machine.
func TestBudgetDefaults(t *testing.T) {
	t.Parallel()
	b := newBudget(0, 0)
	if b.concurrency < 1 || b.rate <= 0 {
		t.Errorf("concurrency %d, rate %v", b.concurrency, b.rate)
	}
}

// TestBudgetWaitWithin: a decode allowed to wait a while (an MQTT event's)
// gives up at once when its company's bucket will not have filled in time,
// and once the time is up when the company's slots stay taken; either way
// it holds nothing afterwards, and a decode that may wait long enough
// still starts.
func TestBudgetWaitWithin(t *testing.T) {
	t.Parallel()
	b, c := testBudget(1, 100*time.Millisecond)
	ctx := context.Background()

	// 500 ms spent at a rate of 100 ms a second: the bucket is above zero
	// again in about four seconds.
	r, err := b.acquireWithin(ctx, 1, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	<-c.waits // the unused deadline of the first call
	r(500 * time.Millisecond)
	if _, err := b.acquireWithin(ctx, 1, time.Second); !errors.Is(err, errBudgetWait) {
		t.Fatalf("with the bucket four seconds from filling, a one-second wait: %v", err)
	}
	<-c.waits
	// Its slot is free again: a decode that may wait five seconds waits
	// for the bucket and starts.
	next := make(chan error, 1)
	go func() {
		r, err := b.acquireWithin(ctx, 1, 5*time.Second)
		if err == nil {
			r(time.Millisecond)
		}
		next <- err
	}()
	deadline, fill := <-c.waits, <-c.waits
	if deadline.d != 5*time.Second || fill.d > 5*time.Second {
		t.Fatalf("waits %v and %v", deadline.d, fill.d)
	}
	c.advance(fill.d)
	fill.fire <- c.Now()
	if err := <-next; err != nil {
		t.Fatalf("a decode that may wait long enough: %v", err)
	}

	// The slot taken by a decode that runs on: the next gives up once its
	// time is up.
	c.advance(time.Second)
	running, err := b.acquire(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan error, 1)
	go func() {
		_, err := b.acquireWithin(ctx, 1, time.Second)
		out <- err
	}()
	w := <-c.waits
	w.fire <- c.Now()
	if err := <-out; !errors.Is(err, errBudgetWait) {
		t.Fatalf("with the slot taken past the wait: %v", err)
	}
	running(time.Millisecond)
	c.advance(time.Second)
	b.prune()
	if n := b.size(); n != 0 {
		t.Errorf("%d lanes kept after every decode gave up or ended", n)
	}
}
