package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// ScanMark is how far the inactivity job has walked the nodes' latest
// times: (At, TagID), zero before its first run.
type ScanMark struct {
	bun.BaseModel `bun:"table:alarm_inactivity_scan"`
	ID            int64      `bun:"id,pk"`
	At            *time.Time `bun:"at"`
	TagID         int64      `bun:"tag_id"`
}

// Mark reads the inactivity job's mark.
func Mark(ctx context.Context, idb bun.IDB) (time.Time, int64, error) {
	var m ScanMark
	if err := idb.NewSelect().Model(&m).Where("id = 1").Scan(ctx); err != nil {
		return time.Time{}, 0, fmt.Errorf("read inactivity mark: %w", err)
	}
	if m.At == nil {
		return time.Time{}, 0, nil
	}
	return m.At.UTC(), m.TagID, nil
}

// AdvanceMark moves the inactivity job's mark from (fromAt, fromID), as
// the run read it, to (toAt, toID), in the transaction that queues the
// mails about the nodes in between. It answers false, changing nothing,
// when the mark is no longer where the run read it: another instance (on
// PostgreSQL its UPDATE waits for the other's to commit and then finds the
// row changed) or an earlier run has claimed those nodes, and the caller
// rolls back. This compare-and-swap is what makes a silence mailed once.
func AdvanceMark(ctx context.Context, idb bun.IDB, fromAt time.Time, fromID int64, toAt time.Time, toID int64) (bool, error) {
	q := idb.NewUpdate().Model((*ScanMark)(nil)).Set("at = ?", toAt.UTC()).Set("tag_id = ?", toID).Where("id = 1 AND tag_id = ?", fromID)
	if fromAt.IsZero() {
		q = q.Where("at IS NULL")
	} else {
		q = q.Where("at = ?", fromAt.UTC())
	}
	res, err := q.Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("move inactivity mark: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("move inactivity mark: %w", err)
	}
	return n == 1, nil
}
