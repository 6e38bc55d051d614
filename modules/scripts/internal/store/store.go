// Package store holds the scripts module's queries on scripts and
// script_runs. Each function takes the bun.IDB to run on.
package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/scripts"
)

// OfCompany lists a company's scripts by name.
func OfCompany(ctx context.Context, idb bun.IDB, company int64) ([]scripts.Script, error) {
	list := []scripts.Script{}
	if err := idb.NewSelect().Model(&list).Where("company_id = ?", company).Order("name", "id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list scripts of company %d: %w", company, err)
	}
	return list, nil
}

// Get returns a script; an unknown id is errs.NotFound.
func Get(ctx context.Context, idb bun.IDB, id int64) (*scripts.Script, error) {
	s := new(scripts.Script)
	if err := idb.NewSelect().Model(s).Where("id = ?", id).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, errs.New(errs.NotFound, errs.IDNotFound)
		}
		return nil, fmt.Errorf("get script %d: %w", id, err)
	}
	return s, nil
}

// Insert stores a new script and sets its id and times.
func Insert(ctx context.Context, idb bun.IDB, s *scripts.Script) error {
	now := time.Now().UTC()
	s.CreatedAt, s.UpdatedAt = now, now
	if _, err := idb.NewInsert().Model(s).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert script: %w", err)
	}
	return nil
}

// Update stores what a person may change of a script; the failures count
// starts over.
func Update(ctx context.Context, idb bun.IDB, s *scripts.Script) error {
	s.UpdatedAt = time.Now().UTC()
	_, err := idb.NewUpdate().Model(s).Column("name", "type", "interval_s", "enabled", "bound_tag", "content", "module", "failures", "next_run", "updated_at").
		WherePK().Exec(ctx)
	if err != nil {
		return fmt.Errorf("update script %d: %w", s.ID, err)
	}
	return nil
}

// Delete removes a script with its runs.
func Delete(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*scripts.Run)(nil)).Where("script_id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete runs of script %d: %w", id, err)
	}
	if _, err := idb.NewDelete().Model((*scripts.Script)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete script %d: %w", id, err)
	}
	return nil
}

// Triggered lists the enabled triggered scripts bound to a node.
func Triggered(ctx context.Context, idb bun.IDB, tagID int64) ([]scripts.Script, error) {
	list := []scripts.Script{}
	err := idb.NewSelect().Model(&list).Where("bound_tag = ? AND type = ? AND enabled", tagID, scripts.TypeTriggered).Order("id").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("triggered scripts of tag %d: %w", tagID, err)
	}
	return list, nil
}

// BoundTags lists the nodes that enabled triggered scripts are bound to.
func BoundTags(ctx context.Context, idb bun.IDB) ([]int64, error) {
	var ids []int64
	err := idb.NewSelect().Model((*scripts.Script)(nil)).ColumnExpr("DISTINCT bound_tag").
		Where("bound_tag IS NOT NULL AND type = ? AND enabled", scripts.TypeTriggered).Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("bound tags: %w", err)
	}
	return ids, nil
}

// Due lists the enabled looping scripts due at now.
func Due(ctx context.Context, idb bun.IDB, now time.Time, limit int) ([]scripts.Script, error) {
	list := []scripts.Script{}
	err := idb.NewSelect().Model(&list).Where("type = ? AND enabled AND (next_run IS NULL OR next_run <= ?)", scripts.TypeLooping, now).
		Order("next_run").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("due scripts: %w", err)
	}
	return list, nil
}

// Claim moves a due looping script's next run from was to next; ok is
// false when another instance (or run) moved it first.
func Claim(ctx context.Context, idb bun.IDB, id int64, was *time.Time, next time.Time) (bool, error) {
	q := idb.NewUpdate().Model((*scripts.Script)(nil)).Set("next_run = ?", next).Where("id = ? AND enabled", id)
	if was == nil {
		q = q.Where("next_run IS NULL")
	} else {
		q = q.Where("next_run = ?", *was)
	}
	res, err := q.Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("claim script %d: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// Finish records a run on its script: the last run, result and error, the
// failures in a row (switching it off at off), and the run in the history,
// keeping the newest scripts.MaxRuns. A run with an error that is not the
// script's fault (failed false) leaves the failures as they were. It
// reports whether this run switched the script off.
func Finish(ctx context.Context, idb bun.IDB, r *scripts.Run, failed bool, off int) (switchedOff bool, err error) {
	err = idb.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		s := new(scripts.Script)
		if err := tx.NewSelect().Model(s).Column("failures", "enabled").Where("id = ?", r.ScriptID).Scan(ctx); err != nil {
			if db.IsNoRows(err) {
				return nil // deleted meanwhile
			}
			return err
		}
		failures := 0
		switch {
		case failed:
			failures = s.Failures + 1
		case r.Error != "":
			failures = s.Failures
		}
		enabled := s.Enabled
		if failures >= off && s.Enabled {
			enabled, switchedOff = false, true
		}
		_, err := tx.NewUpdate().Model((*scripts.Script)(nil)).Set("last_run = ?", r.StartedAt).Set("last_result = ?", r.Result).
			Set("last_error = ?", r.Error).Set("failures = ?", failures).Set("enabled = ?", enabled).Where("id = ?", r.ScriptID).Exec(ctx)
		if err != nil {
			return err
		}
		if _, err := tx.NewInsert().Model(r).Returning("id").Exec(ctx); err != nil {
			return err
		}
		var oldest []int64
		err = tx.NewSelect().Model((*scripts.Run)(nil)).Column("id").Where("script_id = ?", r.ScriptID).
			Order("id DESC").Offset(scripts.MaxRuns-1).Limit(1).Scan(ctx, &oldest)
		if err != nil || len(oldest) == 0 {
			return err
		}
		_, err = tx.NewDelete().Model((*scripts.Run)(nil)).Where("script_id = ? AND id < ?", r.ScriptID, oldest[0]).Exec(ctx)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("record run of script %d: %w", r.ScriptID, err)
	}
	return switchedOff, nil
}

// Runs lists a script's run history, newest first.
func Runs(ctx context.Context, idb bun.IDB, scriptID int64) ([]scripts.Run, error) {
	list := []scripts.Run{}
	err := idb.NewSelect().Model(&list).Where("script_id = ?", scriptID).Order("id DESC").Limit(scripts.MaxRuns).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("runs of script %d: %w", scriptID, err)
	}
	return list, nil
}

// AddCount adds n to the count of scope in minute (Unix seconds / 60) in
// the table the instances share (PostgreSQL only) and returns the count
// after; concurrent adds of any instance are serialised by the row.
func AddCount(ctx context.Context, idb bun.IDB, scope string, minute int64, n int) (int64, error) {
	var used int64
	err := idb.NewRaw(`INSERT INTO script_limits (scope, minute, used) VALUES (?, ?, ?)
		ON CONFLICT (scope, minute) DO UPDATE SET used = script_limits.used + excluded.used RETURNING used`, scope, minute, n).Scan(ctx, &used)
	if err != nil {
		return 0, fmt.Errorf("count %s in minute %d: %w", scope, minute, err)
	}
	return used, nil
}

// SweepCounts deletes the counts of minutes before minute.
func SweepCounts(ctx context.Context, idb bun.IDB, minute int64) error {
	if _, err := idb.NewRaw("DELETE FROM script_limits WHERE minute < ?", minute).Exec(ctx); err != nil {
		return fmt.Errorf("delete counts before minute %d: %w", minute, err)
	}
	return nil
}
