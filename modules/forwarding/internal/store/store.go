// Package store holds the forwarding module's tables: the targets with
// their delivery state (forwarding_targets) and each target's queue of
// uplinks (forwarding_queue).
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/forwarding"
)

// Row is a queued uplink of a target.
type Row struct {
	bun.BaseModel `bun:"table:forwarding_queue"`

	ID         int64     `bun:"id,pk,autoincrement"`
	TargetID   int64     `bun:"target_id"`
	DevEUI     string    `bun:"dev_eui"`
	UplinkTime time.Time `bun:"uplink_time"`
	Body       string    `bun:"body"`
	CreatedAt  time.Time `bun:"created_at"`
}

var errNotFound = errs.New(errs.NotFound, errs.IDNotFound)

// Target reads a target by id (errs.NotFound when there is none).
func Target(ctx context.Context, idb bun.IDB, id int64) (*forwarding.Target, error) {
	t := new(forwarding.Target)
	err := idb.NewSelect().Model(t).Where("id = ?", id).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read forwarding target %d: %w", id, err)
	}
	return t, nil
}

// ApplicationTargets lists an application's targets, oldest first, with
// their queue lengths.
func ApplicationTargets(ctx context.Context, idb bun.IDB, applicationID int64) ([]*forwarding.Target, error) {
	var list []*forwarding.Target
	if err := idb.NewSelect().Model(&list).Where("application_id = ?", applicationID).Order("id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list forwarding targets of application %d: %w", applicationID, err)
	}
	if len(list) == 0 {
		return list, nil
	}
	ids := make([]int64, len(list))
	for i, t := range list {
		ids[i] = t.ID
	}
	var counts []struct {
		TargetID int64 `bun:"target_id"`
		N        int64 `bun:"n"`
	}
	if err := idb.NewSelect().Table("forwarding_queue").ColumnExpr("target_id, COUNT(*) AS n").
		Where("target_id IN (?)", bun.In(ids)).Group("target_id").Scan(ctx, &counts); err != nil {
		return nil, fmt.Errorf("count queued uplinks: %w", err)
	}
	for _, c := range counts {
		for _, t := range list {
			if t.ID == c.TargetID {
				t.Queued = c.N
			}
		}
	}
	return list, nil
}

// CountTargets counts an application's targets.
func CountTargets(ctx context.Context, idb bun.IDB, applicationID int64) (int, error) {
	n, err := idb.NewSelect().Model((*forwarding.Target)(nil)).Where("application_id = ?", applicationID).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("count forwarding targets: %w", err)
	}
	return int(n), nil
}

// Insert stores a new target.
func Insert(ctx context.Context, idb bun.IDB, t *forwarding.Target) error {
	if _, err := idb.NewInsert().Model(t).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("add forwarding target: %w", err)
	}
	return nil
}

// Update stores a target's settings (not its delivery state, which the
// worker owns), and, when enable is set, switches it on with a fresh
// count of failures.
func Update(ctx context.Context, idb bun.IDB, t *forwarding.Target, enable bool) error {
	q := idb.NewUpdate().Model(t).WherePK().
		Column("name", "kind", "enabled", "url", "headers", "sealed_secret", "username", "sealed_password", "topic", "updated_at")
	if enable {
		q = q.Column("failures", "disabled_reason", "next_attempt_at")
	}
	if _, err := q.Exec(ctx); err != nil {
		return fmt.Errorf("update forwarding target %d: %w", t.ID, err)
	}
	return nil
}

// Delete removes a target and its queue.
func Delete(ctx context.Context, idb bun.IDB, id int64) error {
	return idb.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewDelete().Model((*Row)(nil)).Where("target_id = ?", id).Exec(ctx); err != nil {
			return fmt.Errorf("delete the queue of forwarding target %d: %w", id, err)
		}
		if _, err := tx.NewDelete().Model((*forwarding.Target)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
			return fmt.Errorf("delete forwarding target %d: %w", id, err)
		}
		return nil
	})
}

// Ref is an enabled target as the recorder needs it.
type Ref struct {
	ID            int64 `bun:"id"`
	ApplicationID int64 `bun:"application_id"`
}

// EnabledTargets lists the enabled targets, for the recorder's cache.
func EnabledTargets(ctx context.Context, idb bun.IDB) ([]Ref, error) {
	var refs []Ref
	if err := idb.NewSelect().Model((*forwarding.Target)(nil)).Column("id", "application_id").
		Where("enabled = ?", true).Scan(ctx, &refs); err != nil {
		return nil, fmt.Errorf("list enabled forwarding targets: %w", err)
	}
	return refs, nil
}

// Enqueue adds rows in one statement; a row of an uplink the target has
// queued already (a sender's retry) is left out.
func Enqueue(ctx context.Context, idb bun.IDB, rows []Row) error {
	if len(rows) == 0 {
		return nil
	}
	if _, err := idb.NewInsert().Model(&rows).On("CONFLICT DO NOTHING").Exec(ctx); err != nil {
		return fmt.Errorf("queue %d uplinks for forwarding: %w", len(rows), err)
	}
	return nil
}

// Due lists the enabled targets with queued uplinks whose next attempt is
// due and whose lease is free, oldest first.
func Due(ctx context.Context, idb bun.IDB, now time.Time, limit int) ([]*forwarding.Target, error) {
	var list []*forwarding.Target
	err := idb.NewSelect().Model(&list).
		Where("enabled = ? AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)", true, now, now).
		Where("EXISTS (SELECT 1 FROM forwarding_queue q WHERE q.target_id = t.id)").
		Order("id").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("list due forwarding targets: %w", err)
	}
	return list, nil
}

// Claim takes the delivery of a target until until, if its lease is still
// what it was when it was listed; it reports whether it did.
func Claim(ctx context.Context, idb bun.IDB, t *forwarding.Target, now, until time.Time) (bool, error) {
	q := idb.NewUpdate().Model((*forwarding.Target)(nil)).Set("lease_until = ?", until).
		Where("id = ? AND enabled = ? AND (lease_until IS NULL OR lease_until < ?)", t.ID, true, now)
	res, err := q.Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("claim forwarding target %d: %w", t.ID, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// Extend moves a claimed target's lease on.
func Extend(ctx context.Context, idb bun.IDB, id int64, until time.Time) error {
	if _, err := idb.NewUpdate().Model((*forwarding.Target)(nil)).Set("lease_until = ?", until).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("extend the lease of forwarding target %d: %w", id, err)
	}
	return nil
}

// Next lists a target's oldest queued uplinks.
func Next(ctx context.Context, idb bun.IDB, targetID int64, limit int) ([]Row, error) {
	var rows []Row
	if err := idb.NewSelect().Model(&rows).Where("target_id = ?", targetID).Order("id").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("read the queue of forwarding target %d: %w", targetID, err)
	}
	return rows, nil
}

// Delivered removes delivered rows and records them on the target: the
// count, the time, no failures in a row.
func Delivered(ctx context.Context, idb bun.IDB, targetID int64, ids []int64, at time.Time) error {
	return idb.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewDelete().Model((*Row)(nil)).Where("id IN (?)", bun.In(ids)).Exec(ctx); err != nil {
			return fmt.Errorf("delete delivered uplinks: %w", err)
		}
		_, err := tx.NewUpdate().Model((*forwarding.Target)(nil)).Set("delivered = delivered + ?", len(ids)).
			Set("last_success = ?", at).Set("failures = 0").Set("next_attempt_at = ?", at).Where("id = ?", targetID).Exec(ctx)
		if err != nil {
			return fmt.Errorf("record delivered uplinks of forwarding target %d: %w", targetID, err)
		}
		return nil
	})
}

// Failed records a failed delivery in tx: the error among the last ones,
// one failure more, the next attempt after the backoff, and, at
// forwarding.MaxFailures in a row, the target switched off. It returns the
// target as it now is.
func Failed(ctx context.Context, tx bun.Tx, targetID int64, e forwarding.Error) (*forwarding.Target, error) {
	t := new(forwarding.Target)
	if err := tx.NewSelect().Model(t).Where("id = ?", targetID).Scan(ctx); err != nil {
		return nil, fmt.Errorf("read forwarding target %d: %w", targetID, err)
	}
	t.LastErrors = append([]forwarding.Error{e}, t.LastErrors...)
	if len(t.LastErrors) > forwarding.LastErrors {
		t.LastErrors = t.LastErrors[:forwarding.LastErrors]
	}
	t.Failures++
	t.NextAttemptAt = e.Time.Add(forwarding.Backoff(t.Failures))
	t.LeaseUntil = nil
	if t.Failures >= forwarding.MaxFailures {
		t.Enabled = false
		t.DisabledReason = forwarding.DisabledFailures
	}
	if _, err := tx.NewUpdate().Model(t).WherePK().
		Column("last_errors", "failures", "next_attempt_at", "lease_until", "enabled", "disabled_reason").Exec(ctx); err != nil {
		return nil, fmt.Errorf("record failed delivery of forwarding target %d: %w", targetID, err)
	}
	return t, nil
}

// Release ends a claim.
func Release(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewUpdate().Model((*forwarding.Target)(nil)).Set("lease_until = NULL").Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("release forwarding target %d: %w", id, err)
	}
	return nil
}
