package sqlts

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// Range returns the points of a series; see tsdb.Store and the package doc.
func (s *Store) Range(ctx context.Context, se tsdb.Series, from, to time.Time, maxPoints int) ([]tsdb.Point, error) {
	if err := tsdb.ValidateRange(se, from, to, maxPoints); err != nil {
		return nil, err
	}
	id, ok, err := s.seriesID(ctx, se)
	if err != nil || !ok {
		return nil, err
	}
	f, t := tsdb.Micros(from), tsdb.Micros(to)
	if f >= t {
		return nil, nil
	}
	if a, b := ceilHour(f), floorHour(t); a < b {
		hours, err := s.hours(ctx, se, id, a, b)
		if err != nil {
			return nil, err
		}
		var points, numbers int64
		for _, h := range hours {
			points += h.points
			numbers += h.numbers
		}
		if points > numbers {
			return s.lastPoints(ctx, se, id, f, t, maxPoints)
		}
		if points > int64(max(s.rawLimit, maxPoints)) {
			head, err := s.rawPoints(ctx, se, id, f, a)
			if err != nil {
				return nil, err
			}
			tail, err := s.rawPoints(ctx, se, id, b, t)
			if err != nil {
				return nil, err
			}
			if hasText(head) || hasText(tail) {
				return s.lastPoints(ctx, se, id, f, t, maxPoints)
			}
			cand := make([]tsdb.Point, 0, 4*len(hours)+8)
			cand = fold(head).candidates(cand, se)
			for i := range hours {
				cand = hours[i].candidates(cand, se)
			}
			cand = fold(tail).candidates(cand, se)
			if len(cand) >= maxPoints {
				return tsdb.LTTB(cand, maxPoints), nil
			}
			// Too few hours for maxPoints: a short window on a dense
			// series. Only raw points can fill it.
		}
	}
	pts, err := s.rawPoints(ctx, se, id, f, t)
	if err != nil {
		return nil, err
	}
	if hasText(pts) {
		return tsdb.Last(pts, maxPoints), nil
	}
	return tsdb.LTTB(pts, maxPoints), nil
}

func hasText(pts []tsdb.Point) bool {
	return slices.ContainsFunc(pts, func(p tsdb.Point) bool { return p.IsText })
}

func fold(pts []tsdb.Point) *summary {
	var h summary
	for _, p := range pts {
		h.add(tsdb.Micros(p.Time), p.Value, !p.IsText)
	}
	return &h
}

// hours returns the summaries of the hours of series id in [a, b) that hold
// points, oldest first: the rows of the sealed hours, and the others
// computed from their points (seal.go).
func (s *Store) hours(ctx context.Context, se tsdb.Series, id, a, b int64) ([]summary, error) {
	sealed, err := s.sealedHour(ctx)
	if err != nil {
		return nil, err
	}
	out, err := s.hourRows(ctx, id, a, min(b, sealed))
	if err != nil || sealed >= b {
		return out, err
	}
	pts, err := s.rawPoints(ctx, se, id, max(a, sealed), b)
	if err != nil {
		return nil, err
	}
	for i, p := range pts {
		ts := tsdb.Micros(p.Time)
		if h := floorHour(ts); i == 0 || out[len(out)-1].hour != h {
			out = append(out, summary{seriesID: id, hour: h})
		}
		out[len(out)-1].add(ts, p.Value, !p.IsText)
	}
	return out, nil
}

// hourRows reads the rows of tsdb_hours of series id in [a, b), oldest
// first.
func (s *Store) hourRows(ctx context.Context, id, a, b int64) ([]summary, error) {
	if a >= b {
		return nil, nil
	}
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT hour, points, numbers, value_sum, min_value, min_ts,
		max_value, max_ts, first_value, first_ts, last_value, last_ts
		FROM tsdb_hours WHERE series_id = ? AND hour >= ? AND hour < ? ORDER BY hour`), id, a, b)
	if err != nil {
		return nil, fmt.Errorf("read hours: %w", err)
	}
	defer rows.Close()
	var out []summary
	for rows.Next() {
		h := summary{seriesID: id}
		var minV, maxV, firstV, lastV sql.NullFloat64
		var minT, maxT, firstT, lastT sql.NullInt64
		if err := rows.Scan(&h.hour, &h.points, &h.numbers, &h.sum, &minV, &minT, &maxV, &maxT,
			&firstV, &firstT, &lastV, &lastT); err != nil {
			return nil, fmt.Errorf("read hours: %w", err)
		}
		h.minV, h.maxV, h.firstV, h.lastV = minV.Float64, maxV.Float64, firstV.Float64, lastV.Float64
		h.minTS, h.maxTS, h.firstTS, h.lastTS = minT.Int64, maxT.Int64, firstT.Int64, lastT.Int64
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read hours: %w", err)
	}
	return out, nil
}

// rawPoints reads the points of series id in [f, t), oldest first.
func (s *Store) rawPoints(ctx context.Context, se tsdb.Series, id, f, t int64) ([]tsdb.Point, error) {
	if f >= t {
		return nil, nil
	}
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT ts, value, text_value FROM tsdb_points
		WHERE series_id = ? AND ts >= ? AND ts < ? ORDER BY ts`), id, f, t)
	if err != nil {
		return nil, fmt.Errorf("read points of %s: %w", se, err)
	}
	return scanPoints(rows, se, false)
}

// lastPoints reads the last n points of series id in [f, t), oldest first.
func (s *Store) lastPoints(ctx context.Context, se tsdb.Series, id, f, t int64, n int) ([]tsdb.Point, error) {
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT ts, value, text_value FROM tsdb_points
		WHERE series_id = ? AND ts >= ? AND ts < ? ORDER BY ts DESC LIMIT ?`), id, f, t, n)
	if err != nil {
		return nil, fmt.Errorf("read points of %s: %w", se, err)
	}
	return scanPoints(rows, se, true)
}

func scanPoints(rows *sql.Rows, se tsdb.Series, reverse bool) ([]tsdb.Point, error) {
	defer rows.Close()
	var out []tsdb.Point
	for rows.Next() {
		var ts int64
		var v sql.NullFloat64
		var text sql.NullString
		if err := rows.Scan(&ts, &v, &text); err != nil {
			return nil, fmt.Errorf("read points of %s: %w", se, err)
		}
		out = append(out, point(se, ts, v, text))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read points of %s: %w", se, err)
	}
	if reverse {
		slices.Reverse(out)
	}
	return out, nil
}

func point(se tsdb.Series, ts int64, v sql.NullFloat64, text sql.NullString) tsdb.Point {
	if text.Valid {
		return tsdb.Text(se, tsdb.FromMicros(ts), text.String)
	}
	return tsdb.Number(se, tsdb.FromMicros(ts), v.Float64)
}

// Latest returns the most recent point of a series; see tsdb.Store.
func (s *Store) Latest(ctx context.Context, se tsdb.Series) (tsdb.Point, bool, error) {
	if err := se.Validate(); err != nil {
		return tsdb.Point{}, false, err
	}
	var ts int64
	var v sql.NullFloat64
	var text sql.NullString
	// The series id first, as a scalar: with a join PostgreSQL sorted the
	// whole series (18 ms for a month of minutes) instead of reading the
	// primary key backwards for one row.
	err := s.db.QueryRowContext(ctx, s.q(`SELECT ts, value, text_value FROM tsdb_points
		WHERE series_id = (SELECT id FROM tsdb_series WHERE company_id = ? AND deveui = ? AND tag_key = ?)
		ORDER BY ts DESC LIMIT 1`), se.Company, se.DevEUI, se.Key).Scan(&ts, &v, &text)
	if err == sql.ErrNoRows {
		return tsdb.Point{}, false, nil
	}
	if err != nil {
		return tsdb.Point{}, false, fmt.Errorf("read latest point of %s: %w", se, err)
	}
	return point(se, ts, v, text), true, nil
}

// bucketAcc accumulates one Aggregate bucket.
type bucketAcc struct {
	count    int64
	sum      float64
	min, max float64
	last     float64
	lastTS   int64
}

func (b *bucketAcc) merge(h *summary) {
	if h.numbers == 0 {
		return
	}
	if b.count == 0 || h.minV < b.min {
		b.min = h.minV
	}
	if b.count == 0 || h.maxV > b.max {
		b.max = h.maxV
	}
	if b.count == 0 || h.lastTS > b.lastTS {
		b.last, b.lastTS = h.lastV, h.lastTS
	}
	b.count += h.numbers
	b.sum += h.sum
}

// Aggregate returns per-bucket aggregates; see tsdb.Store and the package doc.
func (s *Store) Aggregate(ctx context.Context, se tsdb.Series, from, to time.Time, bucket time.Duration) ([]tsdb.Bucket, error) {
	if err := tsdb.ValidateAggregate(se, from, to, bucket); err != nil {
		return nil, err
	}
	id, ok, err := s.seriesID(ctx, se)
	if err != nil || !ok {
		return nil, err
	}
	f, t, w := tsdb.Micros(from), tsdb.Micros(to), bucket.Microseconds()
	if f >= t {
		return nil, nil
	}
	edges := make([]int64, 0, (t-f+w-1)/w+1)
	for e := f; e < t; e += w {
		edges = append(edges, e)
	}
	return s.aggregate(ctx, se, id, append(edges, t), w)
}

// AggregateEdges returns the aggregates of buckets between edges; see
// tsdb.Store and the package doc.
func (s *Store) AggregateEdges(ctx context.Context, se tsdb.Series, edges []time.Time) ([]tsdb.Bucket, error) {
	if err := tsdb.ValidateEdges(se, edges); err != nil {
		return nil, err
	}
	e := make([]int64, 0, len(edges))
	for _, t := range edges {
		// An empty bucket changes nothing: its edge goes.
		if us := tsdb.Micros(t); len(e) == 0 || us > e[len(e)-1] {
			e = append(e, us)
		}
	}
	if len(e) < 2 {
		return nil, nil
	}
	id, ok, err := s.seriesID(ctx, se)
	if err != nil || !ok {
		return nil, err
	}
	return s.aggregate(ctx, se, id, e, 0)
}

// piece is a part of bucket i, [lo, hi), that is read from points.
type piece struct{ i, lo, hi int64 }

// aggregate returns the buckets [e[i], e[i+1]) of series id that hold
// numbers (e in microseconds, increasing, at least two). w is the width of
// Aggregate's buckets (of equal width from e[0], the last one cut at the
// end), 0 for other edges.
//
// A bucket takes the rows of the whole sealed hours inside it, and the
// rest of it, the pieces of the hours that its edges cut (and of the hours
// after the sealed watermark), from points (aggregatePieces). When no
// bucket holds a whole hour, Aggregate's buckets on PostgreSQL come from
// points in one GROUP BY (aggregateRaw).
func (s *Store) aggregate(ctx context.Context, se tsdb.Series, id int64, e []int64, w int64) ([]tsdb.Bucket, error) {
	sealed, err := s.sealedHour(ctx)
	if err != nil {
		return nil, err
	}
	f, t := e[0], e[len(e)-1]
	// The hours whose rows may serve: whole, sealed hours of the window.
	a, b := ceilHour(f), min(floorHour(t), sealed)
	n := len(e) - 1
	type span struct{ i, a, b int64 } // the whole hours [a, b) of bucket i
	var spans []span
	var pieces []piece
	addPiece := func(i, lo, hi int64) {
		if lo < hi {
			pieces = append(pieces, piece{i, lo, hi})
		}
	}
	for i := range int64(n) {
		lo, hi := e[i], e[i+1]
		ha, hb := max(ceilHour(lo), a), min(floorHour(hi), b)
		if ha >= hb {
			addPiece(i, lo, hi)
			continue
		}
		spans = append(spans, span{i, ha, hb})
		addPiece(i, lo, ha)
		addPiece(i, hb, hi)
	}
	if len(spans) == 0 && w > 0 && s.pg {
		s.rawSpan.Add(t - f)
		return s.aggregateRaw(ctx, se, id, f, t, w)
	}
	accs := make([]bucketAcc, n)
	if len(spans) > 0 {
		hours, err := s.hourRows(ctx, id, spans[0].a, spans[len(spans)-1].b)
		if err != nil {
			return nil, err
		}
		k := 0
		for j := range hours {
			h := &hours[j]
			for k < len(spans) && spans[k].b <= h.hour {
				k++
			}
			if k == len(spans) {
				break
			}
			// Hours between spans are cut by an edge: their pieces are
			// read from points.
			if h.hour >= spans[k].a {
				accs[spans[k].i].merge(h)
			}
		}
	}
	if len(pieces) > 0 {
		if err := s.aggregatePieces(ctx, se, id, pieces, accs); err != nil {
			return nil, err
		}
	}
	var out []tsdb.Bucket
	for i := range accs {
		if a := &accs[i]; a.count > 0 {
			out = append(out, tsdb.Bucket{Start: tsdb.FromMicros(e[i]), Min: a.min, Max: a.max,
				Mean: a.sum / float64(a.count), Last: a.last, Count: a.count})
		}
	}
	return out, nil
}

// aggregatePieces folds the numbers of the pieces of series id into their
// buckets' accs: each piece is a range of the primary key. PostgreSQL
// takes the pieces as arrays, in one query.
func (s *Store) aggregatePieces(ctx context.Context, se tsdb.Series, id int64, pieces []piece, accs []bucketAcc) error {
	if !s.pg {
		return s.aggregatePiecesSQLite(ctx, se, id, pieces, accs)
	}
	is, los, his := make([]int64, len(pieces)), make([]int64, len(pieces)), make([]int64, len(pieces))
	for k, p := range pieces {
		is[k], los[k], his[k] = p.i, p.lo, p.hi
		s.rawSpan.Add(p.hi - p.lo)
	}
	// PostgreSQL plans each piece at a default share of the series' rows
	// (it cannot know the ranges), and on a dense series the sum passes
	// jit_above_cost: compiling the plan then took 20-80 ms of a query that
	// runs in 2 (docs/performance.md, "Time series"). The ranges are index
	// scans that JIT cannot speed up.
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("aggregate %s: %w", se, err)
	}
	defer rollback(tx)
	if _, err := tx.ExecContext(ctx, `SET LOCAL jit = off`); err != nil {
		return fmt.Errorf("aggregate %s: %w", se, err)
	}
	rows, err := tx.QueryContext(ctx, `WITH b AS (
			SELECT r.i, count(*) AS n, sum(p.value) AS total, min(p.value) AS lo, max(p.value) AS hi,
				max(p.ts) AS last_ts
			FROM unnest($2::bigint[], $3::bigint[], $4::bigint[]) AS r (i, lo, hi)
			CROSS JOIN LATERAL (SELECT ts, value FROM tsdb_points
				WHERE series_id = $1 AND ts >= r.lo AND ts < r.hi AND value IS NOT NULL OFFSET 0) AS p
			GROUP BY r.i)
		SELECT b.i, b.n, b.total, b.lo, b.hi, b.last_ts, p.value
		FROM b JOIN tsdb_points p ON p.series_id = $1 AND p.ts = b.last_ts`, id, is, los, his)
	if err != nil {
		return fmt.Errorf("aggregate %s: %w", se, err)
	}
	defer rows.Close()
	for rows.Next() {
		var i int64
		var h summary
		if err := rows.Scan(&i, &h.numbers, &h.sum, &h.minV, &h.maxV, &h.lastTS, &h.lastV); err != nil {
			return fmt.Errorf("aggregate %s: %w", se, err)
		}
		if i < 0 || i >= int64(len(accs)) {
			return fmt.Errorf("aggregate %s: bucket %d of %d", se, i, len(accs))
		}
		accs[i].merge(&h)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("aggregate %s: %w", se, err)
	}
	return nil
}

// aggregatePiecesSQLite is aggregatePieces on SQLite: it reads the numbers
// of each run of adjacent pieces (a cut hour is two) in one query and folds
// them here, in the process, where a query costs little. One query for all
// pieces, as a JSON array (json_each), took 3 to 5 times as long: SQLite
// sorts the rows for the GROUP BY by piece; one aggregating query a piece
// was as fast for a few pieces but twice as slow as the GROUP BY of
// Aggregate for 43,200 one-minute buckets.
func (s *Store) aggregatePiecesSQLite(ctx context.Context, se tsdb.Series, id int64, pieces []piece, accs []bucketAcc) error {
	for k := 0; k < len(pieces); {
		j := k + 1
		for j < len(pieces) && pieces[j].lo == pieces[j-1].hi {
			j++
		}
		run := pieces[k:j]
		k = j
		if err := s.foldRun(ctx, id, run, accs); err != nil {
			return fmt.Errorf("aggregate %s: %w", se, err)
		}
	}
	return nil
}

// foldRun folds the numbers of adjacent pieces into their buckets.
func (s *Store) foldRun(ctx context.Context, id int64, run []piece, accs []bucketAcc) error {
	lo, hi := run[0].lo, run[len(run)-1].hi
	s.rawSpan.Add(hi - lo)
	rows, err := s.db.QueryContext(ctx, `SELECT ts, value FROM tsdb_points
		WHERE series_id = ? AND ts >= ? AND ts < ? AND value IS NOT NULL ORDER BY ts`, id, lo, hi)
	if err != nil {
		return err
	}
	defer rows.Close()
	p := 0
	var h summary
	for rows.Next() {
		var ts int64
		var v float64
		if err := rows.Scan(&ts, &v); err != nil {
			return err
		}
		for ts >= run[p].hi {
			accs[run[p].i].merge(&h)
			h = summary{}
			p++
		}
		h.add(ts, v, true)
	}
	accs[run[p].i].merge(&h)
	return rows.Err()
}

// aggregateRaw computes Aggregate's buckets of width w from f to t from
// raw points in the database, in one GROUP BY, for buckets that hold no
// whole hour, on PostgreSQL. (On SQLite folding the points here took half
// as long as this query.)
func (s *Store) aggregateRaw(ctx context.Context, se tsdb.Series, id, f, t, w int64) ([]tsdb.Bucket, error) {
	rows, err := s.db.QueryContext(ctx, s.q(`WITH b AS (
			SELECT (ts - ?) / ? AS i, count(*) AS n, sum(value) AS total, min(value) AS lo, max(value) AS hi,
				max(ts) AS last_ts
			FROM tsdb_points
			WHERE series_id = ? AND ts >= ? AND ts < ? AND value IS NOT NULL
			GROUP BY 1)
		SELECT b.i, b.n, b.total, b.lo, b.hi, p.value
		FROM b JOIN tsdb_points p ON p.series_id = ? AND p.ts = b.last_ts
		ORDER BY b.i`), f, w, id, f, t, id)
	if err != nil {
		return nil, fmt.Errorf("aggregate %s: %w", se, err)
	}
	defer rows.Close()
	var out []tsdb.Bucket
	for rows.Next() {
		var i, n int64
		var total, lo, hi, last float64
		if err := rows.Scan(&i, &n, &total, &lo, &hi, &last); err != nil {
			return nil, fmt.Errorf("aggregate %s: %w", se, err)
		}
		out = append(out, tsdb.Bucket{Start: tsdb.FromMicros(f + i*w), Min: lo, Max: hi,
			Mean: total / float64(n), Last: last, Count: n})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("aggregate %s: %w", se, err)
	}
	return out, nil
}

// Count returns how many points a company's series hold; see tsdb.Store.
func (s *Store) Count(ctx context.Context, company int64, from, to time.Time) (int64, error) {
	if err := tsdb.ValidateCount(company, from, to); err != nil {
		return 0, err
	}
	f, t := tsdb.Micros(from), tsdb.Micros(to)
	if f >= t {
		return 0, nil
	}
	a, b, err := s.countedHours(ctx, f, t)
	if err != nil {
		return 0, err
	}
	if a >= b {
		return s.countRaw(ctx, company, f, t)
	}
	var n int64
	err = s.db.QueryRowContext(ctx, s.q(`SELECT coalesce(sum(h.points), 0)
		FROM tsdb_series s JOIN tsdb_hours h ON h.series_id = s.id
		WHERE s.company_id = ? AND s.tag_key NOT LIKE '$%' AND h.hour >= ? AND h.hour < ?`), company, a, b).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count points of company %d: %w", company, err)
	}
	for _, edge := range [][2]int64{{f, a}, {b, t}} {
		m, err := s.countRaw(ctx, company, edge[0], edge[1])
		if err != nil {
			return 0, err
		}
		n += m
	}
	return n, nil
}

// countedHours returns the hours [a, b) of the window [f, t) whose rows
// counts sum: the whole and sealed ones. The rest is counted from points.
func (s *Store) countedHours(ctx context.Context, f, t int64) (a, b int64, err error) {
	sealed, err := s.sealedHour(ctx)
	if err != nil {
		return 0, 0, err
	}
	a = ceilHour(f)
	return a, max(a, min(floorHour(t), sealed)), nil
}

func (s *Store) countRaw(ctx context.Context, company, f, t int64) (int64, error) {
	if f >= t {
		return 0, nil
	}
	var n int64
	err := s.db.QueryRowContext(ctx, s.q(`SELECT count(*)
		FROM tsdb_series s JOIN tsdb_points p ON p.series_id = s.id
		WHERE s.company_id = ? AND s.tag_key NOT LIKE '$%' AND p.ts >= ? AND p.ts < ?`), company, f, t).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count points of company %d: %w", company, err)
	}
	return n, nil
}

// CountByNode returns how many points each node of a company holds; see
// tsdb.Store. Like Count it sums the hourly summaries and counts raw points
// only in the partial hours at the ends.
func (s *Store) CountByNode(ctx context.Context, company int64, from, to time.Time) (map[string]int64, error) {
	if err := tsdb.ValidateCount(company, from, to); err != nil {
		return nil, err
	}
	out := map[string]int64{}
	f, t := tsdb.Micros(from), tsdb.Micros(to)
	if f >= t {
		return out, nil
	}
	a, b, err := s.countedHours(ctx, f, t)
	if err != nil {
		return nil, err
	}
	if a >= b {
		return out, s.countByNodeRaw(ctx, out, company, f, t)
	}
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT s.deveui, sum(h.points)
		FROM tsdb_series s JOIN tsdb_hours h ON h.series_id = s.id
		WHERE s.company_id = ? AND s.tag_key NOT LIKE '$%' AND h.hour >= ? AND h.hour < ?
		GROUP BY s.deveui`), company, a, b)
	if err := addCounts(out, rows, err); err != nil {
		return nil, fmt.Errorf("count points of the nodes of company %d: %w", company, err)
	}
	for _, edge := range [][2]int64{{f, a}, {b, t}} {
		if err := s.countByNodeRaw(ctx, out, company, edge[0], edge[1]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Store) countByNodeRaw(ctx context.Context, out map[string]int64, company, f, t int64) error {
	if f >= t {
		return nil
	}
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT s.deveui, count(*)
		FROM tsdb_series s JOIN tsdb_points p ON p.series_id = s.id
		WHERE s.company_id = ? AND s.tag_key NOT LIKE '$%' AND p.ts >= ? AND p.ts < ?
		GROUP BY s.deveui`), company, f, t)
	if err := addCounts(out, rows, err); err != nil {
		return fmt.Errorf("count points of the nodes of company %d: %w", company, err)
	}
	return nil
}

// addCounts adds rows of (deveui, count) to out.
func addCounts(out map[string]int64, rows *sql.Rows, err error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var eui string
		var n int64
		if err := rows.Scan(&eui, &n); err != nil {
			return err
		}
		if n > 0 {
			out[eui] += n
		}
	}
	return rows.Err()
}
