package sqlts

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
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
	// row. pgRereads is not 0 for a batch that replaces a point: on
	// PostgreSQL, with live hours, it is done twice, first taking its points
	// for new (writePG).
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
	// On PostgreSQL each case runs twice: with its hours before the
	// writing watermark, where every write summarises each hour it
	// touches anew (the rows are checked after every batch), and with them
	// after it (live data), where writes leave the rows alone and SealHours
	// makes them at the end.
	type mode struct {
		name string
		live bool
	}
	modes := map[db.Dialect][]mode{db.SQLite: {{"", false}}, db.Postgres: {{"exact hours", false}, {"live hours", true}}}
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		for _, m := range modes[d] {
			for _, tc := range cases {
				t.Run(m.name+"/"+tc.name, func(t *testing.T) {
					ctx := context.Background()
					s := openStore(t, d)
					if m.live {
						setWatermarks(t, s, t0.Add(-24*time.Hour), t0.Add(-24*time.Hour))
					}
					for i, b := range tc.batches {
						before, replays := s.rereads.Load(), s.replays.Load()
						if err := s.Write(ctx, b.points); err != nil {
							t.Fatalf("batch %d: %v", i, err)
						}
						want, wantReplays := b.rereads, int64(0)
						switch {
						case d == db.Postgres && m.live:
							want, wantReplays = 0, min(b.pgRereads, 1)
						case d == db.Postgres:
							want = hoursOf(b.points)
						}
						if got := s.rereads.Load() - before; got != want {
							t.Errorf("batch %d read %d hours back, want %d", i, got, want)
						}
						if got := s.replays.Load() - replays; got != wantReplays {
							t.Errorf("batch %d was done again %d times, want %d", i, got, wantReplays)
						}
						if m.live {
							if rows := storedRows(t, s); len(rows) > 0 {
								t.Fatalf("batch %d: %d hour rows of live hours", i, len(rows))
							}
							continue
						}
						checkRows(t, s, fmt.Sprintf("batch %d", i), d == db.Postgres)
					}
					if m.live {
						if err := s.SealHours(ctx, t0.Add(24*time.Hour)); err != nil {
							t.Fatal(err)
						}
						checkRows(t, s, "sealed", true)
					}
				})
			}
		}
	})
}

// hoursOf counts the distinct series and hours of pts.
func hoursOf(pts []tsdb.Point) int64 {
	seen := map[string]bool{}
	for _, p := range pts {
		seen[fmt.Sprint(p.Series, floorHour(tsdb.Micros(p.Time)))] = true
	}
	return int64(len(seen))
}

// setWatermarks sets the hours' watermarks of a store on PostgreSQL.
func setWatermarks(t *testing.T, s *Store, sealed, writing time.Time) {
	t.Helper()
	if _, err := s.db.Exec(`UPDATE tsdb_watermark SET sealed = $1, writing = $2`,
		floorHour(tsdb.Micros(sealed)), floorHour(tsdb.Micros(writing))); err != nil {
		t.Fatal(err)
	}
}

// checkRows checks that each row of tsdb_hours is what folding its hour's
// stored points gives, and that every hour with points has one.
func checkRows(t *testing.T, s *Store, when string, merged bool) {
	t.Helper()
	checkRowsOf(t, s, when, merged, true)
}

// checkRowsOf is checkRows; with all unset, hours with points but no row
// (live hours) are allowed.
func checkRowsOf(t *testing.T, s *Store, when string, merged, all bool) {
	t.Helper()
	stored := storedRows(t, s)
	keys := make([]hourKey, 0, len(stored))
	for k := range stored {
		keys = append(keys, k)
	}
	again, err := s.summarise(context.Background(), s.db, keys)
	if err != nil {
		t.Fatal(err)
	}
	var points, summed int64
	if err := s.db.QueryRow(`SELECT count(*) FROM tsdb_points`).Scan(&points); err != nil {
		t.Fatal(err)
	}
	for _, h := range stored {
		summed += h.points
	}
	if len(again) != len(stored) || all && summed != points {
		t.Fatalf("%s: %d hour rows of %d points, %d hours with points, %d points", when, len(stored), summed, len(again), points)
	}
	for k, h := range stored {
		if want := again[k]; want == nil || !sameSummary(h, *want, merged) {
			t.Errorf("%s: hour %d of series %d is\n%+v, folded anew\n%+v", when, k.hour, k.seriesID, h, want)
		}
	}
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
		hours, err := s.hourRows(context.Background(), id, -1<<62, 1<<62)
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

// TestSealingBesideWriters runs writers of new, late and replaced points
// while SealHours raises the watermarks hour by hour, on PostgreSQL. When
// all is sealed, every hour with points must have its row, folded from its
// points, and counts must match the points.
func TestSealingBesideWriters(t *testing.T) {
	t0 := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	ctx := context.Background()
	s := openStore(t, db.Postgres)
	setWatermarks(t, s, t0, t0)
	series := []tsdb.Series{
		{Company: 1, DevEUI: "70b3d57ed0000001", Key: "temperature"},
		{Company: 1, DevEUI: "70b3d57ed0000001", Key: "humidity"},
		{Company: 1, DevEUI: "70b3d57ed0000002", Key: "temperature"},
	}
	const writers, batches, hours = 4, 30, 6
	var wg sync.WaitGroup
	errc := make(chan error, writers+1)
	for w := range writers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			for b := range batches {
				// Mostly the hour the sealer is at, sometimes an earlier
				// one; times on a 10 s grid, so that writers meet.
				hour := min(b*hours/batches+rng.IntN(2), hours-1) - rng.IntN(2)
				var pts []tsdb.Point
				for range 8 {
					at := t0.Add(time.Duration(max(hour, 0))*time.Hour + time.Duration(rng.IntN(360))*10*time.Second)
					pts = append(pts, tsdb.Number(series[rng.IntN(len(series))], at, float64(rng.IntN(1000))/7))
				}
				if err := s.Write(ctx, pts); err != nil {
					errc <- err
					return
				}
			}
		})
	}
	wg.Go(func() {
		for h := 1; h <= hours; h++ {
			time.Sleep(20 * time.Millisecond)
			if err := s.SealHours(ctx, t0.Add(time.Duration(h)*time.Hour+SealGrace)); err != nil {
				errc <- err
				return
			}
		}
	})
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	if err := s.SealHours(ctx, t0.Add((hours+1)*time.Hour+SealGrace)); err != nil {
		t.Fatal(err)
	}
	checkRows(t, s, "sealed", true)
	var points int64
	if err := s.db.QueryRow(`SELECT count(*) FROM tsdb_points`).Scan(&points); err != nil {
		t.Fatal(err)
	}
	s.sealed = sealedCache{} // read the watermark anew
	if n, err := s.Count(ctx, 1, t0, t0.Add(hours*time.Hour)); err != nil || n != points {
		t.Errorf("Count = %d, %v; want %d", n, err, points)
	}
}

// TestPruneOfHoursBetweenTheWatermarks prunes into an hour that is below
// the writing watermark but not sealed, on PostgreSQL: its points go, the
// rows that late writes made there are summarised anew, and sealing
// afterwards leaves every row exact.
func TestPruneOfHoursBetweenTheWatermarks(t *testing.T) {
	t0 := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	ctx := context.Background()
	s := openStore(t, db.Postgres)
	setWatermarks(t, s, t0, t0.Add(3*time.Hour))
	a := tsdb.Series{Company: 1, DevEUI: "70b3d57ed0000001", Key: "temperature"}
	b := tsdb.Series{Company: 1, DevEUI: "70b3d57ed0000002", Key: "temperature"}
	var pts []tsdb.Point
	for m := range 4 * 60 { // one point a minute for 4 hours; the 4th is after writing
		pts = append(pts, tsdb.Number(a, t0.Add(time.Duration(m)*time.Minute), float64(m%17)))
		if m%3 == 0 {
			pts = append(pts, tsdb.Number(b, t0.Add(time.Duration(m)*time.Minute+time.Second), float64(m%5)))
		}
	}
	if err := s.Write(ctx, pts); err != nil {
		t.Fatal(err)
	}
	if rows := storedRows(t, s); len(rows) != 2*3 {
		t.Fatalf("%d hour rows below the writing watermark, want 6", len(rows))
	}
	cut := t0.Add(time.Hour + 30*time.Minute)
	n, err := s.Prune(ctx, cut)
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(90 + 30); n != want {
		t.Errorf("pruned %d points, want %d", n, want)
	}
	checkRowsOf(t, s, "pruned", true, false) // the 4th hour is live
	if rows := storedRows(t, s); len(rows) != 2*2 {
		t.Errorf("%d hour rows after the prune, want 4", len(rows))
	}
	if err := s.SealHours(ctx, t0.Add(5*time.Hour+SealGrace)); err != nil {
		t.Fatal(err)
	}
	checkRows(t, s, "sealed", true)
	s.sealed = sealedCache{}
	if n, err := s.Count(ctx, 1, t0, t0.Add(5*time.Hour)); err != nil || n != int64(len(pts))-120 {
		t.Errorf("Count = %d, %v; want %d", n, err, len(pts)-120)
	}
}

// TestSealingGivesWayToALongWrite holds a write open across SealHours: the
// job must give up raising the watermark after raiseWait, so that the
// writes queued behind it are not held up longer, and succeed once the
// write has committed.
func TestSealingGivesWayToALongWrite(t *testing.T) {
	t0 := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	ctx := context.Background()
	s := openStore(t, db.Postgres)
	setWatermarks(t, s, t0, t0)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rollback(tx)
	if _, err := s.writingHour(ctx, tx); err != nil { // as a write under way
		t.Fatal(err)
	}
	now := t0.Add(2*time.Hour + SealGrace)
	if err := s.SealHours(ctx, now); err != nil {
		t.Fatal(err)
	}
	var writing int64
	if err := s.db.QueryRow(`SELECT writing FROM tsdb_watermark`).Scan(&writing); err != nil || writing != floorHour(tsdb.Micros(t0)) {
		t.Fatalf("writing = %d, %v while a write held the lock; want it unchanged", writing, err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := s.SealHours(ctx, now); err != nil {
		t.Fatal(err)
	}
	if err := s.db.QueryRow(`SELECT writing FROM tsdb_watermark`).Scan(&writing); err != nil || writing != floorHour(tsdb.Micros(t0.Add(2*time.Hour))) {
		t.Fatalf("writing = %d, %v; want the hour 2 h after t0", writing, err)
	}
}
