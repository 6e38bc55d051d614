package signin

import (
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/modules/accounts/internal/store"
)

// TestWait checks the login rate limit's steps: free failures, then a wait
// that doubles with each further failure, up to the longest.
func TestWait(t *testing.T) {
	cases := []struct {
		n, free int64
		want    time.Duration
	}{
		{0, freePerPair, 0},
		{freePerPair - 1, freePerPair, 0},
		{freePerPair, freePerPair, time.Second},
		{freePerPair + 1, freePerPair, 2 * time.Second},
		{freePerPair + 9, freePerPair, 512 * time.Second},
		{freePerPair + 10, freePerPair, maxWait},
		{freePerPair + 1000, freePerPair, maxWait},
		{freePerClient - 1, freePerClient, 0},
		{freePerClient + 3, freePerClient, 8 * time.Second},
	}
	for _, tc := range cases {
		if got := wait(tc.n, tc.free); got != tc.want {
			t.Errorf("wait(%d, %d) = %s, want %s", tc.n, tc.free, got, tc.want)
		}
	}
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	if left := waitLeft(store.Failures{N: freePerPair + 2, Last: now.Add(-time.Second)}, freePerPair, now); left != 3*time.Second {
		t.Errorf("left of a 4 s wait after 1 s: %s", left)
	}
	if left := waitLeft(store.Failures{N: freePerPair, Last: now.Add(-time.Minute)}, freePerPair, now); left > 0 {
		t.Errorf("a wait that is over: %s left", left)
	}
}
