package pages

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/access"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// The node details page, /tagdetails/{deveui}: the node's identity, decoder
// and picture, its battery and signal, its latest values and stored data,
// its keys, the sections of other modules (sections.go: the downlinks), and
// its removal. Each part is a form of its own that posts under the page's
// path.

// tagDetails is everything the page shows. The forms, when set, replace
// the fresh ones: a refused form with its messages.
type tagDetails struct {
	Tag    *nodes.Tag
	Form   tagFormData
	Data   []registry.TagData
	Recent recentTable
	// Sections are what other modules draw on the page (PageSection).
	Sections []templ.Component
	// DecoderOff says why the node's decoder is switched off, nil while
	// it decodes: the node's values stopped then.
	DecoderOff *decoders.SwitchOff

	Edit, Image, Delete templ.Component
	KeyForms            map[string]templ.Component
	// Move is the SuperAdmin's move to another company, nil for others;
	// MoveTargets are the applications it offers.
	Move        templ.Component
	CanMove     bool
	MoveTargets []ui.Option
}

// pageTag loads the tag of the path's DevEUI if the viewer manages it; a
// malformed DevEUI, like another company's tag, is not found.
func (pg *Pages) pageTag(r *http.Request) (*nodes.Tag, error) {
	t, err := pg.reg.ManagedTagByDevEUI(r.Context(), r.PathValue("deveui"))
	if errs.Is(err, errs.Invalid) {
		return nil, access.ErrNotFound
	}
	return t, err
}

// tagDetails is what the page of t shows; the section of replace, when
// set, is left to the caller (nil in Sections, at the index returned, -1
// when it is not registered).
func (pg *Pages) tagDetails(r *http.Request, t *nodes.Tag, replace nodes.PageSection) (*tagDetails, int, error) {
	ctx := r.Context()
	form, err := pg.tagFormData(r, t.CompanyID, t.Decoder)
	if err != nil {
		return nil, -1, err
	}
	data, err := pg.reg.TagData(ctx, t)
	if err != nil {
		return nil, -1, err
	}
	sections, at, err := pg.drawSections(r, t, replace)
	if err != nil {
		return nil, -1, err
	}
	keys := make([]nodes.Key, len(data))
	for i, d := range data {
		keys[i] = d.Key
	}
	off, err := pg.decoders.SwitchedOff(ctx, t.CompanyID, t.Decoder)
	if err != nil {
		return nil, -1, err
	}
	d := &tagDetails{Tag: t, Form: form, Data: data, Sections: sections, Recent: pg.recentData(ctx, t, keys),
		DecoderOff: off, KeyForms: map[string]templ.Component{}}
	if auth.CallerFrom(ctx).Role == auth.SuperAdmin {
		if d.MoveTargets, err = pg.moveTargets(r, t); err != nil {
			return nil, -1, err
		}
		d.CanMove = true
	}
	return d, at, nil
}

// view draws the page with the fresh forms where none is set.
func (d *tagDetails) view() templ.Component {
	if d.Edit == nil {
		d.Edit = tagEditForm(d.Tag, tagValues(d.Tag), d.Form, ui.NoErrors)
	}
	if d.Image == nil {
		d.Image = tagImageSection(d.Tag, ui.NoErrors)
	}
	if d.Delete == nil {
		d.Delete = tagDeleteSection(d.Tag)
	}
	if d.Move == nil && d.CanMove {
		d.Move = tagMoveSection(d.Tag, d.MoveTargets, url.Values{}, ui.NoErrors)
	}
	for i, td := range d.Data {
		if d.KeyForms[td.Key.Key] == nil {
			d.KeyForms[td.Key.Key] = keyForm(d.Tag, i, &d.Data[i].Key, url.Values{"label": {td.Label}, "unit": {td.Unit}}, ui.NoErrors)
		}
	}
	return tagDetailsPage(d)
}

func (pg *Pages) tagDetailsPage(w http.ResponseWriter, r *http.Request) error {
	t, err := pg.pageTag(r)
	if err != nil {
		return err
	}
	d, _, err := pg.tagDetails(r, t, nil)
	if err != nil {
		return err
	}
	return pg.ui.Render(w, r, http.StatusOK, "page.tag.details.title", d.view(), ui.Options{Islands: true})
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
func (pg *Pages) failed(w http.ResponseWriter, r *http.Request, t *nodes.Tag, err error, form func(ui.FormErrors) templ.Component, set func(*tagDetails, templ.Component)) error {
	d, _, derr := pg.tagDetails(r, t, nil)
	if derr != nil {
		return derr
	}
	return pg.ui.FormFailed(w, r, err, "page.tag.details.title", form, func(c templ.Component) templ.Component {
		set(d, c)
		return d.view()
	}, ui.Options{Islands: true})
}

// tagEditSubmit saves the identity form (name, DevEUI, application,
// decoder, keys of the device, position).
func (pg *Pages) tagEditSubmit(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := pg.pageTag(r)
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
		t, err = pg.reg.SaveTag(ctx, t, in)
	} else {
		tmp := *t
		err = verr
		if ferr := pg.reg.ApplyTag(ctx, &tmp, in, false); ferr != nil {
			if _, ok := ferr.(*errs.Error); !ok {
				return ferr
			}
			err = registry.MergeFields(verr, ferr)
		}
	}
	if err != nil {
		form, derr := pg.tagFormData(r, shown.CompanyID, vals.Get("decoder"))
		if derr != nil {
			return derr
		}
		return pg.failed(w, r, &shown, err, func(fe ui.FormErrors) templ.Component {
			return tagEditForm(&shown, vals, form, tagFormErrors(fe))
		}, func(d *tagDetails, c templ.Component) { d.Edit = c })
	}
	web.Toast(w, r, "success", pg.t(r, "page.tag.updated", "name", t.Name))
	web.Redirect(w, r, tagPath(t.DevEUI, ""))
	return nil
}

func (pg *Pages) tagImageUpload(w http.ResponseWriter, r *http.Request) error {
	t, err := pg.pageTag(r)
	if err != nil {
		return err
	}
	data, _, err := web.ReadImage(r)
	if err == nil {
		_, err = pg.reg.StoreTagImage(r.Context(), t, data)
	}
	if err != nil {
		return pg.failed(w, r, t, err, func(fe ui.FormErrors) templ.Component {
			return tagImageSection(t, fe)
		}, func(d *tagDetails, c templ.Component) { d.Image = c })
	}
	web.Toast(w, r, "success", pg.t(r, "page.tag.image.uploaded"))
	web.Redirect(w, r, tagPath(t.DevEUI, ""))
	return nil
}

// tagImageDeletePage asks before the picture is removed.
func (pg *Pages) tagImageDeletePage(w http.ResponseWriter, r *http.Request) error {
	t, err := pg.pageTag(r)
	if err != nil {
		return err
	}
	if t.Image == nil {
		web.Redirect(w, r, tagPath(t.DevEUI, ""))
		return nil
	}
	return pg.ui.Render(w, r, http.StatusOK, "page.tag.image.remove", tagImageConfirm(t))
}

func (pg *Pages) tagImageDeleteSubmit(w http.ResponseWriter, r *http.Request) error {
	t, err := pg.pageTag(r)
	if err != nil {
		return err
	}
	if err := pg.reg.RemoveTagImage(r.Context(), t); err != nil {
		return err
	}
	web.Toast(w, r, "success", pg.t(r, "page.tag.image.removed"))
	web.Redirect(w, r, tagPath(t.DevEUI, ""))
	return nil
}

// formKey loads the key a key form names, of t.
func (pg *Pages) formKey(r *http.Request, t *nodes.Tag, vals url.Values) (*nodes.Key, error) {
	name := strings.TrimSpace(vals.Get("key"))
	if !registry.ValidKey(name) {
		return nil, access.ErrNotFound
	}
	return pg.reg.Key(r.Context(), t, name)
}

// keySubmit saves a key's label and unit.
func (pg *Pages) keySubmit(w http.ResponseWriter, r *http.Request) error {
	t, err := pg.pageTag(r)
	if err != nil {
		return err
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	k, err := pg.formKey(r, t, vals)
	if err != nil {
		return err
	}
	in := registry.KeyInput{TagID: t.ID, Key: k.Key, Label: web.FormValue(vals, "label"), Unit: web.FormValue(vals, "unit")}
	if _, err := pg.reg.EditKey(r.Context(), t, in); err != nil {
		index := 0
		if keys, kerr := pg.reg.TagKeys(r.Context(), t.ID); kerr == nil {
			index = max(0, slices.IndexFunc(keys, func(x nodes.Key) bool { return x.Key == k.Key }))
		}
		return pg.failed(w, r, t, err, func(fe ui.FormErrors) templ.Component {
			return keyForm(t, index, k, vals, fe)
		}, func(d *tagDetails, c templ.Component) { d.KeyForms[k.Key] = c })
	}
	web.Toast(w, r, "success", pg.t(r, "page.tag.key.saved", "key", k.Key))
	web.Redirect(w, r, tagPath(t.DevEUI, ""))
	return nil
}

// keyDefaultSubmit makes a key the node's default, whose value the node's
// latest value shows.
func (pg *Pages) keyDefaultSubmit(w http.ResponseWriter, r *http.Request) error {
	t, err := pg.pageTag(r)
	if err != nil {
		return err
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	k, err := pg.formKey(r, t, vals)
	if err != nil {
		return err
	}
	if err := pg.reg.MakeDefault(r.Context(), k); err != nil {
		return err
	}
	web.Toast(w, r, "success", pg.t(r, "page.tag.key.defaultSet", "key", k.Key))
	web.Redirect(w, r, tagPath(t.DevEUI, ""))
	return nil
}

// tagDeletePage asks before a node is deleted.
func (pg *Pages) tagDeletePage(w http.ResponseWriter, r *http.Request) error {
	t, err := pg.pageTag(r)
	if err != nil {
		return err
	}
	return pg.ui.Render(w, r, http.StatusOK, "page.tag.delete", tagDeleteConfirm(t))
}

// tagDeleteSubmit deletes the node. The message that it is gone is shown
// as an error toast, as the deletion of a tag always has been.
func (pg *Pages) tagDeleteSubmit(w http.ResponseWriter, r *http.Request) error {
	t, err := pg.pageTag(r)
	if err != nil {
		return err
	}
	if err := pg.reg.RemoveTag(r.Context(), t); err != nil {
		return err
	}
	web.Toast(w, r, "error", pg.t(r, "page.tag.deleted", "name", t.Name))
	web.Redirect(w, r, "/tag")
	return nil
}

// moveTargets are the applications of the other companies, as the move
// form offers them: "Company · Application".
func (pg *Pages) moveTargets(r *http.Request, t *nodes.Tag) ([]ui.Option, error) {
	targets, err := pg.reg.MoveTargets(r.Context(), t)
	if err != nil {
		return nil, err
	}
	opts := make([]ui.Option, len(targets))
	for i, m := range targets {
		opts[i] = ui.Option{Value: strconv.FormatInt(m.Application.ID, 10), Label: m.CompanyName + " · " + m.Application.Name}
	}
	return opts, nil
}

// moveSummary is what the move's confirmation names.
type moveSummary struct {
	From, To, Application string
	Proven                bool
}

// moveFields are the move form's names of the fields of the move's body.
var moveFields = map[string]string{"applicationId": "moveApplicationId", "appKey": "moveAppKey", "ownershipVerified": "moveOwnershipVerified"}

// moveFormErrors puts the messages of a refused move on the form's fields.
func moveFormErrors(fe ui.FormErrors) ui.FormErrors {
	out := ui.FormErrors{Form: fe.Form, Fields: map[string]string{}}
	for field, msg := range fe.Fields {
		if name, ok := moveFields[field]; ok {
			field = name
		}
		out.Fields[field] = msg
	}
	return out
}

// moveInputFrom reads the move form; an application that is not an id is
// a field error.
func moveInputFrom(vals url.Values) (registry.MoveInput, error) {
	in := registry.MoveInput{AppKey: web.FormValue(vals, "moveAppKey"), OwnershipVerified: vals.Get("moveOwnershipVerified") == "true"}
	if raw := strings.TrimSpace(vals.Get("moveApplicationId")); raw != "" {
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || id <= 0 {
			return in, registry.AddField(nil, "applicationId", nodes.IDMoveApplication)
		}
		in.ApplicationID = &id
	}
	return in, nil
}

// tagMoveSubmit checks the move form and asks for confirmation; the
// confirmation's form (confirm=yes) moves the node (SuperAdmin).
func (pg *Pages) tagMoveSubmit(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := pg.pageTag(r)
	if err != nil {
		return err
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	shown := *t
	in, err := moveInputFrom(vals)
	var m *registry.Move
	if err == nil {
		if vals.Get("confirm") == "yes" {
			var res *registry.MoveResult
			if res, err = pg.reg.MoveTag(ctx, t, in); err == nil {
				web.Toast(w, r, "success", pg.t(r, "page.tag.moved", "name", res.Tag.Name,
					"to", pg.reg.CompanyName(ctx, res.Tag.CompanyID), "points", res.Points))
				web.Redirect(w, r, tagPath(res.Tag.DevEUI, ""))
				return nil
			}
		} else {
			m, err = pg.reg.CheckMove(ctx, t, in)
		}
	}
	if err != nil {
		targets, terr := pg.moveTargets(r, &shown)
		if terr != nil {
			return terr
		}
		return pg.failed(w, r, &shown, err, func(fe ui.FormErrors) templ.Component {
			return tagMoveSection(&shown, targets, vals, moveFormErrors(fe))
		}, func(d *tagDetails, c templ.Component) { d.Move = c })
	}
	sum := moveSummary{From: pg.reg.CompanyName(ctx, t.CompanyID), To: pg.reg.CompanyName(ctx, m.To.CompanyID),
		Application: m.To.Name, Proven: m.Proven}
	confirm := tagMoveConfirm(t, sum, vals)
	if web.IsHTMX(r) {
		return pg.ui.Fragment(w, r, http.StatusOK, confirm)
	}
	d, _, err := pg.tagDetails(r, t, nil)
	if err != nil {
		return err
	}
	d.Move = confirm
	return pg.ui.Render(w, r, http.StatusOK, "page.tag.details.title", d.view(), ui.Options{Islands: true})
}

// snr is the signal-to-noise ratio of the node's latest uplink, which the
// ingest keeps under the key "snr".
func snr(t *nodes.Tag) string {
	if v, ok := t.Data["snr"].(float64); ok {
		return formatNumber(v, nil)
	}
	return ""
}
