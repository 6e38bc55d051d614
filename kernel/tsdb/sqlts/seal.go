package sqlts

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// Sealed hours, on PostgreSQL. Merging every batch into the rows of the
// hours it touches cost the ingest about a quarter of its throughput
// (docs/performance.md, "Ingest"), although a row is read only once its hour
// is of interest to a trend or a long range. So the rows of hours that are
// still running are not written; reads compute those hours from their
// points, and a job (SealHours) summarises each hour once it has ended.
//
// Two watermarks in tsdb_watermark, hour starts that never go back:
//
//   - writing: a write keeps the rows of the hours before it exact, summarising
//     each such hour it touches anew from its points under the row's lock
//     (resummarise): late or replaced points, rare. Points of later hours
//     are only inserted.
//   - sealed <= writing: the hours before it have their rows, complete.
//     Reads take the rows before it and compute later hours from points.
//
// SealHours first raises writing, holding the exclusive side of an advisory
// lock whose shared side every write holds from reading writing to its
// commit: so once writing is raised, every write that read the old value
// has committed, and every later one keeps the rows of the hours below the
// new value. It then summarises the hours between sealed and writing from
// their points in one statement and raises sealed in the same transaction,
// so a read sees either no rows and computes the hours, or complete rows.
// A write that summarised such an hour first (a late point) wrote a
// complete row, which the job leaves alone (ON CONFLICT DO NOTHING); one
// that comes after the job's row waits for its lock and summarises it anew.
// The job never holds writes up for longer than raising writing takes, and
// that gives up after raiseWait (a long write under way) until next time.
//
// On SQLite, with one writer at a time, every write keeps its hours exact
// as before: both watermarks are infinitely far.

const (
	// writeLock is the advisory lock between writes (shared) and the
	// raising of writing (exclusive).
	writeLock = int64(0x7473_6462_7772_6974) // "tsdbwrit"
	// sealLock keeps the summarising of sealed hours (exclusive) apart from
	// deletes (shared): a delete that ran beside it could leave rows of
	// points it deleted.
	sealLock = int64(0x7473_6462_7365_616c) // "tsdbseal"
	// SealGrace is how long after an hour ends SealHours summarises it: a
	// point that arrives later, with an earlier time, is summarised by its
	// write, which costs more.
	SealGrace = 10 * time.Minute
	// raiseWait is how long raising writing waits for the writes under
	// way: new writes wait behind it.
	raiseWait = time.Second
	// sealedTTL is how long reads keep the sealed watermark they read. An
	// older value is still right: the rows below it stay complete.
	sealedTTL = 10 * time.Second
)

// writingHour takes the writes' side of writeLock in tx and returns the
// writing watermark; math.MaxInt64 on SQLite, where every hour is kept
// exact.
func (s *Store) writingHour(ctx context.Context, tx *sql.Tx) (int64, error) {
	if !s.pg {
		return math.MaxInt64, nil
	}
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock_shared($1)`, writeLock); err != nil {
		return 0, fmt.Errorf("lock the hours' watermark: %w", err)
	}
	// A statement of its own: its snapshot is taken once the lock is held.
	var w int64
	if err := tx.QueryRowContext(ctx, `SELECT writing FROM tsdb_watermark`).Scan(&w); err != nil {
		return 0, fmt.Errorf("read the hours' watermark: %w", err)
	}
	return w, nil
}

// sealedCache keeps the sealed watermark for reads.
type sealedCache struct {
	mu   sync.Mutex
	hour int64
	at   time.Time
}

// sealedHour returns an hour before which every hour's row is complete;
// math.MaxInt64 on SQLite.
func (s *Store) sealedHour(ctx context.Context) (int64, error) {
	if !s.pg {
		return math.MaxInt64, nil
	}
	c := &s.sealed
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.at.IsZero() && time.Since(c.at) < sealedTTL {
		return c.hour, nil
	}
	if err := s.db.QueryRowContext(ctx, `SELECT sealed FROM tsdb_watermark`).Scan(&c.hour); err != nil {
		c.at = time.Time{}
		return 0, fmt.Errorf("read the hours' watermark: %w", err)
	}
	c.at = time.Now()
	return c.hour, nil
}

// SealHours summarises the hours that ended SealGrace or more before now
// into their rows; see above. It fits a scheduler job, once a minute on one
// instance, and does nothing on SQLite.
func (s *Store) SealHours(ctx context.Context, now time.Time) error {
	if !s.pg {
		return nil
	}
	target := floorHour(tsdb.Micros(now.Add(-SealGrace)))
	var sealed, writing int64
	if err := s.db.QueryRowContext(ctx, `SELECT sealed, writing FROM tsdb_watermark`).Scan(&sealed, &writing); err != nil {
		return fmt.Errorf("seal hours: %w", err)
	}
	if writing < target {
		switch err := s.raiseWriting(ctx, target); {
		case db.IsLockTimeout(err):
			// A long write is under way; writes queue behind the raise,
			// so it does not wait longer than raiseWait. Next minute.
		case err != nil:
			return fmt.Errorf("seal hours: %w", err)
		default:
			writing = target
		}
	}
	if sealed >= writing {
		return nil
	}
	if err := s.seal(ctx); err != nil {
		return fmt.Errorf("seal hours: %w", err)
	}
	return nil
}

// raiseWriting raises the writing watermark to target, once every write
// that holds writeLock has committed.
func (s *Store) raiseWriting(ctx context.Context, target int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer rollback(tx)
	if _, err := tx.ExecContext(ctx, `SET LOCAL lock_timeout = `+strconv.FormatInt(raiseWait.Milliseconds(), 10)); err != nil {
		return err
	}
	// The row first: a sealing under way holds it, and writes must not
	// queue behind the advisory lock meanwhile. Writes read the row without
	// locking it, and see the new value once this commits.
	if _, err := tx.ExecContext(ctx, `UPDATE tsdb_watermark SET writing = $1 WHERE writing < $1`, target); err != nil {
		return fmt.Errorf("raise the writing watermark: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, writeLock); err != nil {
		return fmt.Errorf("lock writes: %w", err)
	}
	return tx.Commit()
}

// seal summarises the hours from sealed to writing and raises sealed to
// writing, in one transaction.
func (s *Store) seal(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer rollback(tx)
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, sealLock); err != nil {
		return fmt.Errorf("lock deletes: %w", err)
	}
	var sealed, writing int64
	if err := tx.QueryRowContext(ctx, `SELECT sealed, writing FROM tsdb_watermark FOR UPDATE`).Scan(&sealed, &writing); err != nil {
		return fmt.Errorf("read the watermarks: %w", err)
	}
	if sealed >= writing {
		return nil
	}
	if _, err := tx.ExecContext(ctx, pgSealHours, sealed, writing); err != nil {
		return fmt.Errorf("summarise hours: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tsdb_watermark SET sealed = $1`, writing); err != nil {
		return fmt.Errorf("raise the sealed watermark: %w", err)
	}
	return tx.Commit()
}

// lockAgainstSealing keeps a delete in tx apart from seal.
func (s *Store) lockAgainstSealing(ctx context.Context, tx *sql.Tx) error {
	if !s.pg {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock_shared($1)`, sealLock); err != nil {
		return fmt.Errorf("lock the summaries: %w", err)
	}
	return nil
}

// pgSealHours summarises the points in [$1, $2) into rows of tsdb_hours as
// summary.add folds them (value_sum in the order PostgreSQL adds them),
// series by series through the primary key, leaving rows that writes made
// alone. Rows are inserted in (series, hour) order, the order in which
// writes lock them.
var pgSealHours = hoursInsert + `SELECT s.id, a.* FROM tsdb_series s CROSS JOIN LATERAL (
		SELECT p.ts - ((p.ts % ` + hourUSText + `) + ` + hourUSText + `) % ` + hourUSText + ` AS hour,
			count(*), count(p.value), coalesce(sum(p.value), 0),
			min(p.value), (array_agg(p.ts ORDER BY p.value, p.ts) FILTER (WHERE p.value IS NOT NULL))[1],
			max(p.value), (array_agg(p.ts ORDER BY p.value DESC, p.ts) FILTER (WHERE p.value IS NOT NULL))[1],
			(array_agg(p.value ORDER BY p.ts) FILTER (WHERE p.value IS NOT NULL))[1], min(p.ts) FILTER (WHERE p.value IS NOT NULL),
			(array_agg(p.value ORDER BY p.ts DESC) FILTER (WHERE p.value IS NOT NULL))[1], max(p.ts) FILTER (WHERE p.value IS NOT NULL)
		FROM tsdb_points p WHERE p.series_id = s.id AND p.ts >= $1 AND p.ts < $2
		GROUP BY 1 OFFSET 0) AS a
	ORDER BY s.id, a.hour
	ON CONFLICT (series_id, hour) DO NOTHING`
