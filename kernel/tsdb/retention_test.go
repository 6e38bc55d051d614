package tsdb_test

import (
	"context"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/tsdb/sqlts"
	"github.com/fieldhub/fieldhub/migrations"
)

// TestRetention runs the retention job on the SQL store of both databases:
// it keeps the points of the last Days days, of every company, and keeps
// everything when Days is 0.
func TestRetention(t *testing.T) {
	now := time.Date(2026, 3, 20, 12, 0, 0, 0, time.UTC)
	ages := []time.Duration{40 * 24 * time.Hour, 10 * 24 * time.Hour, 6 * 24 * time.Hour, time.Hour}
	cases := []struct {
		name string
		days int
		kept int64 // points left of each company
	}{
		{"zero days keeps everything", 0, 4},
		{"thirty days", 30, 3},
		{"seven days", 7, 2},
		{"one day", 1, 1},
	}
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				ctx := context.Background()
				bdb, err := db.Open(ctx, kerneltest.DatabaseURL(t, d))
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { bdb.Close() })
				if _, err := db.Migrate(ctx, bdb, migrations.FS, migrations.Order); err != nil {
					t.Fatal(err)
				}
				st := sqlts.New(bdb, sqlts.Options{})
				var pts []tsdb.Point
				for company := int64(1); company <= 2; company++ {
					s := tsdb.Series{Company: company, DevEUI: "70b3d57ed0000001", Key: "temperature"}
					for i, age := range ages {
						pts = append(pts, tsdb.Number(s, now.Add(-age), float64(i)))
					}
				}
				if err := st.Write(ctx, pts); err != nil {
					t.Fatal(err)
				}
				job := tsdb.Retention{Store: st, Days: tc.days, Now: func() time.Time { return now }}
				if err := job.Run(ctx); err != nil {
					t.Fatal(err)
				}
				for company := int64(1); company <= 2; company++ {
					n, err := st.Count(ctx, company, now.Add(-100*24*time.Hour), now.Add(time.Hour))
					if err != nil {
						t.Fatal(err)
					}
					if n != tc.kept {
						t.Errorf("company %d keeps %d points, want %d", company, n, tc.kept)
					}
				}
			})
		}
	})
}
