package runner

import (
	"fmt"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/modules/scripts"
)

// limiter counts each company's script actions per minute on this
// instance (scripts.MaxWritesPerMinute, scripts.MaxSendsPerMinute), so
// that no company's scripts flood the time series or the outboxes; the
// per-run limits are the engine's.
type limiter struct {
	mu   sync.Mutex
	used map[int64]*minute
}

type minute struct {
	start        time.Time
	writes, sent int
}

func newLimiter() *limiter { return &limiter{used: map[int64]*minute{}} }

// take counts one action of company at now, or refuses it.
func (l *limiter) take(company int64, send bool, now time.Time) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	m := l.used[company]
	if m == nil || now.Sub(m.start) >= time.Minute {
		if len(l.used) > 10_000 {
			clear(l.used)
		}
		m = &minute{start: now}
		l.used[company] = m
	}
	if send {
		if m.sent >= scripts.MaxSendsPerMinute {
			return fmt.Errorf("limit: the company's scripts sent %d messages this minute, the most they may", scripts.MaxSendsPerMinute)
		}
		m.sent++
		return nil
	}
	if m.writes >= scripts.MaxWritesPerMinute {
		return fmt.Errorf("limit: the company's scripts wrote %d times this minute, the most they may", scripts.MaxWritesPerMinute)
	}
	m.writes++
	return nil
}
