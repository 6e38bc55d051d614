package core

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// The application pages of SPEC.md section 2: /application (the list, also
// read-only as /company/applications), /application/create and
// /application/{applicationId} (edit, its nodes, delete).

func applicationPath(id int64, rest string) string { return fmt.Sprintf("/application/%d%s", id, rest) }

// appRow is a line of the applications list.
type appRow struct {
	Application
	Nodes int
}

// applicationRows lists the applications of the viewed company with their
// numbers of nodes.
func (m *Module) applicationRows(r *http.Request, companyID int64) ([]appRow, error) {
	apps, err := m.store.applications(r.Context(), m.db, companyID)
	if err != nil {
		return nil, err
	}
	counts, err := m.store.tagCounts(r.Context(), m.db, companyID)
	if err != nil {
		return nil, err
	}
	rows := make([]appRow, len(apps))
	for i, a := range apps {
		rows[i] = appRow{Application: a, Nodes: counts[a.ID]}
	}
	return rows, nil
}

func (m *Module) applicationsPage(w http.ResponseWriter, r *http.Request) error {
	return m.renderApplications(w, r, "page.application.title", false)
}

// companyApplicationsPage is /company/applications: the same list, read-only.
func (m *Module) companyApplicationsPage(w http.ResponseWriter, r *http.Request) error {
	return m.renderApplications(w, r, "page.application.company.title", true)
}

func (m *Module) renderApplications(w http.ResponseWriter, r *http.Request, titleID string, readOnly bool) error {
	id := viewedCompany(r)
	if id == 0 {
		return m.ui.Render(w, r, http.StatusOK, titleID, noCompany(titleID))
	}
	rows, err := m.applicationRows(r, id)
	if err != nil {
		return err
	}
	manage := !readOnly && canManage(r.Context(), id)
	return m.ui.Render(w, r, http.StatusOK, titleID, applicationsPage(titleID, rows, manage, readOnly))
}

// applicationInputFrom reads an application form. The API key is a
// password field: left empty it keeps the stored key, unless the box that
// removes it is ticked.
func applicationInputFrom(vals url.Values) applicationInput {
	in := applicationInput{
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
func applicationValues(a *Application) url.Values {
	return url.Values{
		"name": {a.Name}, "networkServer": {a.NetworkServer},
		"chirpstackApplicationId": {a.ChirpStackApplicationID}, "ttsDownlinkUrl": {a.TTSDownlinkURL},
	}
}

func (m *Module) applicationCreatePage(w http.ResponseWriter, r *http.Request) error {
	const title = "page.application.create.title"
	if viewedCompany(r) == 0 {
		return m.ui.Render(w, r, http.StatusOK, title, noCompany(title))
	}
	form := applicationForm(0, url.Values{"networkServer": {NetworkGeneric}}, false, ui.NoErrors)
	return m.ui.Render(w, r, http.StatusOK, title, applicationCreatePage(form))
}

func (m *Module) applicationCreateSubmit(w http.ResponseWriter, r *http.Request) error {
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	var a *Application
	companyID, err := managedCompany(r)
	if err == nil {
		a, err = m.addApplication(r.Context(), companyID, applicationInputFrom(vals))
	}
	if err != nil {
		return m.ui.FormFailed(w, r, err, "page.application.create.title", func(fe ui.FormErrors) templ.Component {
			return applicationForm(0, vals, false, fe)
		}, applicationCreatePage)
	}
	web.Toast(w, r, "success", m.t(r, "page.application.created", "name", a.Name))
	web.Redirect(w, r, applicationPath(a.ID, ""))
	return nil
}

// pageApplication loads the application of the path if the viewer manages
// it; another company's is not found.
func (m *Module) pageApplication(r *http.Request) (*Application, error) {
	return m.pathApplication(r.Context(), r, true)
}

// applicationTags lists the nodes of a.
func (m *Module) applicationTags(r *http.Request, a *Application) ([]*Tag, error) {
	tags, err := m.store.tags(r.Context(), m.db, a.CompanyID)
	if err != nil {
		return nil, err
	}
	own := []*Tag{}
	for _, t := range tags {
		if t.ApplicationID == a.ID {
			own = append(own, t)
		}
	}
	return own, nil
}

func (m *Module) applicationPage(w http.ResponseWriter, r *http.Request) error {
	a, err := m.pageApplication(r)
	if err != nil {
		return err
	}
	tags, err := m.applicationTags(r, a)
	if err != nil {
		return err
	}
	form := applicationForm(a.ID, applicationValues(a), a.TTSAPIKeySet, ui.NoErrors)
	return m.ui.Render(w, r, http.StatusOK, "page.application.edit.title", applicationPage(a, form, tags))
}

func (m *Module) applicationSubmit(w http.ResponseWriter, r *http.Request) error {
	a, err := m.pageApplication(r)
	if err != nil {
		return err
	}
	vals, err := web.ReadForm(r)
	if err != nil {
		return err
	}
	tags, err := m.applicationTags(r, a)
	if err != nil {
		return err
	}
	shown := *a
	if err := m.saveApplication(r.Context(), a, applicationInputFrom(vals)); err != nil {
		return m.ui.FormFailed(w, r, err, "page.application.edit.title", func(fe ui.FormErrors) templ.Component {
			return applicationForm(shown.ID, vals, shown.TTSAPIKeySet, fe)
		}, func(form templ.Component) templ.Component {
			return applicationPage(&shown, form, tags)
		})
	}
	web.Toast(w, r, "success", m.t(r, "page.application.updated", "name", a.Name))
	web.Redirect(w, r, "/application")
	return nil
}

// applicationDeletePage asks before an application is deleted: a page of
// its own without JavaScript, swapped into the delete section by htmx.
func (m *Module) applicationDeletePage(w http.ResponseWriter, r *http.Request) error {
	a, err := m.pageApplication(r)
	if err != nil {
		return err
	}
	return m.ui.Render(w, r, http.StatusOK, "page.application.delete", applicationDeleteConfirm(a, ui.NoErrors))
}

func (m *Module) applicationDeleteSubmit(w http.ResponseWriter, r *http.Request) error {
	a, err := m.pageApplication(r)
	if err != nil {
		return err
	}
	if err := m.removeApplication(r.Context(), a); err != nil {
		return m.ui.FormFailed(w, r, err, "page.application.delete", func(fe ui.FormErrors) templ.Component {
			return applicationDeleteConfirm(a, fe)
		}, nil)
	}
	web.Toast(w, r, "success", m.t(r, "page.application.deleted", "name", a.Name))
	web.Redirect(w, r, "/application")
	return nil
}

// networkOptions are the network servers an application may name.
var networkOptions = []ui.Option{
	{Value: NetworkGeneric, LabelID: "page.application.network.generic"},
	{Value: NetworkChirpStack, LabelID: "page.application.network.chirpstack"},
	{Value: NetworkTTS, LabelID: "page.application.network.tts"},
}
