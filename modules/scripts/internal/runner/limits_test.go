package runner

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/modules/scripts"
)

// TestLimitersShareOneCount: two instances that reserve writes in blocks
// from one count hand out no more than the script's limit between them,
// and little less; the refusal is the script's own.
func TestLimitersShareOneCount(t *testing.T) {
	t.Parallel()
	counts := newMemCounter()
	a := &limiter{counts: counts, log: slog.New(slog.DiscardHandler), held: map[string]*held{}}
	b := &limiter{counts: counts, log: slog.New(slog.DiscardHandler), held: map[string]*held{}}
	s := &scripts.Script{ID: 1, CompanyID: 1}
	now := time.Date(2027, 3, 1, 12, 0, 30, 0, time.UTC)
	granted := 0
	var last error
	for i := 0; i < 2*scripts.MaxScriptWritesPerMinute; i++ {
		l := a
		if i%3 == 0 {
			l = b
		}
		if last = l.allow(context.Background(), s, scripts.ActionWrite, now); last != nil {
			break
		}
		granted++
	}
	if granted > scripts.MaxScriptWritesPerMinute || granted < scripts.MaxScriptWritesPerMinute-writeBlock {
		t.Errorf("granted %d writes, limit %d", granted, scripts.MaxScriptWritesPerMinute)
	}
	var ref *refusal
	if !errors.As(last, &ref) || !ref.own {
		t.Errorf("refusal: %v", last)
	}
	// The next minute starts over.
	if err := a.allow(context.Background(), s, scripts.ActionWrite, now.Add(time.Minute)); err != nil {
		t.Errorf("the next minute: %v", err)
	}
}
