package revoked

import (
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"
)

func TestAddEndedDrop(t *testing.T) {
	l := New(nil, "", 15*time.Minute, slog.New(slog.NewTextHandler(io.Discard, nil)))
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	l.now = func() time.Time { return now }
	l.Add([]string{"a", "", "b"})
	if !l.Ended("a") || !l.Ended("b") || l.Ended("c") || l.Ended("") {
		t.Fatalf("after Add: %v", l.ended)
	}
	if l.Keep() != 16*time.Minute {
		t.Errorf("kept for %s, want the token lifetime and a minute", l.Keep())
	}
	now = now.Add(10 * time.Minute)
	l.Add([]string{"c"})
	l.drop(now.Add(-5 * time.Minute))
	if l.Ended("a") || l.Ended("b") || !l.Ended("c") {
		t.Errorf("after drop: %v", l.ended)
	}
}

// BenchmarkEnded is the cost the list adds to every authenticated request,
// with 10,000 sessions ended within the last token lifetime, asked from
// every core at once.
func BenchmarkEnded(b *testing.B) {
	l := New(nil, "", 15*time.Minute, slog.New(slog.NewTextHandler(io.Discard, nil)))
	ids := make([]string, 10000)
	for i := range ids {
		ids[i] = fmt.Sprintf("session-%08d", i)
	}
	l.Add(ids)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if l.Ended("a live session") {
				b.Fatal("a live session is ended")
			}
		}
	})
}
