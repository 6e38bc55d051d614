package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
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

// EndedChannel is the PostgreSQL notification channel on which the ids of
// ended sessions travel to every instance.
const EndedChannel = "fieldhub_sessions_ended"

// ReloadEnded is the notification that asks every instance to read the
// ended sessions again: sent instead of the ids when they do not fit in
// one notification.
const ReloadEnded = "*"

// endedSession is a session that ended while its access tokens may still
// be unexpired.
type endedSession struct {
	bun.BaseModel `bun:"table:ended_sessions"`
	SessionID     string    `bun:"session_id,pk"`
	EndedAt       time.Time `bun:"ended_at"`
}

// endSessions deletes the sessions where selects and notes them as ended,
// so that their access tokens are refused, and on PostgreSQL tells the
// other instances, when idb's transaction commits. It returns the ids of
// the ended sessions, which the caller hands to this instance's list of
// ended sessions once the transaction has committed.
func endSessions(ctx context.Context, idb bun.IDB, where func(*bun.DeleteQuery) *bun.DeleteQuery) ([]string, error) {
	var ids []string
	if _, err := where(idb.NewDelete().Model((*Session)(nil))).Returning("id").Exec(ctx, &ids); err != nil {
		return nil, fmt.Errorf("end sessions: %w", err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	now := time.Now().UTC()
	rows := make([]endedSession, len(ids))
	for i, id := range ids {
		rows[i] = endedSession{SessionID: id, EndedAt: now}
	}
	if _, err := idb.NewInsert().Model(&rows).On("CONFLICT (session_id) DO NOTHING").Exec(ctx); err != nil {
		return nil, fmt.Errorf("note ended sessions: %w", err)
	}
	if db.DialectOf(idb) == db.Postgres {
		payload := strings.Join(ids, ",")
		if len(payload) > 7900 { // PostgreSQL's limit is 8000 bytes
			payload = ReloadEnded
		}
		if _, err := idb.NewRaw("SELECT pg_notify(?, ?)", EndedChannel, payload).Exec(ctx); err != nil {
			return nil, fmt.Errorf("announce ended sessions: %w", err)
		}
	}
	return ids, nil
}

// EndSession ends one session.
func EndSession(ctx context.Context, idb bun.IDB, id string) ([]string, error) {
	return endSessions(ctx, idb, func(q *bun.DeleteQuery) *bun.DeleteQuery { return q.Where("id = ?", id) })
}

// EndSessionsOf ends every session of a user, so that a changed role,
// membership or password takes effect at once.
func EndSessionsOf(ctx context.Context, idb bun.IDB, userID int64) ([]string, error) {
	return endSessions(ctx, idb, func(q *bun.DeleteQuery) *bun.DeleteQuery { return q.Where("user_id = ?", userID) })
}

// EndOtherSessions ends every session of a user but keep, the one they
// are using.
func EndOtherSessions(ctx context.Context, idb bun.IDB, userID int64, keep string) ([]string, error) {
	return endSessions(ctx, idb, func(q *bun.DeleteQuery) *bun.DeleteQuery {
		return q.Where("user_id = ? AND id <> ?", userID, keep)
	})
}

// EndSessionsOfCompany ends every session of a company's members.
func EndSessionsOfCompany(ctx context.Context, idb bun.IDB, companyID int64) ([]string, error) {
	return endSessions(ctx, idb, func(q *bun.DeleteQuery) *bun.DeleteQuery {
		return q.Where("user_id IN (?)", idb.NewSelect().Model((*accounts.User)(nil)).Column("id").Where("company_id = ?", companyID))
	})
}

// DeleteSession removes a session whose refresh token has lapsed; its
// access tokens lapse on their own.
func DeleteSession(ctx context.Context, idb bun.IDB, id string) error {
	if _, err := idb.NewDelete().Model((*Session)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	return nil
}

// EndedSince lists the sessions that ended after since.
func EndedSince(ctx context.Context, idb bun.IDB, since time.Time) (map[string]time.Time, error) {
	var rows []endedSession
	if err := idb.NewSelect().Model(&rows).Where("ended_at > ?", since).Scan(ctx); err != nil {
		return nil, fmt.Errorf("list ended sessions: %w", err)
	}
	ended := make(map[string]time.Time, len(rows))
	for _, r := range rows {
		ended[r.SessionID] = r.EndedAt
	}
	return ended, nil
}
