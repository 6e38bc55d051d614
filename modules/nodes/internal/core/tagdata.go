package core

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// The tag data API (SPEC.md section 7 "Tag data" and the tag data reads of
// "Companies"): stored values of nodes read from the time series, always
// within the caller's company. docs/decisions.md, "Tag data API", gives the
// shapes and the reasons.

// Message IDs of the tag data queries; each is a key of the locale catalogs.
const (
	msgTagDataTime       = "nodes.tagdata.time"
	msgTagDataRange      = "nodes.tagdata.range"
	msgTagDataMax        = "nodes.tagdata.max"
	msgTagDataResolution = "nodes.tagdata.resolution"
	msgTagDataWindow     = "nodes.tagdata.window"
	msgTagDataTimeZone   = "nodes.tagdata.tz"
	msgTagDataNoKey      = "nodes.tagdata.noKey"
)

// Limits and defaults of the tag data queries (SPEC.md section 9: the
// default range and the data point count are the last 24 hours).
const (
	defaultWindow  = 24 * time.Hour
	defaultMax     = 1000
	maxPointsLimit = 10_000
	// latestWorkers bounds the Latest reads one answer runs at once: enough
	// to hide InfluxDB's round trips, few enough to leave the database
	// connections to others.
	latestWorkers = 4
)

// trendResolutions are the bucket widths of SPEC.md section 3 "Trend
// resolutions".
var trendResolutions = map[string]time.Duration{
	"week":   7 * 24 * time.Hour,
	"day":    24 * time.Hour,
	"hour":   time.Hour,
	"5hours": 5 * time.Hour,
}

// tagDataRoutes registers the reads of stored values. GET /tag/{tagId}/trend/{key}
// is registered as GET /tag/{tagId}/{view}/{key} with view "trend": Go's
// ServeMux refuses the literal pattern beside GET /tag/meta/{tagId}/tagdata
// and GET /tag/latest/{tagId}/{key} (each pair matches a path such as
// /tag/latest/trend/x, and neither is more specific), while the wildcard
// pattern is less specific than both and so leaves them their paths.
func (m *Module) tagDataRoutes(r *web.ModuleRoutes) {
	r.API("GET /tag/tagdata", auth.CompanyOrUser, m.tagDataPoints)
	r.API("GET /tag/latest/{tagId}/{key}", auth.CompanyOrUser, m.latestTagData)
	r.API("GET /tag/{tagId}/{view}/{key}", auth.CompanyOrUser, m.tagView)
	r.API("GET /tag/{tagId}/currents", auth.CompanyOrUser, m.currents)

	r.API("GET /companies/{companyId}/tagdata", auth.CompanyOrUser, m.companyTagData)
	r.API("GET /companies/{companyId}/tagdata/count", auth.CompanyOrUser, m.companyDataCount)
	r.API("GET /companies/{companyId}/defaults", auth.CompanyOrUser, m.companyDefaults)
	r.API("GET /companies/{companyId}/latesttagdata", auth.CompanyOrUser, m.companyLatest)
	r.API("GET /companies/{companyId}/datapointsweek", auth.CompanyOrUser, m.dataPointsWeek)
	r.API("GET /companies/{companyId}/datapointsday", auth.CompanyOrUser, m.dataPointsDay)
	r.API("GET /companies/{companyId}/sensordatapoints/day", auth.CompanyOrUser, m.sensorDataPoints)
	r.API("GET /companies/{companyId}/tag/activity", auth.CompanyOrUser, m.tagActivity)
	r.API("GET /companies/{companyId}/tag/batteries", auth.CompanyOrUser, m.tagBatteries)
}

// TagDatum is one value of a key of a tag, in the shape of SPEC.md section
// 3 "Tag data". A stored point has no id of its own: ID is the tag's id, as
// Name is the tag's name. Value is a number, a text, or null when the key has
// no stored value; CreatedAt is when the value was measured.
type TagDatum struct {
	ID        int64      `json:"id"`
	Name      string     `json:"name"`
	Key       string     `json:"key"`
	Value     any        `json:"value"`
	CreatedAt *time.Time `json:"createdAt"`
	Label     string     `json:"label"`
	Unit      string     `json:"unit"`
	Default   bool       `json:"defaultKey"`
	TagDevEUI string     `json:"tagDeveui"`
}

// TrendBucket is one bucket of a trend: the numbers in [Start, Start+width).
type TrendBucket struct {
	Start time.Time `json:"start"`
	Min   float64   `json:"min"`
	Max   float64   `json:"max"`
	Mean  float64   `json:"mean"`
	Last  float64   `json:"last"`
	Count int64     `json:"count"`
}

// Trend answers GET /tag/{tagId}/trend/{key}.
type Trend struct {
	TagID      int64         `json:"tagId"`
	Key        string        `json:"key"`
	Label      string        `json:"label"`
	Unit       string        `json:"unit"`
	Resolution string        `json:"resolution"`
	From       time.Time     `json:"from"`
	To         time.Time     `json:"to"`
	Buckets    []TrendBucket `json:"buckets"`
}

// DataCount is a count of data points in [From, To).
type DataCount struct {
	From  time.Time `json:"from"`
	To    time.Time `json:"to"`
	Count int64     `json:"count"`
}

// NodeCount is the count of data points of one tag.
type NodeCount struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	DevEUI string `json:"deveui"`
	Count  int64  `json:"count"`
}

// NodeActivity tells when a tag last reported and whether that is recent.
type NodeActivity struct {
	ID         int64      `json:"id"`
	Name       string     `json:"name"`
	DevEUI     string     `json:"deveui"`
	LatestTime *time.Time `json:"latestTime"`
	Active     bool       `json:"active"`
}

// NodeBattery is the battery a tag last reported.
type NodeBattery struct {
	ID         int64      `json:"id"`
	Name       string     `json:"name"`
	DevEUI     string     `json:"deveui"`
	Battery    float64    `json:"battery"`
	VDD        *float64   `json:"vdd"`
	LatestTime *time.Time `json:"latestTime"`
}

// seriesOf names the series of key of t: the time series spell DevEUIs in
// lower case.
func seriesOf(t *Tag, key string) tsdb.Series {
	return tsdb.Series{Company: t.CompanyID, DevEUI: strings.ToLower(t.DevEUI), Key: key}
}

// datum turns a point (or, with ok false, its absence) into a TagDatum.
func datum(t *Tag, k Key, p tsdb.Point, ok bool) TagDatum {
	d := TagDatum{ID: t.ID, Name: t.Name, Key: k.Key, Label: k.Label, Unit: k.Unit, Default: k.Default, TagDevEUI: t.DevEUI}
	if ok {
		at := p.Time
		d.CreatedAt = &at
		if p.IsText {
			d.Value = p.Text
		} else {
			d.Value = p.Value
		}
	}
	return d
}

// dataQuery reads the parameters of a tag data query, collecting what is wrong
// in v.
type dataQuery struct {
	v   errs.Validation
	q   url.Values
	now time.Time
}

func newQuery(r *http.Request) *dataQuery {
	return &dataQuery{q: r.URL.Query(), now: time.Now().UTC()}
}

// time reads an RFC 3339 time; ok is false when it is absent or invalid.
func (q *dataQuery) time(name string) (time.Time, bool) {
	raw := q.q.Get(name)
	if raw == "" {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, raw)
	if err != nil || t.Before(tsdb.MinTime) || !t.Before(tsdb.MaxTime) {
		q.v.Add(name, msgTagDataTime)
		return time.Time{}, false
	}
	return t.UTC(), true
}

// window reads from and to: to defaults to now, from to the default window
// before to.
func (q *dataQuery) window() (from, to time.Time) {
	to, ok := q.time("to")
	if !ok {
		to = q.now
	}
	from, ok = q.time("from")
	if !ok {
		from = to.Add(-defaultWindow)
	}
	if !q.v.Has("from") && !q.v.Has("to") && from.After(to) {
		q.v.Add("from", msgTagDataRange)
	}
	return from, to
}

// max reads the number of points, 1 to maxPointsLimit.
func (q *dataQuery) max() int {
	raw := q.q.Get("max")
	if raw == "" {
		return defaultMax
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > maxPointsLimit {
		q.v.AddArgs("max", msgTagDataMax, map[string]any{"max": maxPointsLimit})
		return defaultMax
	}
	return n
}

// id reads a positive integer id; ok is false when it is absent or bad.
func (q *dataQuery) id(name string) (int64, bool) {
	raw := q.q.Get(name)
	if raw == "" {
		return 0, false
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		q.v.Add(name, errs.IDBadID)
		return 0, false
	}
	return id, true
}

// key reads an optional key; "" means the tag's default key.
func (q *dataQuery) key() string {
	k := q.q.Get("key")
	if k != "" {
		q.checkKey(k)
	}
	return k
}

// checkKey accepts any key the time series can hold, registered or not: it
// validates a series of that key (the company and DevEUI are placeholders).
func (q *dataQuery) checkKey(k string) {
	s := tsdb.Series{Company: 1, DevEUI: "0000000000000000", Key: k}
	var e *errs.Error
	if err := s.Validate(); errors.As(err, &e) {
		for _, f := range e.Fields {
			q.v.AddArgs(f.Field, f.ID, f.Args)
		}
	}
}

// keyOf returns the registered key name of t, or its default key when name
// is "". An unregistered key is described by its name alone.
func (m *Module) keyOf(ctx context.Context, t *Tag, name string) (Key, error) {
	keys, err := m.store.keysOfTags(ctx, m.db, []int64{t.ID})
	if err != nil {
		return Key{}, err
	}
	for _, k := range keys {
		if name == "" && k.Default || name != "" && k.Key == name {
			return k, nil
		}
	}
	if name == "" {
		v := errs.Validation{}
		v.Add("key", msgTagDataNoKey)
		return Key{}, v.Err()
	}
	return Key{TagID: t.ID, Key: name}, nil
}

// tagDataPoints answers GET /tag/tagdata?tagId=&key=&from=&to=&max=: the
// points of one key of a tag, downsampled to at most max.
func (m *Module) tagDataPoints(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	id, ok := q.id("tagId")
	if !ok && !q.v.Has("tagId") {
		q.v.Add("tagId", errs.IDRequired)
	}
	key, maxPoints := q.key(), q.max()
	from, to := q.window()
	if err := q.v.Err(); err != nil {
		return err
	}
	t, err := m.scopedTag(r.Context(), id, false)
	if err != nil {
		return err
	}
	return m.answerPoints(w, r, t, key, from, to, maxPoints)
}

// companyTagData answers GET /companies/{companyId}/tagdata?deveui=&key=&from=&to=&max=
// (or tagId= instead of deveui=): as GET /tag/tagdata, for a tag of that
// company.
func (m *Module) companyTagData(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	company, err := m.visibleCompanyID(ctx, r)
	if err != nil {
		return err
	}
	q := newQuery(r)
	id, byID := q.id("tagId")
	deveui := NormaliseEUI(q.q.Get("deveui"))
	switch {
	case byID || q.v.Has("tagId"):
	case deveui == "":
		q.v.Add("deveui", errs.IDRequired)
	case !ValidDevEUI(deveui):
		q.v.Add("deveui", msgDevEUIFormat)
	}
	key, maxPoints := q.key(), q.max()
	from, to := q.window()
	if err := q.v.Err(); err != nil {
		return err
	}
	var t *Tag
	if byID {
		t, err = m.store.tagByID(ctx, m.db, id)
	} else {
		t, err = m.store.tagByDevEUI(ctx, m.db, deveui)
	}
	if err != nil {
		return err
	}
	if t.CompanyID != company {
		return errNotFound
	}
	return m.answerPoints(w, r, t, key, from, to, maxPoints)
}

// answerPoints answers the points of key of t (its default key when key is
// ""), at most maxPoints of them.
func (m *Module) answerPoints(w http.ResponseWriter, r *http.Request, t *Tag, key string, from, to time.Time, maxPoints int) error {
	ctx := r.Context()
	k, err := m.keyOf(ctx, t, key)
	if err != nil {
		return err
	}
	pts, err := m.deps.Series.Range(ctx, seriesOf(t, k.Key), from, to, maxPoints)
	if err != nil {
		return err
	}
	out := make([]TagDatum, len(pts))
	for i, p := range pts {
		out[i] = datum(t, k, p, true)
	}
	return web.OK(w, out)
}

// pathTagKey loads the path's tag and the key named by the path's key.
func (m *Module) pathTagKey(r *http.Request) (*Tag, Key, error) {
	t, err := m.pathTag(r.Context(), r, false)
	if err != nil {
		return nil, Key{}, err
	}
	name := r.PathValue("key")
	q := dataQuery{}
	q.checkKey(name)
	if err := q.v.Err(); err != nil {
		return nil, Key{}, err
	}
	k, err := m.keyOf(r.Context(), t, name)
	return t, k, err
}

// latestTagData answers GET /tag/latest/{tagId}/{key}: the key's most
// recent value, with a null value when it has none.
func (m *Module) latestTagData(w http.ResponseWriter, r *http.Request) error {
	t, k, err := m.pathTagKey(r)
	if err != nil {
		return err
	}
	p, ok, err := m.deps.Series.Latest(r.Context(), seriesOf(t, k.Key))
	if err != nil {
		return err
	}
	return web.OK(w, datum(t, k, p, ok))
}

// tagView answers GET /tag/{tagId}/{view}/{key}, of which only view "trend"
// exists; see tagDataRoutes.
func (m *Module) tagView(w http.ResponseWriter, r *http.Request) error {
	if r.PathValue("view") != "trend" {
		return errNotFound
	}
	return m.trend(w, r)
}

// trend answers GET /tag/{tagId}/trend/{key}?from=&to=&resolution=&tz=:
// min, max, mean, last and count of the key's numbers per bucket. Hour and
// 5-hour buckets start on the hour of from (UTC hours), day and week
// buckets at midnight (weeks on Monday) in the time zone tz, UTC by
// default.
func (m *Module) trend(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	res := q.q.Get("resolution")
	if res == "" {
		res = "hour"
	}
	width, ok := trendResolutions[res]
	if !ok {
		q.v.Add("resolution", msgTagDataResolution)
	}
	loc := time.UTC
	if tz := q.q.Get("tz"); tz != "" {
		l, err := time.LoadLocation(tz)
		if err != nil {
			q.v.Add("tz", msgTagDataTimeZone)
		} else {
			loc = l
		}
	}
	from, to := q.window()
	if ok && q.v.Err() == nil {
		from = alignBucket(from, res, loc)
		if n := to.Sub(from) / width; n >= tsdb.MaxBuckets {
			q.v.AddArgs("from", msgTagDataWindow, map[string]any{"max": tsdb.MaxBuckets})
		}
	}
	if err := q.v.Err(); err != nil {
		return err
	}
	t, k, err := m.pathTagKey(r)
	if err != nil {
		return err
	}
	buckets, err := m.deps.Series.Aggregate(r.Context(), seriesOf(t, k.Key), from, to, width)
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

// currents answers GET /tag/{tagId}/currents: the latest value of every key
// of the tag, null for a key without one.
func (m *Module) currents(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := m.pathTag(ctx, r, false)
	if err != nil {
		return err
	}
	keys, err := m.store.keysOfTags(ctx, m.db, []int64{t.ID})
	if err != nil {
		return err
	}
	items := make([]latestItem, len(keys))
	for i, k := range keys {
		items[i] = latestItem{tag: t, key: k}
	}
	out, err := m.latestValues(ctx, items, true)
	if err != nil {
		return err
	}
	return web.OK(w, out)
}

// latestItem is one series whose latest value an answer lists.
type latestItem struct {
	tag *Tag
	key Key
}

// latestValues reads the latest value of each item, a few at a time, and returns
// them in the items' order; without keepEmpty, items without a value are
// left out.
func (m *Module) latestValues(ctx context.Context, items []latestItem, keepEmpty bool) ([]TagDatum, error) {
	type result struct {
		p   tsdb.Point
		ok  bool
		err error
	}
	results := make([]result, len(items))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(latestWorkers, len(items)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				p, ok, err := m.deps.Series.Latest(ctx, seriesOf(items[i].tag, items[i].key.Key))
				results[i] = result{p, ok, err}
			}
		}()
	}
	for i := range items {
		next <- i
	}
	close(next)
	wg.Wait()
	out := make([]TagDatum, 0, len(items))
	for i, res := range results {
		if res.err != nil {
			return nil, res.err
		}
		if res.ok || keepEmpty {
			out = append(out, datum(items[i].tag, items[i].key, res.p, res.ok))
		}
	}
	return out, nil
}

// companyTagsAndKeys loads the tags of the path's company, by name, and
// their keys by tag id.
func (m *Module) companyTagsAndKeys(ctx context.Context, r *http.Request) ([]*Tag, map[int64][]Key, error) {
	company, err := m.visibleCompanyID(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	tags, err := m.store.tags(ctx, m.db, company)
	if err != nil {
		return nil, nil, err
	}
	ids := make([]int64, len(tags))
	for i, t := range tags {
		ids[i] = t.ID
	}
	keys, err := m.store.keysOfTags(ctx, m.db, ids)
	if err != nil {
		return nil, nil, err
	}
	byTag := map[int64][]Key{}
	for _, k := range keys {
		byTag[k.TagID] = append(byTag[k.TagID], k)
	}
	return tags, byTag, nil
}

// companyDefaults answers GET /companies/{companyId}/defaults: each tag's
// default key with its latest value (null when it has none). Tags without a
// default key are left out.
func (m *Module) companyDefaults(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	tags, keys, err := m.companyTagsAndKeys(ctx, r)
	if err != nil {
		return err
	}
	var items []latestItem
	for _, t := range tags {
		for _, k := range keys[t.ID] {
			if k.Default {
				items = append(items, latestItem{tag: t, key: k})
			}
		}
	}
	out, err := m.latestValues(ctx, items, true)
	if err != nil {
		return err
	}
	return web.OK(w, out)
}

// companyLatest answers GET /companies/{companyId}/latesttagdata: the
// latest value of every key of every tag of the company that has one, each
// marked whether it is its tag's default key.
func (m *Module) companyLatest(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	tags, keys, err := m.companyTagsAndKeys(ctx, r)
	if err != nil {
		return err
	}
	var items []latestItem
	for _, t := range tags {
		for _, k := range keys[t.ID] {
			items = append(items, latestItem{tag: t, key: k})
		}
	}
	out, err := m.latestValues(ctx, items, false)
	if err != nil {
		return err
	}
	return web.OK(w, out)
}

// companyDataCount answers GET /companies/{companyId}/tagdata/count: the
// company's data points of the last 24 hours.
func (m *Module) companyDataCount(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	company, err := m.visibleCompanyID(ctx, r)
	if err != nil {
		return err
	}
	to := time.Now().UTC()
	from := to.Add(-defaultWindow)
	n, err := m.deps.Series.Count(ctx, company, from, to)
	if err != nil {
		return err
	}
	return web.OK(w, DataCount{From: from, To: to, Count: n})
}

// dataPointsWeek answers GET /companies/{companyId}/datapointsweek?tz=: the
// company's data points per day of the last 7 days, today (until now)
// last. Days run from midnight to midnight in the time zone tz, UTC by
// default.
func (m *Module) dataPointsWeek(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	company, err := m.visibleCompanyID(ctx, r)
	if err != nil {
		return err
	}
	q := newQuery(r)
	loc := time.UTC
	if tz := q.q.Get("tz"); tz != "" {
		if loc, err = time.LoadLocation(tz); err != nil {
			q.v.Add("tz", msgTagDataTimeZone)
		}
	}
	if err := q.v.Err(); err != nil {
		return err
	}
	now := q.now.In(loc)
	var bounds []time.Time
	for d := -6; d <= 1; d++ {
		bounds = append(bounds, time.Date(now.Year(), now.Month(), now.Day()+d, 0, 0, 0, 0, loc).UTC())
	}
	bounds[7] = q.now
	return m.answerCounts(ctx, w, company, bounds)
}

// dataPointsDay answers GET /companies/{companyId}/datapointsday: the
// company's data points per hour of the last 24 hours, the current hour
// (until now) last.
func (m *Module) dataPointsDay(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	company, err := m.visibleCompanyID(ctx, r)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	hour := now.Truncate(time.Hour)
	bounds := make([]time.Time, 0, 25)
	for h := -23; h <= 0; h++ {
		bounds = append(bounds, hour.Add(time.Duration(h)*time.Hour))
	}
	bounds = append(bounds, now)
	return m.answerCounts(ctx, w, company, bounds)
}

// answerCounts answers the counts of the company's data points between
// consecutive bounds.
func (m *Module) answerCounts(ctx context.Context, w http.ResponseWriter, company int64, bounds []time.Time) error {
	out := make([]DataCount, len(bounds)-1)
	for i := range out {
		n, err := m.deps.Series.Count(ctx, company, bounds[i], bounds[i+1])
		if err != nil {
			return err
		}
		out[i] = DataCount{From: bounds[i], To: bounds[i+1], Count: n}
	}
	return web.OK(w, out)
}

// sensorDataPoints answers GET /companies/{companyId}/sensordatapoints/day:
// each tag's data points of the last 24 hours, by tag name.
func (m *Module) sensorDataPoints(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	company, err := m.visibleCompanyID(ctx, r)
	if err != nil {
		return err
	}
	tags, err := m.store.tags(ctx, m.db, company)
	if err != nil {
		return err
	}
	to := time.Now().UTC()
	counts, err := m.deps.Series.CountByNode(ctx, company, to.Add(-defaultWindow), to)
	if err != nil {
		return err
	}
	out := make([]NodeCount, len(tags))
	for i, t := range tags {
		out[i] = NodeCount{ID: t.ID, Name: t.Name, DevEUI: t.DevEUI, Count: counts[strings.ToLower(t.DevEUI)]}
	}
	return web.OK(w, out)
}

// tagActivity answers GET /companies/{companyId}/tag/activity: each tag's
// latest uplink time and whether it is active, by the same rule as a tag's
// activeData (an uplink within ActiveWindow).
func (m *Module) tagActivity(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	company, err := m.visibleCompanyID(ctx, r)
	if err != nil {
		return err
	}
	tags, err := m.store.tags(ctx, m.db, company)
	if err != nil {
		return err
	}
	now := time.Now()
	out := make([]NodeActivity, len(tags))
	for i, t := range tags {
		out[i] = NodeActivity{ID: t.ID, Name: t.Name, DevEUI: t.DevEUI, LatestTime: t.LatestTime,
			Active: t.LatestTime != nil && now.Sub(*t.LatestTime) < ActiveWindow}
	}
	return web.OK(w, out)
}

// tagBatteries answers GET /companies/{companyId}/tag/batteries: the tags
// that have reported a battery, with it.
func (m *Module) tagBatteries(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	company, err := m.visibleCompanyID(ctx, r)
	if err != nil {
		return err
	}
	tags, err := m.store.tags(ctx, m.db, company)
	if err != nil {
		return err
	}
	out := []NodeBattery{}
	for _, t := range tags {
		if t.Battery != nil {
			out = append(out, NodeBattery{ID: t.ID, Name: t.Name, DevEUI: t.DevEUI, Battery: *t.Battery, VDD: t.VDD, LatestTime: t.LatestTime})
		}
	}
	return web.OK(w, out)
}

// fillDataPoints sets the dataPoints24h of tags: the points their series
// hold in the last 24 hours (SPEC.md section 9), one count per company.
// Without the time series it leaves them 0.
func (m *Module) fillDataPoints(ctx context.Context, tags ...*Tag) error {
	if m.deps.Series == nil || len(tags) == 0 {
		return nil
	}
	to := time.Now().UTC()
	counts := map[int64]map[string]int64{}
	for _, t := range tags {
		c, ok := counts[t.CompanyID]
		if !ok {
			var err error
			if c, err = m.deps.Series.CountByNode(ctx, t.CompanyID, to.Add(-defaultWindow), to); err != nil {
				return err
			}
			counts[t.CompanyID] = c
		}
		t.DataPoints24h = c[strings.ToLower(t.DevEUI)]
	}
	return nil
}
