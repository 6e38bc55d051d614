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
