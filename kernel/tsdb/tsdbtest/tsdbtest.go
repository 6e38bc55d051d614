// Package tsdbtest is the conformance suite of tsdb.Store: every
// implementation runs the same cases, against a real database, through Run.
package tsdbtest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// NewStore returns an empty store for one test; it is closed and its data
// dropped when the test ends.
type NewStore func(t *testing.T) tsdb.Store

// t0 is an hour boundary that the cases build their data on.
var t0 = time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)

const (
	euiA = "70b3d57ed0000001"
	euiB = "70b3d57ed0000002"
)

var (
	temp    = tsdb.Series{Company: 1, DevEUI: euiA, Key: "temperature"}
	door    = tsdb.Series{Company: 1, DevEUI: euiA, Key: "door"}
	humid   = tsdb.Series{Company: 1, DevEUI: euiB, Key: "humidity"}
	foreign = tsdb.Series{Company: 2, DevEUI: euiA, Key: "temperature"} // another company, same node and key
	record  = tsdb.Series{Company: 1, DevEUI: euiA, Key: "$uplink"}     // kept beside the values, not counted
)

// Run runs every case as a subtest, each on a store of its own.
func Run(t *testing.T, newStore NewStore) {
	cases := []struct {
		name string
		run  func(t *testing.T, st tsdb.Store)
	}{
		{"RoundTrip", roundTrip},
		{"RangeBounds", rangeBounds},
		{"Validation", validation},
		{"Downsample", downsample},
		{"DownsampleWindow", downsampleWindow},
		{"TextKeepsLast", textKeepsLast},
		{"Aggregate", aggregate},
		{"AggregateOffTheHour", aggregateOffTheHour},
		{"AggregateEdges", aggregateEdges},
		{"Latest", latest},
		{"Count", count},
		{"CountByNode", countByNode},
		{"Tenancy", tenancy},
		{"Rewrite", rewrite},
		{"WriteOrders", writeOrders},
		{"DeleteNode", deleteNode},
		{"CopyNode", copyNode},
		{"Prune", prune},
		{"ConcurrentWriters", concurrentWriters},
		{"ConcurrentRewrites", concurrentRewrites},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newStore(t)) })
	}
}

var ctx = context.Background()

func write(t *testing.T, st tsdb.Store, pts ...tsdb.Point) {
	t.Helper()
	if err := st.Write(ctx, pts); err != nil {
		t.Fatalf("write %d points: %v", len(pts), err)
	}
}

func rangeOf(t *testing.T, st tsdb.Store, s tsdb.Series, from, to time.Time, n int) []tsdb.Point {
	t.Helper()
	got, err := st.Range(ctx, s, from, to, n)
	if err != nil {
		t.Fatalf("range %s [%s, %s) max %d: %v", s, from, to, n, err)
	}
	return got
}

// all is a window that holds every point of the cases.
func all(t *testing.T, st tsdb.Store, s tsdb.Series) []tsdb.Point {
	t.Helper()
	return rangeOf(t, st, s, t0.Add(-24*time.Hour), t0.Add(30*24*time.Hour), tsdb.MaxPoints)
}

func samePoint(a, b tsdb.Point) bool {
	return a.Series == b.Series && a.Time.Equal(b.Time) && a.IsText == b.IsText && a.Text == b.Text &&
		(a.Value == b.Value || math.IsNaN(a.Value) && math.IsNaN(b.Value))
}

func samePoints(t *testing.T, what string, got, want []tsdb.Point) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d points, want %d\ngot  %v\nwant %v", what, len(got), len(want), got, want)
	}
	for i := range got {
		if !samePoint(got[i], want[i]) {
			t.Fatalf("%s: point %d is %+v, want %+v", what, i, got[i], want[i])
		}
	}
}

func roundTrip(t *testing.T, st tsdb.Store) {
	nums := []tsdb.Point{
		tsdb.Number(temp, t0.Add(time.Second), 21.5),
		tsdb.Number(temp, t0.Add(2*time.Second), -40.25),
		tsdb.Number(temp, t0.Add(3*time.Second), 0),
		tsdb.Number(temp, t0.Add(4*time.Second), 1), // a boolean true
		tsdb.Number(temp, t0.Add(5*time.Second), 1.7976931348623157e308),
		tsdb.Number(temp, t0.Add(6*time.Second), 5e-324),
		tsdb.Number(temp, t0.Add(7*time.Second), 123456789.123456),
	}
	texts := []tsdb.Point{
		tsdb.Text(door, t0.Add(time.Second), "open"),
		tsdb.Text(door, t0.Add(2*time.Second), "Dörr stängd ✓, \"quoted\" \\ back=slash"),
		tsdb.Text(door, t0.Add(3*time.Second), ""),
		tsdb.Text(door, t0.Add(4*time.Second), "line\nbreak and tab\t"),
	}
	// One batch with both series, given out of order.
	batch := append(slices.Clone(texts), nums...)
	slices.Reverse(batch)
	write(t, st, batch...)
	samePoints(t, "numbers", all(t, st, temp), nums)
	samePoints(t, "texts", all(t, st, door), texts)

	// Times are kept to the microsecond.
	fine := t0.Add(time.Hour + 123456789*time.Nanosecond)
	write(t, st, tsdb.Number(humid, fine, 3))
	got := all(t, st, humid)
	if len(got) != 1 || !got[0].Time.Equal(fine.Truncate(time.Microsecond)) {
		t.Fatalf("time %s came back as %v, want %s", fine, got, fine.Truncate(time.Microsecond))
	}
	// Keys may hold what line protocol and SQL must escape.
	odd := tsdb.Series{Company: 1, DevEUI: euiB, Key: `a key, with=signs "quotes" and 'apostrophes' ÅÄÖ`}
	write(t, st, tsdb.Number(odd, t0, 7))
	samePoints(t, "odd key", all(t, st, odd), []tsdb.Point{tsdb.Number(odd, t0, 7)})
	// An empty batch is fine.
	write(t, st)
}

func rangeBounds(t *testing.T, st tsdb.Store) {
	var pts []tsdb.Point
	for i := range 4 {
		pts = append(pts, tsdb.Number(temp, t0.Add(time.Duration(i)*time.Minute), float64(i)))
	}
	write(t, st, pts...)
	for _, tc := range []struct {
		name     string
		from, to time.Time
		want     []tsdb.Point
	}{
		{"from included, to excluded", t0, t0.Add(2 * time.Minute), pts[:2]},
		{"inner", t0.Add(time.Second), t0.Add(3*time.Minute + time.Second), pts[1:4]},
		{"empty window", t0.Add(time.Minute), t0.Add(time.Minute), nil},
		{"before the data", t0.Add(-time.Hour), t0, nil},
		{"after the data", t0.Add(time.Hour), t0.Add(2 * time.Hour), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			samePoints(t, tc.name, rangeOf(t, st, temp, tc.from, tc.to, 100), tc.want)
		})
	}
	samePoints(t, "unknown series", rangeOf(t, st, humid, t0, t0.Add(time.Hour), 100), nil)
}

func validation(t *testing.T, st tsdb.Store) {
	good := temp
	bad := func(f func(s *tsdb.Series)) tsdb.Series { s := good; f(&s); return s }
	upper := bad(func(s *tsdb.Series) { s.DevEUI = "70B3D57ED0000001" })
	short := bad(func(s *tsdb.Series) { s.DevEUI = "70b3d57e" })
	noKey := bad(func(s *tsdb.Series) { s.Key = "" })
	ctlKey := bad(func(s *tsdb.Series) { s.Key = "a\nb" })
	slashKey := bad(func(s *tsdb.Series) { s.Key = `a\ b` })
	noCompany := bad(func(s *tsdb.Series) { s.Company = 0 })
	from, to := t0, t0.Add(time.Hour)
	calls := []struct {
		name string
		call func() error
	}{
		{"upper-case DevEUI", func() error { _, err := st.Range(ctx, upper, from, to, 10); return err }},
		{"short DevEUI", func() error { _, _, err := st.Latest(ctx, short); return err }},
		{"empty key", func() error { _, err := st.Aggregate(ctx, noKey, from, to, time.Hour); return err }},
		{"control character in key", func() error { return st.Write(ctx, []tsdb.Point{tsdb.Number(ctlKey, t0, 1)}) }},
		{"backslash in key", func() error { _, err := st.Range(ctx, slashKey, from, to, 10); return err }},
		{"no company", func() error { return st.Write(ctx, []tsdb.Point{tsdb.Number(noCompany, t0, 1)}) }},
		{"from after to", func() error { _, err := st.Range(ctx, good, to, from, 10); return err }},
		{"maxPoints 0", func() error { _, err := st.Range(ctx, good, from, to, 0); return err }},
		{"maxPoints negative", func() error { _, err := st.Range(ctx, good, from, to, -1); return err }},
		{"maxPoints too large", func() error { _, err := st.Range(ctx, good, from, to, tsdb.MaxPoints+1); return err }},
		{"bucket 0", func() error { _, err := st.Aggregate(ctx, good, from, to, 0); return err }},
		{"too many buckets", func() error {
			_, err := st.Aggregate(ctx, good, from, from.Add(tsdb.MaxBuckets*time.Second), time.Second)
			return err
		}},
		{"aggregate from after to", func() error { _, err := st.Aggregate(ctx, good, to, from, time.Hour); return err }},
		{"NaN", func() error { return st.Write(ctx, []tsdb.Point{tsdb.Number(good, t0, math.NaN())}) }},
		{"infinity", func() error { return st.Write(ctx, []tsdb.Point{tsdb.Number(good, t0, math.Inf(1))}) }},
		{"zero time", func() error { return st.Write(ctx, []tsdb.Point{tsdb.Number(good, time.Time{}, 1)}) }},
		{"NUL in text", func() error { return st.Write(ctx, []tsdb.Point{tsdb.Text(good, t0, "a\x00b")}) }},
		{"count without company", func() error { _, err := st.Count(ctx, 0, from, to); return err }},
		{"count from after to", func() error { _, err := st.Count(ctx, 1, to, from); return err }},
		{"delete node bad DevEUI", func() error { return st.DeleteNode(ctx, 1, "xyz") }},
		{"delete node without company", func() error { return st.DeleteNode(ctx, 0, euiA) }},
		{"prune zero time", func() error { _, err := st.Prune(ctx, time.Time{}); return err }},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			if !errs.Is(err, errs.Invalid) {
				t.Fatalf("got %v, want an errs.Invalid error", err)
			}
		})
	}
	// A batch with one bad point writes nothing.
	err := st.Write(ctx, []tsdb.Point{tsdb.Number(good, t0, 1), tsdb.Number(upper, t0, 2)})
	if !errs.Is(err, errs.Invalid) {
		t.Fatalf("batch with a bad point: got %v, want errs.Invalid", err)
	}
	var e *errs.Error
	if !errors.As(err, &e) || len(e.Fields) != 1 || e.Fields[0].Field != "points[1].devEui" || e.Fields[0].ID != tsdb.IDDevEUIInvalid {
		t.Fatalf("batch with a bad point: fields %+v, want points[1].devEui %s", e, tsdb.IDDevEUIInvalid)
	}
	samePoints(t, "after a refused batch", all(t, st, good), nil)
}

// wave returns n points every step from t0: a slow sine with a peak and a
// trough far outside it, at the given indexes.
func wave(s tsdb.Series, n int, step time.Duration, peak, trough int) []tsdb.Point {
	pts := make([]tsdb.Point, n)
	for i := range pts {
		v := 10 * math.Sin(float64(i)/40)
		switch i {
		case peak:
			v = 1000
		case trough:
			v = -1000
		}
		pts[i] = tsdb.Number(s, t0.Add(time.Duration(i)*step), v)
	}
	return pts
}

// checkDownsampled checks that got is n points of want (both sorted by
// time) that keep the first, the last, the peak and the trough.
func checkDownsampled(t *testing.T, got, want []tsdb.Point, n int) {
	t.Helper()
	if len(got) != n {
		t.Fatalf("got %d points, want exactly %d", len(got), n)
	}
	byTime := map[int64]tsdb.Point{}
	hi, lo := want[0], want[0]
	for _, p := range want {
		byTime[tsdb.Micros(p.Time)] = p
		if p.Value > hi.Value {
			hi = p
		}
		if p.Value < lo.Value {
			lo = p
		}
	}
	for i, p := range got {
		w, ok := byTime[tsdb.Micros(p.Time)]
		if !ok || !samePoint(p, w) {
			t.Fatalf("point %d %+v was never written", i, p)
		}
		if i > 0 && !p.Time.After(got[i-1].Time) {
			t.Fatalf("point %d at %s is not after point %d at %s", i, p.Time, i-1, got[i-1].Time)
		}
	}
	if !samePoint(got[0], want[0]) || !samePoint(got[n-1], want[len(want)-1]) {
		t.Fatalf("first and last are %+v and %+v, want %+v and %+v", got[0], got[n-1], want[0], want[len(want)-1])
	}
	if !slices.ContainsFunc(got, func(p tsdb.Point) bool { return samePoint(p, hi) }) {
		t.Fatalf("the peak %+v is missing", hi)
	}
	if !slices.ContainsFunc(got, func(p tsdb.Point) bool { return samePoint(p, lo) }) {
		t.Fatalf("the trough %+v is missing", lo)
	}
}

func downsample(t *testing.T, st tsdb.Store) {
	// 3,000 points, one every 5 minutes: 250 hours.
	pts := wave(temp, 3000, 5*time.Minute, 777, 2222)
	for batch := range slices.Chunk(pts, 1000) {
		write(t, st, batch...)
	}
	from, to := t0, t0.Add(3000*5*time.Minute)
	for _, n := range []int{100, 500, 2999} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			checkDownsampled(t, rangeOf(t, st, temp, from, to, n), pts, n)
		})
	}
	samePoints(t, "as many as maxPoints", rangeOf(t, st, temp, from, to, 3000), pts)
	samePoints(t, "more than maxPoints", rangeOf(t, st, temp, from, to, 5000), pts)
	samePoints(t, "maxPoints 1 is the last", rangeOf(t, st, temp, from, to, 1), pts[len(pts)-1:])
	samePoints(t, "maxPoints 2 is first and last", rangeOf(t, st, temp, from, to, 2), []tsdb.Point{pts[0], pts[len(pts)-1]})
}

func downsampleWindow(t *testing.T, st tsdb.Store) {
	// One point every 20 s for 50 hours; the window starts and ends inside
	// hours, so stores that summarise hours must read the ends raw.
	pts := wave(temp, 9000, 20*time.Second, 4000, 6000)
	for batch := range slices.Chunk(pts, 2500) {
		write(t, st, batch...)
	}
	from, to := t0.Add(3*time.Hour+17*time.Minute+10*time.Second), t0.Add(41*time.Hour+29*time.Minute)
	var want []tsdb.Point
	for _, p := range pts {
		if !p.Time.Before(from) && p.Time.Before(to) {
			want = append(want, p)
		}
	}
	checkDownsampled(t, rangeOf(t, st, temp, from, to, 100), want, 100)
}

func textKeepsLast(t *testing.T, st tsdb.Store) {
	var pts []tsdb.Point
	for i := range 30 {
		pts = append(pts, tsdb.Text(door, t0.Add(time.Duration(i)*time.Hour), fmt.Sprintf("state %d", i)))
	}
	write(t, st, pts...)
	samePoints(t, "last 10", rangeOf(t, st, door, t0, t0.Add(30*time.Hour), 10), pts[20:])
	samePoints(t, "last 10 of a window", rangeOf(t, st, door, t0, t0.Add(15*time.Hour+time.Minute), 10), pts[6:16])
	samePoints(t, "all", rangeOf(t, st, door, t0, t0.Add(30*time.Hour), 30), pts)
}

// expectBuckets computes Aggregate's answer from the points by brute force.
func expectBuckets(pts []tsdb.Point, from, to time.Time, width time.Duration) []tsdb.Bucket {
	var edges []time.Time
	for start := from; start.Before(to); start = start.Add(width) {
		edges = append(edges, start)
	}
	return expectEdges(pts, append(edges, to))
}

// expectEdges computes AggregateEdges's answer from the points by brute
// force.
func expectEdges(pts []tsdb.Point, edges []time.Time) []tsdb.Bucket {
	var out []tsdb.Bucket
	for i := 0; i+1 < len(edges); i++ {
		start, end := edges[i], edges[i+1]
		b := tsdb.Bucket{Start: start}
		var sum float64
		var lastTime time.Time
		for _, p := range pts {
			if p.IsText || p.Time.Before(start) || !p.Time.Before(end) {
				continue
			}
			if b.Count == 0 || p.Value < b.Min {
				b.Min = p.Value
			}
			if b.Count == 0 || p.Value > b.Max {
				b.Max = p.Value
			}
			if b.Count == 0 || p.Time.After(lastTime) {
				b.Last, lastTime = p.Value, p.Time
			}
			b.Count++
			sum += p.Value
		}
		if b.Count > 0 {
			b.Mean = sum / float64(b.Count)
			out = append(out, b)
		}
	}
	return out
}

func sameBuckets(t *testing.T, got, want []tsdb.Bucket) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d buckets, want %d\ngot  %+v\nwant %+v", len(got), len(want), got, want)
	}
	for i := range got {
		if !sameBucket(got[i], want[i]) {
			t.Fatalf("bucket %d is %+v, want %+v", i, got[i], want[i])
		}
	}
}

func sameBucket(g, w tsdb.Bucket) bool {
	return g.Start.Equal(w.Start) && g.Count == w.Count && g.Min == w.Min && g.Max == w.Max &&
		g.Last == w.Last && near(g.Mean, w.Mean)
}

func sameBucketsOK(got, want []tsdb.Bucket) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if !sameBucket(got[i], want[i]) {
			return false
		}
	}
	return true
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func aggregate(t *testing.T, st tsdb.Store) {
	// A point every 10 minutes for 6 hours but none in the fourth hour,
	// values that make min, max, mean and last differ, and one text point
	// that aggregates leave out.
	var pts []tsdb.Point
	for i := range 36 {
		if i >= 18 && i < 24 {
			continue
		}
		v := float64((i*7)%11) - 3.5
		pts = append(pts, tsdb.Number(temp, t0.Add(time.Duration(i)*10*time.Minute+time.Minute), v))
	}
	text := tsdb.Text(temp, t0.Add(95*time.Minute), "calibrating")
	write(t, st, append(slices.Clone(pts), text)...)
	for _, tc := range []struct {
		name     string
		from, to time.Time
		width    time.Duration
	}{
		{"hourly", t0, t0.Add(6 * time.Hour), time.Hour},
		{"two hours, last one cut at to", t0, t0.Add(4*time.Hour + 30*time.Minute), 2 * time.Hour},
		{"one bucket", t0, t0.Add(6 * time.Hour), 6 * time.Hour},
		{"window inside an hour", t0.Add(20 * time.Minute), t0.Add(50 * time.Minute), time.Hour},
		{"off the hour", t0.Add(5 * time.Minute), t0.Add(6 * time.Hour), time.Hour},
		{"25 minutes", t0, t0.Add(6 * time.Hour), 25 * time.Minute},
		{"90 seconds", t0.Add(time.Hour), t0.Add(2 * time.Hour), 90 * time.Second},
		{"nothing in the window", t0.Add(-2 * time.Hour), t0, time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := st.Aggregate(ctx, temp, tc.from, tc.to, tc.width)
			if err != nil {
				t.Fatal(err)
			}
			want := expectBuckets(pts, tc.from, tc.to, tc.width)
			sameBuckets(t, got, want)
		})
	}
	got, err := st.Aggregate(ctx, humid, t0, t0.Add(time.Hour), time.Hour)
	if err != nil || len(got) != 0 {
		t.Fatalf("unknown series: got %v, %v; want no buckets", got, err)
	}
}

// offHourData writes three days and a half of one series (temp) from
// t0 - 6 h: a number every 7 min 13 s, more on the hour and on the half
// hour (where edges fall), none for 7 hours on the second day, and texts
// that aggregates leave out, also on edges.
func offHourData(t *testing.T, st tsdb.Store) []tsdb.Point {
	t.Helper()
	begin, end := t0.Add(-6*time.Hour), t0.Add(78*time.Hour)
	gapFrom, gapTo := t0.Add(30*time.Hour+20*time.Minute), t0.Add(37*time.Hour+20*time.Minute)
	byTime := map[time.Time]tsdb.Point{}
	num := func(at time.Time, i int) {
		if at.Before(gapFrom) || !at.Before(gapTo) {
			byTime[at] = tsdb.Number(temp, at, float64((i*37)%101)/4-9.5)
		}
	}
	for i, at := 0, begin; at.Before(end); i, at = i+1, at.Add(7*time.Minute+13*time.Second) {
		num(at, i)
	}
	for i, at := 0, begin; at.Before(end); i, at = i+1, at.Add(30*time.Minute) {
		num(at, 3*i+1)
	}
	for _, at := range []time.Time{t0.Add(90 * time.Minute), t0.Add(18*time.Hour + 30*time.Minute), t0.Add(50*time.Hour + 17*time.Minute)} {
		byTime[at] = tsdb.Text(temp, at, "calibrating")
	}
	var pts []tsdb.Point
	for _, p := range byTime {
		pts = append(pts, p)
	}
	slices.SortFunc(pts, func(a, b tsdb.Point) int { return a.Time.Compare(b.Time) })
	for batch := range slices.Chunk(pts, 250) {
		write(t, st, batch...)
	}
	return pts
}

// aggregateOffTheHour runs Aggregate with buckets whose starts fall on UTC
// hours only in part or not at all, as day buckets do in time zones half an
// hour or 45 minutes off UTC: every store must answer what the points say.
func aggregateOffTheHour(t *testing.T, st tsdb.Store) {
	pts := offHourData(t, st)
	kolkata := t0.Add(-5*time.Hour - 30*time.Minute) // midnight in UTC+05:30
	kathmandu := t0.Add(-5*time.Hour - 45*time.Minute)
	for _, tc := range []struct {
		name     string
		from, to time.Time
		width    time.Duration
	}{
		{"days from a half hour", kolkata, kolkata.Add(3 * 24 * time.Hour), 24 * time.Hour},
		{"days from 45 minutes, last one cut at to", kathmandu, t0.Add(70*time.Hour + 10*time.Minute), 24 * time.Hour},
		{"5 hours from a half hour", t0.Add(30 * time.Minute), t0.Add(60*time.Hour + 30*time.Minute), 5 * time.Hour},
		{"90 minutes from the hour", t0, t0.Add(48 * time.Hour), 90 * time.Minute},
		{"90 minutes from a half hour", t0.Add(-30 * time.Minute), t0.Add(47 * time.Hour), 90 * time.Minute},
		{"hourly, 37 min 13 s off", t0.Add(37*time.Minute + 13*time.Second), t0.Add(60*time.Hour + 37*time.Minute + 13*time.Second), time.Hour},
		{"3 hours from the hour, to off", t0.Add(-5 * time.Hour), t0.Add(50*time.Hour + 17*time.Minute), 3 * time.Hour},
		{"2 hours from the hour, from and to on data", t0.Add(-6 * time.Hour), t0.Add(77*time.Hour + 30*time.Minute), 2 * time.Hour},
		{"one day across the gap, from a second off", t0.Add(20*time.Hour + time.Second), t0.Add(44*time.Hour + time.Second), 24 * time.Hour},
		{"61 minutes", t0, t0.Add(40 * time.Hour), 61 * time.Minute},
		{"20 minutes, a half hour off", t0.Add(30 * time.Minute), t0.Add(10*time.Hour + 30*time.Minute), 20 * time.Minute},
		{"inside the gap", t0.Add(31 * time.Hour), t0.Add(37 * time.Hour), 24 * time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := st.Aggregate(ctx, temp, tc.from, tc.to, tc.width)
			if err != nil {
				t.Fatal(err)
			}
			sameBuckets(t, got, expectBuckets(pts, tc.from, tc.to, tc.width))
		})
	}
}

// aggregateEdges runs AggregateEdges with the edges callers cut: a window
// off the hour in clock hours, calendar days across daylight-saving
// changes and half-hour zones, and odd ones.
func aggregateEdges(t *testing.T, st tsdb.Store) {
	pts := offHourData(t, st)
	grid := func(from, to, origin time.Time, width time.Duration) []time.Time {
		edges, err := tsdb.Grid(from, to, origin, width)
		if err != nil {
			t.Fatal(err)
		}
		return edges
	}
	hours := func(from time.Time, hs ...int) []time.Time {
		edges := []time.Time{from}
		for _, h := range hs {
			edges = append(edges, edges[len(edges)-1].Add(time.Duration(h)*time.Hour))
		}
		return edges
	}
	off := 37*time.Minute + 13*time.Second
	for _, tc := range []struct {
		name  string
		edges []time.Time
	}{
		{"the last 60 hours in clock hours", grid(t0.Add(off), t0.Add(60*time.Hour+off), t0, time.Hour)},
		{"in clock hours, ends on the hour", grid(t0.Add(-5*time.Hour), t0.Add(70*time.Hour), t0, time.Hour)},
		{"in 6-hour blocks, ends off", grid(t0.Add(-5*time.Hour-time.Second), t0.Add(71*time.Hour+59*time.Minute), t0, 6*time.Hour)},
		{"days of 24, 23 and 25 hours", hours(t0.Add(-time.Hour), 24, 23, 25)},
		{"days of a half-hour zone, of 24 and 23 hours", hours(t0.Add(-5*time.Hour-30*time.Minute), 24, 23, 24)},
		{"days in clock days off the hour", grid(t0.Add(-2*time.Hour-off), t0.Add(66*time.Hour+off), t0.Add(-30*time.Minute), 24*time.Hour)},
		{"one bucket", []time.Time{t0.Add(10 * time.Minute), t0.Add(50 * time.Hour)}},
		{"odd edges, an empty bucket, short ones", []time.Time{
			t0.Add(-3*time.Hour + 7*time.Second), t0.Add(-time.Hour), t0.Add(-time.Hour), t0.Add(-59 * time.Minute),
			t0.Add(2*time.Hour + 30*time.Minute), t0.Add(26 * time.Hour), t0.Add(26*time.Hour + time.Microsecond),
			t0.Add(40*time.Hour + 13*time.Minute), t0.Add(41 * time.Hour), t0.Add(77 * time.Hour),
		}},
		{"edges on points", []time.Time{t0, t0.Add(30 * time.Minute), t0.Add(time.Hour), t0.Add(18*time.Hour + 30*time.Minute)}},
		{"clock hours across the gap", grid(t0.Add(29*time.Hour+off), t0.Add(39*time.Hour), t0, time.Hour)},
		{"before the data", grid(t0.Add(-30*time.Hour-off), t0.Add(-6*time.Hour), t0, time.Hour)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := st.AggregateEdges(ctx, temp, tc.edges)
			if err != nil {
				t.Fatal(err)
			}
			sameBuckets(t, got, expectEdges(pts, tc.edges))
		})
	}
	// Aggregate is AggregateEdges on the edges of equal buckets.
	from, to := t0.Add(-time.Hour-off), t0.Add(70*time.Hour)
	want, err := st.Aggregate(ctx, temp, from, to, 5*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	got, err := st.AggregateEdges(ctx, temp, grid(from, to, from, 5*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	sameBuckets(t, got, want)

	for _, tc := range []struct {
		name  string
		se    tsdb.Series
		edges []time.Time
	}{
		{"no edge", temp, nil},
		{"one edge", temp, []time.Time{t0}},
		{"equal edges", temp, []time.Time{t0, t0, t0}},
		{"unknown series", humid, []time.Time{t0, t0.Add(time.Hour)}},
		{"edges a nanosecond apart", temp, []time.Time{t0.Add(time.Nanosecond), t0.Add(2 * time.Nanosecond)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := st.AggregateEdges(ctx, tc.se, tc.edges)
			if err != nil || len(got) != 0 {
				t.Fatalf("got %+v, %v; want no buckets", got, err)
			}
		})
	}
	tooMany := make([]time.Time, tsdb.MaxBuckets+2)
	for i := range tooMany {
		tooMany[i] = t0.Add(time.Duration(i) * time.Second)
	}
	for _, tc := range []struct {
		name  string
		se    tsdb.Series
		edges []time.Time
		field string
	}{
		{"edges going back", temp, []time.Time{t0, t0.Add(time.Hour), t0.Add(time.Hour - time.Microsecond)}, "edges[2]"},
		{"an edge out of range", temp, []time.Time{t0, {}}, "edges[1]"},
		{"too many buckets", temp, tooMany, "edges"},
		{"bad series", tsdb.Series{Company: 1, DevEUI: "x", Key: "k"}, []time.Time{t0, t0.Add(time.Hour)}, "devEui"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := st.AggregateEdges(ctx, tc.se, tc.edges)
			var e *errs.Error
			if !errs.Is(err, errs.Invalid) || !errors.As(err, &e) || len(e.Fields) == 0 || e.Fields[0].Field != tc.field {
				t.Fatalf("got %v, want an errs.Invalid error on %s", err, tc.field)
			}
		})
	}
	// The largest number of buckets is fine.
	if _, err := st.AggregateEdges(ctx, temp, tooMany[:tsdb.MaxBuckets+1]); err != nil {
		t.Fatalf("%d buckets: %v", tsdb.MaxBuckets, err)
	}
}

func latest(t *testing.T, st tsdb.Store) {
	if p, ok, err := st.Latest(ctx, temp); err != nil || ok {
		t.Fatalf("empty store: got %+v, %v, %v; want nothing", p, ok, err)
	}
	late := tsdb.Number(temp, t0.Add(48*time.Hour), 2)
	write(t, st, late)
	write(t, st, tsdb.Number(temp, t0, 1)) // older, written after
	p, ok, err := st.Latest(ctx, temp)
	if err != nil || !ok || !samePoint(p, late) {
		t.Fatalf("got %+v, %v, %v; want %+v", p, ok, err, late)
	}
	text := tsdb.Text(door, t0.Add(time.Hour), "closed")
	write(t, st, tsdb.Text(door, t0, "open"), text)
	if p, ok, err := st.Latest(ctx, door); err != nil || !ok || !samePoint(p, text) {
		t.Fatalf("text: got %+v, %v, %v; want %+v", p, ok, err, text)
	}
}

func count(t *testing.T, st tsdb.Store) {
	// Company 1: two nodes, a number series and a text series, a point
	// every 15 minutes for 10 hours each, and a record that is not
	// counted; company 2: one series.
	var pts []tsdb.Point
	for i := range 40 {
		at := t0.Add(time.Duration(i) * 15 * time.Minute)
		pts = append(pts, tsdb.Number(temp, at, float64(i)), tsdb.Text(door, at, "x"),
			tsdb.Number(humid, at.Add(time.Minute), 50), tsdb.Number(foreign, at, 1), tsdb.Text(record, at, `{"p":"01"}`))
	}
	write(t, st, pts...)
	for _, tc := range []struct {
		name     string
		company  int64
		from, to time.Time
		want     int64
	}{
		{"everything", 1, t0.Add(-24 * time.Hour), t0.Add(24 * time.Hour), 120},
		{"whole hours", 1, t0.Add(2 * time.Hour), t0.Add(5 * time.Hour), 36},
		{"ends inside hours", 1, t0.Add(time.Hour + 10*time.Minute), t0.Add(3*time.Hour + 16*time.Minute), 9 + 9 + 8},
		{"inside one hour", 1, t0.Add(15 * time.Minute), t0.Add(45 * time.Minute), 6},
		{"to is excluded", 1, t0, t0.Add(15 * time.Minute), 3},
		{"empty window", 1, t0, t0, 0},
		{"other company", 2, t0, t0.Add(10 * time.Hour), 40},
		{"company without data", 3, t0, t0.Add(10 * time.Hour), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := st.Count(ctx, tc.company, tc.from, tc.to)
			if err != nil || got != tc.want {
				t.Fatalf("got %d, %v; want %d", got, err, tc.want)
			}
		})
	}
}

func countByNode(t *testing.T, st tsdb.Store) {
	// As in count: node A of company 1 has a number and a text series,
	// node B one number series, a point every 15 minutes for 10 hours;
	// company 2 has node A's temperature too.
	var pts []tsdb.Point
	for i := range 40 {
		at := t0.Add(time.Duration(i) * 15 * time.Minute)
		pts = append(pts, tsdb.Number(temp, at, float64(i)), tsdb.Text(door, at, "x"),
			tsdb.Number(humid, at.Add(time.Minute), 50), tsdb.Number(foreign, at, 1), tsdb.Text(record, at, `{"p":"01"}`))
	}
	write(t, st, pts...)
	for _, tc := range []struct {
		name     string
		company  int64
		from, to time.Time
		want     map[string]int64
	}{
		{"everything", 1, t0.Add(-24 * time.Hour), t0.Add(24 * time.Hour), map[string]int64{euiA: 80, euiB: 40}},
		{"whole hours", 1, t0.Add(2 * time.Hour), t0.Add(5 * time.Hour), map[string]int64{euiA: 24, euiB: 12}},
		{"ends inside hours", 1, t0.Add(time.Hour + 10*time.Minute), t0.Add(3*time.Hour + 16*time.Minute),
			map[string]int64{euiA: 9 + 9, euiB: 8}},
		{"inside one hour", 1, t0.Add(15 * time.Minute), t0.Add(45 * time.Minute), map[string]int64{euiA: 4, euiB: 2}},
		{"to is excluded", 1, t0, t0.Add(15 * time.Minute), map[string]int64{euiA: 2, euiB: 1}},
		{"one node only", 1, t0.Add(30 * time.Second), t0.Add(90 * time.Second), map[string]int64{euiB: 1}},
		{"empty window", 1, t0, t0, map[string]int64{}},
		{"other company", 2, t0, t0.Add(10 * time.Hour), map[string]int64{euiA: 40}},
		{"company without data", 3, t0, t0.Add(10 * time.Hour), map[string]int64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := st.CountByNode(ctx, tc.company, tc.from, tc.to)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]int64{}
			for k, v := range tc.want {
				if v > 0 {
					want[k] = v
				}
			}
			if len(got) != len(want) {
				t.Fatalf("got %v, want %v", got, want)
			}
			for k, v := range want {
				if got[k] != v {
					t.Fatalf("got %v, want %v", got, want)
				}
			}
			// Per node it adds up to Count.
			var sum int64
			for _, n := range got {
				sum += n
			}
			if n, err := st.Count(ctx, tc.company, tc.from, tc.to); err != nil || n != sum {
				t.Fatalf("Count is %d, %v; the nodes add up to %d", n, err, sum)
			}
		})
	}
	if _, err := st.CountByNode(ctx, 0, t0, t0.Add(time.Hour)); !errs.Is(err, errs.Invalid) {
		t.Fatalf("no company: got %v, want errs.Invalid", err)
	}
	if _, err := st.CountByNode(ctx, 1, t0.Add(time.Hour), t0); !errs.Is(err, errs.Invalid) {
		t.Fatalf("from after to: got %v, want errs.Invalid", err)
	}
}

func tenancy(t *testing.T, st tsdb.Store) {
	mine := []tsdb.Point{tsdb.Number(temp, t0, 20), tsdb.Number(temp, t0.Add(time.Hour), 21)}
	theirs := []tsdb.Point{tsdb.Number(foreign, t0, 99), tsdb.Number(foreign, t0.Add(2*time.Hour), 98),
		tsdb.Number(foreign, t0.Add(time.Minute), 97)}
	write(t, st, append(slices.Clone(mine), theirs...)...)
	samePoints(t, "own range", all(t, st, temp), mine)
	samePoints(t, "foreign range", all(t, st, foreign), []tsdb.Point{theirs[0], theirs[2], theirs[1]})
	if p, ok, err := st.Latest(ctx, temp); err != nil || !ok || !samePoint(p, mine[1]) {
		t.Fatalf("latest: got %+v, %v, %v; want %+v", p, ok, err, mine[1])
	}
	buckets, err := st.Aggregate(ctx, temp, t0, t0.Add(3*time.Hour), 3*time.Hour)
	if err != nil || len(buckets) != 1 || buckets[0].Count != 2 || buckets[0].Max != 21 {
		t.Fatalf("aggregate: got %+v, %v; want 2 points, max 21", buckets, err)
	}
	// Another company's node with the same DevEUI: deleting it there
	// leaves this company's data alone.
	if err := st.DeleteNode(ctx, 2, euiA); err != nil {
		t.Fatal(err)
	}
	samePoints(t, "own range after the other company deleted the node", all(t, st, temp), mine)
	samePoints(t, "foreign range after delete", all(t, st, foreign), nil)
}

func rewrite(t *testing.T, st tsdb.Store) {
	at := t0.Add(30 * time.Minute)
	write(t, st, tsdb.Number(temp, t0, 5), tsdb.Number(temp, at, 1), tsdb.Number(temp, t0.Add(time.Hour), 9))
	write(t, st, tsdb.Number(temp, at, 3)) // a correction
	write(t, st, tsdb.Number(temp, at, 3)) // a redelivery
	// Within one batch the last point for a time wins.
	write(t, st, tsdb.Number(temp, t0.Add(40*time.Minute), 100), tsdb.Number(temp, t0.Add(40*time.Minute), 4))
	want := []tsdb.Point{tsdb.Number(temp, t0, 5), tsdb.Number(temp, at, 3), tsdb.Number(temp, t0.Add(40*time.Minute), 4),
		tsdb.Number(temp, t0.Add(time.Hour), 9)}
	samePoints(t, "after rewrites", all(t, st, temp), want)
	// The aggregates see the corrected value only: the old minimum 1 and
	// the overwritten 100 are gone.
	got, err := st.Aggregate(ctx, temp, t0, t0.Add(2*time.Hour), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	wantB := []tsdb.Bucket{{Start: t0, Min: 3, Max: 5, Mean: 4, Last: 4, Count: 3}, {Start: t0.Add(time.Hour), Min: 9, Max: 9, Mean: 9, Last: 9, Count: 1}}
	sameBuckets(t, got, wantB)
	if n, err := st.Count(ctx, 1, t0, t0.Add(2*time.Hour)); err != nil || n != 4 {
		t.Fatalf("count after rewrites: got %d, %v; want 4", n, err)
	}
}

// writeOrders writes two series batch by batch in the orders network
// servers deliver: in time order, continuing the hours earlier batches
// began (a store that keeps summaries may then update them from what it
// stored), and also late, redelivered and corrected points and texts among
// the numbers (which a store must not summarise from the stored rows
// alone). After every batch the hourly aggregates, the counts and the
// points must be those of everything written so far.
func writeOrders(t *testing.T, st tsdb.Store) {
	at := func(minutes float64) time.Time { return t0.Add(time.Duration(minutes * float64(time.Minute))) }
	n := func(minutes, v float64) tsdb.Point { return tsdb.Number(temp, at(minutes), v) }
	x := func(minutes float64, text string) tsdb.Point { return tsdb.Text(door, at(minutes), text) }
	var minutes []tsdb.Point
	for i := 1; i <= 90; i++ {
		minutes = append(minutes, n(float64(i), float64((i*37)%23)-5))
	}
	steps := []struct {
		name string
		pts  []tsdb.Point
	}{
		{"a first batch over two hours", minutes[:70]},
		{"in order, continuing the second hour", minutes[70:80]},
		{"in order, one point a batch", minutes[80:81]},
		{"in order, the next", minutes[81:82]},
		{"in order, into a new hour", append(slices.Clone(minutes[82:]), n(125, 3), n(150, 4))},
		{"in order, a new minimum and maximum", []tsdb.Point{n(151, -100), n(152, 100)}},
		{"in order, ties of the minimum and maximum", []tsdb.Point{n(153, -100), n(154, 100)}},
		{"a late point inside an hour", []tsdb.Point{n(30.5, 1000)}},
		{"a late point before the hour's first", []tsdb.Point{n(0.5, -7)}},
		{"a late point in an hour of its own", []tsdb.Point{n(-30, 2)}},
		{"the hour's last point corrected", []tsdb.Point{n(154, 99)}},
		{"the hour's last point redelivered", []tsdb.Point{n(154, 99)}},
		{"the minimum corrected", []tsdb.Point{n(151, 0)}},
		{"in order after corrections", []tsdb.Point{n(155, 5), n(156, 6)}},
		{"late and in order in one batch", []tsdb.Point{n(20.25, -50), n(157, 7), n(95.5, 50), n(158, 8)}},
		{"texts", []tsdb.Point{x(10, "a"), x(20, "b")}},
		{"texts in order", []tsdb.Point{x(30, "c")}},
		{"a late text", []tsdb.Point{x(15, "d")}},
		{"a text corrected", []tsdb.Point{x(30, "e")}},
		{"numbers and texts of one node in one batch", []tsdb.Point{x(40, "f"), n(159, 9), x(41, "g"), n(185, 10)}},
		{"a text after the numbers of a series", []tsdb.Point{tsdb.Text(temp, at(170), "calibrating")}},
		{"that text redelivered", []tsdb.Point{tsdb.Text(temp, at(170), "calibrating")}},
		{"a number before that text", []tsdb.Point{n(165, 11)}},
		{"a number after that text", []tsdb.Point{n(171, 12)}},
	}
	byTime := map[tsdb.Series]map[time.Time]tsdb.Point{temp: {}, door: {}}
	for _, step := range steps {
		write(t, st, step.pts...)
		for _, p := range step.pts {
			byTime[p.Series][p.Time] = p
		}
		from, to := t0.Add(-time.Hour), t0.Add(4*time.Hour)
		total := 0
		for _, se := range []tsdb.Series{temp, door} {
			var want []tsdb.Point
			for _, p := range byTime[se] {
				want = append(want, p)
			}
			slices.SortFunc(want, func(a, b tsdb.Point) int { return a.Time.Compare(b.Time) })
			total += len(want)
			samePoints(t, step.name+": points of "+se.Key, all(t, st, se), want)
			got, err := st.Aggregate(ctx, se, from, to, time.Hour)
			if err != nil {
				t.Fatalf("%s: %v", step.name, err)
			}
			if wantB := expectBuckets(want, from, to, time.Hour); !sameBucketsOK(got, wantB) {
				t.Fatalf("%s: hourly %s is\n%+v, want\n%+v", step.name, se.Key, got, wantB)
			}
			got, err = st.Aggregate(ctx, se, from, to, 5*time.Hour)
			if err != nil {
				t.Fatalf("%s: %v", step.name, err)
			}
			if wantB := expectBuckets(want, from, to, 5*time.Hour); !sameBucketsOK(got, wantB) {
				t.Fatalf("%s: %s as one bucket is %+v, want %+v", step.name, se.Key, got, wantB)
			}
			// Clock hours of a window off the hour: rows and points.
			edges, err := tsdb.Grid(from.Add(20*time.Minute), to.Add(-10*time.Minute), t0, time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			got, err = st.AggregateEdges(ctx, se, edges)
			if err != nil {
				t.Fatalf("%s: %v", step.name, err)
			}
			if wantB := expectEdges(want, edges); !sameBucketsOK(got, wantB) {
				t.Fatalf("%s: %s in clock hours off the hour is\n%+v, want\n%+v", step.name, se.Key, got, wantB)
			}
		}
		if c, err := st.Count(ctx, 1, from, to); err != nil || c != int64(total) {
			t.Fatalf("%s: count %d, %v; want %d", step.name, c, err, total)
		}
	}
}

func deleteNode(t *testing.T, st tsdb.Store) {
	write(t, st, tsdb.Number(temp, t0, 1), tsdb.Text(door, t0, "open"), tsdb.Number(humid, t0, 2),
		tsdb.Number(temp, t0.Add(5*time.Hour), 3))
	if err := st.DeleteNode(ctx, 1, euiA); err != nil {
		t.Fatal(err)
	}
	samePoints(t, "deleted node's numbers", all(t, st, temp), nil)
	samePoints(t, "deleted node's texts", all(t, st, door), nil)
	if _, ok, err := st.Latest(ctx, temp); err != nil || ok {
		t.Fatalf("latest of a deleted node: %v, %v", ok, err)
	}
	samePoints(t, "other node", all(t, st, humid), []tsdb.Point{tsdb.Number(humid, t0, 2)})
	if n, err := st.Count(ctx, 1, t0.Add(-time.Hour), t0.Add(24*time.Hour)); err != nil || n != 1 {
		t.Fatalf("count after delete: got %d, %v; want 1", n, err)
	}
	// Deleting a node without data is no error; the node can write again.
	if err := st.DeleteNode(ctx, 1, "ffffffffffffffff"); err != nil {
		t.Fatal(err)
	}
	write(t, st, tsdb.Number(temp, t0, 7))
	samePoints(t, "written again", all(t, st, temp), []tsdb.Point{tsdb.Number(temp, t0, 7)})
}

// copyNode copies a node's series to another company that holds older
// series of the same node, and deletes them at the source, as a node's
// move does: the copied points join the target's (replacing the one at the
// same time), the hourly aggregates and counts of both companies follow,
// and the other node and the other company's other data stay.
func copyNode(t *testing.T, st tsdb.Store) {
	for _, bad := range []struct {
		name     string
		from, to int64
		eui      string
	}{{"same company", 1, 1, euiA}, {"no source", 0, 2, euiA}, {"no target", 1, 0, euiA}, {"bad DevEUI", 1, 2, "70B3D57ED0000001"}} {
		if _, err := st.CopyNode(ctx, bad.from, bad.to, bad.eui); !errs.Is(err, errs.Invalid) {
			t.Errorf("copy with %s: %v, want an invalid-argument error", bad.name, err)
		}
	}
	if n, err := st.CopyNode(ctx, 1, 2, euiA); err != nil || n != 0 {
		t.Fatalf("copying a node without data: %d, %v", n, err)
	}
	var temps []tsdb.Point
	for i := range 25 { // over three hours, more than a copy batch of the tests
		temps = append(temps, tsdb.Number(temp, t0.Add(time.Duration(i)*7*time.Minute), float64(i%9)-2.5))
	}
	doors := []tsdb.Point{tsdb.Text(door, t0, "open"), tsdb.Text(door, t0.Add(time.Minute), "closed"), tsdb.Text(door, t0.Add(3*time.Hour), "open")}
	other := tsdb.Number(humid, t0, 40)
	theirs := []tsdb.Point{tsdb.Number(foreign, t0.Add(-2*time.Hour), 11), tsdb.Number(foreign, temps[3].Time, 99)}
	write(t, st, append(append(append(slices.Clone(temps), doors...), other), theirs...)...)
	as := func(pts []tsdb.Point, company int64) []tsdb.Point {
		out := make([]tsdb.Point, len(pts))
		for i, p := range pts {
			p.Company = company
			out[i] = p
		}
		return out
	}
	want := append([]tsdb.Point{theirs[0]}, as(temps, 2)...) // the copied point replaced theirs[1]
	targetDoor := tsdb.Series{Company: 2, DevEUI: euiA, Key: "door"}
	from, to := t0.Add(-3*time.Hour), t0.Add(5*time.Hour)

	for _, pass := range []string{"copy", "copy again"} {
		n, err := st.CopyNode(ctx, 1, 2, euiA)
		if err != nil || n != int64(len(temps)+len(doors)) {
			t.Fatalf("%s: %d, %v; want %d points", pass, n, err, len(temps)+len(doors))
		}
		samePoints(t, pass+": the source's numbers", all(t, st, temp), temps)
		samePoints(t, pass+": the target's numbers", all(t, st, foreign), want)
		samePoints(t, pass+": the target's texts", all(t, st, targetDoor), as(doors, 2))
	}
	if err := st.DeleteNode(ctx, 1, euiA); err != nil {
		t.Fatal(err)
	}
	samePoints(t, "the source's numbers after the move", all(t, st, temp), nil)
	samePoints(t, "the source's texts after the move", all(t, st, door), nil)
	samePoints(t, "the source's other node", all(t, st, humid), []tsdb.Point{other})
	samePoints(t, "the target's numbers after the move", all(t, st, foreign), want)
	got, err := st.Aggregate(ctx, foreign, from, to, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if wantB := expectBuckets(want, from, to, time.Hour); !sameBucketsOK(got, wantB) {
		t.Fatalf("the target's hours are\n%+v, want\n%+v", got, wantB)
	}
	if p, ok, err := st.Latest(ctx, foreign); err != nil || !ok || !samePoint(p, want[len(want)-1]) {
		t.Fatalf("the target's latest: %+v, %v, %v", p, ok, err)
	}
	for company, count := range map[int64]int64{1: 1, 2: int64(len(want) + len(doors))} {
		if c, err := st.Count(ctx, company, from, to); err != nil || c != count {
			t.Fatalf("count of company %d after the move: %d, %v; want %d", company, c, err, count)
		}
	}
	// Nothing is left to copy; the source may write the node anew.
	if n, err := st.CopyNode(ctx, 1, 2, euiA); err != nil || n != 0 {
		t.Fatalf("copying after the move: %d, %v", n, err)
	}
	write(t, st, tsdb.Number(temp, t0.Add(10*time.Hour), 5))
	samePoints(t, "written anew at the source", all(t, st, temp), []tsdb.Point{tsdb.Number(temp, t0.Add(10*time.Hour), 5)})
}

func prune(t *testing.T, st tsdb.Store) {
	// A point every 10 minutes for 3 hours in two companies.
	var pts []tsdb.Point
	for i := range 18 {
		at := t0.Add(time.Duration(i) * 10 * time.Minute)
		pts = append(pts, tsdb.Number(temp, at, float64(i)), tsdb.Number(foreign, at, float64(-i)))
	}
	write(t, st, pts...)
	cut := t0.Add(time.Hour + 25*time.Minute) // inside the second hour
	n, err := st.Prune(ctx, cut)
	if err != nil || n != 2*9 {
		t.Fatalf("prune: got %d, %v; want %d", n, err, 2*9)
	}
	var kept []tsdb.Point
	for _, p := range pts {
		if p.Series == temp && !p.Time.Before(cut) {
			kept = append(kept, p)
		}
	}
	samePoints(t, "after prune", all(t, st, temp), kept)
	got, err := st.Aggregate(ctx, temp, t0, t0.Add(3*time.Hour), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	sameBuckets(t, got, expectBuckets(kept, t0, t0.Add(3*time.Hour), time.Hour))
	if c, err := st.Count(ctx, 2, t0, t0.Add(3*time.Hour)); err != nil || c != 9 {
		t.Fatalf("count after prune: got %d, %v; want 9", c, err)
	}
	if n, err := st.Prune(ctx, cut); err != nil || n != 0 {
		t.Fatalf("second prune: got %d, %v; want 0", n, err)
	}
	// Pruning on an hour boundary, and then everything.
	if n, err := st.Prune(ctx, t0.Add(2*time.Hour)); err != nil || n != 2*3 {
		t.Fatalf("prune on the hour: got %d, %v; want 6", n, err)
	}
	if n, err := st.Prune(ctx, t0.Add(24*time.Hour)); err != nil || n != 2*6 {
		t.Fatalf("prune all: got %d, %v; want 12", n, err)
	}
	if c, err := st.Count(ctx, 1, t0.Add(-time.Hour), t0.Add(24*time.Hour)); err != nil || c != 0 {
		t.Fatalf("count after pruning all: got %d, %v", c, err)
	}
}

func concurrentWriters(t *testing.T, st tsdb.Store) {
	// Several writers fill the same hours of one series at once, as
	// instances behind a load balancer would; every point must count.
	const writers, each = 4, 150
	inParallel(t, writers, func(w int) error {
		for i := range each {
			// Writer w owns the seconds ≡ w (mod writers).
			at := t0.Add(time.Duration(i*writers+w) * 5 * time.Second)
			if err := st.Write(ctx, []tsdb.Point{tsdb.Number(temp, at, float64(w))}); err != nil {
				return err
			}
		}
		return nil
	})
	got, err := st.Aggregate(ctx, temp, t0, t0.Add(2*time.Hour), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, b := range got {
		total += b.Count
	}
	if total != writers*each {
		t.Fatalf("aggregates count %d points, want %d: %+v", total, writers*each, got)
	}
	if n, err := st.Count(ctx, 1, t0, t0.Add(2*time.Hour)); err != nil || n != writers*each {
		t.Fatalf("count: got %d, %v; want %d", n, err, writers*each)
	}
}

func concurrentRewrites(t *testing.T, st tsdb.Store) {
	// Writers send batches over three series and three hours at once: some
	// points only they write, some that every writer writes with a value
	// of its own (replaced, again and again), some that every writer writes
	// alike (delivered again). Whatever the order, each hour's aggregate
	// must be that of the points the store ends up with.
	const writers, rounds = 4, 12
	series := []tsdb.Series{temp, humid, {Company: 1, DevEUI: euiB, Key: "co2"}}
	inParallel(t, writers, func(w int) error {
		for r := range rounds {
			var batch []tsdb.Point
			for i, se := range series {
				for h := range 3 {
					hour := t0.Add(time.Duration(h) * time.Hour)
					own := hour.Add(time.Duration(r*writers+w+1) * 7 * time.Second)
					shared := hour.Add(time.Duration(r%5) * 11 * time.Minute)
					batch = append(batch,
						tsdb.Number(se, own, float64((w*31+r*7+i)%23)-11),
						tsdb.Number(se, shared, float64(w*10+r)),
						tsdb.Number(se, hour.Add(59*time.Minute), float64(i)))
				}
			}
			if err := st.Write(ctx, batch); err != nil {
				return err
			}
		}
		return nil
	})
	for _, se := range series {
		from, to := t0, t0.Add(3*time.Hour)
		got, err := st.Aggregate(ctx, se, from, to, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if want := expectBuckets(all(t, st, se), from, to, time.Hour); !sameBucketsOK(got, want) {
			t.Fatalf("%s: aggregates %+v, from the points %+v", se.Key, got, want)
		}
	}
}

// inParallel runs write(0), ..., write(n-1) at once and fails the test with
// the first error any of them returns.
func inParallel(t *testing.T, n int, write func(w int) error) {
	t.Helper()
	var wg sync.WaitGroup
	errc := make(chan error, n)
	for w := range n {
		wg.Go(func() {
			if err := write(w); err != nil {
				errc <- err
			}
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
}
