// Package tagdata answers the tag data API of the nodes module: the values
// nodes reported, read from the time series, always within the caller's
// company (a node's points, trends and latest values, a company's counts of
// data points, the activity and batteries of its nodes). docs/decisions.md,
// "Tag data API", gives the shapes and the reasons. The routes are served
// only when a time-series store is wired in.
package tagdata

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/store"
)

// API holds the tag data route handlers.
type API struct {
	db       *bun.DB
	reg      *registry.Registry
	accounts nodes.Accounts
	series   nodes.Series
}

// New builds the handlers on the module's database, registry and the time
// series, which is required.
func New(db *bun.DB, reg *registry.Registry, accounts nodes.Accounts, series nodes.Series) *API {
	return &API{db: db, reg: reg, accounts: accounts, series: series}
}

// Limits and defaults of the tag data queries: the default range and the
// window of the data point counts are the last 24 hours.
const (
	defaultWindow  = 24 * time.Hour
	defaultMax     = 1000
	maxPointsLimit = 10_000
	// latestWorkers bounds the Latest reads one answer runs at once: enough
	// to hide InfluxDB's round trips, few enough to leave the database
	// connections to others.
	latestWorkers = 4
)

// Routes registers the reads of stored values. GET /tag/{tagId}/trend/{key}
// is registered as GET /tag/{tagId}/{view}/{key} with view "trend": Go's
// ServeMux refuses the literal pattern beside GET /tag/meta/{tagId}/tagdata
// and GET /tag/latest/{tagId}/{key} (each pair matches a path such as
// /tag/latest/trend/x, and neither is more specific), while the wildcard
// pattern is less specific than both and so leaves them their paths.
func (a *API) Routes(r *web.ModuleRoutes) {
	r.Describe(docs)
	r.API("GET /tag/tagdata", auth.CompanyOrUser, a.tagDataPoints)
	r.API("GET /tag/latest/{tagId}/{key}", auth.CompanyOrUser, a.latestTagData)
	r.API("GET /tag/{tagId}/{view}/{key}", auth.CompanyOrUser, a.tagView)
	r.API("GET /tag/{tagId}/currents", auth.CompanyOrUser, a.currents)

	r.API("GET /companies/{companyId}/tagdata", auth.CompanyOrUser, a.companyTagData)
	r.API("GET /companies/{companyId}/tagdata/count", auth.CompanyOrUser, a.companyDataCount)
	r.API("GET /companies/{companyId}/defaults", auth.CompanyOrUser, a.companyDefaults)
	r.API("GET /companies/{companyId}/latesttagdata", auth.CompanyOrUser, a.companyLatest)
	r.API("GET /companies/{companyId}/datapointsweek", auth.CompanyOrUser, a.dataPointsWeek)
	r.API("GET /companies/{companyId}/datapointsday", auth.CompanyOrUser, a.dataPointsDay)
	r.API("GET /companies/{companyId}/sensordatapoints/day", auth.CompanyOrUser, a.sensorDataPoints)
	r.API("GET /companies/{companyId}/tag/activity", auth.CompanyOrUser, a.tagActivity)
	r.API("GET /companies/{companyId}/tag/batteries", auth.CompanyOrUser, a.tagBatteries)
}

// TagDatum is one value of a key of a tag, in the shape of the API's tag
// data. A stored point has no id of its own: ID is the tag's id, as
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

// TrendBucket is one bucket of a trend: the numbers in [Start, End). The
// first and last buckets of a window off the resolution's clock are partial:
// the last ends at the window's end.
type TrendBucket struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
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

// NodeBattery is the battery a tag last reported: percent and volts, as
// the tag holds them (nodes.Tag), nil when not known.
type NodeBattery struct {
	ID             int64      `json:"id"`
	Name           string     `json:"name"`
	DevEUI         string     `json:"deveui"`
	Battery        *float64   `json:"battery"`
	BatteryVoltage *float64   `json:"batteryVoltage"`
	VDD            *float64   `json:"vdd"`
	LatestTime     *time.Time `json:"latestTime"`
}

// seriesOf names the series of key of t: the time series spell DevEUIs in
// lower case.
func seriesOf(t *nodes.Tag, key string) tsdb.Series {
	return tsdb.Series{Company: t.CompanyID, DevEUI: strings.ToLower(t.DevEUI), Key: key}
}

// datum turns a point (or, with ok false, its absence) into a TagDatum.
func datum(t *nodes.Tag, k nodes.Key, p tsdb.Point, ok bool) TagDatum {
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

// keyOf returns the registered key name of t, or its default key when name
// is "". An unregistered key is described by its name alone.
func (a *API) keyOf(ctx context.Context, t *nodes.Tag, name string) (nodes.Key, error) {
	keys, err := store.KeysOfTags(ctx, a.db, []int64{t.ID})
	if err != nil {
		return nodes.Key{}, err
	}
	for _, k := range keys {
		if name == "" && k.Default || name != "" && k.Key == name {
			return k, nil
		}
	}
	if name == "" {
		v := errs.Validation{}
		v.Add("key", nodes.IDTagDataNoKey)
		return nodes.Key{}, v.Err()
	}
	return nodes.Key{TagID: t.ID, Key: name}, nil
}

// pathTag loads the tag of the path's tagId within the caller's reach.
func (a *API) pathTag(ctx context.Context, r *http.Request) (*nodes.Tag, error) {
	id, err := web.PathID(r, "tagId")
	if err != nil {
		return nil, err
	}
	return a.reg.ScopedTag(ctx, id, false)
}

// pathTagKey loads the path's tag and the key named by the path's key.
func (a *API) pathTagKey(r *http.Request) (*nodes.Tag, nodes.Key, error) {
	t, err := a.pathTag(r.Context(), r)
	if err != nil {
		return nil, nodes.Key{}, err
	}
	name := r.PathValue("key")
	q := dataQuery{}
	q.checkKey(name)
	if err := q.v.Err(); err != nil {
		return nil, nodes.Key{}, err
	}
	k, err := a.keyOf(r.Context(), t, name)
	return t, k, err
}
