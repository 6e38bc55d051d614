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
		for _, tc := range []struct {
			name string
			opts sqlts.Options
		}{
			{"raw", sqlts.Options{RawLimit: math.MaxInt32}},
			{"summaries", sqlts.Options{RawLimit: 1}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				tsdbtest.Run(t, func(t *testing.T) tsdb.Store { return sqlts.New(open(t, d), tc.opts) })
			})
		}
	})
}
