// Package store holds the logs module's queries on its tables: the log
// entries (log_entries) and when each user was last seen
// (log_user_activity). Each function takes the bun.IDB to run on.
package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/modules/logs"
)

// ActiveWindow is the longest window GET /logs/activeusers counts in; a
// user not seen for longer is forgotten.
const ActiveWindow = 30 * 24 * time.Hour

// Activity is a user seen at a time: a sign-in or a session renewal.
type Activity struct {
	bun.BaseModel `bun:"table:log_user_activity,alias:ua"`

	UserID     int64     `bun:"user_id,pk"`
	CompanyID  *int64    `bun:"company_id"`
	LastSeenAt time.Time `bun:"last_seen_at"`
}

// Scope is the company a request answers for.
type Scope struct {
	// Company is the company's id; 0 with Installation set means the
	// installation, 0 without it nobody (a user without a company).
	Company      int64
	Installation bool
	// NoAudit leaves out the audit trail (USEREVENT entries), which a
	// company's Users do not see.
	NoAudit bool
}

// None reports whether the scope is nobody's: a user without a company.
func (s Scope) None() bool { return s.Company == 0 && !s.Installation }

// Filter is what GET /logs asks for.
type Filter struct {
	Types    []string
	From, To time.Time // zero: open
	DevEUI   string
	Limit    int
}

// ListEntries returns the entries of sc that match f, newest first.
func ListEntries(ctx context.Context, db bun.IDB, sc Scope, f Filter) ([]logs.Entry, error) {
	entries := []logs.Entry{}
	if sc.None() {
		return entries, nil
	}
	q := db.NewSelect().Model(&entries)
	if sc.Installation {
		// The installation's own entries, and the audit trail of every
		// company: the SuperAdmin follows what people change everywhere.
		q = q.Where("(le.company_id IS NULL OR le.type = ?)", logs.TypeUserEvent)
	} else {
		q = q.Where("le.company_id = ?", sc.Company)
	}
	if sc.NoAudit {
		q = q.Where("le.type <> ?", logs.TypeUserEvent)
	}
	if len(f.Types) > 0 {
		q = q.Where("le.type IN (?)", bun.In(f.Types))
	}
	if !f.From.IsZero() {
		q = q.Where("le.created_at >= ?", f.From)
	}
	if !f.To.IsZero() {
		q = q.Where("le.created_at < ?", f.To)
	}
	if f.DevEUI != "" {
		q = q.Where("le.deveui = ?", f.DevEUI)
	}
	if err := q.OrderExpr("le.created_at DESC, le.id DESC").Limit(int64(f.Limit)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("list log entries: %w", err)
	}
	return entries, nil
}

// InsertEntries writes entries in one statement and returns them with
// their ids.
func InsertEntries(ctx context.Context, db bun.IDB, entries []logs.Entry) ([]logs.Entry, error) {
	if _, err := db.NewInsert().Model(&entries).Returning("id").Exec(ctx); err != nil {
		return nil, fmt.Errorf("insert %d log entries: %w", len(entries), err)
	}
	return entries, nil
}

// CountActive counts the users of sc seen since each of the three times.
func CountActive(ctx context.Context, db bun.IDB, sc Scope, day, week, month time.Time) (logs.ActiveUsers, error) {
	var out logs.ActiveUsers
	if sc.None() {
		return out, nil
	}
	q := db.NewSelect().Model((*Activity)(nil)).
		ColumnExpr("coalesce(sum(CASE WHEN last_seen_at >= ? THEN 1 ELSE 0 END), 0)", day).
		ColumnExpr("coalesce(sum(CASE WHEN last_seen_at >= ? THEN 1 ELSE 0 END), 0)", week).
		ColumnExpr("count(*)").
		Where("last_seen_at >= ?", month)
	if !sc.Installation {
		q = q.Where("company_id = ?", sc.Company)
	}
	if err := q.Scan(ctx, &out.Last24Hours, &out.Last7Days, &out.Last30Days); err != nil {
		return out, fmt.Errorf("count active users: %w", err)
	}
	return out, nil
}

// UpsertActivity notes that a user was seen, with their company then.
func UpsertActivity(ctx context.Context, db bun.IDB, a *Activity) error {
	_, err := db.NewInsert().Model(a).
		On("CONFLICT (user_id) DO UPDATE").
		Set("company_id = EXCLUDED.company_id").
		Set("last_seen_at = EXCLUDED.last_seen_at").
		Where("ua.last_seen_at <= EXCLUDED.last_seen_at").
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("note activity of user %d: %w", a.UserID, err)
	}
	return nil
}

// Prune deletes the entries created before cut (none for a zero cut) and
// the activity of users not seen since activeCut, and returns how many
// entries it deleted.
func Prune(ctx context.Context, db bun.IDB, cut, activeCut time.Time) (int64, error) {
	var n int64
	if !cut.IsZero() {
		res, err := db.NewDelete().Model((*logs.Entry)(nil)).Where("created_at < ?", cut).Exec(ctx)
		if err != nil {
			return 0, fmt.Errorf("delete old log entries: %w", err)
		}
		if n, err = res.RowsAffected(); err != nil {
			return 0, fmt.Errorf("delete old log entries: %w", err)
		}
	}
	if _, err := db.NewDelete().Model((*Activity)(nil)).Where("last_seen_at < ?", activeCut).Exec(ctx); err != nil {
		return n, fmt.Errorf("delete old user activity: %w", err)
	}
	return n, nil
}
