package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/modules/accounts"
)

// loginFailure is a failed login, counted by the login rate limit.
type loginFailure struct {
	bun.BaseModel `bun:"table:login_failures"`
	ID            int64     `bun:"id,pk,autoincrement"`
	Email         string    `bun:"email"`
	IP            string    `bun:"ip"`
	At            time.Time `bun:"at"`
}

// RecordLoginFailure notes a failed login to email from ip.
func RecordLoginFailure(ctx context.Context, idb bun.IDB, email, ip string, at time.Time) error {
	if _, err := idb.NewInsert().Model(&loginFailure{Email: email, IP: ip, At: at}).Exec(ctx); err != nil {
		return fmt.Errorf("record login failure: %w", err)
	}
	return nil
}

// CountLoginFailures counts the failed logins since a time to email and
// from ip.
func CountLoginFailures(ctx context.Context, idb bun.IDB, email, ip string, since time.Time) (byEmail, byIP int64, err error) {
	byEmail, err = idb.NewSelect().Model((*loginFailure)(nil)).Where("email = ? AND at > ?", email, since).Count(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("count login failures: %w", err)
	}
	byIP, err = idb.NewSelect().Model((*loginFailure)(nil)).Where("ip = ? AND at > ?", ip, since).Count(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("count login failures: %w", err)
	}
	return byEmail, byIP, nil
}

// ClearLoginFailures forgets the failed logins to email.
func ClearLoginFailures(ctx context.Context, idb bun.IDB, email string) error {
	if _, err := idb.NewDelete().Model((*loginFailure)(nil)).Where("email = ?", email).Exec(ctx); err != nil {
		return fmt.Errorf("clear login failures: %w", err)
	}
	return nil
}

// ClearLoginFailuresOf forgets the failed logins to a user's address.
func ClearLoginFailuresOf(ctx context.Context, idb bun.IDB, userID int64) error {
	if _, err := idb.NewDelete().Model((*loginFailure)(nil)).
		Where("email = (?)", idb.NewSelect().Model((*accounts.User)(nil)).Column("email").Where("id = ?", userID)).Exec(ctx); err != nil {
		return fmt.Errorf("clear login failures: %w", err)
	}
	return nil
}
