package sqlts

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// writePG writes points on PostgreSQL, where writers of other instances (and
// the two committers of one) may write the same series at the same time.
//
// The summary of each hour the batch touches is folded from the batch's own
// points and merged into the hour's row by the upsert itself (hoursMerge):
// counts and sums add up, the minimum, maximum, first and last are whichever
// is smaller, larger, earlier or later, ties going to the earlier time as in
// summary.add. ON CONFLICT DO UPDATE works on the latest committed row and
// locks it, so concurrent writers merge one after the other without reading
// the row first or locking their series: a write is one statement that
// inserts the points and merges the hours, after the series lookup.
//
// A merge is right only when each of the batch's points of the hour is new
// to the store. The points' upsert reports which rows it inserted (xmax = 0),
// and an hour is merged only when all of its points were inserted. The
// others (a point replaced or delivered again) are summarised anew from
// their points, under the lock of the hour's row: a writer that committed
// before is in what is read, one still under way waits for the lock and
// merges its points afterwards.
//
// Unlike the fold in time order, a merge adds the batch's sum to the
// stored one, so value_sum may differ from the sum of the points in time
// order in its last bits.
//
// A write first takes every point for new (pgInsertFresh): a plain INSERT,
// which walks the points' index once per point where the upsert walks it
// twice, and every hour merged without counting what was inserted. A point
// that is there already (an uplink delivered again, a value replaced) makes
// it fail with a unique violation, and the write is done again as described
// above.
func (s *Store) writePG(ctx context.Context, pts []tsdb.Point, series []tsdb.Series, runs []run) error {
	var err error
	fresh := true
	for tries := 0; tries < deadlockTries; {
		err = s.writePGOnce(ctx, pts, series, runs, fresh)
		switch {
		case fresh && db.IsUniqueViolation(err):
			fresh = false
			s.replays.Add(1)
		case db.IsDeadlock(err):
			tries++
		default:
			return err
		}
	}
	return err
}

// deadlockTries is how often writePG tries a write that PostgreSQL ended to
// break a deadlock. Writers lock rows in one order, but a write that
// summarises hours anew locks them in a second statement, after the
// merged ones; two such writes of the same hours can wait for each other.
const deadlockTries = 3

func (s *Store) writePGOnce(ctx context.Context, pts []tsdb.Point, series []tsdb.Series, runs []run, fresh bool) error {
	tx, ids, err := s.beginWrite(ctx, series)
	if err != nil {
		return err
	}
	defer rollback(tx)
	sums := make([]summary, len(runs))
	for i, r := range runs {
		h := summary{seriesID: ids[series[r.series]], hour: r.hour}
		for _, p := range pts[r.start:r.end] {
			h.add(tsdb.Micros(p.Time), p.Value, !p.IsText)
		}
		sums[i] = h
	}
	// Rows are locked in (series, time) order by every writer, so that two
	// writers of the same hours wait for each other rather than deadlock.
	slices.SortFunc(sums, func(a, b summary) int {
		return cmp.Or(cmp.Compare(a.seriesID, b.seriesID), cmp.Compare(a.hour, b.hour))
	})
	if fresh {
		if _, err := tx.ExecContext(ctx, pgInsertFresh, append(pointArrays(ids, pts), hourArrays(sums)...)...); err != nil {
			return fmt.Errorf("write new points and hours: %w", err)
		}
	} else if err := s.upsertMerging(ctx, tx, ids, pts, sums); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("write points: commit: %w", err)
	}
	return nil
}

// upsertMerging upserts pts and merges sums into the hours whose points were
// all new (insertMerging), and summarises the others anew from their points.
func (s *Store) upsertMerging(ctx context.Context, tx *sql.Tx, ids map[tsdb.Series]int64, pts []tsdb.Point, sums []summary) error {
	merged, err := s.insertMerging(ctx, tx, ids, pts, sums)
	if err != nil {
		return err
	}
	var reread []hourKey
	for _, h := range sums {
		if k := (hourKey{h.seriesID, h.hour}); !merged[k] {
			reread = append(reread, k)
		}
	}
	if len(reread) == 0 {
		return nil
	}
	s.rereads.Add(int64(len(reread)))
	return s.resummarise(ctx, tx, reread)
}

// insertMerging upserts pts and merges sums, the batch's summaries sorted by
// series and hour, into tsdb_hours, in one statement (pgInsertMerging). It
// returns the hours it merged.
func (s *Store) insertMerging(ctx context.Context, tx *sql.Tx, ids map[tsdb.Series]int64, pts []tsdb.Point, sums []summary) (map[hourKey]bool, error) {
	rows, err := tx.QueryContext(ctx, pgInsertMerging, append(pointArrays(ids, pts), hourArrays(sums)...)...)
	if err != nil {
		return nil, fmt.Errorf("write points and hours: %w", err)
	}
	defer rows.Close()
	merged := make(map[hourKey]bool, len(sums))
	for rows.Next() {
		var k hourKey
		if err := rows.Scan(&k.seriesID, &k.hour); err != nil {
			return nil, fmt.Errorf("write points and hours: %w", err)
		}
		merged[k] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("write points and hours: %w", err)
	}
	return merged, nil
}

// resummarise summarises keys anew from their points: it locks their rows
// (creating an empty one where there is none yet, so that there is a row to
// lock), then reads the points in a statement of its own, which sees every
// writer that held a lock before, and replaces the rows.
func (s *Store) resummarise(ctx context.Context, tx *sql.Tx, keys []hourKey) error {
	sids, hours := keyColumns(keys)
	if _, err := tx.ExecContext(ctx, `INSERT INTO tsdb_hours (series_id, hour, points, numbers, value_sum)
		SELECT k.series_id, k.hour, 0, 0, 0 FROM unnest($1::bigint[], $2::bigint[]) AS k (series_id, hour)
		ORDER BY k.series_id, k.hour
		ON CONFLICT (series_id, hour) DO UPDATE SET points = tsdb_hours.points`, sids, hours); err != nil {
		return fmt.Errorf("write points: lock hours: %w", err)
	}
	return s.replaceHours(ctx, tx, keys)
}

// hoursMerge is the ON CONFLICT clause that merges a batch's summary of an
// hour (excluded) into the stored one, as summary.add would fold the
// batch's points into it, ties of the extremes going to the earlier time.
// Every expression reads the row as it was before the update.
var hoursMerge = func() string {
	newer := func(cond string) string {
		return "excluded.numbers > 0 AND (tsdb_hours.numbers = 0 OR " + cond + ")"
	}
	pick := func(col, cond string) string {
		return col + " = CASE WHEN " + cond + " THEN excluded." + col + " ELSE tsdb_hours." + col + " END"
	}
	lowest := newer("excluded.min_value < tsdb_hours.min_value OR excluded.min_value = tsdb_hours.min_value AND excluded.min_ts < tsdb_hours.min_ts")
	highest := newer("excluded.max_value > tsdb_hours.max_value OR excluded.max_value = tsdb_hours.max_value AND excluded.max_ts < tsdb_hours.max_ts")
	first := newer("excluded.first_ts < tsdb_hours.first_ts")
	last := newer("excluded.last_ts > tsdb_hours.last_ts")
	return ` ON CONFLICT (series_id, hour) DO UPDATE SET points = tsdb_hours.points + excluded.points,
		numbers = tsdb_hours.numbers + excluded.numbers, value_sum = tsdb_hours.value_sum + excluded.value_sum, ` +
		pick("min_value", lowest) + ", " + pick("min_ts", lowest) + ", " + pick("max_value", highest) + ", " + pick("max_ts", highest) + ", " +
		pick("first_value", first) + ", " + pick("first_ts", first) + ", " + pick("last_value", last) + ", " + pick("last_ts", last)
}()

// pgInsertFresh inserts points that must all be new ($1-$4, pointArrays),
// failing with a unique violation otherwise, and merges the batch's
// summaries ($5-$17, hourArrays) into their hours. The condition on p makes
// PostgreSQL insert the points before it locks any hour, the order of
// pgInsertMerging.
var pgInsertFresh = `WITH p AS (` + pgPointsInsert + ` RETURNING 1) ` + hoursInsert + pgBatchHours + `
	WHERE (SELECT count(*) FROM p) > 0
	ORDER BY u.series_id, u.hour` + hoursMerge

// pgInsertMerging upserts the points ($1-$4, pointArrays) and merges the
// batch's summaries ($5-$17, hourArrays) of the hours whose points were all
// inserted, counted per hour in f. It returns the hours it merged.
var pgInsertMerging = `WITH p AS (` + pgInsertPoints + ` RETURNING series_id, ts, xmax = 0 AS fresh),
	f AS (SELECT series_id, ts - ((ts % ` + hourUSText + `) + ` + hourUSText + `) % ` + hourUSText + ` AS hour, count(*) AS n
		FROM p WHERE fresh GROUP BY 1, 2) ` +
	hoursInsert + pgBatchHours + `
	JOIN f ON f.series_id = u.series_id AND f.hour = u.hour AND f.n = u.points
	ORDER BY u.series_id, u.hour` + hoursMerge + ` RETURNING series_id, hour`

// pgBatchHours reads the batch's summaries ($5-$17, hourArrays) as u.
var pgBatchHours = `SELECT u.* FROM (` + pgHoursFrom(5) + `) AS u (series_id, hour, points, numbers, value_sum,
		min_value, min_ts, max_value, max_ts, first_value, first_ts, last_value, last_ts)`
