package sqlts

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// TestAggregateReadsOnlyTheCutHours checks how much of a window Aggregate
// and AggregateEdges read from points rather than from the hours' rows:
// only the hours that a bucket's edge cuts, the window's ends among them,
// so that a window off the hour or days in a zone half an hour off UTC cost
// little more than whole hours (docs/performance.md, "Time series"). The
// answers themselves are the conformance suite's (tsdbtest).
func TestAggregateReadsOnlyTheCutHours(t *testing.T) {
	t0 := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	se := tsdb.Series{Company: 1, DevEUI: "70b3d57ed0000001", Key: "temperature"}
	off := 37*time.Minute + 13*time.Second
	kolkata := t0.Add(-5*time.Hour - 30*time.Minute) // midnight in UTC+05:30
	grid := func(from, to, origin time.Time, width time.Duration) []time.Time {
		edges, err := tsdb.Grid(from, to, origin, width)
		if err != nil {
			t.Fatal(err)
		}
		return edges
	}
	days := func(from time.Time, hours ...int) []time.Time {
		edges := []time.Time{from}
		for _, h := range hours {
			edges = append(edges, edges[len(edges)-1].Add(time.Duration(h)*time.Hour))
		}
		return edges
	}
	cases := []struct {
		name string
		// Aggregate's arguments, or edges for AggregateEdges.
		from, to time.Time
		width    time.Duration
		edges    []time.Time
		raw      time.Duration // what is read from points
	}{
		{name: "hourly from the hour", from: t0, to: t0.Add(8 * 24 * time.Hour), width: time.Hour},
		{name: "days at midnight in UTC+05:30: the hour each day starts in",
			from: kolkata, to: kolkata.Add(8 * 24 * time.Hour), width: 24 * time.Hour, raw: 8 * time.Hour},
		{name: "5 hours from the hour, to off: the last partial hour",
			from: t0, to: t0.Add(100*time.Hour + 20*time.Minute), width: 5 * time.Hour, raw: 20 * time.Minute},
		{name: "90 minutes from the hour: every other hour",
			from: t0, to: t0.Add(48 * time.Hour), width: 90 * time.Minute, raw: 16 * time.Hour},
		{name: "hourly off the hour cuts every hour",
			from: t0.Add(off), to: t0.Add(48*time.Hour + off), width: time.Hour, raw: 48 * time.Hour},
		{name: "clock hours of a window off the hour: its two ends",
			edges: grid(t0.Add(off), t0.Add(7*24*time.Hour+off), t0, time.Hour), raw: time.Hour},
		{name: "days of 23 and 25 hours at UTC hours", edges: days(t0.Add(-time.Hour), 24, 23, 24, 25, 24)},
		{name: "days of a half-hour zone across a change",
			edges: days(kolkata, 24, 23, 24), raw: 30*time.Minute + 2*time.Hour + 30*time.Minute},
	}
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		ctx := context.Background()
		s := openStore(t, d)
		// A point a minute for ten days, from before the windows.
		var pts []tsdb.Point
		for i := range 10 * 24 * 60 {
			at := t0.Add(-24*time.Hour + time.Duration(i)*time.Minute)
			pts = append(pts, tsdb.Number(se, at, math.Sin(float64(i)/50)))
		}
		for batch := range slices.Chunk(pts, 5000) {
			if err := s.Write(ctx, batch); err != nil {
				t.Fatal(err)
			}
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				before := s.rawSpan.Load()
				var got []tsdb.Bucket
				var err error
				if tc.edges != nil {
					got, err = s.AggregateEdges(ctx, se, tc.edges)
				} else {
					got, err = s.Aggregate(ctx, se, tc.from, tc.to, tc.width)
				}
				if err != nil || len(got) == 0 {
					t.Fatalf("got %d buckets, %v", len(got), err)
				}
				if raw := time.Duration(s.rawSpan.Load()-before) * time.Microsecond; raw != tc.raw {
					t.Fatalf("read %s from points, want %s", raw, tc.raw)
				}
			})
		}
	})
}
