package tagdata

import (
	"net/http"
	"time"

	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/access"
)

// trendResolutions are the bucket widths a trend may have, by the name the
// query gives; days and weeks are calendar units (calendarUnits) whose width
// here only bounds the number of buckets.
var trendResolutions = map[string]time.Duration{
	"week":   7 * 24 * time.Hour,
	"day":    24 * time.Hour,
	"hour":   time.Hour,
	"5hours": 5 * time.Hour,
}

// calendarUnits are the resolutions whose buckets are the days or weeks of
// a time zone, 23 or 25 hours long when the clocks change.
var calendarUnits = map[string]tsdb.CalendarUnit{"day": tsdb.Day, "week": tsdb.Week}

// tagView answers GET /tag/{tagId}/{view}/{key}, of which only view "trend"
// exists; see Routes.
func (a *API) tagView(w http.ResponseWriter, r *http.Request) error {
	if r.PathValue("view") != "trend" {
		return access.ErrNotFound
	}
	return a.trend(w, r)
}

// trend answers GET /tag/{tagId}/trend/{key}?from=&to=&resolution=&tz=:
// min, max, mean, last and count of the key's numbers per bucket. Hour and
// 5-hour buckets start on the hour of from (UTC hours), day and week
// buckets at midnight (weeks on Monday) in the time zone tz, by default the
// company's.
func (a *API) trend(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	res := q.q.Get("resolution")
	if res == "" {
		res = "hour"
	}
	width, ok := trendResolutions[res]
	if !ok {
		q.v.Add("resolution", nodes.IDTagDataResolution)
	}
	asked := q.zone()
	from, to := q.window()
	if err := q.v.Err(); err != nil {
		return err
	}
	t, k, err := a.pathTagKey(r)
	if err != nil {
		return err
	}
	loc, err := a.zoneOr(r.Context(), asked, t.CompanyID)
	if err != nil {
		return err
	}
	from = alignBucket(from, res, loc)
	if n := to.Sub(from) / width; n >= tsdb.MaxBuckets {
		q.v.AddArgs("from", nodes.IDTagDataWindow, map[string]any{"max": tsdb.MaxBuckets})
		return q.v.Err()
	}
	var buckets []tsdb.Bucket
	if unit, ok := calendarUnits[res]; ok {
		var edges []time.Time
		if edges, err = tsdb.CalendarEdges(from, to, loc, unit); err == nil {
			buckets, err = a.series.AggregateEdges(r.Context(), seriesOf(t, k.Key), edges)
		}
	} else {
		buckets, err = a.series.Aggregate(r.Context(), seriesOf(t, k.Key), from, to, width)
	}
	if err != nil {
		return err
	}
	out := Trend{TagID: t.ID, Key: k.Key, Label: k.Label, Unit: k.Unit, Resolution: res, From: from, To: to,
		Buckets: make([]TrendBucket, len(buckets))}
	for i, b := range buckets {
		out.Buckets[i] = TrendBucket{Start: b.Start, Min: b.Min, Max: b.Max, Mean: b.Mean, Last: b.Last, Count: b.Count}
	}
	return web.OK(w, out)
}

// alignBucket moves from back to where the first bucket of a resolution
// starts.
func alignBucket(from time.Time, res string, loc *time.Location) time.Time {
	switch res {
	case "day", "week":
		l := from.In(loc)
		day := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, loc)
		if res == "week" {
			back := (int(day.Weekday()) + 6) % 7 // days since Monday
			day = time.Date(l.Year(), l.Month(), l.Day()-back, 0, 0, 0, 0, loc)
		}
		return day.UTC()
	default:
		return from.Truncate(time.Hour)
	}
}
