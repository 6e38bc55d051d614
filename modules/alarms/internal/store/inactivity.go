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

// SetMark moves the inactivity job's mark forward (never back, should two
// runs overlap).
func SetMark(ctx context.Context, idb bun.IDB, at time.Time, tagID int64) error {
	_, err := idb.NewUpdate().Model((*ScanMark)(nil)).Set("at = ?", at.UTC()).Set("tag_id = ?", tagID).
		Where("id = 1 AND (at IS NULL OR at < ? OR (at = ? AND tag_id < ?))", at.UTC(), at.UTC(), tagID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("move inactivity mark: %w", err)
	}
	return nil
}

// Notice records that a node's silence since silentSince is being told of,
// and reports whether it is the first to: false when this silence (or a
// later one) was told of already, by another run or instance.
func Notice(ctx context.Context, idb bun.IDB, tagID int64, silentSince, now time.Time) (bool, error) {
	res, err := idb.NewRaw(`INSERT INTO alarm_inactivity (tag_id, silent_since, notified_at) VALUES (?, ?, ?)
		ON CONFLICT (tag_id) DO UPDATE SET silent_since = excluded.silent_since, notified_at = excluded.notified_at
		WHERE alarm_inactivity.silent_since < excluded.silent_since`, tagID, silentSince.UTC(), now.UTC()).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("note silence of tag %d: %w", tagID, err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}
