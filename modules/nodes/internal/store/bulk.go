package store

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// The bulk import's statements: many rows per statement, in chunks that
// keep each statement's text moderate (Bun writes the values into it).

// bulkChunk is how many rows one statement writes.
const bulkChunk = 500

// chunks calls f with consecutive parts of list of at most bulkChunk.
func chunks[T any](list []T, f func([]T) error) error {
	for len(list) > 0 {
		n := min(len(list), bulkChunk)
		if err := f(list[:n]); err != nil {
			return err
		}
		list = list[n:]
	}
	return nil
}

// InsertTags stores new tags and sets their ids; a DevEUI that another
// tag has is the DevEUI conflict.
func InsertTags(ctx context.Context, idb bun.IDB, tags []*nodes.Tag) error {
	now := Now()
	for _, t := range tags {
		t.CreatedAt, t.UpdatedAt = now, now
		if t.LatestData == "" {
			t.LatestData = "{}"
		}
	}
	return chunks(tags, func(part []*nodes.Tag) error {
		if _, err := idb.NewInsert().Model(&part).Returning("id").Exec(ctx); err != nil {
			if db.IsUniqueViolation(err) {
				return DevEUIConflict()
			}
			return fmt.Errorf("insert %d tags: %w", len(part), err)
		}
		return nil
	})
}

// UpdateTags stores what people edit of many tags, as UpdateTag does for
// one.
func UpdateTags(ctx context.Context, idb bun.IDB, tags []*nodes.Tag) error {
	now := Now()
	for _, t := range tags {
		t.UpdatedAt = now
	}
	return chunks(tags, func(part []*nodes.Tag) error {
		_, err := idb.NewUpdate().Model(&part).
			Column("name", "app_key", "app_eui", "application_id", "latitude", "longitude", "decoder", "updated_at").
			Bulk().Exec(ctx)
		if err != nil {
			return fmt.Errorf("update %d tags: %w", len(part), err)
		}
		return nil
	})
}

// SetKeyLabels registers keys with their labels, or sets the label of
// those the tags have already.
func SetKeyLabels(ctx context.Context, idb bun.IDB, keys []nodes.Key) error {
	now := Now()
	for i := range keys {
		keys[i].CreatedAt = now
	}
	return chunks(keys, func(part []nodes.Key) error {
		_, err := idb.NewInsert().Model(&part).Column("tag_id", "tag_key", "label", "created_at").
			On("CONFLICT (tag_id, tag_key) DO UPDATE").Set("label = EXCLUDED.label").Returning("NULL").Exec(ctx)
		if err != nil {
			return fmt.Errorf("label %d keys: %w", len(part), err)
		}
		return nil
	})
}

// TakeManyFromPool marks the pool entries of DevEUIs as taken.
func TakeManyFromPool(ctx context.Context, idb bun.IDB, deveuis []string) error {
	return chunks(deveuis, func(part []string) error {
		_, err := idb.NewUpdate().Model((*nodes.PoolEntry)(nil)).Set("status = ?", nodes.PoolTaken).
			Where("deveui IN (?)", bun.In(part)).Exec(ctx)
		if err != nil {
			return fmt.Errorf("take %d DevEUIs from the node pool: %w", len(part), err)
		}
		return nil
	})
}

// DevEUIOwners returns the companies of the tags that have any of
// deveuis, by DevEUI.
func DevEUIOwners(ctx context.Context, idb bun.IDB, deveuis []string) (map[string]int64, error) {
	owners := map[string]int64{}
	err := chunks(deveuis, func(part []string) error {
		var rows []struct {
			DevEUI    string `bun:"deveui"`
			CompanyID int64  `bun:"company_id"`
		}
		err := idb.NewSelect().Model((*nodes.Tag)(nil)).Column("deveui", "company_id").
			Where("deveui IN (?)", bun.In(part)).Scan(ctx, &rows)
		if err != nil {
			return fmt.Errorf("look up the owners of %d DevEUIs: %w", len(part), err)
		}
		for _, r := range rows {
			owners[r.DevEUI] = r.CompanyID
		}
		return nil
	})
	return owners, err
}
