package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/accounts"
)

// Session is a refresh token's record; the token itself is stored hashed.
type Session struct {
	bun.BaseModel `bun:"table:sessions"`
	ID            string       `bun:"id,pk"`
	UserID        int64        `bun:"user_id"`
	RefreshHash   string       `bun:"refresh_hash"`
	PreviousHash  string       `bun:"previous_hash"`
	RotatedAt     bun.NullTime `bun:"rotated_at"`
	ExpiresAt     time.Time    `bun:"expires_at"`
	CreatedAt     time.Time    `bun:"created_at"`
	UserAgent     string       `bun:"user_agent"`
}

// rotationGrace is how long a replaced refresh token still buys an access token.
const rotationGrace = 30 * time.Second

// HashToken is how a refresh token is stored: a leaked table gives no
// working tokens.
func HashToken(t string) string {
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])
}

// InsertSession stores a new session.
func InsertSession(ctx context.Context, idb bun.IDB, s *Session) error {
	if _, err := idb.NewInsert().Model(s).Exec(ctx); err != nil {
		return fmt.Errorf("insert session: %w", err)
	}
	return nil
}

// SessionByRefresh finds the session of a refresh token; current is false
// when the token was replaced within the grace period. An unknown token is
// an errs.Unauthorized error.
func SessionByRefresh(ctx context.Context, idb bun.IDB, refresh string) (s *Session, current bool, err error) {
	h := HashToken(refresh)
	s = new(Session)
	err = idb.NewSelect().Model(s).
		Where("refresh_hash = ? OR (previous_hash = ? AND rotated_at > ?)", h, h, time.Now().UTC().Add(-rotationGrace)).
		Limit(1).Scan(ctx)
	if err != nil {
		if db.IsNoRows(err) {
			return nil, false, errs.New(errs.Unauthorized, accounts.MsgRefreshInvalid)
		}
		return nil, false, fmt.Errorf("load session: %w", err)
	}
	return s, s.RefreshHash == h, nil
}

// RotateSession replaces a session's refresh token, only if it is still the
// one the caller read, so that a token is good for one rotation.
func RotateSession(ctx context.Context, idb bun.IDB, s *Session, nextHash string, ttl time.Duration) (bool, error) {
	now := time.Now().UTC()
	q := idb.NewUpdate().Model((*Session)(nil)).
		Set("previous_hash = refresh_hash").Set("refresh_hash = ?", nextHash).
		Set("rotated_at = ?", now).Set("expires_at = ?", now.Add(ttl)).
		Where("id = ?", s.ID)
	if s.RefreshHash != "" {
		q = q.Where("refresh_hash = ?", s.RefreshHash)
	}
	res, err := q.Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("rotate session: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// DeleteSession ends one session.
func DeleteSession(ctx context.Context, idb bun.IDB, id string) error {
	if _, err := idb.NewDelete().Model((*Session)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	return nil
}

// DeleteSessionsOf ends every session of a user, so that a changed role or
// membership takes effect at the next token refresh.
func DeleteSessionsOf(ctx context.Context, idb bun.IDB, userID int64) error {
	if _, err := idb.NewDelete().Model((*Session)(nil)).Where("user_id = ?", userID).Exec(ctx); err != nil {
		return fmt.Errorf("delete sessions of user %d: %w", userID, err)
	}
	return nil
}

// DeleteOtherSessions ends every session of a user but keep, the one they
// are using.
func DeleteOtherSessions(ctx context.Context, idb bun.IDB, userID int64, keep string) error {
	_, err := idb.NewDelete().Model((*Session)(nil)).Where("user_id = ? AND id <> ?", userID, keep).Exec(ctx)
	return err
}

// DeleteSessionsOfCompany ends every session of a company's members.
func DeleteSessionsOfCompany(ctx context.Context, idb bun.IDB, companyID int64) error {
	_, err := idb.NewDelete().Model((*Session)(nil)).
		Where("user_id IN (?)", idb.NewSelect().Model((*accounts.User)(nil)).Column("id").Where("company_id = ?", companyID)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("delete sessions of company %d: %w", companyID, err)
	}
	return nil
}
