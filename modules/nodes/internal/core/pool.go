package core

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
)

func validPoolStatus(s string) bool { return s == PoolHidden || s == PoolShown || s == PoolTaken }

func badPoolStatus() error {
	v := errs.Validation{}
	v.Add("status", msgPoolStatus)
	return v.Err()
}

// listPool answers GET /tag/pool: the entries shown in the default list,
// newest first; ?status=hidden, taken or all lists others.
func (m *Module) listPool(w http.ResponseWriter, r *http.Request) error {
	list, err := m.poolEntries(r.Context(), r.URL.Query().Get("status"))
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

// poolEntries lists the pool entries of a status ("" for shown, "all" for
// every one), the most recently heard first. The API and the /tag/pool page
// both use it.
func (m *Module) poolEntries(ctx context.Context, status string) ([]PoolEntry, error) {
	if status == "" {
		status = PoolShown
	}
	if status != "all" && !validPoolStatus(status) {
		return nil, badPoolStatus()
	}
	list := []PoolEntry{}
	q := m.db.NewSelect().Model(&list).Order("last_seen_at DESC", "id DESC")
	if status != "all" {
		q = q.Where("status = ?", status)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("list node pool: %w", err)
	}
	return list, nil
}

// updatePool answers PUT /tag/pool/{poolId} with {"status": ...}.
func (m *Module) updatePool(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "poolId")
	if err != nil {
		return err
	}
	var in struct {
		Status string `json:"status"`
	}
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	e, err := m.setPoolStatus(r.Context(), id, in.Status)
	if err != nil {
		return err
	}
	return web.OK(w, e)
}

// setPoolStatus hides, shows or takes pool entry id. The API and the
// /tag/pool page both use it.
func (m *Module) setPoolStatus(ctx context.Context, id int64, status string) (*PoolEntry, error) {
	status = strings.ToLower(strings.TrimSpace(status))
	if !validPoolStatus(status) {
		return nil, badPoolStatus()
	}
	res, err := m.db.NewUpdate().Model((*PoolEntry)(nil)).Set("status = ?", status).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("update pool entry %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, errNotFound
	}
	e := new(PoolEntry)
	if err := m.db.NewSelect().Model(e).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load pool entry %d", id)
	}
	return e, nil
}

// AddToPool records a DevEUI that reached the portal without a tag, or
// notes that it was heard again. A DevEUI that has a tag is left alone; one
// whose entry was taken while its tag has since gone is shown again.
func (m *Module) AddToPool(ctx context.Context, deveui, source string) error {
	deveui = NormaliseEUI(deveui)
	if !ValidDevEUI(deveui) {
		v := errs.Validation{}
		v.Add("deveui", msgDevEUIFormat)
		return v.Err()
	}
	source = strings.TrimSpace(source)
	if len(source) > 64 || !cleanText(source) {
		source = ""
	}
	return m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if taken, err := m.store.devEUITaken(ctx, tx, deveui, 0); err != nil || taken {
			return err
		}
		t := now()
		_, err := tx.NewRaw(`INSERT INTO node_pool (deveui, source, status, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (deveui) DO UPDATE SET last_seen_at = EXCLUDED.last_seen_at, source = EXCLUDED.source,
			status = CASE WHEN node_pool.status = ? THEN ? ELSE node_pool.status END`,
			deveui, source, PoolShown, t, t, PoolTaken, PoolShown).Exec(ctx)
		if err != nil {
			return fmt.Errorf("add %s to the node pool: %w", deveui, err)
		}
		return nil
	})
}

// takeFromPool marks the pool entry of a DevEUI taken, when there is one.
func (store) takeFromPool(ctx context.Context, idb bun.IDB, deveui string) error {
	_, err := idb.NewUpdate().Model((*PoolEntry)(nil)).Set("status = ?", PoolTaken).Where("deveui = ?", deveui).Exec(ctx)
	if err != nil {
		return fmt.Errorf("take %s from the node pool: %w", deveui, err)
	}
	return nil
}
