package sqlts

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/migrations"
)

// TestIncrementalSummaries writes series batch by batch and checks, after
// every batch, that each row of tsdb_hours is what folding the hour's stored
// points anew gives (to the bit on SQLite; on PostgreSQL, where batches
// merge, the sum to its rounding), and which writes read an hour back.
func TestIncrementalSummaries(t *testing.T) {
	t0 := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	temp := tsdb.Series{Company: 1, DevEUI: "70b3d57ed0000001", Key: "temperature"}
	hum := tsdb.Series{Company: 1, DevEUI: "70b3d57ed0000001", Key: "humidity"}
	at := func(minutes float64) time.Time { return t0.Add(time.Duration(minutes * float64(time.Minute))) }
	n := func(minutes, v float64) tsdb.Point { return tsdb.Number(temp, at(minutes), v) }
	x := func(minutes float64, text string) tsdb.Point { return tsdb.Text(temp, at(minutes), text) }
	// minutes returns one point a minute of temp and hum in [from, to),
	// with values whose sums round differently in another order.
	minutes := func(from, to int) []tsdb.Point {
		var out []tsdb.Point
		for i := from; i < to; i++ {
			out = append(out, n(float64(i), 0.1*float64(i%7)+1e-3*float64(i)),
				tsdb.Number(hum, at(float64(i)), 1e6/float64(i+3)))
		}
		return out
	}
	// rereads are the hours a write reads back on SQLite, where only the
	// points of an hour that come after its last point are folded into its
	// row, and on PostgreSQL, where every new point merges (writePG). On
	// PostgreSQL a write that reads hours back is one whose points were not
	// all new, and it was done twice: first taking them all for new.
	type batch struct {
		points    []tsdb.Point
		rereads   int64
		pgRereads int64
	}
	cases := []struct {
		name    string
		batches []batch
	}{
		{"in order, batch after batch", []batch{{minutes(0, 50), 0, 0}, {minutes(50, 55), 0, 0}, {minutes(55, 56), 0, 0}, {minutes(56, 130), 0, 0}}},
		{"in order, ties of the extremes come later", []batch{
			{[]tsdb.Point{n(1, 5), n(2, -5)}, 0, 0}, {[]tsdb.Point{n(3, 5), n(4, -5)}, 0, 0}, {[]tsdb.Point{n(5, 5)}, 0, 0}}},
		{"late points", []batch{
			{minutes(10, 40), 0, 0}, {[]tsdb.Point{n(5, 100)}, 1, 0}, {[]tsdb.Point{n(20.5, -100)}, 1, 0},
			{append(minutes(40, 45), n(0.5, 3)), 1, 0}}},
		{"late ties of the extremes", []batch{
			{[]tsdb.Point{n(10, 5), n(20, -5)}, 0, 0}, {[]tsdb.Point{n(5, 5), n(15, -5)}, 1, 0}}},
		{"replaced points", []batch{
			{minutes(0, 30), 0, 0}, {[]tsdb.Point{n(29, 1000)}, 1, 1}, {[]tsdb.Point{n(29, 1000)}, 1, 1}, {[]tsdb.Point{n(10, -1)}, 1, 1},
			{minutes(30, 35), 0, 0}}},
		{"an all-text hour", []batch{
			{[]tsdb.Point{x(1, "a"), x(2, "b")}, 0, 0}, {[]tsdb.Point{x(3, "c")}, 0, 0}, {[]tsdb.Point{x(3, "d")}, 1, 1},
			{[]tsdb.Point{x(2.5, "e")}, 1, 0}, {[]tsdb.Point{n(4, 7)}, 0, 0}}},
		{"a text after the numbers", []batch{
			{[]tsdb.Point{n(1, 1), n(2, 2)}, 0, 0}, {[]tsdb.Point{x(10, "calibrating")}, 0, 0},
			// After the last number but before the text, then after the
			// text, then a number that replaces the text.
			{[]tsdb.Point{n(5, 5)}, 1, 0}, {[]tsdb.Point{n(11, 11)}, 0, 0}, {[]tsdb.Point{n(10, 10)}, 1, 1},
		}},
		{"one batch, in order in one hour and late in another", []batch{
			{minutes(0, 120), 0, 0}, {append(minutes(120, 125), n(30.5, 9)), 1, 0}}},
		{"one batch, new points in one hour and a replaced one in another", []batch{
			{minutes(0, 120), 0, 0}, {append(minutes(120, 125), n(30, 9)), 1, 1}}},
	}
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				s := openStore(t, d)
				for i, b := range tc.batches {
					before, replays := s.rereads.Load(), s.replays.Load()
					if err := s.Write(context.Background(), b.points); err != nil {
						t.Fatalf("batch %d: %v", i, err)
					}
					want := b.rereads
					if d == db.Postgres {
						want = b.pgRereads
					}
					if got := s.rereads.Load() - before; got != want {
						t.Errorf("batch %d read %d hours back, want %d", i, got, want)
					}
					if got, want := s.replays.Load()-replays, min(b.pgRereads, 1); d == db.Postgres && got != want {
						t.Errorf("batch %d was done again %d times, want %d", i, got, want)
					}
					stored := storedRows(t, s)
					keys := make([]hourKey, 0, len(stored))
					for k := range stored {
						keys = append(keys, k)
					}
					again, err := s.summarise(context.Background(), s.db, keys)
					if err != nil {
						t.Fatal(err)
					}
					if len(again) != len(stored) {
						t.Fatalf("batch %d: %d hour rows, %d hours with points", i, len(stored), len(again))
					}
					for k, h := range stored {
						if want := again[k]; want == nil || !sameSummary(h, *want, d == db.Postgres) {
							t.Errorf("batch %d: hour %d of series %d is\n%+v, folded anew\n%+v", i, k.hour, k.seriesID, h, want)
						}
					}
				}
			})
		}
	})
}

func openStore(t *testing.T, d db.Dialect) *Store {
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
	return New(bdb, Options{})
}

// storedRows reads every row of tsdb_hours.
func storedRows(t *testing.T, s *Store) map[hourKey]summary {
	t.Helper()
	rows, err := s.db.Query(`SELECT id FROM tsdb_series`)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	out := map[hourKey]summary{}
	for _, id := range ids {
		hours, err := s.hours(context.Background(), id, -1<<62, 1<<62)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hours {
			out[hourKey{id, h.hour}] = h
		}
	}
	return out
}

// sameSummary compares two summaries exactly, but for the sum when merged is
// set: a merged row adds sums in another order than a fold in time order.
func sameSummary(a, b summary, merged bool) bool {
	if merged && math.Abs(a.sum-b.sum) <= 1e-12*math.Max(1, math.Abs(b.sum)) {
		a.sum = b.sum
	}
	return a == b
}
