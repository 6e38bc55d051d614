package decoding

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"time"
)

// budget is every company's decode budget on this instance: a lane per
// company that lets at most concurrency of its decodes run at once, and a
// bucket of codec time that fills at rate a second, up to one second's
// worth, and that each decode empties by the time its codec ran. A decode
// starts when a slot of its company's lane is free and the bucket is not
// empty; it may take the bucket below zero (a codec's time is known only
// after it ran), and the company's next decode then waits until the
// bucket has filled up to zero again. Only the company's own decodes wait:
// one company's slow or hostile codec spends its own budget alone
// (docs/decisions.md, "Decode budgets and switch-off").
type budget struct {
	concurrency int
	rate        time.Duration // codec time a company may use per second
	now         func() time.Time
	// after is time.After; tests replace it with a clock they move.
	after func(time.Duration) <-chan time.Time

	mu    sync.Mutex
	lanes map[int64]*lane
}

// lane is one company's part of the budget.
type lane struct {
	slots  chan struct{}
	tokens time.Duration // codec time left; below zero after an overrun
	at     time.Time     // when tokens was last filled
	users  int           // decodes that hold the lane: it is not dropped meanwhile
}

// newBudget returns a budget of concurrency decodes at once and rate of
// codec time a second per company; zero values take half the cores (at
// least one) and an eighth of the cores' time.
func newBudget(concurrency int, rate time.Duration) *budget {
	cores := runtime.GOMAXPROCS(0)
	if concurrency <= 0 {
		concurrency = max(1, cores/2)
	}
	if rate <= 0 {
		rate = time.Duration(cores) * time.Second / 8
	}
	return &budget{concurrency: concurrency, rate: rate, now: time.Now, after: time.After, lanes: map[int64]*lane{}}
}

// errBudgetWait is acquireWithin's error when the company's budget did not
// let the decode start within the time allowed.
var errBudgetWait = errors.New("the company's decode budget did not let the decode start in time")

// acquire waits until a decode of company may start, or ctx ends (its
// error). The decode then calls release with the time its codec ran.
func (b *budget) acquire(ctx context.Context, company int64) (release func(used time.Duration), err error) {
	return b.acquireWithin(ctx, company, 0)
}

// acquireWithin is acquire that waits at most maxWait (0: as long as ctx
// lasts); past it, errBudgetWait.
func (b *budget) acquireWithin(ctx context.Context, company int64, maxWait time.Duration) (release func(used time.Duration), err error) {
	var late <-chan time.Time // nil: never
	var deadline time.Time
	if maxWait > 0 {
		late, deadline = b.after(maxWait), b.now().Add(maxWait)
	}
	l := b.hold(company)
	select {
	case l.slots <- struct{}{}:
	case <-ctx.Done():
		b.let(l)
		return nil, ctx.Err()
	case <-late:
		b.let(l)
		return nil, errBudgetWait
	}
	for {
		b.mu.Lock()
		b.fill(l)
		wait := time.Duration(0)
		if l.tokens <= 0 {
			// The time until the bucket holds a millisecond again.
			wait = time.Duration(float64(time.Millisecond-l.tokens) * float64(time.Second) / float64(b.rate))
		}
		now := b.now()
		b.mu.Unlock()
		if wait == 0 {
			break
		}
		if !deadline.IsZero() && now.Add(wait).After(deadline) {
			// The bucket will not have filled in time: say so now, and
			// free the slot for the company's other decodes.
			<-l.slots
			b.let(l)
			return nil, errBudgetWait
		}
		select {
		case <-b.after(wait):
		case <-ctx.Done():
			<-l.slots
			b.let(l)
			return nil, ctx.Err()
		case <-late:
			<-l.slots
			b.let(l)
			return nil, errBudgetWait
		}
	}
	var once sync.Once
	return func(used time.Duration) {
		once.Do(func() {
			b.mu.Lock()
			b.fill(l)
			l.tokens -= max(used, 0)
			b.mu.Unlock()
			<-l.slots
			b.let(l)
		})
	}, nil
}

// hold returns company's lane, made full when it has none, and counts a
// user of it.
func (b *budget) hold(company int64) *lane {
	b.mu.Lock()
	defer b.mu.Unlock()
	l := b.lanes[company]
	if l == nil {
		l = &lane{slots: make(chan struct{}, b.concurrency), tokens: b.rate, at: b.now()}
		b.lanes[company] = l
	}
	l.users++
	return l
}

// let ends a use of l.
func (b *budget) let(l *lane) {
	b.mu.Lock()
	l.users--
	b.mu.Unlock()
}

// fill adds the codec time earned since l was last filled, up to one
// second's worth. Call it with b.mu held.
func (b *budget) fill(l *lane) {
	now := b.now()
	elapsed := now.Sub(l.at)
	l.at = now
	if elapsed <= 0 {
		return
	}
	if elapsed >= time.Second {
		l.tokens = b.rate
		return
	}
	l.tokens = min(b.rate, l.tokens+time.Duration(float64(elapsed)*float64(b.rate)/float64(time.Second)))
}

// prune drops the lanes nobody holds whose bucket is full again: a company
// that decodes again gets a fresh, full lane, which is the same.
func (b *budget) prune() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for company, l := range b.lanes {
		if l.users > 0 {
			continue
		}
		b.fill(l)
		if l.tokens >= b.rate {
			delete(b.lanes, company)
		}
	}
}

// size is how many lanes are kept, for tests.
func (b *budget) size() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.lanes)
}
