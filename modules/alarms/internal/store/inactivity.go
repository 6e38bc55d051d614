package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// ScanMark is how far the inactivity job has walked the latest times of
// the nodes of one expected uplink interval (in seconds, 0 for the nodes
// without one): (At, TagID), zero before its first run.
type ScanMark struct {
	bun.BaseModel  `bun:"table:alarm_inactivity_marks"`
	UplinkInterval int64      `bun:"uplink_interval,pk"`
	At             *time.Time `bun:"at"`
	TagID          int64      `bun:"tag_id"`
}

// seconds is the key of the mark of interval every.
func seconds(every time.Duration) int64 { return int64(every / time.Second) }

// Mark reads the inactivity job's mark of the nodes of interval every,
// making it (at the start) for an interval met the first time.
func Mark(ctx context.Context, idb bun.IDB, every time.Duration) (time.Time, int64, error) {
	m := ScanMark{UplinkInterval: seconds(every)}
	if _, err := idb.NewInsert().Model(&m).On("CONFLICT (uplink_interval) DO NOTHING").Exec(ctx); err != nil {
		return time.Time{}, 0, fmt.Errorf("make inactivity mark: %w", err)
	}
	if err := idb.NewSelect().Model(&m).WherePK().Scan(ctx); err != nil {
		return time.Time{}, 0, fmt.Errorf("read inactivity mark: %w", err)
	}
	if m.At == nil {
		return time.Time{}, 0, nil
	}
	return m.At.UTC(), m.TagID, nil
}

// AdvanceMark moves the inactivity job's mark of interval every from
// (fromAt, fromID), as the run read it, to (toAt, toID), in the
// transaction that queues the mails about the nodes in between. It answers
// false, changing nothing, when the mark is no longer where the run read
// it: another instance (on PostgreSQL its UPDATE waits for the other's to
// commit and then finds the row changed) or an earlier run has claimed
// those nodes, and the caller rolls back. This compare-and-swap is what
// makes a silence mailed once.
func AdvanceMark(ctx context.Context, idb bun.IDB, every time.Duration, fromAt time.Time, fromID int64, toAt time.Time, toID int64) (bool, error) {
	q := idb.NewUpdate().Model((*ScanMark)(nil)).Set("at = ?", toAt.UTC()).Set("tag_id = ?", toID).
		Where("uplink_interval = ? AND tag_id = ?", seconds(every), fromID)
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
