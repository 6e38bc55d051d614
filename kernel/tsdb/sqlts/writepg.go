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
// A write inserts the points. Hours from the writing watermark on get no
// row (seal.go says why and who summarises them). The rows of earlier hours
// are kept exact: each such hour the batch touches is summarised anew from
// its points, under the lock of the hour's row (resummarise). A writer that
// committed before is in what is read; one still under way waits for the
// lock and summarises afterwards. Writes of live data, the usual case, touch
// no row of tsdb_hours.
//
// A write first takes every point for new: a plain INSERT, which walks the
// points' index once per point where the upsert walks it twice. A point that
// is there already (an uplink delivered again, a value replaced) makes it
// fail with a unique violation, and the write is done again with the upsert.
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
// summarises hours locks them in a second statement, after the points it
// replaced; two such writes of the same hours can wait for each other.
const deadlockTries = 3

func (s *Store) writePGOnce(ctx context.Context, pts []tsdb.Point, series []tsdb.Series, runs []run, fresh bool) error {
	tx, ids, err := s.beginWrite(ctx, series)
	if err != nil {
		return err
	}
	defer rollback(tx)
	writing, err := s.writingHour(ctx, tx)
	if err != nil {
		return err
	}
	var exact []hourKey // hours whose rows the write keeps exact
	for _, r := range runs {
		if r.hour < writing {
			exact = append(exact, hourKey{ids[series[r.series]], r.hour})
		}
	}
	// Rows are locked in (series, hour) order by every writer, so that two
	// writers of the same hours wait for each other rather than deadlock.
	slices.SortFunc(exact, func(a, b hourKey) int {
		return cmp.Or(cmp.Compare(a.seriesID, b.seriesID), cmp.Compare(a.hour, b.hour))
	})
	query := pgInsertPoints
	if fresh && len(exact) == 0 {
		query = pgPointsInsert
	}
	if _, err := tx.ExecContext(ctx, query, pointArrays(ids, pts)...); err != nil {
		return fmt.Errorf("write points: %w", err)
	}
	if len(exact) > 0 {
		s.rereads.Add(int64(len(exact)))
		if err := s.resummarise(ctx, tx, exact); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("write points: commit: %w", err)
	}
	return nil
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
