package sqlts

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// hourKey names one row of tsdb_hours.
type hourKey struct{ seriesID, hour int64 }

// SQLite allows 32,766 parameters per statement; these chunk sizes stay far
// below, and a prepared statement of a full chunk is reused.
const (
	sqliteSeriesChunk = 300 // 3 parameters each
	sqlitePointChunk  = 250 // 4 each
	sqliteHourChunk   = 70  // 13 each
	sqliteKeyChunk    = 400 // 2 each
)

// Write stores points; see tsdb.Store.
func (s *Store) Write(ctx context.Context, points []tsdb.Point) error {
	if len(points) == 0 {
		return nil
	}
	if err := tsdb.ValidatePoints(points); err != nil {
		return err
	}
	pts := tsdb.Dedupe(points) // sorted by series, then time

	// The series of the batch, and the hours it touches, each with its run
	// of points (pts is sorted by series and time, so a run is contiguous).
	var series []tsdb.Series
	var runs []run
	for i, p := range pts {
		if i == 0 || p.Series != pts[i-1].Series {
			series = append(series, p.Series)
		}
		se, hour := len(series)-1, floorHour(tsdb.Micros(p.Time))
		if n := len(runs); n > 0 && runs[n-1].series == se && runs[n-1].hour == hour {
			runs[n-1].end = i + 1
			continue
		}
		runs = append(runs, run{series: se, hour: hour, start: i, end: i + 1})
	}

	if s.pg {
		return s.writePG(ctx, pts, series, runs)
	}
	tx, ids, err := s.beginWrite(ctx, series)
	if err != nil {
		return err
	}
	defer rollback(tx)
	keys := make([]hourKey, len(runs))
	for i, r := range runs {
		keys[i] = hourKey{ids[series[r.series]], r.hour}
	}
	stored, err := s.storedHours(ctx, tx, keys)
	if err != nil {
		return err
	}
	key := func(r run) hourKey { return hourKey{ids[series[r.series]], r.hour} }

	// An hour new to the store is summarised from the batch. An hour whose
	// new points all come after the last point it holds (the usual case:
	// a node reports in order) is its stored summary with the batch folded
	// in. Otherwise (late points, or a point replaced) the hour is read
	// back, once the batch is in. All three fold the hour's numbers in time
	// order, so they give the same row.
	sums := make([]summary, 0, len(runs))
	var reread []hourKey
	for _, r := range runs {
		k := key(r)
		points := pts[r.start:r.end]
		h, ok := stored[k]
		switch {
		case !ok:
			h = &storedHour{summary: summary{seriesID: k.seriesID, hour: k.hour}}
		case tsdb.Micros(points[0].Time) <= h.lastPoint:
			reread = append(reread, k)
			continue
		}
		for _, p := range points {
			h.add(tsdb.Micros(p.Time), p.Value, !p.IsText)
		}
		sums = append(sums, h.summary)
	}
	err = s.insertPoints(ctx, tx, ids, pts)
	if err == nil && len(reread) > 0 {
		s.rereads.Add(int64(len(reread)))
		var again map[hourKey]*summary
		if again, err = s.summarise(ctx, tx, reread); err == nil {
			for _, k := range reread {
				if h, ok := again[k]; ok {
					sums = append(sums, *h)
				}
			}
		}
	}
	if err == nil {
		err = s.upsertHours(ctx, tx, sums)
	}
	if err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("write points: commit: %w", err)
	}
	return nil
}

// beginWrite begins a write's transaction and looks up (or creates) the ids
// of its series in it. The caller rolls the transaction back when it does
// not commit it.
func (s *Store) beginWrite(ctx context.Context, series []tsdb.Series) (*sql.Tx, map[tsdb.Series]int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("write points: begin: %w", err)
	}
	ids, err := s.seriesIDs(ctx, tx, series)
	if err != nil {
		rollback(tx)
		return nil, nil, err
	}
	return tx, ids, nil
}

// run is the points of one series in one hour, pts[start:end] of a write,
// series indexing the write's distinct series.
type run struct {
	series     int
	hour       int64
	start, end int
}

// seriesIDs returns the ids of series (sorted, distinct), creating the
// missing ones. Writers take no lock on them (writePG says why none is
// needed); DeleteNode keeps the rows, so an id a writer holds stays valid.
//
// A series' row is never deleted and its id never changes, so the ids found
// committed are kept in memory (s.known), valid on every instance, and a
// batch of known series skips the lookup. Ids of rows this transaction
// creates are not kept: it may yet roll back.
func (s *Store) seriesIDs(ctx context.Context, tx *sql.Tx, series []tsdb.Series) (map[tsdb.Series]int64, error) {
	ids := make(map[tsdb.Series]int64, len(series))
	unknown := s.known.lookUp(series, ids)
	if len(unknown) == 0 {
		return ids, nil
	}
	found := make(map[tsdb.Series]int64, len(unknown))
	if err := s.findSeries(ctx, tx, unknown, found); err != nil {
		return nil, err
	}
	s.known.add(found)
	var missing []tsdb.Series
	for _, se := range unknown {
		if id, ok := found[se]; ok {
			ids[se] = id
		} else {
			missing = append(missing, se)
		}
	}
	if len(missing) == 0 {
		return ids, nil
	}
	// Another writer may create the same series meanwhile: DO NOTHING,
	// then read what is there.
	if s.pg {
		cs, ds, ks := seriesColumns(missing)
		_, err := tx.ExecContext(ctx, `INSERT INTO tsdb_series (company_id, deveui, tag_key)
			SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[])
			ON CONFLICT (company_id, deveui, tag_key) DO NOTHING`, cs, ds, ks)
		if err != nil {
			return nil, fmt.Errorf("write points: create series: %w", err)
		}
	} else {
		for chunk := range slices.Chunk(missing, sqliteSeriesChunk) {
			args := make([]any, 0, 3*len(chunk))
			for _, se := range chunk {
				args = append(args, se.Company, se.DevEUI, se.Key)
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO tsdb_series (company_id, deveui, tag_key) VALUES `+
				tuples(len(chunk), 3)+` ON CONFLICT (company_id, deveui, tag_key) DO NOTHING`, args...)
			if err != nil {
				return nil, fmt.Errorf("write points: create series: %w", err)
			}
		}
	}
	if err := s.findSeries(ctx, tx, missing, ids); err != nil {
		return nil, err
	}
	for _, se := range missing {
		if _, ok := ids[se]; !ok {
			return nil, fmt.Errorf("write points: series %s missing after insert", se)
		}
	}
	return ids, nil
}

func (s *Store) findSeries(ctx context.Context, tx *sql.Tx, series []tsdb.Series, ids map[tsdb.Series]int64) error {
	scan := func(rows *sql.Rows) error {
		defer rows.Close()
		for rows.Next() {
			var id int64
			var se tsdb.Series
			if err := rows.Scan(&id, &se.Company, &se.DevEUI, &se.Key); err != nil {
				return err
			}
			ids[se] = id
		}
		return rows.Err()
	}
	if s.pg {
		cs, ds, ks := seriesColumns(series)
		// One lookup of the name index per series: a semi-join with the
		// arrays let the planner hash a scan of the whole table (1.5 ms a
		// batch with 5,000 series; it grows with every series).
		rows, err := tx.QueryContext(ctx, `SELECT s.id, s.company_id, s.deveui, s.tag_key
			FROM unnest($1::bigint[], $2::text[], $3::text[]) AS u (company_id, deveui, tag_key)
			CROSS JOIN LATERAL (SELECT * FROM tsdb_series s WHERE s.company_id = u.company_id AND s.deveui = u.deveui
				AND s.tag_key = u.tag_key OFFSET 0) s`, cs, ds, ks)
		if err == nil {
			err = scan(rows)
		}
		if err != nil {
			return fmt.Errorf("write points: find series: %w", err)
		}
		return nil
	}
	for chunk := range slices.Chunk(series, sqliteSeriesChunk) {
		args := make([]any, 0, 3*len(chunk))
		for _, se := range chunk {
			args = append(args, se.Company, se.DevEUI, se.Key)
		}
		rows, err := tx.QueryContext(ctx, `SELECT id, company_id, deveui, tag_key FROM tsdb_series
			WHERE (company_id, deveui, tag_key) IN (VALUES `+tuples(len(chunk), 3)+`)`, args...)
		if err == nil {
			err = scan(rows)
		}
		if err != nil {
			return fmt.Errorf("write points: find series: %w", err)
		}
	}
	return nil
}

func seriesColumns(series []tsdb.Series) (cs []int64, ds, ks []string) {
	for _, se := range series {
		cs = append(cs, se.Company)
		ds = append(ds, se.DevEUI)
		ks = append(ks, se.Key)
	}
	return cs, ds, ks
}

// storedHour is a row of tsdb_hours as a write finds it, with the time of
// the last point the hour holds.
type storedHour struct {
	summary
	// lastPoint is the time of the hour's last point, text or number:
	// last_ts when the hour holds numbers only, else read from its points
	// (one step of the primary key). math.MaxInt64 when unknown, which
	// sends the hour to be read back.
	lastPoint int64
}

// hourColumns are the columns a write reads of an hour, from points to the
// time of its last point. That time is read from the points only when the
// row cannot tell it (the hour holds texts), by the subquery.
var hourColumns = `h.points, h.numbers, h.value_sum, h.min_value, h.min_ts, h.max_value, h.max_ts,
	h.first_value, h.first_ts, h.last_value, h.last_ts,
	CASE WHEN h.points > h.numbers THEN (SELECT max(p.ts) FROM tsdb_points p
		WHERE p.series_id = h.series_id AND p.ts >= h.hour AND p.ts < h.hour + ` + hourUSText + `) END`

// hourScan receives hourColumns, all NULL when there is no row.
type hourScan struct {
	points, numbers                      sql.NullInt64
	sum, minV, maxV, firstV, lastV       sql.NullFloat64
	minT, maxT, firstT, lastT, lastPoint sql.NullInt64
}

func (c *hourScan) dest() []any {
	return []any{&c.points, &c.numbers, &c.sum, &c.minV, &c.minT, &c.maxV, &c.maxT, &c.firstV, &c.firstT,
		&c.lastV, &c.lastT, &c.lastPoint}
}

// row returns the scanned row of an hour; ok is false when there was none.
func (c *hourScan) row(seriesID, hour int64) (h *storedHour, ok bool) {
	if !c.points.Valid {
		return nil, false
	}
	h = &storedHour{summary: summary{seriesID: seriesID, hour: hour, points: c.points.Int64, numbers: c.numbers.Int64,
		sum: c.sum.Float64, minV: c.minV.Float64, maxV: c.maxV.Float64, firstV: c.firstV.Float64, lastV: c.lastV.Float64,
		minTS: c.minT.Int64, maxTS: c.maxT.Int64, firstTS: c.firstT.Int64, lastTS: c.lastT.Int64}}
	switch {
	case h.points == h.numbers && h.numbers > 0:
		h.lastPoint = h.lastTS
	case c.lastPoint.Valid:
		h.lastPoint = c.lastPoint.Int64
	default:
		h.lastPoint = math.MaxInt64
	}
	return h, true
}

// storedHours returns the summary rows of keys that exist, on SQLite (on
// PostgreSQL writes merge into the rows without reading them, writePG).
func (s *Store) storedHours(ctx context.Context, tx *sql.Tx, keys []hourKey) (map[hourKey]*storedHour, error) {
	found := make(map[hourKey]*storedHour, len(keys))
	scan := func(rows *sql.Rows) error {
		defer rows.Close()
		for rows.Next() {
			var k hourKey
			var c hourScan
			if err := rows.Scan(append([]any{&k.seriesID, &k.hour}, c.dest()...)...); err != nil {
				return err
			}
			if h, ok := c.row(k.seriesID, k.hour); ok {
				found[k] = h
			}
		}
		return rows.Err()
	}
	columns := `SELECT h.series_id, h.hour, ` + hourColumns + ` FROM tsdb_hours h `
	for chunk := range slices.Chunk(keys, sqliteKeyChunk) {
		args := make([]any, 0, 2*len(chunk))
		for _, k := range chunk {
			args = append(args, k.seriesID, k.hour)
		}
		rows, err := tx.QueryContext(ctx, columns+`WHERE (h.series_id, h.hour) IN (VALUES `+tuples(len(chunk), 2)+`)`, args...)
		if err == nil {
			err = scan(rows)
		}
		if err != nil {
			return nil, fmt.Errorf("write points: read hours: %w", err)
		}
	}
	return found, nil
}

func keyColumns(keys []hourKey) (sids, hours []int64) {
	sids = make([]int64, len(keys))
	hours = make([]int64, len(keys))
	for i, k := range keys {
		sids[i], hours[i] = k.seriesID, k.hour
	}
	return sids, hours
}

// pgPointsInsert inserts points given as arrays ($1-$4, pointArrays). A
// text point's value is NaN, which no number point has (tsdb.ValidatePoints).
const pgPointsInsert = `INSERT INTO tsdb_points (series_id, ts, value, text_value)
	SELECT a.series_id, a.ts, NULLIF(a.value, 'NaN'), CASE WHEN a.value = 'NaN' THEN a.text_value END
	FROM unnest($1::bigint[], $2::bigint[], $3::float8[], $4::text[]) AS a (series_id, ts, value, text_value)`

// pgInsertPoints upserts them: a point of the same series and time is
// replaced. The WHERE clause leaves identical redeliveries alone, so they
// leave no dead row versions behind for VACUUM.
const pgInsertPoints = pgPointsInsert + `
	ON CONFLICT (series_id, ts) DO UPDATE SET value = excluded.value, text_value = excluded.text_value
	WHERE tsdb_points.value IS DISTINCT FROM excluded.value
	   OR tsdb_points.text_value IS DISTINCT FROM excluded.text_value`

// pointArrays returns the columns of pts as the arrays of pgInsertPoints,
// in (series id, time) order: the order in which every writer locks the
// rows it replaces.
func pointArrays(ids map[tsdb.Series]int64, pts []tsdb.Point) []any {
	n := len(pts)
	order := make([]int, n)
	of := make([]int64, n) // the series id of each point, looked up once
	for i := range order {
		order[i], of[i] = i, ids[pts[i].Series]
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(of[a], of[b]), pts[a].Time.Compare(pts[b].Time))
	})
	// Arrays of plain values, not of pointers with nil for NULL, which pgx
	// encodes element by element through reflection.
	sids := make([]int64, n)
	ts := make([]int64, n)
	values := make([]float64, n)
	texts := make([]string, n)
	for i, j := range order {
		p := &pts[j]
		sids[i], ts[i] = of[j], tsdb.Micros(p.Time)
		if p.IsText {
			values[i], texts[i] = math.NaN(), p.Text
		} else {
			values[i] = p.Value
		}
	}
	return []any{sids, ts, values, texts}
}

// insertPoints upserts pts (distinct by series and time), on SQLite.
func (s *Store) insertPoints(ctx context.Context, tx *sql.Tx, ids map[tsdb.Series]int64, pts []tsdb.Point) error {
	var full *sql.Stmt
	defer func() {
		if full != nil {
			full.Close()
		}
	}()
	for chunk := range slices.Chunk(pts, sqlitePointChunk) {
		args := make([]any, 0, 4*len(chunk))
		for _, p := range chunk {
			if p.IsText {
				args = append(args, ids[p.Series], tsdb.Micros(p.Time), nil, p.Text)
			} else {
				args = append(args, ids[p.Series], tsdb.Micros(p.Time), p.Value, nil)
			}
		}
		query := `INSERT INTO tsdb_points (series_id, ts, value, text_value) VALUES ` + tuples(len(chunk), 4) +
			` ON CONFLICT (series_id, ts) DO UPDATE SET value = excluded.value, text_value = excluded.text_value`
		var err error
		if len(chunk) == sqlitePointChunk {
			if full == nil {
				if full, err = tx.PrepareContext(ctx, query); err != nil {
					return fmt.Errorf("write points: prepare insert: %w", err)
				}
			}
			_, err = full.ExecContext(ctx, args...)
		} else {
			_, err = tx.ExecContext(ctx, query, args...)
		}
		if err != nil {
			return fmt.Errorf("write points: insert: %w", err)
		}
	}
	return nil
}

// summarise reads the points of the given hours and folds them; hours
// without points are absent from the result.
func (s *Store) summarise(ctx context.Context, q queryer, keys []hourKey) (map[hourKey]*summary, error) {
	out := make(map[hourKey]*summary, len(keys))
	fold := func(k hourKey, ts int64, v sql.NullFloat64) {
		h := out[k]
		if h == nil {
			h = &summary{seriesID: k.seriesID, hour: k.hour}
			out[k] = h
		}
		h.add(ts, v.Float64, v.Valid)
	}
	if s.pg {
		sids, hours := keyColumns(keys)
		// A plain join lets the planner estimate the range condition
		// blindly and hash-join a scan of the whole table (0.2-1 s on a
		// million points); the LATERAL subquery, kept apart by OFFSET 0,
		// makes it one primary-key range scan per hour.
		rows, err := q.QueryContext(ctx, `SELECT h.series_id, h.hour, p.ts, p.value
			FROM unnest($1::bigint[], $2::bigint[]) AS h (series_id, hour)
			CROSS JOIN LATERAL (SELECT ts, value FROM tsdb_points
				WHERE series_id = h.series_id AND ts >= h.hour AND ts < h.hour + $3 OFFSET 0) p`,
			sids, hours, hourUS)
		if err != nil {
			return nil, fmt.Errorf("summarise hours: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var k hourKey
			var ts int64
			var v sql.NullFloat64
			if err := rows.Scan(&k.seriesID, &k.hour, &ts, &v); err != nil {
				return nil, fmt.Errorf("summarise hours: %w", err)
			}
			fold(k, ts, v)
		}
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("summarise hours: %w", err)
		}
		return out, nil
	}
	for _, k := range keys {
		rows, err := q.QueryContext(ctx, `SELECT ts, value FROM tsdb_points WHERE series_id = ? AND ts >= ? AND ts < ?`,
			k.seriesID, k.hour, k.hour+hourUS)
		if err != nil {
			return nil, fmt.Errorf("summarise hours: %w", err)
		}
		for rows.Next() {
			var ts int64
			var v sql.NullFloat64
			if err := rows.Scan(&ts, &v); err != nil {
				rows.Close()
				return nil, fmt.Errorf("summarise hours: %w", err)
			}
			fold(k, ts, v)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("summarise hours: %w", err)
		}
	}
	return out, nil
}

// replaceHours summarises keys anew from their points and replaces their
// rows; an hour left without points loses its row, since a row exists only
// for an hour that holds points.
func (s *Store) replaceHours(ctx context.Context, tx *sql.Tx, keys []hourKey) error {
	again, err := s.summarise(ctx, tx, keys)
	if err != nil {
		return err
	}
	sums := make([]summary, 0, len(again))
	for _, k := range keys {
		if h, ok := again[k]; ok {
			sums = append(sums, *h)
			continue
		}
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM tsdb_hours WHERE series_id = ? AND hour = ?`), k.seriesID, k.hour); err != nil {
			return fmt.Errorf("delete empty hour: %w", err)
		}
	}
	return s.upsertHours(ctx, tx, sums)
}

// The parts of the statements that write summary rows, replacing those of
// the same hours.
const (
	hoursInsert = `INSERT INTO tsdb_hours (series_id, hour, points, numbers, value_sum, min_value, min_ts,
		max_value, max_ts, first_value, first_ts, last_value, last_ts) `
	hoursConflict = ` ON CONFLICT (series_id, hour) DO UPDATE SET points = excluded.points, numbers = excluded.numbers,
		value_sum = excluded.value_sum, min_value = excluded.min_value, min_ts = excluded.min_ts,
		max_value = excluded.max_value, max_ts = excluded.max_ts, first_value = excluded.first_value,
		first_ts = excluded.first_ts, last_value = excluded.last_value, last_ts = excluded.last_ts`
)

// pgHoursFrom is the source of the summary rows on PostgreSQL: the 13
// arrays of hourArrays as parameters first, first+1, ... The extremes, first
// and last of an hour without numbers come as zeros and become NULL.
func pgHoursFrom(first int) string {
	types := []string{"bigint", "bigint", "bigint", "bigint", "float8", "float8", "bigint", "float8", "bigint",
		"float8", "bigint", "float8", "bigint"}
	var b strings.Builder
	b.WriteString("SELECT h1, h2, h3, h4, h5")
	for i := 6; i <= len(types); i++ {
		fmt.Fprintf(&b, ", CASE WHEN h4 > 0 THEN h%d END", i)
	}
	b.WriteString(" FROM unnest(")
	for i, t := range types {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "$%d::%s[]", first+i, t)
	}
	b.WriteString(") AS h (h1, h2, h3, h4, h5, h6, h7, h8, h9, h10, h11, h12, h13)")
	return b.String()
}

// pgUpsertHours writes summary rows on PostgreSQL, replacing those of the
// same hours.
var pgUpsertHours = hoursInsert + pgHoursFrom(1) + hoursConflict

// hourArrays returns the columns of sums as the arrays of pgHoursFrom.
func hourArrays(sums []summary) []any {
	n := len(sums)
	sid, hour, points, numbers := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	sum := make([]float64, n)
	// Plain values, as in pointArrays; pgHoursFrom makes them NULL where
	// numbers is 0.
	minV, maxV, firstV, lastV := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	minT, maxT, firstT, lastT := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	for i := range sums {
		h := &sums[i]
		sid[i], hour[i], points[i], numbers[i], sum[i] = h.seriesID, h.hour, h.points, h.numbers, h.sum
		if h.numbers > 0 {
			minV[i], maxV[i], firstV[i], lastV[i] = h.minV, h.maxV, h.firstV, h.lastV
			minT[i], maxT[i], firstT[i], lastT[i] = h.minTS, h.maxTS, h.firstTS, h.lastTS
		}
	}
	return []any{sid, hour, points, numbers, sum, minV, minT, maxV, maxT, firstV, firstT, lastV, lastT}
}

// upsertHours writes summary rows, replacing those of the same hours.
func (s *Store) upsertHours(ctx context.Context, q queryer, sums []summary) error {
	if len(sums) == 0 {
		return nil
	}
	if s.pg {
		if _, err := q.ExecContext(ctx, pgUpsertHours, hourArrays(sums)...); err != nil {
			return fmt.Errorf("write hours: %w", err)
		}
		return nil
	}
	for chunk := range slices.Chunk(sums, sqliteHourChunk) {
		args := make([]any, 0, 13*len(chunk))
		for _, h := range chunk {
			if h.numbers == 0 {
				args = append(args, h.seriesID, h.hour, h.points, h.numbers, 0.0, nil, nil, nil, nil, nil, nil, nil, nil)
				continue
			}
			args = append(args, h.seriesID, h.hour, h.points, h.numbers, h.sum, h.minV, h.minTS, h.maxV, h.maxTS,
				h.firstV, h.firstTS, h.lastV, h.lastTS)
		}
		if _, err := q.ExecContext(ctx, hoursInsert+`VALUES `+tuples(len(chunk), 13)+hoursConflict, args...); err != nil {
			return fmt.Errorf("write hours: %w", err)
		}
	}
	return nil
}

// tuples returns n parenthesised groups of m placeholders: (?,?),(?,?).
func tuples(n, m int) string {
	one := "(" + strings.TrimSuffix(strings.Repeat("?,", m), ",") + ")"
	return strings.TrimSuffix(strings.Repeat(one+",", n), ",")
}
