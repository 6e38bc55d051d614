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

// BatchHandler reacts to the events of a topic that were waiting, in the
// order they were published (at least one).
type BatchHandler func(ctx context.Context, batch []Event)

// Bus delivers events to the subscribers of their topic.
//
// Subscribe is called while modules are wired, before Start; Publish may be
// called from any goroutine after that.
type Bus interface {
	Publish(ctx context.Context, e Event)
	Subscribe(topic string, h Handler)
	// SubscribeBatch registers h for topic with the events that queued
	// while it handled the previous ones, at most size at a time: a
	// subscriber whose work has a cost per call rather than per event
	// (a query, a transaction) keeps up with the publishers that way.
	SubscribeBatch(topic string, size int, h BatchHandler)
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
	h     BatchHandler
	max   int
	queue chan Event
}

// NewLocal returns an in-process bus.
func NewLocal(log *slog.Logger) *Local {
	return &Local{log: log, subs: map[string][]*subscriber{}}
}

// Subscribe registers h for topic.
func (b *Local) Subscribe(topic string, h Handler) {
	b.SubscribeBatch(topic, 1, func(ctx context.Context, batch []Event) { h(ctx, batch[0]) })
}

// SubscribeBatch registers h for topic, with up to max events at a time.
func (b *Local) SubscribeBatch(topic string, size int, h BatchHandler) {
	s := &subscriber{h: h, max: max(size, 1), queue: make(chan Event, 1024)}
	b.mu.Lock()
	b.subs[topic] = append(b.subs[topic], s)
	b.mu.Unlock()
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		batch := make([]Event, 0, s.max)
		for e := range s.queue {
			batch = append(batch[:0], e)
			batch = s.drain(batch)
			b.deliver(s, batch)
		}
	}()
}

// drain adds the events already queued to batch, up to the subscriber's
// max, without waiting for more.
func (s *subscriber) drain(batch []Event) []Event {
	for len(batch) < s.max {
		select {
		case e, ok := <-s.queue:
			if !ok {
				return batch
			}
			batch = append(batch, e)
		default:
			return batch
		}
	}
	return batch
}

func (b *Local) deliver(s *subscriber, batch []Event) {
	defer func() {
		if r := recover(); r != nil {
			b.log.Error("event handler panicked", "topic", batch[0].Topic(), "panic", r)
		}
	}()
	s.h(context.Background(), batch)
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
