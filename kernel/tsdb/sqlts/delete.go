package sqlts

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// DeleteNode removes the points and hours of every series of a node of a
// company; see tsdb.Store.
func (s *Store) DeleteNode(ctx context.Context, company int64, devEUI string) error {
	if err := tsdb.ValidateNode(company, devEUI); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("delete node %s: begin: %w", devEUI, err)
	}
	defer rollback(tx)
	if err := s.lockAgainstSealing(ctx, tx); err != nil {
		return fmt.Errorf("delete node %s: %w", devEUI, err)
	}
	ids, err := s.ids(ctx, tx, `SELECT id FROM tsdb_series WHERE company_id = ? AND deveui = ? ORDER BY id`, company, devEUI)
	if err != nil {
		return fmt.Errorf("delete node %s: %w", devEUI, err)
	}
	// The series rows stay, so that a writer that looked an id up before
	// writes under an id that still names its series (writePG takes no
	// lock on them). The hours go first: a writer that has merged into one
	// holds its row, so the delete of the points, a statement later, sees
	// that writer's points committed; one that merges afterwards makes a
	// new row of just its own points, which the delete did not see.
	for _, id := range ids {
		for _, stmt := range []string{
			`DELETE FROM tsdb_hours WHERE series_id = ?`,
			`DELETE FROM tsdb_points WHERE series_id = ?`,
		} {
			if _, err := tx.ExecContext(ctx, s.q(stmt), id); err != nil {
				return fmt.Errorf("delete node %s: %w", devEUI, err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("delete node %s: commit: %w", devEUI, err)
	}
	return nil
}

func (s *Store) ids(ctx context.Context, q queryer, query string, args ...any) ([]int64, error) {
	rows, err := q.QueryContext(ctx, s.q(query), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// Prune removes the points older than before; see tsdb.Store.
//
// The hour that holds before loses only part of its points, so it is
// summarised again. On PostgreSQL that happens first, in a short
// transaction that locks the hour's rows; then one transaction deletes
// everything older, so that ingest is not held up for the length of a large
// delete. On SQLite, with one writer at a time, all of it is one transaction.
func (s *Store) Prune(ctx context.Context, before time.Time) (int64, error) {
	if err := tsdb.ValidatePrune(before); err != nil {
		return 0, err
	}
	bt := tsdb.Micros(before)
	hb := floorHour(bt)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("prune: begin: %w", err)
	}
	defer rollback(tx)
	if err := s.lockAgainstSealing(ctx, tx); err != nil {
		return 0, fmt.Errorf("prune: %w", err)
	}
	var n int64
	if hb < bt {
		if n, err = s.prunePartialHour(ctx, tx, hb, bt); err != nil {
			return 0, err
		}
		if s.pg {
			if err := tx.Commit(); err != nil {
				return 0, fmt.Errorf("prune: commit: %w", err)
			}
			if tx, err = s.db.BeginTx(ctx, nil); err != nil {
				return 0, fmt.Errorf("prune: begin: %w", err)
			}
			defer rollback(tx)
			if err := s.lockAgainstSealing(ctx, tx); err != nil {
				return 0, fmt.Errorf("prune: %w", err)
			}
		}
	}
	// Through the primary key, series by series from the oldest end, so
	// that retention reads only what it deletes.
	res, err := tx.ExecContext(ctx, s.q(`DELETE FROM tsdb_points
		WHERE series_id IN (SELECT id FROM tsdb_series) AND ts < ?`), hb)
	if err != nil {
		return 0, fmt.Errorf("prune points: %w", err)
	}
	m, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("prune points: %w", err)
	}
	if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM tsdb_hours
		WHERE series_id IN (SELECT id FROM tsdb_series) AND hour < ?`), hb); err != nil {
		return 0, fmt.Errorf("prune hours: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("prune: commit: %w", err)
	}
	return n + m, nil
}

// prunePartialHour deletes the points in [hb, bt) and summarises the hour
// hb again for every series that has points there.
func (s *Store) prunePartialHour(ctx context.Context, tx *sql.Tx, hb, bt int64) (int64, error) {
	if s.pg {
		var sealed int64
		if err := tx.QueryRowContext(ctx, `SELECT sealed FROM tsdb_watermark`).Scan(&sealed); err != nil {
			return 0, fmt.Errorf("prune: read the hours' watermark: %w", err)
		}
		if hb >= sealed {
			return s.pruneUnsealedHour(ctx, tx, hb, bt)
		}
	}
	// EXISTS per series keeps both dialects on the primary key of
	// tsdb_hours rather than a scan of it for one hour.
	ids, err := s.ids(ctx, tx, `SELECT s.id FROM tsdb_series s
		WHERE EXISTS (SELECT 1 FROM tsdb_hours h WHERE h.series_id = s.id AND h.hour = ?) ORDER BY s.id`, hb)
	if err != nil {
		return 0, fmt.Errorf("prune: %w", err)
	}
	if len(ids) == 0 {
		return 0, nil
	}
	// On PostgreSQL the hour's rows are locked, in series order as writers
	// lock them, as writePG's re-summarising does: a writer still under way
	// merges its points into what this leaves.
	if s.pg {
		if _, err := s.ids(ctx, tx, `SELECT series_id FROM tsdb_hours WHERE series_id = ANY(?) AND hour = ?
			ORDER BY series_id FOR UPDATE`, ids, hb); err != nil {
			return 0, fmt.Errorf("prune: lock hours: %w", err)
		}
	}
	var n int64
	del := func(series string, id any) error {
		res, err := tx.ExecContext(ctx, s.q(`DELETE FROM tsdb_points WHERE `+series+` AND ts >= ? AND ts < ?`), id, hb, bt)
		if err != nil {
			return fmt.Errorf("prune points: %w", err)
		}
		m, err := res.RowsAffected()
		n += m
		return err
	}
	if s.pg {
		if err := del("series_id = ANY(?)", ids); err != nil {
			return 0, err
		}
	} else {
		for _, id := range ids {
			if err := del("series_id = ?", id); err != nil {
				return 0, err
			}
		}
	}
	if n == 0 {
		return 0, nil
	}
	return n, s.replaceHourOf(ctx, tx, ids, hb)
}

// pruneUnsealedHour is prunePartialHour for an hour that is not sealed
// (seal.go), on PostgreSQL: a series may have points there without a row,
// so the points of every series are deleted. The rows there are of late
// writes, kept exact below the writing watermark, or of writes from before
// the watermarks existed, which reads ignore from it on.
func (s *Store) pruneUnsealedHour(ctx context.Context, tx *sql.Tx, hb, bt int64) (int64, error) {
	writing, err := s.writingHour(ctx, tx)
	if err != nil {
		return 0, fmt.Errorf("prune: %w", err)
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM tsdb_points WHERE series_id IN (SELECT id FROM tsdb_series) AND ts >= $1 AND ts < $2`, hb, bt)
	if err != nil {
		return 0, fmt.Errorf("prune points: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("prune points: %w", err)
	}
	if hb >= writing {
		if _, err := tx.ExecContext(ctx, `DELETE FROM tsdb_hours WHERE series_id IN (SELECT id FROM tsdb_series) AND hour = $1`, hb); err != nil {
			return 0, fmt.Errorf("prune hours: %w", err)
		}
		return n, nil
	}
	ids, err := s.ids(ctx, tx, `SELECT series_id FROM tsdb_hours WHERE series_id IN (SELECT id FROM tsdb_series) AND hour = ?
		ORDER BY series_id FOR UPDATE`, hb)
	if err != nil {
		return 0, fmt.Errorf("prune: lock hours: %w", err)
	}
	return n, s.replaceHourOf(ctx, tx, ids, hb)
}

// replaceHourOf summarises the hour hb of the series ids anew.
func (s *Store) replaceHourOf(ctx context.Context, tx *sql.Tx, ids []int64, hb int64) error {
	keys := make([]hourKey, len(ids))
	for i, id := range ids {
		keys[i] = hourKey{id, hb}
	}
	if err := s.replaceHours(ctx, tx, keys); err != nil {
		return fmt.Errorf("prune: %w", err)
	}
	return nil
}
