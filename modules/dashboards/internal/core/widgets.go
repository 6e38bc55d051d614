package core

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// widgetInput is a module as the API takes it: the whole module, as
// docs/api/dashboards.md shows it (image is set by its own route and
// ignored here).
type widgetInput struct {
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
	Settings    *settingsInput             `json:"settings"`
}

type settingsInput struct {
	TimeOffset   *int64   `json:"timeOffset"`
	MapZoom      *float64 `json:"mapZoom"`
	MapCenter    *LatLng  `json:"mapCenter"`
	MapType      *string  `json:"mapType"`
	ImageMapZoom *float64 `json:"imageMapZoom"`
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

// toWidget validates in as a module of dashboard d; field prefixes the
// names of its field errors ("[2]." in a list). The result keeps the
// stored module's ids, index and picture when old is given.
func (m *Module) toWidget(ctx context.Context, in *widgetInput, d *Dashboard, old *Widget, isNode nodeCheck, v *errs.Validation, field string) (*Widget, error) {
	w := &Widget{DashboardID: d.ID}
	if old != nil {
		w.ID, w.Index, w.ImageVersion, w.CreatedAt = old.ID, old.Index, old.ImageVersion, old.CreatedAt
	}
	switch {
	case in.Type == nil:
		v.Add(field+"type", errs.IDRequired)
	case *in.Type == TypeFunction:
		v.Add(field+"type", msgTypeFunction)
	case *in.Type < 0 || *in.Type > TypeFillLevel:
		v.Add(field+"type", msgType)
	default:
		w.Type = *in.Type
	}
	w.Title = strings.TrimSpace(in.Title)
	if utf8.RuneCountInString(w.Title) > 255 {
		v.Add(field+"title", errs.IDMaxChars255)
	}
	if in.Index != nil && old != nil {
		if *in.Index < 0 || *in.Index > 1_000_000 {
			v.Add(field+"index", msgIndex)
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
			v.Add(field+"tag", msgTag)
		}
		w.Tag = eui
	}
	w.SizeSmall, w.SizeMid = orDefault(in.SizeSmall, DefaultSize), orDefault(in.SizeMid, DefaultSize)
	if !sizes[w.SizeSmall] {
		v.Add(field+"sizeSmall", msgSize)
	}
	if !sizes[w.SizeMid] {
		v.Add(field+"sizeMid", msgSize)
	}
	w.Content = in.Content
	if len(w.Content) > maxContent {
		v.Add(field+"content", msgContentTooLong)
	}
	w.URL = strings.TrimSpace(in.URL)
	if w.URL != "" && !webURL(w.URL) {
		v.Add(field+"url", msgURL)
	}
	for _, f := range []struct {
		name string
		val  *float64
	}{{"min", in.Min}, {"max", in.Max}} {
		if f.val != nil && (math.IsNaN(*f.val) || math.IsInf(*f.val, 0)) {
			v.Add(field+f.name, msgNumber)
		}
	}
	w.Min, w.Max = in.Min, in.Max
	if w.Min != nil && w.Max != nil && *w.Min >= *w.Max {
		v.Add(field+"max", msgMinMax)
	}
	w.SyncChart = in.SyncChart
	for _, c := range []struct {
		name string
		val  string
		dst  *string
	}{{"cardColor", in.CardColor, &w.CardColor}, {"titleColor", in.TitleColor, &w.TitleColor}, {"valueColor", in.ValueColor, &w.ValueColor}} {
		*c.dst = strings.TrimSpace(c.val)
		if *c.dst != "" && !cssHexColor.MatchString(*c.dst) {
			v.Add(field+c.name, msgColor)
		}
	}
	attrs, err := m.checkAttributes(ctx, in.Attributes, d.CompanyID, isNode, v, field+"attributes")
	if err != nil {
		return nil, err
	}
	w.Attributes = attrs
	w.Settings = Settings{MapZoom: DefaultMapZoom, MapType: DefaultMapType, ImageMapZoom: DefaultImageMapZoom}
	if s := in.Settings; s != nil {
		if s.TimeOffset != nil {
			if *s.TimeOffset < 0 || *s.TimeOffset > maxTimeOffset {
				v.Add(field+"settings.timeOffset", msgTimeOffset)
			}
			w.Settings.TimeOffset = *s.TimeOffset
		}
		if s.MapZoom != nil {
			if *s.MapZoom < 0 || *s.MapZoom > 24 {
				v.Add(field+"settings.mapZoom", msgZoom)
			}
			w.Settings.MapZoom = *s.MapZoom
		}
		if c := s.MapCenter; c != nil {
			if c.Lat < -90 || c.Lat > 90 || c.Lng < -180 || c.Lng > 180 {
				v.Add(field+"settings.mapCenter", msgMapCenter)
			}
			w.Settings.MapCenter = c
		}
		if s.MapType != nil && *s.MapType != "" {
			if !mapTypes[*s.MapType] {
				v.Add(field+"settings.mapType", msgMapType)
			}
			w.Settings.MapType = *s.MapType
		}
		if s.ImageMapZoom != nil {
			if *s.ImageMapZoom < -1 || *s.ImageMapZoom > 24 {
				v.Add(field+"settings.imageMapZoom", msgZoom)
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

// listWidgets answers GET /dashboards/{dashboardId}/modules.
func (m *Module) listWidgets(w http.ResponseWriter, r *http.Request) error {
	d, err := m.pathDashboard(r, false)
	if err != nil {
		return err
	}
	list, err := m.store.widgets(r.Context(), m.db, d.ID)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

// getWidget answers GET /dashboards/modules/{moduleId}.
func (m *Module) getWidget(w http.ResponseWriter, r *http.Request) error {
	wd, _, err := m.pathWidget(r, false)
	if err != nil {
		return err
	}
	return web.OK(w, wd)
}

// createWidget answers POST /dashboards/{dashboardId}/modules: the module
// goes last.
func (m *Module) createWidget(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	d, err := m.pathDashboard(r, true)
	if err != nil {
		return err
	}
	var in widgetInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	v := errs.Validation{}
	wd, err := m.toWidget(ctx, &in, d, nil, m.nodeChecker(ctx, d.CompanyID), &v, "")
	if err != nil {
		return err
	}
	if err := v.Err(); err != nil {
		return err
	}
	err = m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if wd.Index, err = nextPosition(ctx, tx, "dashboard_modules", "dashboard_id", d.ID, "", nil); err != nil {
			return err
		}
		return m.store.insertWidget(ctx, tx, wd)
	})
	if err != nil {
		return err
	}
	return m.answerWidget(w, r, http.StatusCreated, wd.ID)
}

func (m *Module) answerWidget(w http.ResponseWriter, r *http.Request, status int, id int64) error {
	wd, err := m.store.widget(r.Context(), m.db, id)
	if err != nil {
		return err
	}
	web.JSON(w, status, wd)
	return nil
}

// updateWidget answers PUT /dashboards/modules/{moduleId} with the whole
// module.
func (m *Module) updateWidget(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	old, d, err := m.pathWidget(r, true)
	if err != nil {
		return err
	}
	var in widgetInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	v := errs.Validation{}
	wd, err := m.toWidget(ctx, &in, d, old, m.nodeChecker(ctx, d.CompanyID), &v, "")
	if err != nil {
		return err
	}
	if err := v.Err(); err != nil {
		return err
	}
	if err := m.store.updateWidget(ctx, m.db, wd); err != nil {
		return err
	}
	return m.answerWidget(w, r, http.StatusOK, wd.ID)
}

// updateWidgets answers PUT /dashboards/modules/multiple: several whole
// modules of one dashboard, saved together (layout changes).
func (m *Module) updateWidgets(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	var in []widgetInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	if len(in) == 0 {
		return errs.New(errs.Invalid, msgModulesEmpty)
	}
	if len(in) > 500 {
		return errs.New(errs.Invalid, errs.IDTooLong)
	}
	var d *Dashboard
	seen := map[int64]bool{}
	olds := make([]*Widget, len(in))
	for i, item := range in {
		if item.ID == nil {
			return errNotFound
		}
		if seen[*item.ID] {
			return errs.New(errs.Invalid, msgModulesDuplicate)
		}
		seen[*item.ID] = true
		old, err := m.store.widget(ctx, m.db, *item.ID)
		if err != nil {
			return err
		}
		if d == nil {
			if d, err = m.scopedDashboard(ctx, old.DashboardID, true); err != nil {
				return err
			}
		} else if old.DashboardID != d.ID {
			return errNotFound
		}
		olds[i] = old
	}
	v := errs.Validation{}
	isNode := m.nodeChecker(ctx, d.CompanyID)
	saved := make([]*Widget, len(in))
	for i := range in {
		wd, err := m.toWidget(ctx, &in[i], d, olds[i], isNode, &v, fmt.Sprintf("[%d].", i))
		if err != nil {
			return err
		}
		saved[i] = wd
	}
	if err := v.Err(); err != nil {
		return err
	}
	err := m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, wd := range saved {
			if err := m.store.updateWidget(ctx, tx, wd); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	out := make([]*Widget, len(saved))
	for i, wd := range saved {
		if out[i], err = m.store.widget(ctx, m.db, wd.ID); err != nil {
			return err
		}
	}
	return web.OK(w, out)
}

// deleteWidget answers DELETE /dashboards/modules/{moduleId}.
func (m *Module) deleteWidget(w http.ResponseWriter, r *http.Request) error {
	wd, _, err := m.pathWidget(r, true)
	if err != nil {
		return err
	}
	if err := m.store.deleteWidget(r.Context(), m.db, wd.ID); err != nil {
		return err
	}
	return web.NoContent(w)
}

// copyWidget answers POST /dashboards/modules/copy/{moduleId}: a copy,
// picture included, right after the original.
func (m *Module) copyWidget(w http.ResponseWriter, r *http.Request) error {
	wd, _, err := m.pathWidget(r, true)
	if err != nil {
		return err
	}
	from := wd.ID
	err = m.db.RunInTx(r.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		wd.ID, wd.Index = 0, wd.Index+1
		if err := m.store.shiftWidgets(ctx, tx, wd.DashboardID, wd.Index); err != nil {
			return err
		}
		if err := m.store.insertWidget(ctx, tx, wd); err != nil {
			return err
		}
		return m.store.copyWidgetImage(ctx, tx, from, wd.ID)
	})
	if err != nil {
		return err
	}
	return m.answerWidget(w, r, http.StatusCreated, wd.ID)
}

// putWidgetImage answers POST /dashboards/modules/{moduleId}/image: the
// picture of an image or image-map module, under the rules of every
// uploaded picture (web.ReadImage).
func (m *Module) putWidgetImage(w http.ResponseWriter, r *http.Request) error {
	wd, _, err := m.pathWidget(r, true)
	if err != nil {
		return err
	}
	data, ct, err := web.ReadImage(r)
	if err != nil {
		return err
	}
	img := &widgetImage{ModuleID: wd.ID, ContentType: ct, Data: data, Version: web.ImageVersion(data)}
	if err := m.store.putWidgetImage(r.Context(), m.db, img); err != nil {
		return err
	}
	return m.answerWidget(w, r, http.StatusOK, wd.ID)
}

// deleteWidgetImage answers DELETE /dashboards/modules/{moduleId}/image.
func (m *Module) deleteWidgetImage(w http.ResponseWriter, r *http.Request) error {
	wd, _, err := m.pathWidget(r, true)
	if err != nil {
		return err
	}
	if err := m.store.deleteWidgetImage(r.Context(), m.db, wd.ID); err != nil {
		return err
	}
	return web.NoContent(w)
}

// getWidgetImage answers GET /dashboards/modules/{moduleId}/image.
func (m *Module) getWidgetImage(w http.ResponseWriter, r *http.Request) error {
	wd, _, err := m.pathWidget(r, false)
	if err != nil {
		return err
	}
	return m.serveImage(w, r, wd)
}

// serveImage sends a module's picture. Its address carries the version,
// so it may be cached.
func (m *Module) serveImage(w http.ResponseWriter, r *http.Request, wd *Widget) error {
	img, err := m.store.widgetImage(r.Context(), m.db, wd.ID)
	if err != nil {
		return err
	}
	web.ServeImage(w, r, img.ContentType, img.Version, wd.UpdatedAt, img.Data)
	return nil
}
