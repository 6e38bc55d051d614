package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// tagQuery selects tags with the version of their picture.
func tagQuery(idb bun.IDB, dst any) *bun.SelectQuery {
	return idb.NewSelect().Model(dst).
		ColumnExpr("tag.*").
		ColumnExpr("ti.version AS image_version").
		Join("LEFT JOIN tag_images AS ti ON ti.tag_id = tag.id")
}

// TagByID loads a tag as stored; an unknown id is not found.
func TagByID(ctx context.Context, idb bun.IDB, id int64) (*nodes.Tag, error) {
	t := new(nodes.Tag)
	if err := tagQuery(idb, t).Where("tag.id = ?", id).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load tag %d", id)
	}
	return t, nil
}

// TagByDevEUI loads the tag of a normalised DevEUI as stored.
func TagByDevEUI(ctx context.Context, idb bun.IDB, deveui string) (*nodes.Tag, error) {
	t := new(nodes.Tag)
	if err := tagQuery(idb, t).Where("tag.deveui = ?", deveui).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load tag %s", deveui)
	}
	return t, nil
}

// Tags lists the tags of one company, or of all when companyID is 0, by
// name.
func Tags(ctx context.Context, idb bun.IDB, companyID int64) ([]*nodes.Tag, error) {
	list := []*nodes.Tag{}
	q := tagQuery(idb, &list).OrderExpr("tag.name, tag.id")
	if companyID != 0 {
		q = q.Where("tag.company_id = ?", companyID)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("list tags: %w", err)
	}
	return list, nil
}

// DecoderNodes lists the tags of a company whose decoder is key, by name.
func DecoderNodes(ctx context.Context, idb bun.IDB, companyID int64, key string) ([]decoders.NodeRef, error) {
	list := []decoders.NodeRef{}
	err := idb.NewSelect().Model((*nodes.Tag)(nil)).Column("id", "name", "deveui").
		Where("company_id = ? AND decoder = ?", companyID, key).OrderExpr("name, id").Scan(ctx, &list)
	if err != nil {
		return nil, fmt.Errorf("list tags of company %d with decoder %q: %w", companyID, key, err)
	}
	return list, nil
}

// DevEUITaken reports whether a tag other than except has deveui.
func DevEUITaken(ctx context.Context, idb bun.IDB, deveui string, except int64) (bool, error) {
	ok, err := idb.NewSelect().Model((*nodes.Tag)(nil)).Where("deveui = ? AND id <> ?", deveui, except).Exists(ctx)
	if err != nil {
		return false, fmt.Errorf("look up deveui: %w", err)
	}
	return ok, nil
}

// DevEUIConflict is the error of a DevEUI that another tag has, on the
// field "Deveui" as the API has always named it.
func DevEUIConflict() error {
	v := errs.Validation{}
	v.Add("Deveui", nodes.IDDevEUITaken)
	return v.Err()
}

// InsertTag stores a new tag and sets its id.
func InsertTag(ctx context.Context, idb bun.IDB, t *nodes.Tag) error {
	t.CreatedAt, t.UpdatedAt = Now(), Now()
	if t.LatestData == "" {
		t.LatestData = "{}"
	}
	if _, err := idb.NewInsert().Model(t).Returning("id").Exec(ctx); err != nil {
		if db.IsUniqueViolation(err) {
			return DevEUIConflict()
		}
		return fmt.Errorf("insert tag: %w", err)
	}
	return nil
}

// UpdateTag stores what people edit of a tag; the reported state (battery,
// latest data and so on) is left to the uplinks.
func UpdateTag(ctx context.Context, idb bun.IDB, t *nodes.Tag) error {
	t.UpdatedAt = Now()
	_, err := idb.NewUpdate().Model(t).
		Column("company_id", "application_id", "name", "deveui", "app_key", "app_eui", "profile",
			"latitude", "longitude", "location", "type", "decoder", "updated_at").
		WherePK().Exec(ctx)
	if err != nil {
		if db.IsUniqueViolation(err) {
			return DevEUIConflict()
		}
		return fmt.Errorf("update tag %d: %w", t.ID, err)
	}
	return nil
}

// DeleteTag removes a tag; its keys, picture and downlinks go with it.
func DeleteTag(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*nodes.Tag)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete tag %d: %w", id, err)
	}
	return nil
}

// DeleteDownlinksOf removes the downlinks of a tag that moves to another
// company: its queue and history are the old company's. The table is the
// netservers module's queue, made by this module's migrations, which
// remove a tag's downlinks with the tag; a moved tag loses them the same
// way.
func DeleteDownlinksOf(ctx context.Context, idb bun.IDB, tagID int64) error {
	if _, err := idb.NewRaw("DELETE FROM downlinks WHERE tag_id = ?", tagID).Exec(ctx); err != nil {
		return fmt.Errorf("delete downlinks of tag %d: %w", tagID, err)
	}
	return nil
}

// SilentTags lists the tags of expected uplink interval every whose latest
// time lies after (after, afterID) and at or before until, by (latest time,
// id); see nodes.Silence.
func SilentTags(ctx context.Context, idb bun.IDB, every time.Duration, after time.Time, afterID int64, until time.Time, limit int) ([]nodes.SilentTag, error) {
	list := []nodes.SilentTag{}
	q := idb.NewSelect().Model((*nodes.Tag)(nil)).Column("id", "company_id", "name", "deveui", "latest_time").
		Where("uplink_interval = ?", int64(every/time.Second)).
		Where("latest_time IS NOT NULL AND latest_time <= ?", until.UTC())
	if !after.IsZero() {
		q = q.Where("(latest_time, id) > (?, ?)", after.UTC(), afterID)
	}
	if err := q.OrderExpr("latest_time, id").Limit(int64(limit)).Scan(ctx, &list); err != nil {
		return nil, fmt.Errorf("list silent tags: %w", err)
	}
	return list, nil
}

// UplinkIntervals lists the tags' expected uplink intervals other than 0,
// each once. It skips from one interval to the next through the index on
// (uplink_interval, latest_time, id), a lookup per interval, so that it
// costs nothing like a read of the nodes however many have one.
func UplinkIntervals(ctx context.Context, idb bun.IDB) ([]time.Duration, error) {
	var secs []int64
	err := idb.NewRaw(`WITH RECURSIVE i (v) AS (
			SELECT min(uplink_interval) FROM tags WHERE uplink_interval > 0
			UNION ALL
			SELECT (SELECT min(uplink_interval) FROM tags WHERE uplink_interval > i.v) FROM i WHERE i.v IS NOT NULL)
		SELECT v FROM i WHERE v IS NOT NULL`).Scan(ctx, &secs)
	if err != nil {
		return nil, fmt.Errorf("list uplink intervals: %w", err)
	}
	out := make([]time.Duration, len(secs))
	for i, s := range secs {
		out[i] = time.Duration(s) * time.Second
	}
	return out, nil
}

// SetUplinkInterval sets a tag's expected uplink interval (0: none).
func SetUplinkInterval(ctx context.Context, idb bun.IDB, tagID int64, every time.Duration) error {
	if _, err := idb.NewRaw("UPDATE tags SET uplink_interval = ? WHERE id = ? AND uplink_interval <> ?",
		int64(every/time.Second), tagID, int64(every/time.Second)).Exec(ctx); err != nil {
		return fmt.Errorf("set uplink interval of tag %d: %w", tagID, err)
	}
	return nil
}
