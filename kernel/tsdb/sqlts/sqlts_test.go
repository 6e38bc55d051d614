package sqlts_test

import (
	"context"
	"math"
	"testing"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/tsdb/sqlts"
	"github.com/fieldhub/fieldhub/kernel/tsdb/tsdbtest"
	"github.com/fieldhub/fieldhub/migrations"
)

// open returns a fresh migrated database of dialect d, closed when the test
// ends.
func open(t *testing.T, d db.Dialect) *bun.DB {
	t.Helper()
	ctx := context.Background()
	bdb, err := db.Open(ctx, kerneltest.DatabaseURL(t, d))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bdb.Close() })
	if _, err := db.Migrate(ctx, bdb, migrations.FS, migrations.Order); err != nil {
		t.Fatal(err)
	}
	return bdb
}

func TestConformance(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		// Range reads raw points up to RawLimit and hourly summaries
		// above: each variant sends every read one way.
		// On PostgreSQL, "live" puts every hour after the watermarks
		// (seal.go): writes keep no rows, reads compute every hour.
		for _, tc := range []struct {
			name string
			opts sqlts.Options
			live bool
		}{
			{"raw", sqlts.Options{RawLimit: math.MaxInt32}, false},
			{"summaries", sqlts.Options{RawLimit: 1, CopyBatch: 4}, false},
			{"summaries, live", sqlts.Options{RawLimit: 1, CopyBatch: 4}, true},
		} {
			if tc.live && d != db.Postgres {
				continue
			}
			t.Run(tc.name, func(t *testing.T) {
				tsdbtest.Run(t, func(t *testing.T) tsdb.Store {
					bdb := open(t, d)
					if tc.live {
						if _, err := bdb.Exec(`UPDATE tsdb_watermark SET sealed = ?, writing = ?`, int64(math.MinInt64), int64(math.MinInt64)); err != nil {
							t.Fatal(err)
						}
					}
					return sqlts.New(bdb, tc.opts)
				})
			})
		}
	})
}
