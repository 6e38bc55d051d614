package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// registrationNotice is a mail to the owner of an address that someone
// tried to register again.
type registrationNotice struct {
	bun.BaseModel `bun:"table:registration_notices"`
	ID            int64     `bun:"id,pk,autoincrement"`
	UserID        int64     `bun:"user_id"`
	SentAt        time.Time `bun:"sent_at"`
}

// CountRegistrationNotices counts the notices a user was sent since a time.
func CountRegistrationNotices(ctx context.Context, idb bun.IDB, userID int64, since time.Time) (int64, error) {
	n, err := idb.NewSelect().Model((*registrationNotice)(nil)).Where("user_id = ? AND sent_at > ?", userID, since).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("count registration notices: %w", err)
	}
	return int64(n), nil
}

// InsertRegistrationNotice notes a notice sent to a user.
func InsertRegistrationNotice(ctx context.Context, idb bun.IDB, userID int64, at time.Time) error {
	if _, err := idb.NewInsert().Model(&registrationNotice{UserID: userID, SentAt: at}).Exec(ctx); err != nil {
		return fmt.Errorf("note registration notice: %w", err)
	}
	return nil
}
