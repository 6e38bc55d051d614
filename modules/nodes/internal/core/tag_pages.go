package core

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// The node pages of SPEC.md section 2: /tag (the list with its filter),
// /tag/create and /tag/create/{deveui} (from the node pool).

func tagPath(deveui, rest string) string { return "/tagdetails/" + deveui + rest }

// tagRow is a line of the node list.
type tagRow struct {
	*Tag
	Application string
}

// matchesTag tells whether q occurs in the tag's nameWithDeveui (SPEC.md
// section 3), ignoring case and the separators of a DevEUI.
func matchesTag(t *Tag, q string) bool {
	if q == "" {
		return true
	}
	if strings.Contains(strings.ToLower(t.NameWithDevEUI), strings.ToLower(q)) {
		return true
	}
	eui := NormaliseEUI(q)
	return eui != "" && strings.Contains(t.DevEUI, eui)
}

// tagsPage is /tag: the viewed company's nodes, filtered by the search box.
// The filter's htmx request (target tag-list) gets the list alone.
func (m *Module) tagsPage(w http.ResponseWriter, r *http.Request) error {
	const title = "page.tag.title"
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if utf8.RuneCountInString(q) > maxName {
		q = string([]rune(q)[:maxName])
	}
	id := viewedCompany(r)
	if id == 0 {
		return m.ui.Render(w, r, http.StatusOK, title, noCompany(title))
	}
	tags, err := m.CompanyTags(r.Context(), id)
	if err != nil {
		return err
	}
	apps, err := m.store.applications(r.Context(), m.db, id)
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
	manage := canManage(r.Context(), id)
	list := tagList(rows, q, len(tags), manage)
	if web.IsHTMX(r) && r.Header.Get("HX-Target") == "tag-list" {
		return m.ui.Fragment(w, r, http.StatusOK, list)
	}
	return m.ui.Render(w, r, http.StatusOK, title, tagsPage(q, list, manage))
}

// tagInputFrom reads a node form. Latitude and longitude are numbers or
// empty (none); anything else is refused with the range message.
func tagInputFrom(vals url.Values) (tagInput, error) {
	in := tagInput{
		Name: web.FormValue(vals, "name"), DevEUI: web.FormValue(vals, "deveui"),
		AppKey: web.FormValue(vals, "appKey"), AppEUI: web.FormValue(vals, "appEui"),
		Profile: web.FormValue(vals, "profile"), Location: web.FormValue(vals, "location"),
		Type: web.FormValue(vals, "type"), Decoder: web.FormValue(vals, "decoder"),
	}
	v := &errs.Validation{}
	for _, f := range []struct {
		name, msg string
		dst       *optional[float64]
	}{{"lat", msgLatRange, &in.Lat}, {"long", msgLongRange, &in.Long}} {
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
			v.Add("applicationId", msgAppUnknown)
		} else {
			in.ApplicationID = &id
		}
	}
	return in, v.Err()
}

// tagValues fills a node form from t.
func tagValues(t *Tag) url.Values {
	return url.Values{
		"name": {t.Name}, "deveui": {t.DevEUI}, "applicationId": {strconv.FormatInt(t.ApplicationID, 10)},
		"decoder": {t.Decoder}, "appKey": {t.AppKey}, "appEui": {t.AppEUI}, "profile": {t.Profile},
		"lat": {optNumber(t.Lat)}, "long": {optNumber(t.Long)}, "location": {t.Location}, "type": {t.Type},
	}
}

// tagFormErrors shows a DevEUI conflict, which the API reports on the field
// "Deveui" (SPEC.md section 5), on the form's deveui field.
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
}

func (m *Module) tagFormData(r *http.Request, companyID int64, decoder string) (tagFormData, error) {
	apps, err := m.store.applications(r.Context(), m.db, companyID)
	if err != nil {
		return tagFormData{}, err
	}
	d := tagFormData{}
	for _, a := range apps {
		d.Apps = append(d.Apps, ui.Option{Value: strconv.FormatInt(a.ID, 10), Label: a.Name})
	}
	var ok bool
	d.Decoders, ok = m.decoderOptions(r.Context(), companyID, decoder)
	d.DecodersBad = !ok
	return d, nil
}

// tagCreatePage is /tag/create and, from the node pool with the DevEUI
// filled in, /tag/create/{deveui}.
func (m *Module) tagCreatePage(w http.ResponseWriter, r *http.Request) error {
	const title = "page.tag.create.title"
	id := viewedCompany(r)
	if id == 0 {
		return m.ui.Render(w, r, http.StatusOK, title, noCompany(title))
	}
	data, err := m.tagFormData(r, id, "")
	if err != nil {
		return err
	}
	if len(data.Apps) == 0 {
		return m.ui.Render(w, r, http.StatusOK, title, noApplications())
	}
	vals := url.Values{"deveui": {NormaliseEUI(r.PathValue("deveui"))}, "applicationId": {r.URL.Query().Get("applicationId")}}
	return m.ui.Render(w, r, http.StatusOK, title, tagCreatePage(tagCreateForm(vals, data, ui.NoErrors)))
}

func (m *Module) tagCreateSubmit(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	companyID, err := managedCompany(r)
	if err != nil {
		return m.tagCreateFailed(w, r, vals, companyID, err)
	}
	in, verr := tagInputFrom(vals)
	var app *Application
	if in.ApplicationID == nil {
		if !hasField(verr, "applicationId") {
			verr = addField(verr, "applicationId", errs.IDRequired)
		}
	} else {
		app, err = m.store.applicationByID(ctx, m.db, *in.ApplicationID)
		if err == nil && app.CompanyID != companyID {
			err = errNotFound // only the viewed company's applications are offered
		}
		switch {
		case errs.Is(err, errs.NotFound):
			verr = addField(verr, "applicationId", msgAppUnknown)
		case err != nil:
			return err
		}
	}
	if verr != nil {
		// Show every message at once: the fields' own too.
		if ferr := m.applyTag(ctx, &Tag{CompanyID: companyID}, in, true); ferr != nil {
			if _, ok := ferr.(*errs.Error); !ok {
				return ferr
			}
			verr = mergeFields(verr, ferr)
		}
		return m.tagCreateFailed(w, r, vals, companyID, verr)
	}
	t, err := m.addTag(ctx, app, in)
	if err != nil {
		return m.tagCreateFailed(w, r, vals, companyID, err)
	}
	web.Toast(w, r, "success", m.t(r, "page.tag.created", "name", t.Name))
	web.Redirect(w, r, tagPath(t.DevEUI, ""))
	return nil
}

func (m *Module) tagCreateFailed(w http.ResponseWriter, r *http.Request, vals url.Values, companyID int64, err error) error {
	data, derr := m.tagFormData(r, companyID, vals.Get("decoder"))
	if derr != nil {
		return derr
	}
	return m.ui.FormFailed(w, r, err, "page.tag.create.title", func(fe ui.FormErrors) templ.Component {
		return tagCreateForm(vals, data, tagFormErrors(fe))
	}, tagCreatePage)
}

// hasField tells whether a validation error names field.
func hasField(err error, field string) bool {
	if e, ok := err.(*errs.Error); ok {
		for _, f := range e.Fields {
			if f.Field == field {
				return true
			}
		}
	}
	return false
}

// mergeFields adds the field errors of b to those of a, once per field.
func mergeFields(a, b error) error {
	v := errs.Validation{}
	seen := map[string]bool{}
	for _, err := range []error{a, b} {
		if e, ok := err.(*errs.Error); ok {
			for _, f := range e.Fields {
				if !seen[f.Field] {
					seen[f.Field] = true
					v.AddArgs(f.Field, f.ID, f.Args)
				}
			}
		}
	}
	return v.Err()
}
