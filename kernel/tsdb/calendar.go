package tsdb

import (
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
)

// CalendarUnit is a bucket of the calendar, whose length in hours depends
// on the time zone and the date: a day is 23 or 25 hours on the days clocks
// change, a month 28 to 31 days.
type CalendarUnit int

// The calendar units of CalendarEdges.
const (
	Day   CalendarUnit = iota + 1
	Week               // from Monday 00:00
	Month              // from the 1st, 00:00
)

// CalendarEdges returns the edges (for AggregateEdges) of the window
// [from, to) cut at every start of a day, week or month in loc: from, each
// local midnight that starts a unit after from and before to, and to. The
// edges are built as local dates, so that on daylight-saving days a day
// bucket holds 23 or 25 hours. A nil loc is UTC. The window is checked as
// for Aggregate, as is the number of buckets; times are taken to the
// microsecond.
func CalendarEdges(from, to time.Time, loc *time.Location, unit CalendarUnit) ([]time.Time, error) {
	var v errs.Validation
	ValidateWindow(&v, from, to)
	if unit < Day || unit > Month {
		v.Add("unit", IDBucketInvalid)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if loc == nil {
		loc = time.UTC
	}
	from, to = FromMicros(Micros(from)), FromMicros(Micros(to))
	edges := []time.Time{from}
	for next := unitStart(from.In(loc), unit); ; {
		next = nextUnit(next, unit)
		if !next.Before(to) {
			break
		}
		if len(edges) >= MaxBuckets {
			v.AddArgs("unit", IDBucketInvalid, map[string]any{"min": MinBucket.String(), "maxBuckets": MaxBuckets})
			return nil, v.Err()
		}
		edges = append(edges, next.UTC())
	}
	return append(edges, to), nil
}

// unitStart is the local midnight that starts the unit holding t.
func unitStart(t time.Time, unit CalendarUnit) time.Time {
	y, m, d := t.Date()
	switch unit {
	case Week:
		d -= (int(t.Weekday()) + 6) % 7 // days since Monday
	case Month:
		d = 1
	}
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}

// nextUnit is the start of the unit after the one that start begins. It
// counts in dates, not hours, so that a day after a clock change still
// starts at midnight.
func nextUnit(start time.Time, unit CalendarUnit) time.Time {
	y, m, d := start.Date()
	switch unit {
	case Week:
		d += 7
	case Month:
		m++
	default:
		d++
	}
	return time.Date(y, m, d, 0, 0, 0, 0, start.Location())
}
