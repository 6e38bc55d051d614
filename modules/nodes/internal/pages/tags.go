package pages

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/access"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// The node pages: /tag (the list with its filter), /tag/create and
// /tag/create/{deveui} (from the node pool).

func tagPath(deveui, rest string) string { return "/tagdetails/" + deveui + rest }

// tagRow is a line of the node list.
type tagRow struct {
	*nodes.Tag
	Application string
}

// matchesTag tells whether q occurs in the tag's nameWithDeveui (its name
// with its DevEUI), ignoring case and the separators of a DevEUI.
func matchesTag(t *nodes.Tag, q string) bool {
	if q == "" {
		return true
	}
	if strings.Contains(strings.ToLower(t.NameWithDevEUI), strings.ToLower(q)) {
		return true
	}
	eui := nodes.NormaliseEUI(q)
	return eui != "" && strings.Contains(t.DevEUI, eui)
}

// tagsPage is /tag: the viewed company's nodes, filtered by the search box.
// The filter's htmx request (target tag-list) gets the list alone.
func (pg *Pages) tagsPage(w http.ResponseWriter, r *http.Request) error {
	const title = "page.tag.title"
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if utf8.RuneCountInString(q) > registry.MaxName {
		q = string([]rune(q)[:registry.MaxName])
	}
	id := viewedCompany(r)
	if id == 0 {
		return pg.ui.Render(w, r, http.StatusOK, title, noCompany(title))
	}
	tags, err := pg.reg.CompanyTags(r.Context(), id)
	if err != nil {
		return err
	}
	apps, err := pg.reg.Applications(r.Context(), id)
	if err != nil {
		return err
	}
	names := map[int64]string{}
	for _, a := range apps {
		names[a.ID] = a.Name
	}
	rows := []tagRow{}
	for _, t := range tags {
		if matchesTag(t, q) {
			rows = append(rows, tagRow{Tag: t, Application: names[t.ApplicationID]})
		}
	}
	manage := access.CanManage(r.Context(), id)
	list := tagList(rows, q, len(tags), manage)
	if web.IsHTMX(r) && r.Header.Get("HX-Target") == "tag-list" {
		return pg.ui.Fragment(w, r, http.StatusOK, list)
	}
	return pg.ui.Render(w, r, http.StatusOK, title, tagsPage(q, list, manage))
}

// tagInputFrom reads a node form. Latitude and longitude are numbers or
// empty (none); anything else is refused with the range message.
func tagInputFrom(vals url.Values) (registry.TagInput, error) {
	in := registry.TagInput{
		Name: web.FormValue(vals, "name"), DevEUI: web.FormValue(vals, "deveui"),
		AppKey: web.FormValue(vals, "appKey"), AppEUI: web.FormValue(vals, "appEui"),
		Profile: web.FormValue(vals, "profile"), Location: web.FormValue(vals, "location"),
		Type: web.FormValue(vals, "type"), Decoder: web.FormValue(vals, "decoder"),
	}
	if id, err := strconv.ParseInt(vals.Get("profileId"), 10, 64); err == nil && id > 0 {
		in.ProfileID = &id
	}
	if model := vals.Get("model"); model != "" && in.ProfileID == nil && vals.Get("decoder") == "" {
		in.Decoder = &model // the model's codec, when no decoder is chosen
	}
	v := &errs.Validation{}
	for _, f := range []struct {
		name, msg string
		dst       *registry.Optional[float64]
	}{{"lat", nodes.IDLatRange, &in.Lat}, {"long", nodes.IDLongRange, &in.Long}} {
		raw, ok := vals[f.name]
		if !ok {
			continue
		}
		f.dst.Set = true
		s := strings.TrimSpace(strings.ReplaceAll(raw[0], ",", "."))
		if s == "" {
			continue
		}
		n, err := strconv.ParseFloat(s, 64)
		if err != nil {
			v.Add(f.name, f.msg)
			continue
		}
		f.dst.Value = &n
	}
	if raw := vals.Get("applicationId"); raw != "" {
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || id <= 0 {
			v.Add("applicationId", nodes.IDAppUnknown)
		} else {
			in.ApplicationID = &id
		}
	}
	return in, v.Err()
}

// tagValues fills a node form from t.
func tagValues(t *nodes.Tag) url.Values {
	return url.Values{
		"name": {t.Name}, "deveui": {t.DevEUI}, "applicationId": {strconv.FormatInt(t.ApplicationID, 10)},
		"decoder": {t.Decoder}, "appKey": {t.AppKey}, "appEui": {t.AppEUI}, "profile": {t.Profile},
		"lat": {optNumber(t.Lat)}, "long": {optNumber(t.Long)}, "location": {t.Location}, "type": {t.Type},
	}
}

// tagFormErrors shows a DevEUI conflict, which the API reports on the field
// "Deveui" (so its clients have always read it), on the form's deveui
// field.
func tagFormErrors(fe ui.FormErrors) ui.FormErrors {
	if msg, ok := fe.Fields["Deveui"]; ok {
		delete(fe.Fields, "Deveui")
		if _, has := fe.Fields["deveui"]; !has {
			fe.Fields["deveui"] = msg
		}
	}
	return fe
}

// tagFormData is what a node form offers: the company's applications and
// the decoders.
type tagFormData struct {
	Apps        []ui.Option
	Decoders    []ui.Option
	DecodersBad bool // the catalog could not be read
	// Profiles and Models are the create form's device profiles and
	// imported device models (by their codecs); nil leaves the choice out.
	Profiles, Models []ui.Option
}

func (pg *Pages) tagFormData(r *http.Request, companyID int64, decoder string) (tagFormData, error) {
	apps, err := pg.reg.Applications(r.Context(), companyID)
	if err != nil {
		return tagFormData{}, err
	}
	d := tagFormData{}
	for _, a := range apps {
		d.Apps = append(d.Apps, ui.Option{Value: strconv.FormatInt(a.ID, 10), Label: a.Name})
	}
	var ok bool
	d.Decoders, ok = pg.decoderOptions(r.Context(), companyID, decoder)
	d.DecodersBad = !ok
	return d, nil
}

// tagCreatePage is /tag/create and, from the node pool with the DevEUI
// filled in, /tag/create/{deveui}.
func (pg *Pages) tagCreatePage(w http.ResponseWriter, r *http.Request) error {
	const title = "page.tag.create.title"
	id := viewedCompany(r)
	if id == 0 {
		return pg.ui.Render(w, r, http.StatusOK, title, noCompany(title))
	}
	data, err := pg.tagFormData(r, id, "")
	if err != nil {
		return err
	}
	if len(data.Apps) == 0 {
		return pg.ui.Render(w, r, http.StatusOK, title, noApplications())
	}
	if data.Profiles, data.Models, err = pg.createChoices(r.Context(), id); err != nil {
		return err
	}
	vals := url.Values{"deveui": {nodes.NormaliseEUI(r.PathValue("deveui"))}, "applicationId": {r.URL.Query().Get("applicationId")}}
	return pg.ui.Render(w, r, http.StatusOK, title, tagCreatePage(tagCreateForm(vals, data, ui.NoErrors)))
}

func (pg *Pages) tagCreateSubmit(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	companyID, err := managedCompany(r)
	if err != nil {
		return pg.tagCreateFailed(w, r, vals, companyID, err)
	}
	in, verr := tagInputFrom(vals)
	var app *nodes.Application
	if in.ApplicationID == nil {
		if !registry.HasField(verr, "applicationId") {
			verr = registry.AddField(verr, "applicationId", errs.IDRequired)
		}
	} else {
		app, err = pg.reg.Application(ctx, *in.ApplicationID)
		if err == nil && app.CompanyID != companyID {
			err = access.ErrNotFound // only the viewed company's applications are offered
		}
		switch {
		case errs.Is(err, errs.NotFound):
			verr = registry.AddField(verr, "applicationId", nodes.IDAppUnknown)
		case err != nil:
			return err
		}
	}
	if verr != nil {
		// Show every message at once: the fields' own too.
		if ferr := pg.reg.ApplyTag(ctx, &nodes.Tag{CompanyID: companyID}, in, true); ferr != nil {
			if _, ok := ferr.(*errs.Error); !ok {
				return ferr
			}
			verr = registry.MergeFields(verr, ferr)
		}
		return pg.tagCreateFailed(w, r, vals, companyID, verr)
	}
	t, err := pg.reg.AddTag(ctx, app, in)
	if err != nil {
		return pg.tagCreateFailed(w, r, vals, companyID, err)
	}
	web.Toast(w, r, "success", pg.t(r, "page.tag.created", "name", t.Name))
	web.Redirect(w, r, tagPath(t.DevEUI, ""))
	return nil
}

func (pg *Pages) tagCreateFailed(w http.ResponseWriter, r *http.Request, vals url.Values, companyID int64, err error) error {
	data, derr := pg.tagFormData(r, companyID, vals.Get("decoder"))
	if derr == nil {
		data.Profiles, data.Models, derr = pg.createChoices(r.Context(), companyID)
	}
	if derr != nil {
		return derr
	}
	return pg.ui.FormFailed(w, r, err, "page.tag.create.title", func(fe ui.FormErrors) templ.Component {
		return tagCreateForm(vals, data, tagFormErrors(fe))
	}, tagCreatePage)
}

// fallbackDecoders is the built-in list the tag forms offer when the
// decoder catalog cannot be read.
var fallbackDecoders = []decoders.Entry{{Key: nodes.DefaultDecoder, Name: nodes.DefaultDecoder}}

// decoderOptions are the choices of the decoder select for a node of
// company: the empty prompt (the default decoder), then the catalog with
// the company's own decoders, and current when it is another. ok is false
// when the catalog could not be read.
func (pg *Pages) decoderOptions(ctx context.Context, company int64, current string) (opts []ui.Option, ok bool) {
	list, err := pg.decoders.Catalog(ctx, company)
	if err != nil {
		pg.log.Warn("decoder list could not be read", "company_id", company, "err", err)
	}
	ok = err == nil && len(list) > 0
	if !ok {
		list = fallbackDecoders
	}
	opts = []ui.Option{{Value: "", LabelID: "page.tag.decoder.prompt"}}
	known := current == ""
	for _, e := range list {
		name := e.Name
		if name == "" {
			name = e.Key
		}
		switch {
		case e.Custom:
			name = pg.host.Catalogs.T(web.ViewerFrom(ctx).Lang, "decoders.option.custom", map[string]any{"name": name})
		case e.Key == decoders.Raw:
			name = pg.host.Catalogs.T(web.ViewerFrom(ctx).Lang, decoders.IDRawName, nil)
		}
		opts = append(opts, ui.Option{Value: e.Key, Label: name})
		known = known || e.Key == current
	}
	if !known {
		opts = append(opts, ui.Option{Value: current, Label: current})
	}
	return opts, ok
}
