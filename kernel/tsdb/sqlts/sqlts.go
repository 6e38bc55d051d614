// Package sqlts is the time-series store in the SQL database: SQLite, the
// embedded default, and PostgreSQL. Its tables come from migrations/tsdb.
//
// # Schema
//
// tsdb_series names each series once (company, DevEUI, key) and gives it an
// id. tsdb_points holds one row per series and microsecond, keyed by
// (series_id, ts) with ts in Unix microseconds: the primary key is the index
// of every range read, and makes a redelivered point an update rather than a
// second row. It is the tables' only index: retention deletes series by
// series through it, and a BRIN index on ts, tried for retention, misled
// the planner on the write path (see the migration). On SQLite the tables
// are WITHOUT ROWID, so a series' range is stored contiguously.
//
// tsdb_hours keeps, per series and hour, the count of points and numbers,
// their sum, and the minimum, maximum, first and last number each with its
// time. Reads see them exact, never eventually consistent.
//
// On PostgreSQL, where several writers may write one series at once, the
// hours that are still running have no rows: reads compute them from their
// points, and a job seals each hour into its rows once it has ended
// (seal.go). A write of an earlier hour (a late or replaced point)
// summarises that hour anew from its points, under its row's lock
// (writePG). A sum summed by PostgreSQL may differ from the sum in time
// order in its last bits.
//
// On SQLite, with one writer at a time, an hour new to the store is
// summarised from the batch in memory; an hour whose new points all come
// after the last point it holds (the usual order of a node's uplinks) is
// updated from its stored row; only an hour that gets late or replaced
// points is read back from tsdb_points. All three fold the numbers in time
// order and give the same row, to the bit.
//
// # Reads
//
// Scanning raw points cannot meet the read targets on dense series: a month
// of 10 million points takes seconds to read, whatever the SQL. The hours
// make such reads independent of the number of points. "The hours" below
// are the rows of the sealed hours and, on PostgreSQL, the hours after the
// sealed watermark computed from their points (seal.go):
//
//   - Range reads raw points and downsamples them in Go with tsdb.LTTB while
//     the whole hours of the window hold at most Options.RawLimit points
//     (5,000 by default) or maxPoints, whichever is more.
//     Above that it takes as candidates the minimum, maximum, first and last
//     point of every hour (exact points with their times, so peaks are
//     kept), the same four of the raw points of the partial hours at the
//     window's ends, and runs LTTB over those: a month is about 2,900
//     candidates from 720 rows, whatever the density. When there are fewer
//     candidates than maxPoints (a short window on a dense series) it falls
//     back to raw points. Text series return their last maxPoints points by
//     one backward index scan.
//   - Aggregate folds hours into buckets when the buckets are whole hours
//     and start on an hour (from on a UTC hour, which local midnights and
//     hours are in most time zones), adding the raw points of the last
//     partial hour; other buckets are computed from raw points in one
//     GROUP BY.
//   - Count sums the hours of a company's series and counts raw points only
//     in the partial hours at the ends.
//
// Downsampling in SQL (width_bucket or ntile and min/max per bucket) was
// weighed and left out: it still reads every point of the window, which is
// what the hours avoid. See docs/performance.md, "Time series", for the
// measurements.
//
// Writes on PostgreSQL send each column of a batch as one array parameter,
// one statement whatever the batch size (INSERT ... SELECT FROM unnest(...),
// with ON CONFLICT (series_id, ts) DO UPDATE when a point is there already);
// an identical redelivery updates no row, so it leaves no dead row versions
// for VACUUM. A usual write of live data is three statements between BEGIN
// and COMMIT: the series lookup (skipped for known series), the watermark
// (seal.go) and the insert of the points; only series written for the first
// time, and hours before the watermark, take more. The
// lookups go through an index one row at a time (LATERAL ... OFFSET 0): a
// join with the arrays let the planner scan the whole table. The SQL text
// never depends on the values or their number, so each statement is
// prepared once per connection. COPY into a temporary table and an INSERT
// from there was measured as well and was no faster at 50,000-point
// batches: the upsert into the primary key costs the same either way and
// dominates. SQLite takes multi-row INSERTs.
package sqlts

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// hourUS is the width of a summary row, in microseconds.
const hourUS = int64(time.Hour / time.Microsecond)

// hourUSText is hourUS as SQL text.
var hourUSText = strconv.FormatInt(hourUS, 10)

// DefaultRawLimit is Options.RawLimit when it is zero. Reading raw points
// costs about 0.4 µs each through database/sql on the benchmark machine
// (a month of one point a minute, 43,200 points, took 16-44 ms), the
// hourly summaries about 1 ms for a month whatever the density; 5,000 raw
// points stay near 2 ms.
const DefaultRawLimit = 5_000

// Options tune a Store; the zero value is the production setting.
type Options struct {
	// RawLimit is how many points Range reads raw before it turns to the
	// hourly summaries; tests set it low to exercise the summaries on
	// small data.
	RawLimit int
	// CopyBatch is how many points CopyNode reads and writes at a time
	// (DefaultCopyBatch when zero); tests set it low.
	CopyBatch int
}

// DefaultCopyBatch is Options.CopyBatch when it is zero.
const DefaultCopyBatch = 5_000

// Store is the SQL time-series store. It implements tsdb.Store.
type Store struct {
	db        *sql.DB
	pg        bool
	rawLimit  int
	copyBatch int
	// rereads counts the hours that writes summarised by reading their
	// points back, for the tests of the incremental path.
	rereads atomic.Int64
	// replays counts the writes on PostgreSQL done again because a point
	// was there already (writePG), for the tests.
	replays atomic.Int64
	// known holds ids of series found committed (write.go, seriesIDs).
	known seriesCache
	// sealed keeps the sealed watermark for reads (seal.go).
	sealed sealedCache
}

var _ tsdb.Store = (*Store)(nil)

// New returns a store on a migrated database (migrations/tsdb applied).
// The database stays the caller's to close.
func New(bdb *bun.DB, opts Options) *Store {
	if opts.RawLimit <= 0 {
		opts.RawLimit = DefaultRawLimit
	}
	if opts.CopyBatch <= 0 {
		opts.CopyBatch = DefaultCopyBatch
	}
	return &Store{db: bdb.DB, pg: db.DialectOf(bdb) == db.Postgres, rawLimit: opts.RawLimit, copyBatch: opts.CopyBatch}
}

// Close does nothing: the database belongs to the caller.
func (s *Store) Close() error { return nil }

// q rewrites the ? placeholders of a query into PostgreSQL's $1, $2, ...
// Queries here hold no ? inside string literals.
func (s *Store) q(query string) string {
	if !s.pg {
		return query
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(query[i])
	}
	return b.String()
}

// queryer is what both *sql.DB and *sql.Tx offer.
type queryer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// seriesID looks up the id of s; ok is false when s has never been written.
func (s *Store) seriesID(ctx context.Context, se tsdb.Series) (id int64, ok bool, err error) {
	err = s.db.QueryRowContext(ctx, s.q(`SELECT id FROM tsdb_series WHERE company_id = ? AND deveui = ? AND tag_key = ?`),
		se.Company, se.DevEUI, se.Key).Scan(&id)
	if db.IsNoRows(err) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("look up series %s: %w", se, err)
	}
	return id, true, nil
}

// floorHour returns the start of the hour that holds us.
func floorHour(us int64) int64 {
	h := us / hourUS * hourUS
	if h > us {
		h -= hourUS
	}
	return h
}

// ceilHour returns the first hour start at or after us.
func ceilHour(us int64) int64 {
	h := floorHour(us)
	if h < us {
		h += hourUS
	}
	return h
}

func rollback(tx *sql.Tx) { _ = tx.Rollback() }
