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
	"github.com/fieldhub/fieldhub/modules/nodes"
)

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

// BucketData holds the aggregates of one trend bucket, [T, End).
type BucketData struct {
	T     time.Time `json:"t"`
	End   time.Time `json:"end"`
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
	var loc *time.Location
	if tz := q.Get("tz"); tz != "" {
		l, ok := accounts.LoadZone(tz)
		if !ok {
			v.Add("tz", dashboards.IDTimeZone)
		}
		loc = l
	}
	// With a resolution the series are trend buckets, cut as the tag data
	// API cuts them (nodes.TrendEdges).
	res := q.Get("resolution")
	if _, fixed := nodes.TrendWidths[res]; res != "" && res != nodes.ResolutionAuto && !fixed {
		v.Add("resolution", dashboards.IDResolution)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	var edges []time.Time
	if res != "" {
		if loc == nil {
			// Without ?tz= the days are those of the dashboard's company.
			c, err := r.accounts.Company(ctx, companyID)
			if err != nil {
				return nil, err
			}
			loc = c.Location()
		}
		var err error
		if edges, res, err = nodes.TrendEdges(from, to, res, loc); err != nil { // too many buckets
			v.Add("from", dashboards.IDRange)
			return nil, v.Err()
		}
	}
	refs, err := r.seriesOf(ctx, wd, companyID)
	if err != nil {
		return nil, err
	}
	out := TagData{From: from, To: to, Resolution: res, Series: make([]SeriesData, len(refs))}
	err = parallel(len(refs), func(i int) error {
		ref := refs[i]
		sd := SeriesData{DevEUI: ref.DevEUI, Name: ref.Name, Key: ref.Key, Label: ref.Label, Unit: ref.Unit}
		if edges != nil {
			buckets, err := r.series.AggregateEdges(ctx, ref.tsdb(companyID), edges)
			if err != nil {
				return err
			}
			sd.Buckets = make([]BucketData, len(buckets))
			for j, b := range buckets {
				sd.Buckets[j] = BucketData{T: b.Start, End: nodes.BucketEnd(edges, b.Start), Min: b.Min, Mean: b.Mean, Max: b.Max, Last: b.Last, Count: b.Count}
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
