package core

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// scope is the company a request answers for.
type scope struct {
	// company is the company's id; 0 with installation set means the
	// installation, 0 without it nobody (a user without a company).
	company      int64
	installation bool
}

func (s scope) none() bool { return s.company == 0 && !s.installation }

// filter is what GET /logs asks for.
type filter struct {
	types    []string
	from, to time.Time // zero: open
	devEUI   string
	limit    int
}

// listEntries returns the entries of sc that match f, newest first.
func listEntries(ctx context.Context, db bun.IDB, sc scope, f filter) ([]Entry, error) {
	entries := []Entry{}
	if sc.none() {
		return entries, nil
	}
	q := db.NewSelect().Model(&entries)
	if sc.installation {
		q = q.Where("le.company_id IS NULL")
	} else {
		q = q.Where("le.company_id = ?", sc.company)
	}
	if len(f.types) > 0 {
		q = q.Where("le.type IN (?)", bun.In(f.types))
	}
	if !f.from.IsZero() {
		q = q.Where("le.created_at >= ?", f.from)
	}
	if !f.to.IsZero() {
		q = q.Where("le.created_at < ?", f.to)
	}
	if f.devEUI != "" {
		q = q.Where("le.deveui = ?", f.devEUI)
	}
	if err := q.OrderExpr("le.created_at DESC, le.id DESC").Limit(int64(f.limit)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("list log entries: %w", err)
	}
	return entries, nil
}

// countActive counts the users of sc seen since each of the three times.
func countActive(ctx context.Context, db bun.IDB, sc scope, day, week, month time.Time) (ActiveUsers, error) {
	var out ActiveUsers
	if sc.none() {
		return out, nil
	}
	q := db.NewSelect().Model((*activity)(nil)).
		ColumnExpr("coalesce(sum(CASE WHEN last_seen_at >= ? THEN 1 ELSE 0 END), 0)", day).
		ColumnExpr("coalesce(sum(CASE WHEN last_seen_at >= ? THEN 1 ELSE 0 END), 0)", week).
		ColumnExpr("count(*)").
		Where("last_seen_at >= ?", month)
	if !sc.installation {
		q = q.Where("company_id = ?", sc.company)
	}
	if err := q.Scan(ctx, &out.Last24Hours, &out.Last7Days, &out.Last30Days); err != nil {
		return out, fmt.Errorf("count active users: %w", err)
	}
	return out, nil
}

// upsertActivity notes that a user was seen, with their company then.
func upsertActivity(ctx context.Context, db bun.IDB, a *activity) error {
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

// prune deletes the entries created before cut (none for a zero cut) and
// the activity of users not seen since activeCut, and returns how many
// entries it deleted.
func prune(ctx context.Context, db bun.IDB, cut, activeCut time.Time) (int64, error) {
	var n int64
	if !cut.IsZero() {
		res, err := db.NewDelete().Model((*Entry)(nil)).Where("created_at < ?", cut).Exec(ctx)
		if err != nil {
			return 0, fmt.Errorf("delete old log entries: %w", err)
		}
		if n, err = res.RowsAffected(); err != nil {
			return 0, fmt.Errorf("delete old log entries: %w", err)
		}
	}
	if _, err := db.NewDelete().Model((*activity)(nil)).Where("last_seen_at < ?", activeCut).Exec(ctx); err != nil {
		return n, fmt.Errorf("delete old user activity: %w", err)
	}
	return n, nil
}
