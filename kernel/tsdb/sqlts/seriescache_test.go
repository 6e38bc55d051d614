package sqlts

import (
	"context"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// TestKnownSeriesStayValid: a store keeps the ids of series it found, and
// writes of those series skip the lookup; that is right only because a
// series' row outlives its node, so a write after DeleteNode, by this store
// or by another instance's, must land in the same row.
func TestKnownSeriesStayValid(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		ctx := context.Background()
		s := openStore(t, d)
		other := &Store{db: s.db, pg: s.pg, rawLimit: s.rawLimit} // another instance
		se := tsdb.Series{Company: 1, DevEUI: "70b3d57ed0000001", Key: "temperature"}
		t0 := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
		write := func(st *Store, minute int) {
			t.Helper()
			if err := st.Write(ctx, []tsdb.Point{tsdb.Number(se, t0.Add(time.Duration(minute)*time.Minute), float64(minute))}); err != nil {
				t.Fatal(err)
			}
		}
		write(s, 0) // creates the row: not known yet, the transaction could roll back
		write(s, 1) // finds it committed
		id, ok := s.known.ids[se]
		if !ok {
			t.Fatal("the series found committed is not kept")
		}
		if err := s.DeleteNode(ctx, se.Company, se.DevEUI); err != nil {
			t.Fatal(err)
		}
		write(s, 2)
		write(other, 3)
		if got := other.known.ids[se]; got != id {
			t.Errorf("the other store found id %d, this one keeps %d", got, id)
		}
		var n int
		if err := s.db.QueryRow(s.q(`SELECT count(*) FROM tsdb_points WHERE series_id = ?`), id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 2 {
			t.Errorf("%d points in series %d after the node was deleted and written twice, want 2", n, id)
		}
	})
}
