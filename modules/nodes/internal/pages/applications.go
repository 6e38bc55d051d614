package pages

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/access"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// The application pages: /application (the list, also read-only as
// /company/applications), /application/create and
// /application/{applicationId} (edit, its nodes, delete).

func applicationPath(id int64, rest string) string { return fmt.Sprintf("/application/%d%s", id, rest) }

// appRow is a line of the applications list.
type appRow struct {
	nodes.Application
	Nodes int
}

// applicationRows lists the applications of the viewed company with their
// numbers of nodes.
func (pg *Pages) applicationRows(r *http.Request, companyID int64) ([]appRow, error) {
	apps, err := pg.reg.Applications(r.Context(), companyID)
	if err != nil {
		return nil, err
	}
	counts, err := pg.reg.TagCounts(r.Context(), companyID)
	if err != nil {
		return nil, err
	}
	rows := make([]appRow, len(apps))
	for i, a := range apps {
		rows[i] = appRow{Application: a, Nodes: counts[a.ID]}
	}
	return rows, nil
}

func (pg *Pages) applicationsPage(w http.ResponseWriter, r *http.Request) error {
	return pg.renderApplications(w, r, "page.application.title", false)
}

// companyApplicationsPage is /company/applications: the same list, read-only.
func (pg *Pages) companyApplicationsPage(w http.ResponseWriter, r *http.Request) error {
	return pg.renderApplications(w, r, "page.application.company.title", true)
}

func (pg *Pages) renderApplications(w http.ResponseWriter, r *http.Request, titleID string, readOnly bool) error {
	id := viewedCompany(r)
	if id == 0 {
		return pg.ui.Render(w, r, http.StatusOK, titleID, noCompany(titleID))
	}
	rows, err := pg.applicationRows(r, id)
	if err != nil {
		return err
	}
	manage := !readOnly && access.CanManage(r.Context(), id)
	return pg.ui.Render(w, r, http.StatusOK, titleID, applicationsPage(titleID, rows, manage, readOnly))
}

// applicationInputFrom reads an application form. The API key is a
// password field: left empty it keeps the stored key, unless the box that
// removes it is ticked.
func applicationInputFrom(vals url.Values) registry.ApplicationInput {
	in := registry.ApplicationInput{
		Name:                    web.FormValue(vals, "name"),
		NetworkServer:           web.FormValue(vals, "networkServer"),
		ChirpStackApplicationID: web.FormValue(vals, "chirpstackApplicationId"),
		TTSDownlinkURL:          web.FormValue(vals, "ttsDownlinkUrl"),
	}
	switch key := vals.Get("ttsApiKey"); {
	case strings.TrimSpace(key) != "":
		in.TTSAPIKey = &key
	case vals.Get("clearTtsApiKey") == "true":
		empty := ""
		in.TTSAPIKey = &empty
	}
	return in
}

// applicationValues fills an application form from a.
func applicationValues(a *nodes.Application) url.Values {
	return url.Values{
		"name": {a.Name}, "networkServer": {a.NetworkServer},
		"chirpstackApplicationId": {a.ChirpStackApplicationID}, "ttsDownlinkUrl": {a.TTSDownlinkURL},
	}
}

func (pg *Pages) applicationCreatePage(w http.ResponseWriter, r *http.Request) error {
	const title = "page.application.create.title"
	if viewedCompany(r) == 0 {
		return pg.ui.Render(w, r, http.StatusOK, title, noCompany(title))
	}
	form := applicationForm(0, url.Values{"networkServer": {nodes.NetworkGeneric}}, false, ui.NoErrors)
	return pg.ui.Render(w, r, http.StatusOK, title, applicationCreatePage(form))
}

func (pg *Pages) applicationCreateSubmit(w http.ResponseWriter, r *http.Request) error {
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	var a *nodes.Application
	companyID, err := managedCompany(r)
	if err == nil {
		a, err = pg.reg.AddApplication(r.Context(), companyID, applicationInputFrom(vals))
	}
	if err != nil {
		return pg.ui.FormFailed(w, r, err, "page.application.create.title", func(fe ui.FormErrors) templ.Component {
			return applicationForm(0, vals, false, fe)
		}, applicationCreatePage)
	}
	web.Toast(w, r, "success", pg.t(r, "page.application.created", "name", a.Name))
	web.Redirect(w, r, applicationPath(a.ID, ""))
	return nil
}

// pageApplication loads the application of the path if the viewer manages
// it; another company's is not found.
func (pg *Pages) pageApplication(r *http.Request) (*nodes.Application, error) {
	id, err := web.PathID(r, "applicationId")
	if err != nil {
		return nil, err
	}
	return pg.reg.ScopedApplication(r.Context(), id, true)
}

func (pg *Pages) applicationPage(w http.ResponseWriter, r *http.Request) error {
	a, err := pg.pageApplication(r)
	if err != nil {
		return err
	}
	tags, err := pg.reg.ApplicationTags(r.Context(), a)
	if err != nil {
		return err
	}
	sections, err := pg.drawApplicationSections(r, a, tags)
	if err != nil {
		return err
	}
	form := applicationForm(a.ID, applicationValues(a), a.TTSAPIKeySet, ui.NoErrors)
	return pg.ui.Render(w, r, http.StatusOK, "page.application.edit.title", applicationPage(a, form, sections, tags), ui.Options{Islands: true})
}

func (pg *Pages) applicationSubmit(w http.ResponseWriter, r *http.Request) error {
	a, err := pg.pageApplication(r)
	if err != nil {
		return err
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	tags, err := pg.reg.ApplicationTags(r.Context(), a)
	if err != nil {
		return err
	}
	shown := *a
	if err := pg.reg.SaveApplication(r.Context(), a, applicationInputFrom(vals)); err != nil {
		sections, serr := pg.drawApplicationSections(r, &shown, tags)
		if serr != nil {
			return serr
		}
		return pg.ui.FormFailed(w, r, err, "page.application.edit.title", func(fe ui.FormErrors) templ.Component {
			return applicationForm(shown.ID, vals, shown.TTSAPIKeySet, fe)
		}, func(form templ.Component) templ.Component {
			return applicationPage(&shown, form, sections, tags)
		}, ui.Options{Islands: true})
	}
	web.Toast(w, r, "success", pg.t(r, "page.application.updated", "name", a.Name))
	web.Redirect(w, r, "/application")
	return nil
}

// applicationDeletePage asks before an application is deleted: a page of
// its own without JavaScript, swapped into the delete section by htmx.
func (pg *Pages) applicationDeletePage(w http.ResponseWriter, r *http.Request) error {
	a, err := pg.pageApplication(r)
	if err != nil {
		return err
	}
	return pg.ui.Render(w, r, http.StatusOK, "page.application.delete", applicationDeleteConfirm(a, ui.NoErrors))
}

func (pg *Pages) applicationDeleteSubmit(w http.ResponseWriter, r *http.Request) error {
	a, err := pg.pageApplication(r)
	if err != nil {
		return err
	}
	if err := pg.reg.RemoveApplication(r.Context(), a); err != nil {
		return pg.ui.FormFailed(w, r, err, "page.application.delete", func(fe ui.FormErrors) templ.Component {
			return applicationDeleteConfirm(a, fe)
		}, nil)
	}
	web.Toast(w, r, "success", pg.t(r, "page.application.deleted", "name", a.Name))
	web.Redirect(w, r, "/application")
	return nil
}

// networkOptions are the network servers an application may name.
var networkOptions = []ui.Option{
	{Value: nodes.NetworkGeneric, LabelID: "page.application.network.generic"},
	{Value: nodes.NetworkChirpStack, LabelID: "page.application.network.chirpstack"},
	{Value: nodes.NetworkTTS, LabelID: "page.application.network.tts"},
}
