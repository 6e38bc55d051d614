// Package store holds the scripts module's queries on scripts and
// script_runs. Each function takes the bun.IDB to run on.
package store

import (
	"context"
	"fmt"
	"slices"
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

// Head is what says whether a cached triggered script is still current.
type Head struct {
	ID        int64     `bun:"id"`
	BoundTag  int64     `bun:"bound_tag"`
	UpdatedAt time.Time `bun:"updated_at"`
}

// TriggeredHeads lists the enabled triggered scripts bound to a node, by
// id, without their content.
func TriggeredHeads(ctx context.Context, idb bun.IDB) ([]Head, error) {
	var list []Head
	err := idb.NewSelect().Model((*scripts.Script)(nil)).Column("id", "bound_tag", "updated_at").
		Where("bound_tag IS NOT NULL AND type = ? AND enabled", scripts.TypeTriggered).Order("id").Scan(ctx, &list)
	if err != nil {
		return nil, fmt.Errorf("triggered scripts: %w", err)
	}
	return list, nil
}

// ByID reads the scripts ids; unknown ids are left out.
func ByID(ctx context.Context, idb bun.IDB, ids []int64) ([]scripts.Script, error) {
	list := []scripts.Script{}
	if len(ids) == 0 {
		return list, nil
	}
	if err := idb.NewSelect().Model(&list).Where("id IN (?)", bun.List(ids)).Order("id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("read %d scripts: %w", len(ids), err)
	}
	return list, nil
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

// Finished is a run to record: failed is true when it was the script's
// failure; a run with an error that is not the script's fault (failed
// false) leaves the failures in a row as they were.
type Finished struct {
	Run    *scripts.Run
	Failed bool
}

// Finish records runs on their scripts in one transaction, in order: each
// script's last run, result and error, its failures in a row (switching it
// off at off), and the runs in the history (Trim keeps the newest
// scripts.MaxRuns). Runs of scripts deleted meanwhile are dropped. It returns the ids of the scripts these runs switched off, and
// sets the ids of the runs it stored.
func Finish(ctx context.Context, idb bun.IDB, runs []Finished, off int) (switchedOff []int64, err error) {
	if len(runs) == 0 {
		return nil, nil
	}
	ids := make([]int64, 0, len(runs))
	for _, f := range runs {
		ids = append(ids, f.Run.ScriptID)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	err = idb.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		switchedOff = nil
		var states []scripts.Script
		q := tx.NewSelect().Model(&states).Column("id", "failures", "enabled").Where("id IN (?)", bun.List(ids)).Order("id")
		if db.DialectOf(tx) == db.Postgres {
			q = q.For("UPDATE") // in id order: two instances' batches cannot deadlock
		}
		if err := q.Scan(ctx); err != nil {
			return err
		}
		byID := make(map[int64]*scripts.Script, len(states))
		for i := range states {
			byID[states[i].ID] = &states[i]
		}
		var stored []*scripts.Run
		for _, f := range runs {
			s := byID[f.Run.ScriptID]
			if s == nil {
				continue // deleted meanwhile
			}
			switch {
			case f.Failed:
				s.Failures++
			case f.Run.Error == "":
				s.Failures = 0
			}
			if s.Failures >= off && s.Enabled {
				s.Enabled = false
				switchedOff = append(switchedOff, s.ID)
			}
			at := f.Run.StartedAt
			s.LastRun, s.LastResult, s.LastError = &at, f.Run.Result, f.Run.Error
			stored = append(stored, f.Run)
		}
		if len(stored) == 0 {
			return nil
		}
		ran := make([]scripts.Script, 0, len(states))
		for _, s := range states {
			if s.LastRun != nil {
				ran = append(ran, s)
			}
		}
		values := tx.NewValues(&ran).Column("id", "last_run", "last_result", "last_error", "failures", "enabled")
		_, err := tx.NewUpdate().With("_data", values).Model(&ran).TableExpr("_data").
			Set("last_run = _data.last_run").Set("last_result = _data.last_result").Set("last_error = _data.last_error").
			Set("failures = _data.failures").Set("enabled = _data.enabled").Where("sc.id = _data.id").Exec(ctx)
		if err != nil {
			return err
		}
		_, err = tx.NewInsert().Model(&stored).Returning("id").Exec(ctx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("record %d runs of %d scripts: %w", len(runs), len(ids), err)
	}
	return switchedOff, nil
}

// Trim deletes the runs of the scripts ids beyond the newest
// scripts.MaxRuns of each.
func Trim(ctx context.Context, idb bun.IDB, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	// Per script, the id of its MaxRuns-th newest run (NULL with fewer
	// runs), read through the index on (script_id, id), then the runs
	// older than it. PostgreSQL is kept from flattening the per-script
	// part into the join (OFFSET 0): it then ran the newest-run lookup
	// once for every run of the scripts, not once per script (seconds a
	// trim of 100 scripts under load, until 2026-11-28).
	oldest := `SELECT s.id AS script_id, (SELECT o.id FROM script_runs AS o WHERE o.script_id = s.id ORDER BY o.id DESC LIMIT 1 OFFSET ?) AS oldest
		FROM scripts AS s WHERE s.id IN (?)`
	query := `DELETE FROM script_runs WHERE id IN (SELECT r.id FROM script_runs AS r
		JOIN (` + oldest + `) AS k ON r.script_id = k.script_id AND r.id < k.oldest)`
	if db.DialectOf(idb) == db.Postgres {
		query = `DELETE FROM script_runs AS r USING (` + oldest + ` OFFSET 0) AS k WHERE r.script_id = k.script_id AND r.id < k.oldest`
	}
	_, err := idb.NewRaw(query, scripts.MaxRuns-1, bun.List(ids)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("trim the runs of %d scripts: %w", len(ids), err)
	}
	return nil
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
