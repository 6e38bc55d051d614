package tsdb

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

// Retention deletes the points of a Store that are older than a number of
// days: the job behind FIELDHUB_TSDB_RETENTION_DAYS, which the application
// schedules daily on one instance.
type Retention struct {
	Store Store
	// Days is how many days of points are kept; 0 or less keeps them all.
	Days int
	Log  *slog.Logger
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// Cut returns the oldest time Run keeps, and false when it keeps
// everything.
func (r Retention) Cut() (time.Time, bool) {
	if r.Days <= 0 {
		return time.Time{}, false
	}
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	return now().UTC().AddDate(0, 0, -r.Days), true
}

// Run prunes the points older than Days days. It fits scheduler.Job.
func (r Retention) Run(ctx context.Context) error {
	cut, ok := r.Cut()
	if !ok {
		return nil
	}
	n, err := r.Store.Prune(ctx, cut)
	if err != nil {
		return fmt.Errorf("tag data retention: %w", err)
	}
	if r.Log != nil && n > 0 {
		r.Log.Info("old tag data deleted", "points", n, "before", cut)
	}
	return nil
}
