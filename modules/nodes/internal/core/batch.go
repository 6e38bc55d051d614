package core

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
)

// The batch forms of the lookups and updates the ingest makes for every
// uplink: one statement for the uplinks of a whole group commit instead of
// a few per uplink. Their SQL text does not depend on the values or on how
// many there are (arrays on PostgreSQL, one JSON parameter on SQLite), so
// that PostgreSQL parses and plans each once per connection, and the
// driver's statement cache keeps it rather than preparing and deallocating
// a new text every time.

// TagState is the State of one tag, for UpdateStates.
type TagState struct {
	TagID int64
	State
}

// tagWithKeys is a tag with the names of its keys, as TagsByDevEUI reads it.
type tagWithKeys struct {
	Tag `bun:",extend"`
	// KeyNames are the tag's key names separated by spaces, in the order
	// keysOfTags gives them; key names hold no spaces (validKey).
	KeyNames   sql.NullString `bun:"key_names"`
	DefaultKey sql.NullString `bun:"default_key"`
}

// TagsByDevEUI returns the tags of the DevEUIs, keyed by DevEUI as tags
// store it (upper case), each as TagByDevEUI returns it, in one query. A
// DevEUI without a tag, or one that is not a DevEUI, is absent.
func (m *Module) TagsByDevEUI(ctx context.Context, deveuis []string) (map[string]*Tag, error) {
	out := make(map[string]*Tag, len(deveuis))
	want := make([]string, 0, len(deveuis))
	seen := make(map[string]bool, len(deveuis))
	for _, d := range deveuis {
		if d = NormaliseEUI(d); ValidDevEUI(d) && !seen[d] {
			seen[d] = true
			want = append(want, d)
		}
	}
	if len(want) == 0 {
		return out, nil
	}
	var (
		rows *sql.Rows
		err  error
	)
	const columns = `SELECT tag.*, ti.version AS image_version, (%s) AS key_names,
		(SELECT tk.tag_key FROM tag_keys AS tk WHERE tk.tag_id = tag.id AND tk.is_default
			ORDER BY tk.tag_key DESC LIMIT 1) AS default_key
		FROM %s LEFT JOIN tag_images AS ti ON ti.tag_id = tag.id `
	if db.DialectOf(m.db) == db.Postgres {
		// One lookup of the DevEUI index per DevEUI: with "deveui =
		// ANY($1)" the planner scanned the whole table, whose rows every
		// uplink rewrites (0.7 ms a batch with 1,000 tags, and growing).
		rows, err = m.db.DB.QueryContext(ctx, fmt.Sprintf(columns,
			`SELECT string_agg(tk.tag_key, ' ' ORDER BY tk.tag_key) FROM tag_keys AS tk WHERE tk.tag_id = tag.id`,
			`unnest($1::text[]) AS u (deveui) CROSS JOIN LATERAL (SELECT * FROM tags WHERE tags.deveui = u.deveui OFFSET 0) AS tag`),
			want)
	} else {
		list, _ := json.Marshal(want)
		rows, err = m.db.DB.QueryContext(ctx, fmt.Sprintf(columns,
			`SELECT group_concat(tk.tag_key, ' ' ORDER BY tk.tag_key) FROM tag_keys AS tk WHERE tk.tag_id = tag.id`,
			`tags AS tag`)+
			`WHERE tag.deveui IN (SELECT value FROM json_each(?))`, string(list))
	}
	if err != nil {
		return nil, fmt.Errorf("look up the tags of %d DevEUIs: %w", len(want), err)
	}
	defer rows.Close()
	var found []tagWithKeys
	if err := m.db.ScanRows(ctx, rows, &found); err != nil {
		return nil, fmt.Errorf("look up the tags of %d DevEUIs: %w", len(want), err)
	}
	tags := make([]*Tag, len(found))
	names := make(map[int64][]string, len(found))
	defaults := make(map[int64]string, len(found))
	for i := range found {
		r := &found[i]
		tags[i] = &r.Tag
		if r.KeyNames.String != "" {
			names[r.ID] = strings.Split(r.KeyNames.String, " ")
		}
		if r.DefaultKey.Valid {
			defaults[r.ID] = r.DefaultKey.String
		}
	}
	if err := m.derive(tags, names, defaults); err != nil {
		return nil, err
	}
	for _, t := range tags {
		out[t.DevEUI] = t
	}
	return out, nil
}

// stateRow is one tag's new state as UpdateStates writes it: nil leaves a
// column as it is.
type stateRow struct {
	id                 int64
	time               *time.Time
	data               *string
	battery, rssi, vdd *float64
}

// UpdateStates records what many nodes reported, each as UpdateState does,
// in one statement (or one per repetition, when a tag comes more than once:
// its states then apply in the order given).
func (m *Module) UpdateStates(ctx context.Context, states []TagState) error {
	var rounds [][]stateRow // a tag at most once in each
	seen := make(map[int64]int, len(states))
	for _, s := range states {
		r, ok, err := newStateRow(s)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		i := seen[s.TagID]
		seen[s.TagID]++
		if i == len(rounds) {
			rounds = append(rounds, nil)
		}
		rounds[i] = append(rounds[i], r)
	}
	for _, round := range rounds {
		if err := m.updateStates(ctx, round); err != nil {
			return fmt.Errorf("update the state of %d tags: %w", len(round), err)
		}
	}
	return nil
}

// newStateRow encodes s; ok is false when it changes nothing.
func newStateRow(s TagState) (stateRow, bool, error) {
	r := stateRow{id: s.TagID}
	finite := func(v *float64) *float64 {
		if v == nil || math.IsNaN(*v) || math.IsInf(*v, 0) {
			return nil
		}
		return v
	}
	r.battery, r.rssi, r.vdd = finite(s.Battery), finite(s.RSSI), finite(s.VDD)
	if s.Time != nil {
		t := s.Time.UTC().Truncate(time.Microsecond)
		data := s.Data
		if data == nil {
			data = map[string]any{}
		}
		raw, err := json.Marshal(data)
		if err != nil {
			return r, false, fmt.Errorf("encode latest data of tag %d: %w", s.TagID, err)
		}
		text := string(raw)
		r.time, r.data = &t, &text
	}
	return r, r.time != nil || r.battery != nil || r.rssi != nil || r.vdd != nil, nil
}

// updateStates writes rows, at most one per tag. An uplink older than the
// tag's latest changes nothing, battery and signal included, as in
// UpdateState. On PostgreSQL the tags are locked in id order first, so that
// two batches that share tags cannot deadlock.
func (m *Module) updateStates(ctx context.Context, rows []stateRow) error {
	if len(rows) == 0 {
		return nil
	}
	const set = `SET battery = COALESCE(v.battery, %[1]s.battery), rssi = COALESCE(v.rssi, %[1]s.rssi),
		vdd = COALESCE(v.vdd, %[1]s.vdd), latest_time = COALESCE(v.latest_time, %[1]s.latest_time),
		latest_data = COALESCE(v.latest_data, %[1]s.latest_data) `
	const newer = ` AND (v.latest_time IS NULL OR %[1]s.latest_time IS NULL OR %[1]s.latest_time <= v.latest_time)`
	if db.DialectOf(m.db) == db.Postgres {
		// The tags are locked in id order, each through its primary key,
		// and the update finds them by it too: a join let the planner scan
		// the whole table twice.
		rows = slices.Clone(rows)
		slices.SortFunc(rows, func(a, b stateRow) int { return cmp.Compare(a.id, b.id) })
		n := len(rows)
		ids := make([]int64, n)
		times := make([]*time.Time, n)
		data := make([]*string, n)
		battery, rssi, vdd := make([]*float64, n), make([]*float64, n), make([]*float64, n)
		for i, r := range rows {
			ids[i], times[i], data[i], battery[i], rssi[i], vdd[i] = r.id, r.time, r.data, r.battery, r.rssi, r.vdd
		}
		_, err := m.db.DB.ExecContext(ctx, `WITH v AS (
				SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::float8[], $5::float8[], $6::float8[])
					AS v (id, latest_time, latest_data, battery, rssi, vdd)
			), locked AS (
				SELECT l.id FROM v CROSS JOIN LATERAL (SELECT id FROM tags WHERE tags.id = v.id OFFSET 0 FOR UPDATE) AS l
			)
			UPDATE tags AS t `+fmt.Sprintf(set, "t")+`FROM v
			WHERE t.id = ANY($1::bigint[]) AND t.id = v.id AND t.id IN (SELECT id FROM locked)`+fmt.Sprintf(newer, "t"),
			ids, times, data, battery, rssi, vdd)
		return err
	}
	list := make([][6]any, len(rows))
	for i, r := range rows {
		list[i] = [6]any{r.id, nil, r.data, r.battery, r.rssi, r.vdd}
		if r.time != nil {
			list[i][1] = sqliteTime(*r.time)
		}
	}
	raw, err := json.Marshal(list)
	if err != nil {
		return err
	}
	_, err = m.db.DB.ExecContext(ctx, `UPDATE tags `+fmt.Sprintf(set, "tags")+`FROM (
			SELECT value ->> 0 AS id, value ->> 1 AS latest_time, value ->> 2 AS latest_data,
				value ->> 3 AS battery, value ->> 4 AS rssi, value ->> 5 AS vdd FROM json_each(?)
		) AS v WHERE tags.id = v.id`+fmt.Sprintf(newer, "tags"), string(raw))
	return err
}

// EnsureKeysOfTags is EnsureKeys for many tags (by id) in one statement.
// Malformed names are skipped, and so are tags that do not exist (any
// more).
func (m *Module) EnsureKeysOfTags(ctx context.Context, keys map[int64][]string) error {
	type pair struct {
		tag int64
		key string
	}
	var pairs []pair
	for id, names := range keys {
		for _, k := range names {
			if validKey(k) {
				pairs = append(pairs, pair{id, k})
			}
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	// In one order for every writer, so that two that insert the same keys
	// wait for each other rather than deadlock.
	slices.SortFunc(pairs, func(a, b pair) int {
		return cmp.Or(cmp.Compare(a.tag, b.tag), strings.Compare(a.key, b.key))
	})
	pairs = slices.Compact(pairs)
	var err error
	if db.DialectOf(m.db) == db.Postgres {
		ids, names := make([]int64, len(pairs)), make([]string, len(pairs))
		for i, p := range pairs {
			ids[i], names[i] = p.tag, p.key
		}
		_, err = m.db.DB.ExecContext(ctx, `INSERT INTO tag_keys (tag_id, tag_key, created_at)
			SELECT k.tag_id, k.tag_key, $3 FROM unnest($1::bigint[], $2::text[]) AS k (tag_id, tag_key)
			WHERE EXISTS (SELECT 1 FROM tags WHERE tags.id = k.tag_id)
			ON CONFLICT (tag_id, tag_key) DO NOTHING`, ids, names, now())
	} else {
		list := make([][2]any, len(pairs))
		for i, p := range pairs {
			list[i] = [2]any{p.tag, p.key}
		}
		raw, _ := json.Marshal(list)
		_, err = m.db.DB.ExecContext(ctx, `INSERT INTO tag_keys (tag_id, tag_key, created_at)
			SELECT k.value ->> 0, k.value ->> 1, ? FROM json_each(?) AS k
			WHERE EXISTS (SELECT 1 FROM tags WHERE tags.id = k.value ->> 0)
			ON CONFLICT (tag_id, tag_key) DO NOTHING`, sqliteTime(now()), string(raw))
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
