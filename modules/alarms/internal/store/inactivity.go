package store

import (
	"context"
	"fmt"
	"strings"
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

// Silence is a node's silence since a time, for Notices.
type Silence struct {
	TagID int64
	Since time.Time
}

// Notices is Notice for many nodes in one statement: it answers the tags
// whose silence it was the first to record.
func Notices(ctx context.Context, idb bun.IDB, list []Silence, now time.Time) (map[int64]bool, error) {
	first := map[int64]bool{}
	if len(list) == 0 {
		return first, nil
	}
	values := make([]string, len(list))
	args := make([]any, 0, 3*len(list))
	for i, s := range list {
		values[i] = "(?, ?, ?)"
		args = append(args, s.TagID, s.Since.UTC(), now.UTC())
	}
	var ids []int64
	err := idb.NewRaw(`INSERT INTO alarm_inactivity (tag_id, silent_since, notified_at) VALUES `+strings.Join(values, ", ")+`
		ON CONFLICT (tag_id) DO UPDATE SET silent_since = excluded.silent_since, notified_at = excluded.notified_at
		WHERE alarm_inactivity.silent_since < excluded.silent_since RETURNING tag_id`, args...).Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("note silences: %w", err)
	}
	for _, id := range ids {
		first[id] = true
	}
	return first, nil
}
