package nodes

import (
	"errors"
	"slices"
	"time"

	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// Trend resolutions: the bucket widths of a trend chart (SPEC.md section 3),
// and ResolutionAuto, which chooses one from the window. The tag data API
// and the dashboards' trend modules share them.
const (
	ResolutionAuto   = "auto"
	ResolutionHour   = "hour"
	ResolutionHours5 = "5hours"
	ResolutionDay    = "day"
	ResolutionWeek   = "week"
)

// TrendWidths are the bucket widths of the fixed resolutions.
var TrendWidths = map[string]time.Duration{
	ResolutionHour:   time.Hour,
	ResolutionHours5: 5 * time.Hour,
	ResolutionDay:    24 * time.Hour,
	ResolutionWeek:   7 * 24 * time.Hour,
}

// ErrUnknownResolution is TrendEdges's answer to a resolution it does not
// know; a window too long for the resolution is a tsdb validation error.
var ErrUnknownResolution = errors.New("unknown trend resolution")

// autoResolution is the resolution ResolutionAuto picks for a window: a
// day in hours, a week in 5-hour buckets, a month (and up to four) in days,
// longer in weeks, so that a chart has a few dozen to a few hundred points.
func autoResolution(window time.Duration) string {
	switch {
	case window <= 48*time.Hour:
		return ResolutionHour
	case window <= 14*24*time.Hour:
		return ResolutionHours5
	case window <= 120*24*time.Hour:
		return ResolutionDay
	}
	return ResolutionWeek
}

// TrendEdges cuts the window [from, to) into the buckets of a trend chart:
// the edges for tsdb.Store.AggregateEdges and the resolution used. The first
// edge is from and the last is to (now, for "the last 24 hours"), so the
// chart ends where the window does; in between the edges lie on the
// resolution's clock: UTC hours for hour and 5-hour buckets (the fast case
// of the SQL store), midnight in loc for days and Monday midnight for weeks
// (tsdb.CalendarEdges: 23 or 25 hours on the days the clocks change).
// ResolutionAuto (or "") chooses the resolution from the window, and so
// does a fixed resolution wider than half the window, which would draw one
// or two points and no trend.
func TrendEdges(from, to time.Time, resolution string, loc *time.Location) ([]time.Time, string, error) {
	window := to.Sub(from)
	if resolution == "" {
		resolution = ResolutionAuto
	}
	if resolution != ResolutionAuto {
		width, ok := TrendWidths[resolution]
		if !ok {
			return nil, "", ErrUnknownResolution
		}
		if 2*width > window {
			resolution = ResolutionAuto
		}
	}
	if resolution == ResolutionAuto {
		resolution = autoResolution(window)
	}
	switch resolution {
	case ResolutionDay:
		edges, err := tsdb.CalendarEdges(from, to, loc, tsdb.Day)
		return edges, resolution, err
	case ResolutionWeek:
		edges, err := tsdb.CalendarEdges(from, to, loc, tsdb.Week)
		return edges, resolution, err
	}
	// On a UTC hour: 5-hour buckets stay put as the window moves.
	edges, err := tsdb.Grid(from, to, time.Unix(0, 0).UTC(), TrendWidths[resolution])
	return edges, resolution, err
}

// BucketEnd is the edge after start among edges (TrendEdges): the end of
// the bucket that starts there. AggregateEdges leaves empty buckets out, so
// a bucket's index does not tell its edges.
func BucketEnd(edges []time.Time, start time.Time) time.Time {
	i, _ := slices.BinarySearchFunc(edges, start, time.Time.Compare)
	for i < len(edges) && !edges[i].After(start) {
		i++
	}
	return edges[min(i, len(edges)-1)]
}
