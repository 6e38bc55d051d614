package core

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// The data a module reads: its series (points or trend buckets), their
// latest values, facts about its company and nodes, and the weather at its
// position. Each answer is the same for the signed-in routes
// (/dashboards/modules/{id}/...) and the public ones
// (/dashboards/public/{token}/modules/{id}/...).

// dataHandler answers one data read of a module of a dashboard.
type dataHandler func(w http.ResponseWriter, r *http.Request, wd *Widget, d *Dashboard) error

// widgetData makes a signed-in route of h: the module within the caller's
// reach.
func (m *Module) widgetData(h dataHandler) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		wd, d, err := m.pathWidget(r, false)
		if err != nil {
			return err
		}
		return h(w, r, wd, d)
	}
}

// Limits and defaults of the data reads.
const (
	defaultPoints = 1000
	maxPoints     = 10_000
	// latestWindows are how far back the latest values of a series are
	// looked for, shortest first (see lastTwo).
	latestAhead = time.Hour + time.Minute // the ingest takes times up to an hour ahead
	// readers bounds the series one answer reads at once.
	readers = 4
)

// trendWidths are the bucket widths of SPEC.md section 3 "Trend
// resolutions".
var trendWidths = map[string]time.Duration{
	"week":   7 * 24 * time.Hour,
	"day":    24 * time.Hour,
	"hour":   time.Hour,
	"5hours": 5 * time.Hour,
}

// seriesRef is one series a module shows, with what people see of it.
type seriesRef struct {
	DevEUI string
	Key    string
	Name   string
	Label  string
	Unit   string
}

func (s seriesRef) tsdb(companyID int64) tsdb.Series {
	return tsdb.Series{Company: companyID, DevEUI: strings.ToLower(s.DevEUI), Key: s.Key}
}

// nodeInfo caches the nodes of one answer.
type nodeInfo struct {
	m     *Module
	ctx   context.Context
	tags  map[string]*nodes.Tag
	keys  map[int64][]nodes.Key
	owner int64
}

func (m *Module) nodeInfo(ctx context.Context, companyID int64) *nodeInfo {
	return &nodeInfo{m: m, ctx: ctx, tags: map[string]*nodes.Tag{}, keys: map[int64][]nodes.Key{}, owner: companyID}
}

// tag returns the node of a DevEUI if it (still) belongs to the
// dashboard's company.
func (n *nodeInfo) tag(deveui string) (*nodes.Tag, error) {
	if t, ok := n.tags[deveui]; ok {
		return t, nil
	}
	t, err := n.m.deps.Nodes.TagByDevEUI(n.ctx, deveui)
	if err != nil {
		if errs.Is(err, errs.NotFound) || errs.Is(err, errs.Invalid) {
			n.tags[deveui] = nil
			return nil, nil
		}
		return nil, err
	}
	if t.CompanyID != n.owner {
		t = nil
	}
	n.tags[deveui] = t
	return t, nil
}

// tagKeys returns the registered keys of a node.
func (n *nodeInfo) tagKeys(t *nodes.Tag) ([]nodes.Key, error) {
	if ks, ok := n.keys[t.ID]; ok {
		return ks, nil
	}
	ks, err := n.m.deps.Nodes.TagKeys(n.ctx, t.ID)
	if err != nil {
		return nil, err
	}
	n.keys[t.ID] = ks
	return ks, nil
}

// ref describes the series of a node's key; ok is false when the node is
// not (or no longer) the company's.
func (n *nodeInfo) ref(deveui, key string) (seriesRef, bool, error) {
	t, err := n.tag(deveui)
	if err != nil || t == nil {
		return seriesRef{}, false, err
	}
	r := seriesRef{DevEUI: t.DevEUI, Key: key, Name: t.Name, Label: key}
	ks, err := n.tagKeys(t)
	if err != nil {
		return r, false, err
	}
	for _, k := range ks {
		if k.Key == key {
			if k.Label != "" {
				r.Label = k.Label
			}
			r.Unit = k.Unit
		}
	}
	return r, true, nil
}

// seriesOf lists the series a module shows: its "series" attribute (multi
// chart, map), its image-map "positions", the x and y tilt keys, or its
// node's "tagkey" keys (comma separated), else its node's default key.
func (m *Module) seriesOf(ctx context.Context, wd *Widget, companyID int64) ([]seriesRef, error) {
	n := m.nodeInfo(ctx, companyID)
	var want []SeriesRef
	switch {
	case wd.Attributes["series"] != "":
		_ = json.Unmarshal([]byte(wd.Attributes["series"]), &want)
	case wd.Attributes["positions"] != "":
		var ps []Position
		_ = json.Unmarshal([]byte(wd.Attributes["positions"]), &ps)
		for _, p := range ps {
			want = append(want, SeriesRef{DevEUI: p.DevEUI, Key: p.Key})
		}
	case wd.Type == TypeTilt && wd.Tag != "":
		for _, k := range []string{wd.Attributes["tagkey_x"], wd.Attributes["tagkey_y"]} {
			if k != "" {
				want = append(want, SeriesRef{DevEUI: wd.Tag, Key: k})
			}
		}
	case wd.Tag != "" && wd.Attributes["tagkey"] != "":
		for _, k := range strings.Split(wd.Attributes["tagkey"], ",") {
			if k = strings.TrimSpace(k); k != "" {
				want = append(want, SeriesRef{DevEUI: wd.Tag, Key: k})
			}
		}
	case wd.Tag != "":
		t, err := n.tag(wd.Tag)
		if err != nil || t == nil {
			return nil, err
		}
		ks, err := n.tagKeys(t)
		if err != nil {
			return nil, err
		}
		for _, k := range ks {
			if k.Default {
				want = append(want, SeriesRef{DevEUI: wd.Tag, Key: k.Key})
			}
		}
	}
	out := []seriesRef{}
	seen := map[SeriesRef]bool{}
	for _, w := range want {
		if seen[w] {
			continue
		}
		seen[w] = true
		r, ok, err := n.ref(w.DevEUI, w.Key)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, r)
		}
	}
	return out, nil
}

// parallel runs f for 0..n-1 with at most readers at once and returns the
// first error.
func parallel(n int, f func(i int) error) error {
	var wg sync.WaitGroup
	errc := make(chan error, n)
	sem := make(chan struct{}, readers)
	for i := 0; i < n; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			if err := f(i); err != nil {
				errc <- err
			}
		}(i)
	}
	wg.Wait()
	close(errc)
	return <-errc
}

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
func window(q url.Values, wd *Widget, v *errs.Validation) (time.Time, time.Time) {
	to := time.Now().UTC()
	if raw := q.Get("to"); raw != "" {
		t, err := time.Parse(time.RFC3339Nano, raw)
		if err != nil {
			v.Add("to", msgRange)
		}
		to = t.UTC()
	}
	span := DefaultRange
	if wd.Settings.TimeOffset > 0 {
		span = time.Duration(wd.Settings.TimeOffset) * time.Second
	}
	from := to.Add(-span)
	if raw := q.Get("from"); raw != "" {
		t, err := time.Parse(time.RFC3339Nano, raw)
		if err != nil {
			v.Add("from", msgRange)
		}
		from = t.UTC()
	}
	if !v.Has("from") && !v.Has("to") && (!from.Before(to) || from.Before(tsdb.MinTime) || to.After(tsdb.MaxTime)) {
		v.Add("from", msgRange)
	}
	return from, to
}

// tagData answers GET .../tagdata?from=&to=&points=&resolution=&tz=: the
// module's series as points (at most points per series, downsampled so
// that peaks stay) or, with resolution, as trend buckets.
func (m *Module) tagData(w http.ResponseWriter, r *http.Request, wd *Widget, d *Dashboard) error {
	ctx := r.Context()
	q := r.URL.Query()
	v := errs.Validation{}
	from, to := window(q, wd, &v)
	points := defaultPoints
	if raw := q.Get("points"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > maxPoints {
			v.AddArgs("points", msgPoints, map[string]any{"max": maxPoints})
		}
		points = n
	}
	res := q.Get("resolution")
	var width time.Duration
	if res != "" {
		var ok bool
		if width, ok = trendWidths[res]; !ok {
			v.Add("resolution", msgResolution)
		}
	}
	loc := time.UTC
	if tz := q.Get("tz"); tz != "" {
		l, err := time.LoadLocation(tz)
		if err != nil {
			v.Add("tz", msgTimeZone)
		} else {
			loc = l
		}
	}
	if res != "" && v.Err() == nil {
		from = alignBucket(from, res, loc)
		if to.Sub(from)/width >= tsdb.MaxBuckets {
			v.Add("from", msgRange)
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	refs, err := m.seriesOf(ctx, wd, d.CompanyID)
	if err != nil {
		return err
	}
	out := TagData{From: from, To: to, Resolution: res, Series: make([]SeriesData, len(refs))}
	err = parallel(len(refs), func(i int) error {
		ref := refs[i]
		sd := SeriesData{DevEUI: ref.DevEUI, Name: ref.Name, Key: ref.Key, Label: ref.Label, Unit: ref.Unit}
		if res != "" {
			buckets, err := m.deps.Series.Aggregate(ctx, ref.tsdb(d.CompanyID), from, to, width)
			if err != nil {
				return err
			}
			sd.Buckets = make([]BucketData, len(buckets))
			for j, b := range buckets {
				sd.Buckets[j] = BucketData{T: b.Start, Min: b.Min, Mean: b.Mean, Max: b.Max, Last: b.Last, Count: b.Count}
			}
		} else {
			pts, err := m.deps.Series.Range(ctx, ref.tsdb(d.CompanyID), from, to, points)
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
		return err
	}
	return web.OK(w, out)
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

// LatestData is one series of a tagdata/latest answer.
type LatestData struct {
	DevEUI   string     `json:"deveui"`
	Name     string     `json:"name"`
	Key      string     `json:"key"`
	Label    string     `json:"label"`
	Unit     string     `json:"unit"`
	Value    *float64   `json:"value"`
	Text     *string    `json:"text"`
	Time     *time.Time `json:"time"`
	Previous *float64   `json:"previous"`
}

// latestData answers GET .../tagdata/latest: each series' latest value and
// the number before it (for the trend icon), nulls when there are none.
func (m *Module) latestData(w http.ResponseWriter, r *http.Request, wd *Widget, d *Dashboard) error {
	ctx := r.Context()
	refs, err := m.seriesOf(ctx, wd, d.CompanyID)
	if err != nil {
		return err
	}
	out := make([]LatestData, len(refs))
	err = parallel(len(refs), func(i int) error {
		ref := refs[i]
		s := ref.tsdb(d.CompanyID)
		ld := LatestData{DevEUI: ref.DevEUI, Name: ref.Name, Key: ref.Key, Label: ref.Label, Unit: ref.Unit}
		p, prev, err := m.lastTwo(ctx, s)
		if err != nil {
			return err
		}
		if p != nil {
			t := p.Time.UTC()
			ld.Time = &t
			if p.IsText {
				ld.Text = &p.Text
			} else {
				ld.Value = &p.Value
				if prev != nil && !prev.IsText {
					ld.Previous = &prev.Value
				}
			}
		}
		out[i] = ld
		return nil
	})
	if err != nil {
		return err
	}
	return web.OK(w, map[string]any{"series": out})
}

// latestWindows are the windows, ending an hour ahead of now, in which
// lastTwo looks for a series' latest values, shortest first.
var latestWindows = []time.Duration{2 * time.Hour, 3 * 24 * time.Hour, 62 * 24 * time.Hour}

// lastTwo returns the latest point of a series and the one before it (nil
// when there is none). The store tells the latest point alone, so this
// reads the points of a short recent window, widened for a series that
// reports rarely: a few recent points are cheap in every store. Range keeps a window's last point whatever it drops, so
// the latest is exact; the one before is exact unless the window holds more
// than maxPoints values. A series silent for two months is asked with
// Latest, and then has no previous value.
func (m *Module) lastTwo(ctx context.Context, s tsdb.Series) (*tsdb.Point, *tsdb.Point, error) {
	to := time.Now().Add(latestAhead)
	for _, span := range latestWindows {
		pts, err := m.deps.Series.Range(ctx, s, to.Add(-span), to, maxPoints)
		if err != nil {
			return nil, nil, err
		}
		switch n := len(pts); {
		case n >= 2:
			return &pts[n-1], &pts[n-2], nil
		case n == 1 && span == latestWindows[len(latestWindows)-1]:
			return &pts[0], nil, nil
		}
	}
	p, ok, err := m.deps.Series.Latest(ctx, s)
	if err != nil || !ok {
		return nil, nil, err
	}
	return &p, nil, nil
}

// CompanyInfo is what the company info module shows.
type CompanyInfo struct {
	Name          string  `json:"name"`
	OrgNumber     string  `json:"orgNumber"`
	PostalAddress string  `json:"postalAdress"`
	ContactPhone  string  `json:"contactPhonenumber"`
	ContactEmail  string  `json:"invoiceAdress"`
	Image         *string `json:"image"`
}

// NodeInfo is what the node info and node overview modules (and map pins)
// show of a node.
type NodeInfo struct {
	DevEUI        string     `json:"deveui"`
	Name          string     `json:"name"`
	Lat           *float64   `json:"lat"`
	Long          *float64   `json:"long"`
	Battery       *float64   `json:"battery"`
	RSSI          *float64   `json:"rssi"`
	SNR           *float64   `json:"snr"`
	LatestTime    *time.Time `json:"latestTime"`
	ActiveData    bool       `json:"activeData"`
	LatestValue   any        `json:"latestValue"`
	DataPoints24h int64      `json:"dataPoints24h"`
}

// infoData answers GET .../info: the company (company info modules only)
// and the nodes the module shows: every node of the company for a node
// overview, and for a map without nodes of its own; else its node and the
// nodes of its series and positions.
func (m *Module) infoData(w http.ResponseWriter, r *http.Request, wd *Widget, d *Dashboard) error {
	ctx := r.Context()
	out := struct {
		Company *CompanyInfo `json:"company"`
		Nodes   []NodeInfo   `json:"nodes"`
	}{Nodes: []NodeInfo{}}
	if wd.Type == TypeCompanyInfo {
		c, err := m.deps.Accounts.Company(ctx, d.CompanyID)
		if err != nil {
			return err
		}
		out.Company = &CompanyInfo{Name: c.Name, OrgNumber: c.OrgNumber, PostalAddress: c.PostalAddress,
			ContactPhone: c.ContactPhone, ContactEmail: c.ContactEmail, Image: c.Image}
		if c.Image == nil && c.ImageVersion != nil {
			img := "/api/companies/" + strconv.FormatInt(c.ID, 10) + "/image?v=" + *c.ImageVersion
			out.Company.Image = &img
		}
		if publicCaller(ctx) {
			out.Company.Image = nil // the logo's route needs a session
		}
		return web.OK(w, out)
	}
	var tags []*nodes.Tag
	refs, err := m.seriesOf(ctx, wd, d.CompanyID)
	if err != nil {
		return err
	}
	if wd.Type == TypeNodeOverview || (wd.Type == TypeMap && wd.Tag == "" && len(refs) == 0) {
		if tags, err = m.deps.Nodes.CompanyTags(ctx, d.CompanyID); err != nil {
			return err
		}
	} else {
		n := m.nodeInfo(ctx, d.CompanyID)
		seen := map[string]bool{}
		euis := []string{}
		if wd.Tag != "" {
			euis = append(euis, wd.Tag)
		}
		for _, ref := range refs {
			euis = append(euis, ref.DevEUI)
		}
		for _, eui := range euis {
			if seen[eui] {
				continue
			}
			seen[eui] = true
			t, err := n.tag(eui)
			if err != nil {
				return err
			}
			if t != nil {
				tags = append(tags, t)
			}
		}
	}
	counts := map[string]int64{}
	if len(tags) > 0 {
		now := time.Now().UTC()
		if counts, err = m.deps.Series.CountByNode(ctx, d.CompanyID, now.Add(-24*time.Hour), now); err != nil {
			return err
		}
	}
	for _, t := range tags {
		ni := NodeInfo{DevEUI: t.DevEUI, Name: t.Name, Lat: t.Lat, Long: t.Long, Battery: t.Battery, RSSI: t.RSSI,
			LatestTime: t.LatestTime, ActiveData: t.ActiveData, LatestValue: t.LatestValue,
			DataPoints24h: counts[strings.ToLower(t.DevEUI)]}
		if snr, ok := t.Data["snr"].(float64); ok {
			ni.SNR = &snr
		}
		out.Nodes = append(out.Nodes, ni)
	}
	return web.OK(w, out)
}
