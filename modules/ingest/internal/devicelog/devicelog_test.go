package devicelog

import (
	"testing"
	"time"
)

// TestThrottle checks the spacing of repeating device events: one per key
// every repeatEvery, keys independent of each other.
func TestThrottle(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	steps := []struct {
		key  string
		at   time.Duration
		want bool
	}{
		{"pool/1/a", 0, true},
		{"pool/1/a", time.Minute, false},
		{"pool/2/a", time.Minute, true}, // another company
		{"decoder/1/a", time.Minute, true},
		{"pool/1/a", repeatEvery - time.Second, false},
		{"pool/1/a", repeatEvery, true},
		{"pool/1/a", repeatEvery + time.Minute, false},
	}
	var th throttle
	for i, s := range steps {
		if got := th.allow(s.key, t0.Add(s.at)); got != s.want {
			t.Errorf("step %d: %s at +%s: %v, want %v", i, s.key, s.at, got, s.want)
		}
	}
}

func TestNumber(t *testing.T) {
	t.Parallel()
	v := 85.5
	if Number(&v) != "85.5" || Number(nil) != "–" {
		t.Errorf("number: %q %q", Number(&v), Number(nil))
	}
}

func TestClip(t *testing.T) {
	t.Parallel()
	if got := Clip("åäö", 3); got != "å…" {
		t.Errorf("clip on a character boundary: %q", got)
	}
	if got := Clip("short", 10); got != "short" {
		t.Errorf("%q", got)
	}
}
