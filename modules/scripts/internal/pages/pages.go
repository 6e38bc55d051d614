// Package pages holds the script pages: /script lists the viewed company's
// scripts with their switch, type, last run and last error; /script/create
// and /script/{scriptId} hold the script editor (island script-editor: the
// fields, the code editor, the test pane and the run history), and the
// latter the removal. The island calls the JSON API.
package pages

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/scripts"
	"github.com/fieldhub/fieldhub/modules/scripts/internal/library"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Pages draws the script pages.
type Pages struct {
	host  *kernel.Host
	ui    *ui.Env
	nodes scripts.Nodes
	lib   *library.Library
}

// New returns the pages, drawn with env.
func New(host *kernel.Host, env *ui.Env, nodes scripts.Nodes, lib *library.Library) *Pages {
	return &Pages{host: host, ui: env, nodes: nodes, lib: lib}
}

// menuItem is the side menu entry "Script engine" (SPEC.md section 2:
// SuperAdmin, Admin, CompanyAdmin), between Gateways and Reports.
var menuItem = web.MenuItem{ID: "script", LabelID: "menu.script", Href: "/script", Icon: "mdi-script-text-outline",
	Roles: auth.AdminOrCompanyAdmin, Order: 88}

// Routes adds the menu entry and registers the pages.
func (p *Pages) Routes(r *web.ModuleRoutes) {
	p.host.Router.AddMenuItem(menuItem)
	r.Page("GET /script", auth.AdminOrCompanyAdmin, p.listPage)
	r.Page("GET /script/create", auth.AdminOrCompanyAdmin, p.editorPage)
	r.Page("GET /script/{scriptId}", auth.AdminOrCompanyAdmin, p.editorPage)
	r.Page("POST /script/{scriptId}/enabled", auth.AdminOrCompanyAdmin, p.toggle)
	r.Page("POST /script/{scriptId}/delete", auth.AdminOrCompanyAdmin, p.deleteSubmit)
}

func scriptPath(id int64, rest string) string { return fmt.Sprintf("/script/%d%s", id, rest) }

func enabledLabel(on bool) string {
	if on {
		return "scripts.enabled.on"
	}
	return "scripts.enabled.off"
}

// viewedCompany is the company the pages show: the caller's own, or the one
// a SuperAdmin chose; 0 for none.
func viewedCompany(r *http.Request) int64 { return web.ViewerFrom(r.Context()).CompanyID }

// listPage is /script.
func (p *Pages) listPage(w http.ResponseWriter, r *http.Request) error {
	const title = "scripts.page.title"
	company := viewedCompany(r)
	if company == 0 {
		return p.ui.Render(w, r, http.StatusOK, title, noCompany(title))
	}
	list, err := p.lib.List(r.Context(), company)
	if err != nil {
		return err
	}
	return p.ui.Render(w, r, http.StatusOK, title, listPage(list))
}

// pageScript loads the path's script if it is the viewed company's.
func (p *Pages) pageScript(r *http.Request) (*scripts.Script, error) {
	id, err := web.PathID(r, "scriptId")
	if err != nil {
		return nil, errs.New(errs.NotFound, errs.IDNotFound)
	}
	s, err := p.lib.Get(r.Context(), id)
	if err != nil {
		return nil, err
	}
	if s.CompanyID != viewedCompany(r) {
		return nil, errs.New(errs.NotFound, errs.IDNotFound)
	}
	return s, nil
}

// nodeChoice is a node the editor offers as the trigger.
type nodeChoice struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// editorLimits are the limits the editor's help states.
var editorLimits = map[string]int{
	"runWrites": scripts.MaxWritesPerRun, "runSends": scripts.MaxSendsPerRun,
	"scriptWrites": scripts.MaxScriptWritesPerMinute, "scriptSends": scripts.MaxScriptSendsPerMinute,
	"companyWrites": scripts.MaxCompanyWritesPerMinute, "companySends": scripts.MaxCompanySendsPerMinute,
	"failures": scripts.FailuresToSwitchOff, "maxModule": scripts.MaxModule,
}

// editorPage is /script/create and /script/{scriptId}.
func (p *Pages) editorPage(w http.ResponseWriter, r *http.Request) error {
	title := "scripts.create.title"
	company := viewedCompany(r)
	if company == 0 {
		return p.ui.Render(w, r, http.StatusOK, title, noCompany(title))
	}
	var s *scripts.Script
	props := map[string]any{"companyId": company, "limits": editorLimits}
	if r.PathValue("scriptId") != "" {
		var err error
		if s, err = p.pageScript(r); err != nil {
			return err
		}
		title = "scripts.edit.title"
		props["scriptId"] = s.ID
	}
	tags, err := p.nodes.CompanyTags(r.Context(), company)
	if err != nil {
		return err
	}
	choices := make([]nodeChoice, 0, len(tags))
	for _, t := range tags {
		choices = append(choices, nodeChoice{ID: t.ID, Name: t.Name})
	}
	props["nodes"] = choices
	raw, err := json.Marshal(props)
	if err != nil {
		return err
	}
	return p.ui.Render(w, r, http.StatusOK, title, editorPage(title, s, string(raw)), ui.Options{Islands: true})
}

// toggle switches a script on or off from the list; htmx gets the row.
func (p *Pages) toggle(w http.ResponseWriter, r *http.Request) error {
	s, err := p.pageScript(r)
	if err != nil {
		return err
	}
	on := !s.Enabled
	if s, err = p.lib.Update(r.Context(), s.ID, scripts.Input{Enabled: &on}); err != nil {
		return err
	}
	if r.Header.Get("HX-Request") == "true" {
		return listRow(*s).Render(r.Context(), w)
	}
	web.Redirect(w, r, "/script")
	return nil
}

// deleteSubmit deletes a script once the form's box is ticked.
func (p *Pages) deleteSubmit(w http.ResponseWriter, r *http.Request) error {
	s, err := p.pageScript(r)
	if err != nil {
		return err
	}
	lang := web.ViewerFrom(r.Context()).Lang
	if r.FormValue("confirm") != "yes" {
		web.Toast(w, r, "error", p.host.Catalogs.T(lang, "scripts.delete.unconfirmed", nil))
		web.Redirect(w, r, scriptPath(s.ID, ""))
		return nil
	}
	if err := p.lib.Delete(r.Context(), s.ID); err != nil {
		return err
	}
	web.Toast(w, r, "success", p.host.Catalogs.T(lang, "scripts.deleted", map[string]any{"name": s.Name}))
	web.Redirect(w, r, "/script")
	return nil
}
