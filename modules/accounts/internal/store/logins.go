package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
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

// RecordLoginFailure notes a login attempt to email from ip as failed and
// returns its id. The login notes it before it checks the password, so
// that attempts sent at once count against each other, and forgets it if
// the attempt was not made after all (ForgetLoginFailure) or succeeded
// (ClearLoginFailures).
func RecordLoginFailure(ctx context.Context, idb bun.IDB, email, ip string, at time.Time) (int64, error) {
	f := &loginFailure{Email: email, IP: ip, At: at}
	if _, err := idb.NewInsert().Model(f).Returning("id").Exec(ctx); err != nil {
		return 0, fmt.Errorf("record login failure: %w", err)
	}
	return f.ID, nil
}

// ForgetLoginFailure deletes one noted attempt.
func ForgetLoginFailure(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*loginFailure)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("forget login failure: %w", err)
	}
	return nil
}

// Failures are the failed logins of one kind (an account from one client,
// or one client to any account) within the rate limit's window.
type Failures struct {
	N    int64
	Last time.Time // of the latest; zero when N is 0
}

// LoginFailuresBefore counts the failures noted before attempt (an id of
// RecordLoginFailure) and since a time: those to email from ip, and those
// from ip to any address.
func LoginFailuresBefore(ctx context.Context, idb bun.IDB, email, ip string, attempt int64, since time.Time) (pair, client Failures, err error) {
	count := func(where string, args ...any) (Failures, error) {
		args = append(args, since, attempt)
		q := func() *bun.SelectQuery {
			return idb.NewSelect().Model((*loginFailure)(nil)).Where(where+" AND at > ? AND id < ?", args...)
		}
		n, err := q().Count(ctx)
		if err != nil || n == 0 {
			return Failures{}, err
		}
		var last loginFailure
		if err := q().Order("id DESC").Limit(1).Scan(ctx, &last); err != nil && !db.IsNoRows(err) {
			return Failures{}, err
		}
		return Failures{N: int64(n), Last: last.At}, nil
	}
	if pair, err = count("email = ? AND ip = ?", email, ip); err != nil {
		return pair, client, fmt.Errorf("count login failures: %w", err)
	}
	if client, err = count("ip = ?", ip); err != nil {
		return pair, client, fmt.Errorf("count login failures: %w", err)
	}
	return pair, client, nil
}

// ClearLoginFailures forgets the failed logins to email from ip, after the
// right password came from there. Those from other clients stay: a
// successful login by the owner does not lift an attacker's wait.
func ClearLoginFailures(ctx context.Context, idb bun.IDB, email, ip string) error {
	if _, err := idb.NewDelete().Model((*loginFailure)(nil)).Where("email = ? AND ip = ?", email, ip).Exec(ctx); err != nil {
		return fmt.Errorf("clear login failures: %w", err)
	}
	return nil
}

// ClearLoginFailuresOf forgets the failed logins to a user's address, from
// every client: the owner has just proved themselves by mail.
func ClearLoginFailuresOf(ctx context.Context, idb bun.IDB, userID int64) error {
	if _, err := idb.NewDelete().Model((*loginFailure)(nil)).
		Where("email = (?)", idb.NewSelect().Model((*accounts.User)(nil)).Column("email").Where("id = ?", userID)).Exec(ctx); err != nil {
		return fmt.Errorf("clear login failures: %w", err)
	}
	return nil
}
