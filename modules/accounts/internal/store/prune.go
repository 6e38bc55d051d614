package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Prune deletes what can no longer be used: sessions that expired before
// now, reset links a day past their end, registration notices older than a
// day, login failures older than
// failureWindow, which the rate limit no longer counts, and ended sessions
// older than endedKept, whose access tokens have all lapsed.
func Prune(ctx context.Context, idb bun.IDB, now time.Time, failureWindow, endedKept time.Duration) error {
	if _, err := idb.NewDelete().Model((*Session)(nil)).Where("expires_at < ?", now).Exec(ctx); err != nil {
		return fmt.Errorf("prune sessions: %w", err)
	}
	if _, err := idb.NewDelete().Model((*PasswordReset)(nil)).Where("expires_at < ?", now.Add(-24*time.Hour)).Exec(ctx); err != nil {
		return fmt.Errorf("prune password resets: %w", err)
	}
	if _, err := idb.NewDelete().Model((*loginFailure)(nil)).Where("at < ?", now.Add(-failureWindow)).Exec(ctx); err != nil {
		return fmt.Errorf("prune login failures: %w", err)
	}
	if _, err := idb.NewDelete().Model((*registrationNotice)(nil)).Where("sent_at < ?", now.Add(-24*time.Hour)).Exec(ctx); err != nil {
		return fmt.Errorf("prune registration notices: %w", err)
	}
	if _, err := idb.NewDelete().Model((*endedSession)(nil)).Where("ended_at < ?", now.Add(-endedKept)).Exec(ctx); err != nil {
		return fmt.Errorf("prune ended sessions: %w", err)
	}
	return nil
}
