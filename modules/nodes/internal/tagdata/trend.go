package tagdata

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/access"
)

// tagView answers GET /tag/{tagId}/{view}/{key}, of which only view "trend"
// exists; see Routes.
func (a *API) tagView(w http.ResponseWriter, r *http.Request) error {
	if r.PathValue("view") != "trend" {
		return access.ErrNotFound
	}
	return a.trend(w, r)
}

// trend answers GET /tag/{tagId}/trend/{key}?from=&to=&resolution=&tz=:
// min, max, mean, last and count of the key's numbers per bucket, cut by
// nodes.TrendEdges: the resolution (auto by default) chosen from the window
// when it would draw no trend, the last bucket ending at to. Day and week
// buckets start at midnight (weeks on Monday) in the time zone tz, by
// default the company's.
func (a *API) trend(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	asked := q.zone()
	from, to := q.window()
	res := q.q.Get("resolution")
	if _, fixed := nodes.TrendWidths[res]; res != "" && res != nodes.ResolutionAuto && !fixed {
		q.v.Add("resolution", nodes.IDTagDataResolution)
	}
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
	edges, res, err := nodes.TrendEdges(from, to, res, loc)
	if err != nil { // too many buckets
		q.v.AddArgs("from", nodes.IDTagDataWindow, map[string]any{"max": tsdb.MaxBuckets})
		return q.v.Err()
	}
	buckets, err := a.series.AggregateEdges(r.Context(), seriesOf(t, k.Key), edges)
	if err != nil {
		return err
	}
	out := Trend{TagID: t.ID, Key: k.Key, Label: k.Label, Unit: k.Unit, Resolution: res, From: from, To: to,
		Buckets: make([]TrendBucket, len(buckets))}
	for i, b := range buckets {
		out.Buckets[i] = TrendBucket{Start: b.Start, End: nodes.BucketEnd(edges, b.Start), Min: b.Min, Max: b.Max, Mean: b.Mean, Last: b.Last, Count: b.Count}
	}
	return web.OK(w, out)
}
