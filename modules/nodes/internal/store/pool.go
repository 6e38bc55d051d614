package store

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/modules/nodes"
)

// PoolEntries lists the pool entries of a status, or every one for "all",
// the most recently heard first.
func PoolEntries(ctx context.Context, idb bun.IDB, status string) ([]nodes.PoolEntry, error) {
	list := []nodes.PoolEntry{}
	q := idb.NewSelect().Model(&list).Order("last_seen_at DESC", "id DESC")
	if status != "all" {
		q = q.Where("status = ?", status)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("list node pool: %w", err)
	}
	return list, nil
}

// SetPoolStatus sets the status of pool entry id and returns the entry; an
// unknown id is not found.
func SetPoolStatus(ctx context.Context, idb bun.IDB, id int64, status string) (*nodes.PoolEntry, error) {
	res, err := idb.NewUpdate().Model((*nodes.PoolEntry)(nil)).Set("status = ?", status).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("update pool entry %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, errNotFound
	}
	e := new(nodes.PoolEntry)
	if err := idb.NewSelect().Model(e).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load pool entry %d", id)
	}
	return e, nil
}

// HearInPool adds a DevEUI to the pool, shown, or notes that it was heard
// again: its source and time are updated, and an entry that was taken is
// shown again.
func HearInPool(ctx context.Context, idb bun.IDB, deveui, source string) error {
	t := Now()
	_, err := idb.NewRaw(`INSERT INTO node_pool (deveui, source, status, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (deveui) DO UPDATE SET last_seen_at = EXCLUDED.last_seen_at, source = EXCLUDED.source,
		status = CASE WHEN node_pool.status = ? THEN ? ELSE node_pool.status END`,
		deveui, source, nodes.PoolShown, t, t, nodes.PoolTaken, nodes.PoolShown).Exec(ctx)
	if err != nil {
		return fmt.Errorf("add %s to the node pool: %w", deveui, err)
	}
	return nil
}

// TakeFromPool marks the pool entry of a DevEUI taken, when there is one.
func TakeFromPool(ctx context.Context, idb bun.IDB, deveui string) error {
	_, err := idb.NewUpdate().Model((*nodes.PoolEntry)(nil)).Set("status = ?", nodes.PoolTaken).Where("deveui = ?", deveui).Exec(ctx)
	if err != nil {
		return fmt.Errorf("take %s from the node pool: %w", deveui, err)
	}
	return nil
}
