// Package validate holds the rules of what the dashboards API and the seed
// are given: a module's fields, settings and attributes (the nodes and
// dashboards it names must be of the dashboard's company), and a
// dashboard's category.
package validate

import (
	"context"
	"encoding/json"
	"math"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/alarmstate"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/scriptsource"
)

// Checker checks modules. It asks the nodes module whether a node belongs
// to a company, and reads the dashboards a module links to.
type Checker struct {
	db      *bun.DB
	nodes   dashboards.NodeLookup
	alarms  *alarmstate.Source
	scripts *scriptsource.Source
}

// New returns a Checker that reads db and asks nodes.
func New(db *bun.DB, nodes dashboards.NodeLookup) *Checker {
	return &Checker{db: db, nodes: nodes}
}

// WithAlarms makes the Checker accept an alarm_id only when it names an
// alarm of the dashboard's company, once src knows the alarms.
func (c *Checker) WithAlarms(src *alarmstate.Source) *Checker {
	c.alarms = src
	return c
}

// WidgetInput is a module as the API takes it: the whole module, as
// docs/api/dashboards.md shows it (image is set by its own route and
// ignored here).
type WidgetInput struct {
	ID          *int64                     `json:"dashboardModuleId"`
	DashboardID *int64                     `json:"dashboardId"`
	Title       string                     `json:"title"`
	Type        *int                       `json:"type"`
	Index       *int                       `json:"index"`
	Tag         string                     `json:"tag"`
	SizeSmall   string                     `json:"sizeSmall"`
	SizeMid     string                     `json:"sizeMid"`
	Content     string                     `json:"content"`
	URL         string                     `json:"url"`
	Image       json.RawMessage            `json:"image"`
	Min         *float64                   `json:"min"`
	Max         *float64                   `json:"max"`
	SyncChart   bool                       `json:"sync_chart"`
	CardColor   string                     `json:"cardColor"`
	TitleColor  string                     `json:"titleColor"`
	ValueColor  string                     `json:"valueColor"`
	Attributes  map[string]json.RawMessage `json:"attributes"`
	Settings    *SettingsInput             `json:"settings"`
}

// SettingsInput is the settings of a WidgetInput.
type SettingsInput struct {
	TimeOffset   *int64             `json:"timeOffset"`
	MapZoom      *float64           `json:"mapZoom"`
	MapCenter    *dashboards.LatLng `json:"mapCenter"`
	MapType      *string            `json:"mapType"`
	ImageMapZoom *float64           `json:"imageMapZoom"`
}

var (
	sizes       = map[string]bool{"xs": true, "sm": true, "md": true, "lg": true}
	mapTypes    = map[string]bool{"roadmap": true, "satellite": true, "terrain": true}
	cssHexColor = regexp.MustCompile(`^#([0-9A-Fa-f]{3,4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$`)
)

const (
	maxContent = 64 << 10
	maxURL     = 2048
	// maxTimeOffset is ten years, the longest range a module may show.
	maxTimeOffset = 10 * 366 * 24 * 3600
)

// Widget validates in as a module of dashboard d, adding what is wrong to
// v; field prefixes the names of its field errors ("[2]." in a list). The
// result keeps the stored module's ids, index and picture when old is
// given. The error is a failure to check, not a rule broken.
func (c *Checker) Widget(ctx context.Context, in *WidgetInput, d *dashboards.Dashboard, old *dashboards.Widget, isNode NodeCheck, v *errs.Validation, field string) (*dashboards.Widget, error) {
	w := &dashboards.Widget{DashboardID: d.ID}
	if old != nil {
		w.ID, w.Index, w.ImageVersion, w.CreatedAt = old.ID, old.Index, old.ImageVersion, old.CreatedAt
	}
	switch {
	case in.Type == nil:
		v.Add(field+"type", errs.IDRequired)
	case *in.Type < 0 || *in.Type > dashboards.TypeFillLevel:
		v.Add(field+"type", dashboards.IDType)
	default:
		w.Type = *in.Type
	}
	w.Title = strings.TrimSpace(in.Title)
	if utf8.RuneCountInString(w.Title) > 255 {
		v.Add(field+"title", errs.IDMaxChars255)
	}
	if in.Index != nil && old != nil {
		if *in.Index < 0 || *in.Index > 1_000_000 {
			v.Add(field+"index", dashboards.IDIndex)
		} else {
			w.Index = *in.Index
		}
	}
	if in.Tag != "" {
		eui, ok, err := isNode(in.Tag)
		if err != nil {
			return nil, err
		}
		if !ok {
			v.Add(field+"tag", dashboards.IDTag)
		}
		w.Tag = eui
	}
	w.SizeSmall, w.SizeMid = orDefault(in.SizeSmall, dashboards.DefaultSize), orDefault(in.SizeMid, dashboards.DefaultSize)
	if !sizes[w.SizeSmall] {
		v.Add(field+"sizeSmall", dashboards.IDSize)
	}
	if !sizes[w.SizeMid] {
		v.Add(field+"sizeMid", dashboards.IDSize)
	}
	w.Content = in.Content
	if len(w.Content) > maxContent {
		v.Add(field+"content", dashboards.IDContentTooLong)
	}
	w.URL = strings.TrimSpace(in.URL)
	if w.URL != "" && !webURL(w.URL) {
		v.Add(field+"url", dashboards.IDURL)
	}
	for _, f := range []struct {
		name string
		val  *float64
	}{{"min", in.Min}, {"max", in.Max}} {
		if f.val != nil && (math.IsNaN(*f.val) || math.IsInf(*f.val, 0)) {
			v.Add(field+f.name, dashboards.IDNumber)
		}
	}
	w.Min, w.Max = in.Min, in.Max
	if w.Min != nil && w.Max != nil && *w.Min >= *w.Max {
		v.Add(field+"max", dashboards.IDMinMax)
	}
	w.SyncChart = in.SyncChart
	for _, col := range []struct {
		name string
		val  string
		dst  *string
	}{{"cardColor", in.CardColor, &w.CardColor}, {"titleColor", in.TitleColor, &w.TitleColor}, {"valueColor", in.ValueColor, &w.ValueColor}} {
		*col.dst = strings.TrimSpace(col.val)
		if *col.dst != "" && !cssHexColor.MatchString(*col.dst) {
			v.Add(field+col.name, dashboards.IDColor)
		}
	}
	attrs, err := c.attributes(ctx, in.Attributes, d.CompanyID, isNode, v, field+"attributes")
	if err != nil {
		return nil, err
	}
	w.Attributes = attrs
	if w.Type == dashboards.TypeFunction {
		if err := c.function(ctx, w, old, d.CompanyID, v, field); err != nil {
			return nil, err
		}
	}
	w.Settings = dashboards.Settings{MapZoom: dashboards.DefaultMapZoom, MapType: dashboards.DefaultMapType, ImageMapZoom: dashboards.DefaultImageMapZoom}
	if s := in.Settings; s != nil {
		if s.TimeOffset != nil {
			if *s.TimeOffset < 0 || *s.TimeOffset > maxTimeOffset {
				v.Add(field+"settings.timeOffset", dashboards.IDTimeOffset)
			}
			w.Settings.TimeOffset = *s.TimeOffset
		}
		if s.MapZoom != nil {
			if *s.MapZoom < 0 || *s.MapZoom > 24 {
				v.Add(field+"settings.mapZoom", dashboards.IDZoom)
			}
			w.Settings.MapZoom = *s.MapZoom
		}
		if mc := s.MapCenter; mc != nil {
			if mc.Lat < -90 || mc.Lat > 90 || mc.Lng < -180 || mc.Lng > 180 {
				v.Add(field+"settings.mapCenter", dashboards.IDMapCenter)
			}
			w.Settings.MapCenter = mc
		}
		if s.MapType != nil && *s.MapType != "" {
			if !mapTypes[*s.MapType] {
				v.Add(field+"settings.mapType", dashboards.IDMapType)
			}
			w.Settings.MapType = *s.MapType
		}
		if s.ImageMapZoom != nil {
			if *s.ImageMapZoom < -1 || *s.ImageMapZoom > 24 {
				v.Add(field+"settings.imageMapZoom", dashboards.IDZoom)
			}
			w.Settings.ImageMapZoom = *s.ImageMapZoom
		}
	}
	return w, nil
}

func orDefault(s, def string) string {
	if s = strings.TrimSpace(s); s == "" {
		return def
	}
	return s
}

// webURL reports whether s is an http or https address (an iframe or a
// picture may not run javascript: or read data: addresses).
func webURL(s string) bool {
	if len(s) > maxURL {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
