package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// The batch forms of the lookups and updates the ingest makes for every
// uplink: one statement for the uplinks of a whole group commit instead of
// a few per uplink. Their SQL text does not depend on the values or on how
// many there are (arrays on PostgreSQL, one JSON parameter on SQLite), so
// that the statement stays small however large the batch. They take the
// *bun.DB rather than a bun.IDB: they pass their parameters to the driver
// as they are, past Bun's formatting.

// TagWithKeys is a tag with the names of its keys, as TagsWithKeys reads it.
type TagWithKeys struct {
	nodes.Tag `bun:",extend"`
	// KeyNames are the tag's key names separated by spaces, in the order
	// KeysOfTags gives them; key names hold no spaces.
	KeyNames   sql.NullString `bun:"key_names"`
	DefaultKey sql.NullString `bun:"default_key"`
}

// withKeys selects tags (from the second %s) with their key names (the
// first, keyNames) and their default key.
const withKeys = `SELECT tag.*, ti.version AS image_version, (%s) AS key_names,
	(SELECT tk.tag_key FROM tag_keys AS tk WHERE tk.tag_id = tag.id AND tk.is_default
		ORDER BY tk.tag_key DESC LIMIT 1) AS default_key
	FROM %s LEFT JOIN tag_images AS ti ON ti.tag_id = tag.id `

// keyNames is the subquery of withKeys that joins a tag's key names with
// spaces, in the dialect of bdb.
func keyNames(bdb *bun.DB) string {
	if db.DialectOf(bdb) == db.Postgres {
		return `SELECT string_agg(tk.tag_key, ' ' ORDER BY tk.tag_key) FROM tag_keys AS tk WHERE tk.tag_id = tag.id`
	}
	return `SELECT group_concat(tk.tag_key, ' ' ORDER BY tk.tag_key) FROM tag_keys AS tk WHERE tk.tag_id = tag.id`
}

// TagWithKeysByID reads a tag with the names of its keys and its default
// key, in one query; an unknown id is errs.NotFound.
func TagWithKeysByID(ctx context.Context, bdb *bun.DB, id int64) (*TagWithKeys, error) {
	found, err := tagsWithKeysWhere(ctx, bdb, "id", "bigint", []int64{id})
	if err != nil {
		return nil, fmt.Errorf("load tag %d: %w", id, err)
	}
	if len(found) == 0 {
		return nil, errNotFound
	}
	return &found[0], nil
}

// TagsWithKeys reads the tags of normalised, distinct DevEUIs with the
// names of their keys and their default key, in one query. DevEUIs without
// a tag are left out.
func TagsWithKeys(ctx context.Context, bdb *bun.DB, deveuis []string) ([]TagWithKeys, error) {
	found, err := tagsWithKeysWhere(ctx, bdb, "deveui", "text", deveuis)
	if err != nil {
		return nil, fmt.Errorf("look up the tags of %d DevEUIs: %w", len(deveuis), err)
	}
	return found, nil
}

// TagsWithKeysByID reads the tags of distinct ids as TagsWithKeys does;
// ids without a tag are left out.
func TagsWithKeysByID(ctx context.Context, bdb *bun.DB, ids []int64) ([]TagWithKeys, error) {
	found, err := tagsWithKeysWhere(ctx, bdb, "id", "bigint", ids)
	if err != nil {
		return nil, fmt.Errorf("look up %d tags: %w", len(ids), err)
	}
	return found, nil
}

// tagsWithKeysWhere reads the tags whose column (of PostgreSQL type typ)
// is one of values, with their keys.
func tagsWithKeysWhere[T any](ctx context.Context, bdb *bun.DB, column, typ string, values []T) ([]TagWithKeys, error) {
	var (
		rows *sql.Rows
		err  error
	)
	if db.DialectOf(bdb) == db.Postgres {
		// One lookup of the column's index per value: with "deveui =
		// ANY($1)" the planner scanned the whole table, whose rows every
		// uplink rewrites (0.7 ms a batch with 1,000 tags, and growing).
		rows, err = bdb.DB.QueryContext(ctx, fmt.Sprintf(withKeys, keyNames(bdb),
			fmt.Sprintf(`unnest($1::%[2]s[]) AS u (v) CROSS JOIN LATERAL (SELECT * FROM tags WHERE tags.%[1]s = u.v OFFSET 0) AS tag`, column, typ)),
			values)
	} else {
		list, _ := json.Marshal(values)
		rows, err = bdb.DB.QueryContext(ctx, fmt.Sprintf(withKeys, keyNames(bdb), `tags AS tag`)+
			`WHERE tag.`+column+` IN (SELECT value FROM json_each(?))`, string(list))
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var found []TagWithKeys
	if err := bdb.ScanRows(ctx, rows, &found); err != nil {
		return nil, err
	}
	return found, nil
}

// TagGeneration reads the generation of the tags' identities: the
// tag_generation row, which triggers raise in every transaction that
// changes a tag's identity, keys or image, or deletes a tag.
func TagGeneration(ctx context.Context, bdb *bun.DB) (int64, error) {
	var gen int64
	if err := bdb.DB.QueryRowContext(ctx, `SELECT n FROM tag_generation WHERE id = 1`).Scan(&gen); err != nil {
		return 0, fmt.Errorf("read the generation of the tags: %w", err)
	}
	return gen, nil
}

// StateRow is one tag's new state as UpdateStates writes it: nil leaves a
// column as it is.
type StateRow struct {
	ID                            int64
	Time                          *time.Time
	Data                          *string
	Battery, RSSI, BatteryVoltage *float64
	// Received and DecodeError (JSON) go with Time; a nil DecodeError
	// clears the node's decode error when it is of the uplink at Time.
	Received    *time.Time
	DecodeError *string
	// Written marks values written to the node (nodes.State.Written):
	// Data is merged into the latest data, and Time is the latest time
	// only of a node without one.
	Written bool
}

// UpdateStates writes rows, at most one per tag. An uplink older than the
// tag's latest changes nothing, battery and signal included, as in
// UpdateState; nor do values written older than it. On PostgreSQL the tags
// are locked in id order first, so that two batches that share tags cannot
// deadlock.
func UpdateStates(ctx context.Context, bdb *bun.DB, rows []StateRow) error {
	if len(rows) == 0 {
		return nil
	}
	// %[1]s is the updated table's name, %[2]s the merge of written values
	// into its latest data.
	const set = `SET battery = COALESCE(v.battery, %[1]s.battery), rssi = COALESCE(v.rssi, %[1]s.rssi),
		battery_voltage = COALESCE(v.battery_voltage, %[1]s.battery_voltage),
		latest_time = CASE WHEN v.written THEN COALESCE(%[1]s.latest_time, v.latest_time) ELSE COALESCE(v.latest_time, %[1]s.latest_time) END,
		latest_data = CASE WHEN v.written THEN %[2]s ELSE COALESCE(v.latest_data, %[1]s.latest_data) END,
		latest_received_at = COALESCE(v.latest_received_at, %[1]s.latest_received_at),
		decode_error = CASE WHEN v.decode_error IS NOT NULL THEN v.decode_error
			WHEN NOT v.written AND %[1]s.decode_error_at = v.latest_time THEN NULL ELSE %[1]s.decode_error END,
		decode_error_at = CASE WHEN v.decode_error IS NOT NULL THEN v.latest_time
			WHEN NOT v.written AND %[1]s.decode_error_at = v.latest_time THEN NULL ELSE %[1]s.decode_error_at END `
	const newer = ` AND (v.latest_time IS NULL OR %[1]s.latest_time IS NULL OR %[1]s.latest_time <= v.latest_time)`
	if db.DialectOf(bdb) == db.Postgres {
		// The tags are locked in id order, each through its primary key,
		// and the update finds them by it too: a join let the planner scan
		// the whole table twice.
		rows = slices.Clone(rows)
		slices.SortFunc(rows, func(a, b StateRow) int { return cmp.Compare(a.ID, b.ID) })
		n := len(rows)
		ids := make([]int64, n)
		times := make([]*time.Time, n)
		data := make([]*string, n)
		battery, rssi, volts := make([]*float64, n), make([]*float64, n), make([]*float64, n)
		received, decodeErr := make([]*time.Time, n), make([]*string, n)
		written := make([]bool, n)
		for i, r := range rows {
			ids[i], times[i], data[i], battery[i], rssi[i], volts[i] = r.ID, r.Time, r.Data, r.Battery, r.RSSI, r.BatteryVoltage
			received[i], decodeErr[i], written[i] = r.Received, r.DecodeError, r.Written
		}
		_, err := bdb.DB.ExecContext(ctx, `WITH v AS (
				SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::float8[], $5::float8[], $6::float8[],
						$7::timestamptz[], $8::text[], $9::bool[])
					AS v (id, latest_time, latest_data, battery, rssi, battery_voltage, latest_received_at, decode_error, written)
			), locked AS (
				SELECT l.id FROM v CROSS JOIN LATERAL (SELECT id FROM tags WHERE tags.id = v.id OFFSET 0 FOR UPDATE) AS l
			)
			UPDATE tags AS t `+fmt.Sprintf(set, "t", `(t.latest_data::jsonb || v.latest_data::jsonb)::text`)+`FROM v
			WHERE t.id = ANY($1::bigint[]) AND t.id = v.id AND t.id IN (SELECT id FROM locked)`+fmt.Sprintf(newer, "t"),
			ids, times, data, battery, rssi, volts, received, decodeErr, written)
		return err
	}
	list := make([][9]any, len(rows))
	for i, r := range rows {
		list[i] = [9]any{r.ID, nil, r.Data, r.Battery, r.RSSI, r.BatteryVoltage, nil, r.DecodeError, r.Written}
		if r.Time != nil {
			list[i][1] = sqliteTime(*r.Time)
		}
		if r.Received != nil {
			list[i][6] = sqliteTime(*r.Received)
		}
	}
	raw, err := json.Marshal(list)
	if err != nil {
		return err
	}
	_, err = bdb.DB.ExecContext(ctx, `UPDATE tags `+fmt.Sprintf(set, "tags", `json_patch(tags.latest_data, v.latest_data)`)+`FROM (
			SELECT value ->> 0 AS id, value ->> 1 AS latest_time, value ->> 2 AS latest_data,
				value ->> 3 AS battery, value ->> 4 AS rssi, value ->> 5 AS battery_voltage,
				value ->> 6 AS latest_received_at, value ->> 7 AS decode_error, value ->> 8 AS written FROM json_each(?)
		) AS v WHERE tags.id = v.id`+fmt.Sprintf(newer, "tags"), string(raw))
	return err
}

// KeyOfTag names one data key of a tag.
type KeyOfTag struct {
	TagID int64
	Key   string
}

// EnsureKeysOfTags registers the keys that are not known yet, in one
// statement; keys of tags that do not exist (any more) are skipped.
func EnsureKeysOfTags(ctx context.Context, bdb *bun.DB, pairs []KeyOfTag) error {
	if len(pairs) == 0 {
		return nil
	}
	// In one order for every writer, so that two that insert the same keys
	// wait for each other rather than deadlock.
	pairs = slices.Clone(pairs)
	slices.SortFunc(pairs, func(a, b KeyOfTag) int {
		return cmp.Or(cmp.Compare(a.TagID, b.TagID), strings.Compare(a.Key, b.Key))
	})
	pairs = slices.Compact(pairs)
	var err error
	if db.DialectOf(bdb) == db.Postgres {
		ids, names := make([]int64, len(pairs)), make([]string, len(pairs))
		for i, p := range pairs {
			ids[i], names[i] = p.TagID, p.Key
		}
		_, err = bdb.DB.ExecContext(ctx, `INSERT INTO tag_keys (tag_id, tag_key, created_at)
			SELECT k.tag_id, k.tag_key, $3 FROM unnest($1::bigint[], $2::text[]) AS k (tag_id, tag_key)
			WHERE EXISTS (SELECT 1 FROM tags WHERE tags.id = k.tag_id)
			ON CONFLICT (tag_id, tag_key) DO NOTHING`, ids, names, Now())
	} else {
		list := make([][2]any, len(pairs))
		for i, p := range pairs {
			list[i] = [2]any{p.TagID, p.Key}
		}
		raw, _ := json.Marshal(list)
		_, err = bdb.DB.ExecContext(ctx, `INSERT INTO tag_keys (tag_id, tag_key, created_at)
			SELECT k.value ->> 0, k.value ->> 1, ? FROM json_each(?) AS k
			WHERE EXISTS (SELECT 1 FROM tags WHERE tags.id = k.value ->> 0)
			ON CONFLICT (tag_id, tag_key) DO NOTHING`, sqliteTime(Now()), string(raw))
	}
	if err != nil {
		return fmt.Errorf("register %d keys: %w", len(pairs), err)
	}
	return nil
}

// sqliteTime spells t as Bun writes times into SQLite, so that what these
// statements store compares and reads back as what Bun stores.
func sqliteTime(t time.Time) string {
	return t.UTC().Format("2006-01-02 15:04:05.999999-07:00")
}
