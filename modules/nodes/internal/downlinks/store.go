package downlinks

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// The queries of the downlinks table. Each takes the bun.IDB to run on.

var errNotFound = errs.New(errs.NotFound, errs.IDNotFound)

// query selects downlinks with their tag's DevEUI, application and company.
func query(idb bun.IDB, dst any) *bun.SelectQuery {
	return idb.NewSelect().Model(dst).
		ColumnExpr("dl.*").
		ColumnExpr("tag.deveui AS deveui, tag.application_id AS application_id, tag.company_id AS company_id").
		Join("JOIN tags AS tag ON tag.id = dl.tag_id")
}

// byID loads a downlink; an unknown id is not found.
func byID(ctx context.Context, idb bun.IDB, id int64) (*nodes.Downlink, error) {
	d := new(nodes.Downlink)
	if err := query(idb, d).Where("dl.id = ?", id).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, errNotFound
		}
		return nil, fmt.Errorf("load downlink %d: %w", id, err)
	}
	return d, nil
}

// ofTag lists the downlinks of a tag, newest first.
func ofTag(ctx context.Context, idb bun.IDB, tagID int64) ([]nodes.Downlink, error) {
	list := []nodes.Downlink{}
	if err := query(idb, &list).Where("dl.tag_id = ?", tagID).OrderExpr("dl.created_at DESC, dl.id DESC").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list downlinks of tag %d: %w", tagID, err)
	}
	return list, nil
}

// due lists up to limit queued downlinks that are due, oldest first; with
// networkServers, only those of applications that name one of them.
func due(ctx context.Context, idb bun.IDB, limit int, networkServers []string) ([]nodes.Downlink, error) {
	list := []nodes.Downlink{}
	q := query(idb, &list).Where("dl.status = ?", nodes.DownlinkQueued).
		Where("dl.retry_at IS NULL OR dl.retry_at <= ?", now())
	if len(networkServers) > 0 {
		q = q.Join("JOIN applications AS app ON app.id = tag.application_id").Where("app.network_server IN (?)", bun.In(networkServers))
	}
	err := q.OrderExpr("dl.created_at, dl.id").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("read downlink queue: %w", err)
	}
	return list, nil
}

// insert stores a new downlink and sets its id.
func insert(ctx context.Context, idb bun.IDB, d *nodes.Downlink) error {
	if _, err := idb.NewInsert().Model(d).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("queue downlink: %w", err)
	}
	return nil
}

// deleteQueued removes downlink id if it is still queued; removed is false
// when it is not (or not there).
func deleteQueued(ctx context.Context, idb bun.IDB, id int64) (removed bool, err error) {
	res, err := idb.NewDelete().Model((*nodes.Downlink)(nil)).Where("id = ? AND status = ?", id, nodes.DownlinkQueued).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("delete downlink %d: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// setStatus sets the status and detail of a downlink; queued again, its
// attempts start over, now. An unknown id is not found.
func setStatus(ctx context.Context, idb bun.IDB, id int64, status, detail string) error {
	q := idb.NewUpdate().Model((*nodes.Downlink)(nil)).
		Set("status = ?", status).Set("detail = ?", detail).
		Set("updated_at = ?", now()).Where("id = ?", id)
	if status == nodes.DownlinkQueued {
		// Queued again: the worker starts over, now.
		q = q.Set("attempts = 0").Set("retry_at = NULL")
	}
	res, err := q.Exec(ctx)
	if err != nil {
		return fmt.Errorf("set status of downlink %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errNotFound
	}
	return nil
}

// recordAttempt counts a try of downlink id and, if it is still queued,
// sets its status and detail; retryAt is stored either way. An unknown id
// is not found.
func recordAttempt(ctx context.Context, idb bun.IDB, id int64, status, detail string, retryAt *time.Time) error {
	res, err := idb.NewUpdate().Model((*nodes.Downlink)(nil)).
		Set("attempts = attempts + 1").
		Set("status = CASE WHEN status = ? THEN ? ELSE status END", nodes.DownlinkQueued, status).
		Set("detail = CASE WHEN status = ? THEN ? ELSE detail END", nodes.DownlinkQueued, detail).
		Set("retry_at = ?", retryAt).
		Set("updated_at = ?", now()).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("record attempt of downlink %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errNotFound
	}
	return nil
}
