// Package store holds the queries of the downlinks table, the queue of the
// netservers module. Each function takes the bun.IDB to run on, so that the
// caller chooses the transaction. A downlink is read with its tag's DevEUI,
// application and company, and the due ones by their application's network
// server: the queries join the nodes module's tags and applications, as
// they did when the queue was the nodes module's (the table's foreign key
// to tags still deletes a tag's downlinks with it).
package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/netservers"
)

var errNotFound = errs.New(errs.NotFound, errs.IDNotFound)

// query selects downlinks with their tag's DevEUI, application and company.
func query(idb bun.IDB, dst any) *bun.SelectQuery {
	return idb.NewSelect().Model(dst).
		ColumnExpr("dl.*").
		ColumnExpr("tag.deveui AS deveui, tag.application_id AS application_id, tag.company_id AS company_id").
		Join("JOIN tags AS tag ON tag.id = dl.tag_id")
}

// ByID loads a downlink; an unknown id is not found.
func ByID(ctx context.Context, idb bun.IDB, id int64) (*netservers.Downlink, error) {
	d := new(netservers.Downlink)
	if err := query(idb, d).Where("dl.id = ?", id).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, errNotFound
		}
		return nil, fmt.Errorf("load downlink %d: %w", id, err)
	}
	return d, nil
}

// OfTag lists the downlinks of a tag, newest first.
func OfTag(ctx context.Context, idb bun.IDB, tagID int64) ([]netservers.Downlink, error) {
	list := []netservers.Downlink{}
	if err := query(idb, &list).Where("dl.tag_id = ?", tagID).OrderExpr("dl.created_at DESC, dl.id DESC").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list downlinks of tag %d: %w", tagID, err)
	}
	return list, nil
}

// Due lists up to limit queued downlinks that are due, oldest first; with
// networkServers, only those of applications that name one of them.
func Due(ctx context.Context, idb bun.IDB, limit int, networkServers []string) ([]netservers.Downlink, error) {
	list := []netservers.Downlink{}
	q := query(idb, &list).Where("dl.status = ?", netservers.DownlinkQueued).
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

// Insert stores a new downlink and sets its id.
func Insert(ctx context.Context, idb bun.IDB, d *netservers.Downlink) error {
	if _, err := idb.NewInsert().Model(d).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("queue downlink: %w", err)
	}
	return nil
}

// DeleteQueued removes downlink id if it is still queued; removed is false
// when it is not (or not there).
func DeleteQueued(ctx context.Context, idb bun.IDB, id int64) (removed bool, err error) {
	res, err := idb.NewDelete().Model((*netservers.Downlink)(nil)).Where("id = ? AND status = ?", id, netservers.DownlinkQueued).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("delete downlink %d: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// SetStatus sets the status and detail of a downlink; queued again, its
// attempts start over, now. An unknown id is not found.
func SetStatus(ctx context.Context, idb bun.IDB, id int64, status, detail string) error {
	q := idb.NewUpdate().Model((*netservers.Downlink)(nil)).
		Set("status = ?", status).Set("detail = ?", detail).
		Set("updated_at = ?", now()).Where("id = ?", id)
	if status == netservers.DownlinkQueued {
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

// RecordAttempt counts a try of downlink id and, if it is still queued,
// sets its status and detail; retryAt is stored either way. An unknown id
// is not found.
func RecordAttempt(ctx context.Context, idb bun.IDB, id int64, status, detail string, retryAt *time.Time) error {
	res, err := idb.NewUpdate().Model((*netservers.Downlink)(nil)).
		Set("attempts = attempts + 1").
		Set("status = CASE WHEN status = ? THEN ? ELSE status END", netservers.DownlinkQueued, status).
		Set("detail = CASE WHEN status = ? THEN ? ELSE detail END", netservers.DownlinkQueued, detail).
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

func now() time.Time { return time.Now().UTC() }
