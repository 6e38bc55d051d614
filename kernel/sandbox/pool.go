package sandbox

import (
	"context"
	"sync"
	"time"
)

// closer is a warm instance.
type closer interface{ close() }

// pool keeps the warm instances of one codec: at most cap(slots) exist at
// once, and a call waits for one when all are busy. Idle instances are kept
// last-in first-out, so a lightly used codec keeps reusing the same one (warm
// in the CPU caches) and the others age out.
type pool[T closer] struct {
	slots  chan struct{}
	create func(context.Context) (T, error)

	mu     sync.Mutex
	idle   []idleInstance[T]
	closed bool
}

type idleInstance[T closer] struct {
	v     T
	since time.Time
}

func newPool[T closer](size int, create func(context.Context) (T, error)) *pool[T] {
	return &pool[T]{slots: make(chan struct{}, size), create: create}
}

// get returns an idle instance or creates one, waiting while all are busy.
func (p *pool[T]) get(ctx context.Context) (T, error) { return p.getRanked(ctx, nil) }

// getRanked is get taking, among the idle instances, the one rank scores
// highest (the most recently used of those), or the most recently used
// with rank nil.
func (p *pool[T]) getRanked(ctx context.Context, rank func(T) int) (T, error) {
	var zero T
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return zero, ctx.Err()
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		<-p.slots
		return zero, ErrClosed
	}
	if n := len(p.idle); n > 0 {
		best := n - 1
		if rank != nil {
			top := rank(p.idle[best].v)
			for i := n - 2; i >= 0; i-- {
				if r := rank(p.idle[i].v); r > top {
					best, top = i, r
				}
			}
		}
		v := p.idle[best].v
		copy(p.idle[best:], p.idle[best+1:])
		p.idle[n-1] = idleInstance[T]{}
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return v, nil
	}
	p.mu.Unlock()
	v, err := p.create(ctx)
	if err != nil {
		<-p.slots
		return zero, err
	}
	return v, nil
}

// put returns a clean instance to the pool.
func (p *pool[T]) put(v T) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		v.close()
	} else {
		p.idle = append(p.idle, idleInstance[T]{v: v, since: time.Now()})
		p.mu.Unlock()
	}
	<-p.slots
}

// add gives the pool an instance that was made outside get (the one a codec
// was loaded in), unless the pool is already full or closed.
func (p *pool[T]) add(v T) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || len(p.idle) >= cap(p.slots) {
		v.close()
		return
	}
	p.idle = append(p.idle, idleInstance[T]{v: v, since: time.Now()})
}

// discard closes an instance that is not fit for another call.
func (p *pool[T]) discard(v T) {
	v.close()
	<-p.slots
}

// trim closes the instances idle since before cutoff and reports how many
// instances stay idle.
func (p *pool[T]) trim(cutoff time.Time) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	kept := p.idle[:0]
	for _, it := range p.idle {
		if it.since.Before(cutoff) {
			it.v.close()
		} else {
			kept = append(kept, it)
		}
	}
	clear(p.idle[len(kept):])
	p.idle = kept
	return len(kept)
}

// busy reports whether any instance is out on a call.
func (p *pool[T]) busy() bool { return len(p.slots) > 0 }

// count reports the instances out on calls and those idle, and calls fn for
// each idle one.
func (p *pool[T]) count(fn func(T)) (busy, idle int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, it := range p.idle {
		fn(it.v)
	}
	return len(p.slots), len(p.idle)
}

// close closes the idle instances; the busy ones are closed when they come
// back.
func (p *pool[T]) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for _, it := range p.idle {
		it.v.close()
	}
	p.idle = nil
}
