package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// PasswordReset is a mailed link to choose a new password; ID is its GUID.
type PasswordReset struct {
	bun.BaseModel `bun:"table:password_resets"`
	ID            string       `bun:"id,pk"`
	UserID        int64        `bun:"user_id"`
	ExpiresAt     time.Time    `bun:"expires_at"`
	UsedAt        bun.NullTime `bun:"used_at"`
}

// InsertReset stores a new reset link.
func InsertReset(ctx context.Context, idb bun.IDB, r *PasswordReset) error {
	if _, err := idb.NewInsert().Model(r).Exec(ctx); err != nil {
		return fmt.Errorf("store password reset: %w", err)
	}
	return nil
}

// CountLiveResets counts a user's reset links that have not expired by now,
// used or not.
func CountLiveResets(ctx context.Context, idb bun.IDB, userID int64, now time.Time) (int64, error) {
	n, err := idb.NewSelect().Model((*PasswordReset)(nil)).
		Where("user_id = ? AND expires_at > ?", userID, now).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("count password resets: %w", err)
	}
	return n, nil
}

// UsableReset loads reset link id if it is unused and has not expired by
// now; any error means it cannot be used.
func UsableReset(ctx context.Context, idb bun.IDB, id string, now time.Time) (*PasswordReset, error) {
	r := new(PasswordReset)
	if err := idb.NewSelect().Model(r).Where("id = ? AND used_at IS NULL AND expires_at > ?", id, now).Scan(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// CountUsableResets counts the reset links of id that are unused and have
// not expired by now: 1 when the link works, else 0.
func CountUsableResets(ctx context.Context, idb bun.IDB, id string, now time.Time) (int64, error) {
	return idb.NewSelect().Model((*PasswordReset)(nil)).
		Where("id = ? AND used_at IS NULL AND expires_at > ?", id, now).Count(ctx)
}

// UseReset marks reset link id used; used is false when it was used already.
func UseReset(ctx context.Context, idb bun.IDB, id string, now time.Time) (used bool, err error) {
	res, err := idb.NewUpdate().Model((*PasswordReset)(nil)).Set("used_at = ?", now).
		Where("id = ? AND used_at IS NULL", id).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("use password reset: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}
