// Package events is the kernel's bus for facts that modules announce to each
// other ("a user was deleted", "an uplink arrived"). A publisher does not wait
// for, or learn about, what subscribers do; a side effect that must not be
// lost goes through an outbox table instead.
package events

import (
	"context"
	"log/slog"
	"sync"
)

// Event is a typed fact. Topic names its type, for example "accounts.user_deleted".
type Event interface {
	Topic() string
}

// Handler reacts to one event.
type Handler func(ctx context.Context, e Event)

// Bus delivers events to the subscribers of their topic.
//
// Subscribe is called while modules are wired, before Start; Publish may be
// called from any goroutine after that.
type Bus interface {
	Publish(ctx context.Context, e Event)
	Subscribe(topic string, h Handler)
}

// Local is the in-process Bus: each subscriber has its own queue and
// goroutine, so a slow subscriber delays only itself, and a full queue makes
// the publisher wait rather than drop the event.
type Local struct {
	log  *slog.Logger
	mu   sync.RWMutex
	subs map[string][]*subscriber
	wg   sync.WaitGroup
}

type subscriber struct {
	h     Handler
	queue chan Event
}

// NewLocal returns an in-process bus.
func NewLocal(log *slog.Logger) *Local {
	return &Local{log: log, subs: map[string][]*subscriber{}}
}

// Subscribe registers h for topic.
func (b *Local) Subscribe(topic string, h Handler) {
	s := &subscriber{h: h, queue: make(chan Event, 1024)}
	b.mu.Lock()
	b.subs[topic] = append(b.subs[topic], s)
	b.mu.Unlock()
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		for e := range s.queue {
			b.deliver(s, e)
		}
	}()
}

func (b *Local) deliver(s *subscriber, e Event) {
	defer func() {
		if r := recover(); r != nil {
			b.log.Error("event handler panicked", "topic", e.Topic(), "panic", r)
		}
	}()
	s.h(context.Background(), e)
}

// Publish queues e for every subscriber of its topic.
func (b *Local) Publish(ctx context.Context, e Event) {
	b.mu.RLock()
	subs := b.subs[e.Topic()]
	b.mu.RUnlock()
	for _, s := range subs {
		select {
		case s.queue <- e:
		case <-ctx.Done():
			b.log.Warn("event not delivered: publisher gave up", "topic", e.Topic())
			return
		}
	}
}

// Close stops accepting events and waits until every queued one is handled.
func (b *Local) Close() {
	b.mu.Lock()
	for _, subs := range b.subs {
		for _, s := range subs {
			close(s.queue)
		}
	}
	b.subs = map[string][]*subscriber{}
	b.mu.Unlock()
	b.wg.Wait()
}
