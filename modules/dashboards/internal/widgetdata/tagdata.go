package widgetdata

import (
	"context"
	"net/url"
	"strconv"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/dashboards"
)

// trendWidths are the bucket widths of the trend resolutions a module's
// resolution attribute and the tagdata route's ?resolution= name.
var trendWidths = map[string]time.Duration{
	"week":   7 * 24 * time.Hour,
	"day":    24 * time.Hour,
	"hour":   time.Hour,
	"5hours": 5 * time.Hour,
}

// calendarUnits are the resolutions whose buckets are the days or weeks of
// a time zone (23 or 25 hours when the clocks change); their width in
// trendWidths only bounds the number of buckets.
var calendarUnits = map[string]tsdb.CalendarUnit{"day": tsdb.Day, "week": tsdb.Week}

// SeriesData is one series of a tagdata answer.
type SeriesData struct {
	DevEUI  string       `json:"deveui"`
	Name    string       `json:"name"`
	Key     string       `json:"key"`
	Label   string       `json:"label"`
	Unit    string       `json:"unit"`
	Points  []PointData  `json:"points,omitempty"`
	Buckets []BucketData `json:"buckets,omitempty"`
}

// PointData is a stored value: a number (v) or a text (s).
type PointData struct {
	T time.Time `json:"t"`
	V *float64  `json:"v,omitempty"`
	S *string   `json:"s,omitempty"`
}

// BucketData holds the aggregates of one trend bucket.
type BucketData struct {
	T     time.Time `json:"t"`
	Min   float64   `json:"min"`
	Mean  float64   `json:"mean"`
	Max   float64   `json:"max"`
	Last  float64   `json:"last"`
	Count int64     `json:"count"`
}

// TagData is the answer of GET .../tagdata.
type TagData struct {
	From       time.Time    `json:"from"`
	To         time.Time    `json:"to"`
	Resolution string       `json:"resolution,omitempty"`
	Series     []SeriesData `json:"series"`
}

// window reads from and to (RFC 3339); they default to the module's stored
// offset (else 24 hours) before now, and now.
func window(q url.Values, wd *dashboards.Widget, v *errs.Validation) (time.Time, time.Time) {
	to := time.Now().UTC()
	if raw := q.Get("to"); raw != "" {
		t, err := time.Parse(time.RFC3339Nano, raw)
		if err != nil {
			v.Add("to", dashboards.IDRange)
		}
		to = t.UTC()
	}
	span := dashboards.DefaultRange
	if wd.Settings.TimeOffset > 0 {
		span = time.Duration(wd.Settings.TimeOffset) * time.Second
	}
	from := to.Add(-span)
	if raw := q.Get("from"); raw != "" {
		t, err := time.Parse(time.RFC3339Nano, raw)
		if err != nil {
			v.Add("from", dashboards.IDRange)
		}
		from = t.UTC()
	}
	if !v.Has("from") && !v.Has("to") && (!from.Before(to) || from.Before(tsdb.MinTime) || to.After(tsdb.MaxTime)) {
		v.Add("from", dashboards.IDRange)
	}
	return from, to
}

// TagData answers GET .../tagdata?from=&to=&points=&resolution=&tz= (q)
// of a module of a company: the module's series as points (at most points
// per series, downsampled so that peaks stay) or, with resolution, as
// trend buckets.
func (r *Reader) TagData(ctx context.Context, wd *dashboards.Widget, companyID int64, q url.Values) (*TagData, error) {
	v := errs.Validation{}
	from, to := window(q, wd, &v)
	points := defaultPoints
	if raw := q.Get("points"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > maxPoints {
			v.AddArgs("points", dashboards.IDPoints, map[string]any{"max": maxPoints})
		}
		points = n
	}
	res := q.Get("resolution")
	var width time.Duration
	if res != "" {
		var ok bool
		if width, ok = trendWidths[res]; !ok {
			v.Add("resolution", dashboards.IDResolution)
		}
	}
	var loc *time.Location
	if tz := q.Get("tz"); tz != "" {
		l, ok := accounts.LoadZone(tz)
		if !ok {
			v.Add("tz", dashboards.IDTimeZone)
		}
		loc = l
	}
	if res != "" && v.Err() == nil {
		if loc == nil {
			// Without ?tz= the days are those of the dashboard's company.
			c, err := r.accounts.Company(ctx, companyID)
			if err != nil {
				return nil, err
			}
			loc = c.Location()
		}
		from = alignBucket(from, res, loc)
		if to.Sub(from)/width >= tsdb.MaxBuckets {
			v.Add("from", dashboards.IDRange)
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	refs, err := r.seriesOf(ctx, wd, companyID)
	if err != nil {
		return nil, err
	}
	out := TagData{From: from, To: to, Resolution: res, Series: make([]SeriesData, len(refs))}
	err = parallel(len(refs), func(i int) error {
		ref := refs[i]
		sd := SeriesData{DevEUI: ref.DevEUI, Name: ref.Name, Key: ref.Key, Label: ref.Label, Unit: ref.Unit}
		if res != "" {
			buckets, err := r.trend(ctx, ref.tsdb(companyID), from, to, res, width, loc)
			if err != nil {
				return err
			}
			sd.Buckets = make([]BucketData, len(buckets))
			for j, b := range buckets {
				sd.Buckets[j] = BucketData{T: b.Start, Min: b.Min, Mean: b.Mean, Max: b.Max, Last: b.Last, Count: b.Count}
			}
		} else {
			pts, err := r.series.Range(ctx, ref.tsdb(companyID), from, to, points)
			if err != nil {
				return err
			}
			sd.Points = make([]PointData, len(pts))
			for j, p := range pts {
				sd.Points[j] = pointData(p)
			}
		}
		out.Series[i] = sd
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// trend reads the buckets of one series: calendar days and weeks in loc,
// else buckets of the fixed width.
func (r *Reader) trend(ctx context.Context, s tsdb.Series, from, to time.Time, res string, width time.Duration, loc *time.Location) ([]tsdb.Bucket, error) {
	unit, ok := calendarUnits[res]
	if !ok {
		return r.series.Aggregate(ctx, s, from, to, width)
	}
	edges, err := tsdb.CalendarEdges(from, to, loc, unit)
	if err != nil {
		return nil, err
	}
	return r.series.AggregateEdges(ctx, s, edges)
}

func pointData(p tsdb.Point) PointData {
	out := PointData{T: p.Time.UTC()}
	if p.IsText {
		s := p.Text
		out.S = &s
	} else {
		v := p.Value
		out.V = &v
	}
	return out
}

// alignBucket moves from back to where the first bucket of a resolution
// starts, as the tag data API does: on the hour for hour and 5-hour
// buckets, at midnight (weeks on Monday) in loc for days and weeks.
func alignBucket(from time.Time, res string, loc *time.Location) time.Time {
	switch res {
	case "day", "week":
		l := from.In(loc)
		back := 0
		if res == "week" {
			back = (int(l.Weekday()) + 6) % 7 // days since Monday
		}
		return time.Date(l.Year(), l.Month(), l.Day()-back, 0, 0, 0, 0, loc).UTC()
	default:
		return from.Truncate(time.Hour)
	}
}
