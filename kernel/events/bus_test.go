package events

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
)

type pinged struct{ n int }

func (pinged) Topic() string { return "test.pinged" }

// TestLocalDeliversInOrderAndSurvivesPanics checks that each subscriber gets
// every event of its topic in order, that a panicking handler does not stop
// the others, and that Close waits for queued events.
func TestLocalDeliversInOrderAndSurvivesPanics(t *testing.T) {
	b := NewLocal(slog.New(slog.NewTextHandler(io.Discard, nil)))
	var mu sync.Mutex
	var got []int
	b.Subscribe("test.pinged", func(_ context.Context, e Event) {
		mu.Lock()
		got = append(got, e.(pinged).n)
		mu.Unlock()
	})
	b.Subscribe("test.pinged", func(context.Context, Event) { panic("boom") })
	b.Subscribe("test.other", func(context.Context, Event) { t.Error("wrong topic delivered") })
	for i := 0; i < 2000; i++ {
		b.Publish(context.Background(), pinged{i})
	}
	b.Close()
	if len(got) != 2000 {
		t.Fatalf("delivered %d of 2000", len(got))
	}
	for i, n := range got {
		if n != i {
			t.Fatalf("event %d arrived as %d", i, n)
		}
	}
}

// TestLocalBatchesWhatQueued checks that a batch subscriber gets every
// event once, in order, in batches no larger than its size, and more than
// one at a time when events queue while it works.
func TestLocalBatchesWhatQueued(t *testing.T) {
	b := NewLocal(slog.New(slog.NewTextHandler(io.Discard, nil)))
	release := make(chan struct{})
	var got []int
	largest := 0
	b.SubscribeBatch("test.pinged", 100, func(_ context.Context, batch []Event) {
		<-release // the first call waits, so that the rest queue
		largest = max(largest, len(batch))
		for _, e := range batch {
			got = append(got, e.(pinged).n)
		}
	})
	for i := 0; i < 1000; i++ {
		b.Publish(context.Background(), pinged{i})
	}
	close(release)
	b.Close()
	if len(got) != 1000 {
		t.Fatalf("delivered %d of 1000", len(got))
	}
	for i, n := range got {
		if n != i {
			t.Fatalf("event %d arrived as %d", i, n)
		}
	}
	if largest != 100 {
		t.Errorf("the largest batch held %d events, want the size, 100, since 999 queued", largest)
	}
}
