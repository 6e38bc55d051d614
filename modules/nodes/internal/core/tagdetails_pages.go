package core

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// The node details page of SPEC.md section 2, /tagdetails/{deveui}: the
// node's identity, decoder and picture, its battery and signal, its latest
// values and stored data, its keys, its downlinks, and its removal. Each
// part is a form of its own that posts under the page's path.

// Limits of the stored-data table.
const (
	recentPoints = 10 // rows: the latest uplinks
	recentKeys   = 16 // columns: the first keys, by name
)

// recentTable is the latest stored values of a node: one row per time,
// newest first, one column per key.
type recentTable struct {
	Keys      []string
	Rows      []recentRow
	Available bool // a time-series store is wired in
	Failed    bool // it could not be read
}

type recentRow struct {
	Time   time.Time
	Values []string
}

// recentData reads the latest points of the node's keys from the
// time-series store. A store that fails makes the table say so; the page
// still shows.
func (m *Module) recentData(ctx context.Context, t *Tag, keys []Key) recentTable {
	out := recentTable{Available: m.deps.Series != nil}
	if !out.Available {
		return out
	}
	if len(keys) > recentKeys {
		keys = keys[:recentKeys]
	}
	cells := map[time.Time]map[string]string{}
	for _, k := range keys {
		pts, err := m.latestPoints(ctx, tsdb.Series{Company: t.CompanyID, DevEUI: strings.ToLower(t.DevEUI), Key: k.Key}, recentPoints)
		if err != nil {
			m.log.Warn("read stored values failed", "tag_id", t.ID, "key", k.Key, "err", err)
			out.Failed = true
			return out
		}
		if len(pts) == 0 {
			continue
		}
		out.Keys = append(out.Keys, k.Key)
		for _, p := range pts {
			if cells[p.Time] == nil {
				cells[p.Time] = map[string]string{}
			}
			if p.IsText {
				cells[p.Time][k.Key] = p.Text
			} else {
				cells[p.Time][k.Key] = formatNumber(p.Value, k.Decimals)
			}
		}
	}
	times := make([]time.Time, 0, len(cells))
	for tm := range cells {
		times = append(times, tm)
	}
	slices.SortFunc(times, func(a, b time.Time) int { return b.Compare(a) })
	if len(times) > recentPoints {
		times = times[:recentPoints]
	}
	for _, tm := range times {
		row := recentRow{Time: tm, Values: make([]string, len(out.Keys))}
		for i, k := range out.Keys {
			row.Values[i] = cells[tm][k]
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}

// latestPoints returns up to n of the latest points of s, oldest first:
// the last day before its latest point, or longer when that day holds
// fewer than n.
func (m *Module) latestPoints(ctx context.Context, s tsdb.Series, n int) ([]tsdb.Point, error) {
	last, ok, err := m.deps.Series.Latest(ctx, s)
	if err != nil || !ok {
		return nil, err
	}
	to := last.Time.Add(time.Microsecond)
	var pts []tsdb.Point
	for _, back := range []time.Duration{24 * time.Hour, 30 * 24 * time.Hour, 365 * 24 * time.Hour} {
		if pts, err = m.deps.Series.Range(ctx, s, last.Time.Add(-back), to, 5000); err != nil {
			return nil, err
		}
		if len(pts) >= n {
			break
		}
	}
	if len(pts) > n {
		pts = pts[len(pts)-n:]
	}
	return pts, nil
}

// tagDetails is everything the page shows. The forms, when set, replace
// the fresh ones: a refused form with its messages.
type tagDetails struct {
	Tag       *Tag
	Form      tagFormData
	Data      []TagData
	Downlinks []Downlink
	Recent    recentTable

	Edit, Image, Downlink, Delete templ.Component
	KeyForms                      map[string]templ.Component
}

// pageTag loads the tag of the path's DevEUI if the viewer manages it; a
// malformed DevEUI, like another company's tag, is not found.
func (m *Module) pageTag(r *http.Request) (*Tag, error) {
	t, err := m.managedTagByDevEUI(r.Context(), r.PathValue("deveui"))
	if errs.Is(err, errs.Invalid) {
		return nil, errNotFound
	}
	return t, err
}

func (m *Module) tagDetails(r *http.Request, t *Tag) (*tagDetails, error) {
	ctx := r.Context()
	form, err := m.tagFormData(r, t.CompanyID, t.Decoder)
	if err != nil {
		return nil, err
	}
	data, err := m.tagData(ctx, t)
	if err != nil {
		return nil, err
	}
	downlinks, err := m.tagDownlinks(ctx, t)
	if err != nil {
		return nil, err
	}
	keys := make([]Key, len(data))
	for i, d := range data {
		keys[i] = d.Key
	}
	return &tagDetails{Tag: t, Form: form, Data: data, Downlinks: downlinks, Recent: m.recentData(ctx, t, keys),
		KeyForms: map[string]templ.Component{}}, nil
}

// view draws the page with the fresh forms where none is set.
func (d *tagDetails) view() templ.Component {
	if d.Edit == nil {
		d.Edit = tagEditForm(d.Tag, tagValues(d.Tag), d.Form, ui.NoErrors)
	}
	if d.Image == nil {
		d.Image = tagImageSection(d.Tag, ui.NoErrors)
	}
	if d.Downlink == nil {
		d.Downlink = downlinkForm(d.Tag, url.Values{"port": {"1"}, "payloadType": {"hex"}}, ui.NoErrors)
	}
	if d.Delete == nil {
		d.Delete = tagDeleteSection(d.Tag)
	}
	for i, td := range d.Data {
		if d.KeyForms[td.Key.Key] == nil {
			d.KeyForms[td.Key.Key] = keyForm(d.Tag, i, &d.Data[i].Key, url.Values{"label": {td.Label}, "unit": {td.Unit}}, ui.NoErrors)
		}
	}
	return tagDetailsPage(d)
}

func (m *Module) tagDetailsPage(w http.ResponseWriter, r *http.Request) error {
	t, err := m.pageTag(r)
	if err != nil {
		return err
	}
	d, err := m.tagDetails(r, t)
	if err != nil {
		return err
	}
	return m.ui.Render(w, r, http.StatusOK, "page.tag.details.title", d.view(), ui.Options{Islands: true})
}

// chartProps are the props of the tag-chart island (tagChartProps); ok is
// false when there is nothing to chart: no stored data, or no key whose
// values are numbers.
func chartProps(d *tagDetails) (string, bool) {
	if !d.Recent.Available {
		return "", false
	}
	for _, v := range d.Data {
		if _, number := v.Value.(float64); number {
			return tagChartProps(d.Tag, d.Data), true
		}
	}
	return "", false
}

// failed answers a refused form of the page: the form alone for htmx, the
// whole page around it otherwise (set puts the form in its place).
func (m *Module) failed(w http.ResponseWriter, r *http.Request, t *Tag, err error, form func(ui.FormErrors) templ.Component, set func(*tagDetails, templ.Component)) error {
	d, derr := m.tagDetails(r, t)
	if derr != nil {
		return derr
	}
	return m.ui.FormFailed(w, r, err, "page.tag.details.title", form, func(c templ.Component) templ.Component {
		set(d, c)
		return d.view()
	}, ui.Options{Islands: true})
}

// tagEditSubmit saves the identity form (name, DevEUI, application,
// decoder, keys of the device, position).
func (m *Module) tagEditSubmit(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := m.pageTag(r)
	if err != nil {
		return err
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	shown := *t
	in, verr := tagInputFrom(vals)
	if verr == nil {
		t, err = m.saveTag(ctx, t, in)
	} else {
		tmp := *t
		err = verr
		if ferr := m.applyTag(ctx, &tmp, in, false); ferr != nil {
			if _, ok := ferr.(*errs.Error); !ok {
				return ferr
			}
			err = mergeFields(verr, ferr)
		}
	}
	if err != nil {
		form, derr := m.tagFormData(r, shown.CompanyID, vals.Get("decoder"))
		if derr != nil {
			return derr
		}
		return m.failed(w, r, &shown, err, func(fe ui.FormErrors) templ.Component {
			return tagEditForm(&shown, vals, form, tagFormErrors(fe))
		}, func(d *tagDetails, c templ.Component) { d.Edit = c })
	}
	web.Toast(w, r, "success", m.t(r, "page.tag.updated", "name", t.Name))
	web.Redirect(w, r, tagPath(t.DevEUI, ""))
	return nil
}

func (m *Module) tagImageUpload(w http.ResponseWriter, r *http.Request) error {
	t, err := m.pageTag(r)
	if err != nil {
		return err
	}
	data, _, err := web.ReadImage(r)
	if err == nil {
		_, err = m.storeTagImage(r.Context(), t, data)
	}
	if err != nil {
		return m.failed(w, r, t, err, func(fe ui.FormErrors) templ.Component {
			return tagImageSection(t, fe)
		}, func(d *tagDetails, c templ.Component) { d.Image = c })
	}
	web.Toast(w, r, "success", m.t(r, "page.tag.image.uploaded"))
	web.Redirect(w, r, tagPath(t.DevEUI, ""))
	return nil
}

// tagImageDeletePage asks before the picture is removed.
func (m *Module) tagImageDeletePage(w http.ResponseWriter, r *http.Request) error {
	t, err := m.pageTag(r)
	if err != nil {
		return err
	}
	if t.Image == nil {
		web.Redirect(w, r, tagPath(t.DevEUI, ""))
		return nil
	}
	return m.ui.Render(w, r, http.StatusOK, "page.tag.image.remove", tagImageConfirm(t))
}

func (m *Module) tagImageDeleteSubmit(w http.ResponseWriter, r *http.Request) error {
	t, err := m.pageTag(r)
	if err != nil {
		return err
	}
	if err := m.removeTagImage(r.Context(), t); err != nil {
		return err
	}
	web.Toast(w, r, "success", m.t(r, "page.tag.image.removed"))
	web.Redirect(w, r, tagPath(t.DevEUI, ""))
	return nil
}

// formKey loads the key a key form names, of t.
func (m *Module) formKey(r *http.Request, t *Tag, vals url.Values) (*Key, error) {
	name := strings.TrimSpace(vals.Get("key"))
	if !validKey(name) {
		return nil, errNotFound
	}
	return m.store.key(r.Context(), m.db, t.ID, name)
}

// keySubmit saves a key's label and unit.
func (m *Module) keySubmit(w http.ResponseWriter, r *http.Request) error {
	t, err := m.pageTag(r)
	if err != nil {
		return err
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	k, err := m.formKey(r, t, vals)
	if err != nil {
		return err
	}
	in := keyInput{TagID: t.ID, Key: k.Key, Label: web.FormValue(vals, "label"), Unit: web.FormValue(vals, "unit")}
	if _, err := m.editKey(r.Context(), t, in); err != nil {
		index := 0
		if keys, kerr := m.store.keysOfTags(r.Context(), m.db, []int64{t.ID}); kerr == nil {
			index = max(0, slices.IndexFunc(keys, func(x Key) bool { return x.Key == k.Key }))
		}
		return m.failed(w, r, t, err, func(fe ui.FormErrors) templ.Component {
			return keyForm(t, index, k, vals, fe)
		}, func(d *tagDetails, c templ.Component) { d.KeyForms[k.Key] = c })
	}
	web.Toast(w, r, "success", m.t(r, "page.tag.key.saved", "key", k.Key))
	web.Redirect(w, r, tagPath(t.DevEUI, ""))
	return nil
}

// keyDefaultSubmit makes a key the node's default, whose value the node's
// latest value shows.
func (m *Module) keyDefaultSubmit(w http.ResponseWriter, r *http.Request) error {
	t, err := m.pageTag(r)
	if err != nil {
		return err
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	k, err := m.formKey(r, t, vals)
	if err != nil {
		return err
	}
	if err := m.makeDefault(r.Context(), k); err != nil {
		return err
	}
	web.Toast(w, r, "success", m.t(r, "page.tag.key.defaultSet", "key", k.Key))
	web.Redirect(w, r, tagPath(t.DevEUI, ""))
	return nil
}

// downlinkInputFrom reads the downlink form. A port that is not a number
// counts as none, which is refused with "Port must be greater than 0".
func downlinkInputFrom(vals url.Values) downlinkInput {
	port, err := strconv.Atoi(strings.TrimSpace(vals.Get("port")))
	if err != nil {
		port = 0
	}
	payload, _ := json.Marshal(vals.Get("payload"))
	return downlinkInput{Port: port, Payload: payload, PayloadType: vals.Get("payloadType"), Confirmed: vals.Get("confirmed") == "true"}
}

func (m *Module) downlinkSubmit(w http.ResponseWriter, r *http.Request) error {
	t, err := m.pageTag(r)
	if err != nil {
		return err
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	if _, err := m.queueDownlink(r.Context(), t, downlinkInputFrom(vals)); err != nil {
		return m.failed(w, r, t, err, func(fe ui.FormErrors) templ.Component {
			return downlinkForm(t, vals, fe)
		}, func(d *tagDetails, c templ.Component) { d.Downlink = c })
	}
	web.Toast(w, r, "success", m.t(r, "page.tag.downlink.queued"))
	web.Redirect(w, r, tagPath(t.DevEUI, ""))
	return nil
}

// pageDownlink loads the path's downlink of t.
func (m *Module) pageDownlink(r *http.Request, t *Tag) (*Downlink, error) {
	id, err := web.PathID(r, "downlinkId")
	if err != nil {
		return nil, err
	}
	d, err := m.store.downlink(r.Context(), m.db, id)
	if err != nil {
		return nil, err
	}
	if d.TagID != t.ID {
		return nil, errNotFound
	}
	return d, nil
}

// downlinkDeletePage asks before a queued downlink is taken back.
func (m *Module) downlinkDeletePage(w http.ResponseWriter, r *http.Request) error {
	t, err := m.pageTag(r)
	if err != nil {
		return err
	}
	d, err := m.pageDownlink(r, t)
	if err != nil {
		return err
	}
	return m.ui.Render(w, r, http.StatusOK, "page.tag.downlink.delete", downlinkConfirm(t, d, ui.NoErrors))
}

func (m *Module) downlinkDeleteSubmit(w http.ResponseWriter, r *http.Request) error {
	t, err := m.pageTag(r)
	if err != nil {
		return err
	}
	d, err := m.pageDownlink(r, t)
	if err != nil {
		return err
	}
	if err := m.removeDownlink(r.Context(), d.ID); err != nil {
		return m.ui.FormFailed(w, r, err, "page.tag.downlink.delete", func(fe ui.FormErrors) templ.Component {
			return downlinkConfirm(t, d, fe)
		}, nil)
	}
	web.Toast(w, r, "success", m.t(r, "page.tag.downlink.deleted"))
	web.Redirect(w, r, tagPath(t.DevEUI, ""))
	return nil
}

// tagDeletePage asks before a node is deleted.
func (m *Module) tagDeletePage(w http.ResponseWriter, r *http.Request) error {
	t, err := m.pageTag(r)
	if err != nil {
		return err
	}
	return m.ui.Render(w, r, http.StatusOK, "page.tag.delete", tagDeleteConfirm(t))
}

// tagDeleteSubmit deletes the node. SPEC.md section 8: a deleted tag shows
// its message through the error alert channel.
func (m *Module) tagDeleteSubmit(w http.ResponseWriter, r *http.Request) error {
	t, err := m.pageTag(r)
	if err != nil {
		return err
	}
	if err := m.removeTag(r.Context(), t); err != nil {
		return err
	}
	web.Toast(w, r, "error", m.t(r, "page.tag.deleted", "name", t.Name))
	web.Redirect(w, r, "/tag")
	return nil
}

// downlinkStatusClass is the pill style of a downlink status.
func downlinkStatusClass(status string) string {
	switch status {
	case DownlinkSent:
		return "pill info"
	case DownlinkAcknowledged:
		return "pill ok"
	case DownlinkFailed:
		return "pill alarm"
	}
	return "pill"
}

// payloadTypes are the payload types of a downlink.
var payloadTypes = []ui.Option{
	{Value: "hex", LabelID: "page.tag.downlink.type.hex"},
	{Value: "base64", LabelID: "page.tag.downlink.type.base64"},
	{Value: "json", LabelID: "page.tag.downlink.type.json"},
}

// snr is the signal-to-noise ratio of the node's latest uplink, which the
// ingest keeps under the key "snr".
func snr(t *Tag) string {
	if v, ok := t.Data["snr"].(float64); ok {
		return formatNumber(v, nil)
	}
	return ""
}
