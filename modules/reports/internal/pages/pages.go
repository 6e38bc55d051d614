// Package pages holds the report pages: /report lists the viewed company's
// reports with their tempo, type and last send, "Send now" and the export
// dialog (island report-export); /report/create and /report/{reportId}
// hold the report editor (island report-editor: name, type, tempo,
// reference date, nodes and keys, contacts, a preview of the first rows),
// and the latter the removal. The islands call the JSON API.
package pages

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/reports"
	"github.com/fieldhub/fieldhub/modules/reports/internal/delivery"
	"github.com/fieldhub/fieldhub/modules/reports/internal/store"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Pages draws the report pages.
type Pages struct {
	host    *kernel.Host
	ui      *ui.Env
	nodes   reports.Nodes
	deliver *delivery.Deliverer
}

// New returns the pages, drawn with env.
func New(host *kernel.Host, env *ui.Env, nodes reports.Nodes, d *delivery.Deliverer) *Pages {
	return &Pages{host: host, ui: env, nodes: nodes, deliver: d}
}

// menuItem is the side menu entry (SPEC.md section 2: SuperAdmin, Admin,
// CompanyAdmin), after the decoders, the gateways and the script engine.
var menuItem = web.MenuItem{ID: "report", LabelID: "menu.report", Href: "/report", Icon: "mdi-file-chart-outline",
	Roles: auth.AdminOrCompanyAdmin, Order: 89}

// Routes adds the menu entry and registers the pages.
func (p *Pages) Routes(r *web.ModuleRoutes) {
	p.host.Router.AddMenuItem(menuItem)
	r.Page("GET /report", auth.AdminOrCompanyAdmin, p.listPage)
	r.Page("GET /report/create", auth.AdminOrCompanyAdmin, p.editorPage)
	r.Page("GET /report/{reportId}", auth.AdminOrCompanyAdmin, p.editorPage)
	r.Page("GET /report/{reportId}/delete", auth.AdminOrCompanyAdmin, p.deletePage)
	r.Page("POST /report/{reportId}/delete", auth.AdminOrCompanyAdmin, p.deleteSubmit)
	r.Page("POST /report/{reportId}/send", auth.AdminOrCompanyAdmin, p.sendSubmit)
}

func reportPath(id int64, rest string) string { return fmt.Sprintf("/report/%d%s", id, rest) }

// nodeChoice is a node the islands offer, with its keys.
type nodeChoice struct {
	ID     int64       `json:"id"`
	Name   string      `json:"name"`
	DevEUI string      `json:"deveui"`
	Keys   []keyChoice `json:"keys"`
}

type keyChoice struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Unit  string `json:"unit"`
}

// islandProps are the props of both islands.
type islandProps struct {
	CompanyID int64        `json:"companyId"`
	ReportID  int64        `json:"reportId,omitempty"`
	Nodes     []nodeChoice `json:"nodes"`
}

// props lists the company's nodes and their keys for an island.
func (p *Pages) props(r *http.Request, company, report int64) (string, error) {
	tags, err := p.nodes.CompanyTags(r.Context(), company)
	if err != nil {
		return "", err
	}
	out := islandProps{CompanyID: company, ReportID: report, Nodes: []nodeChoice{}}
	for _, t := range tags {
		keys, err := p.nodes.TagKeys(r.Context(), t.ID)
		if err != nil {
			return "", err
		}
		n := nodeChoice{ID: t.ID, Name: t.Name, DevEUI: t.DevEUI, Keys: []keyChoice{}}
		for _, k := range keys {
			if !strings.HasPrefix(k.Key, "$") {
				n.Keys = append(n.Keys, keyChoice{Key: k.Key, Label: k.Label, Unit: k.Unit})
			}
		}
		out.Nodes = append(out.Nodes, n)
	}
	b, err := json.Marshal(out)
	return string(b), err
}

// viewedCompany is the company the pages show: the caller's own, or the one
// a SuperAdmin chose; 0 for none.
func viewedCompany(r *http.Request) int64 { return web.ViewerFrom(r.Context()).CompanyID }

// listPage is /report.
func (p *Pages) listPage(w http.ResponseWriter, r *http.Request) error {
	const title = "reports.page.title"
	company := viewedCompany(r)
	if company == 0 {
		return p.ui.Render(w, r, http.StatusOK, title, noCompany(title))
	}
	list, err := store.CompanyReports(r.Context(), p.host.DB, company)
	if err != nil {
		return err
	}
	props, err := p.props(r, company, 0)
	if err != nil {
		return err
	}
	return p.ui.Render(w, r, http.StatusOK, title, listPage(list, props), ui.Options{Islands: true})
}

// pageReport loads the path's report if it is the viewed company's.
func (p *Pages) pageReport(r *http.Request) (*reports.Report, error) {
	id, err := web.PathID(r, "reportId")
	if err != nil {
		return nil, errs.New(errs.NotFound, errs.IDNotFound)
	}
	rep, err := store.Report(r.Context(), p.host.DB, id)
	if err != nil {
		return nil, err
	}
	if rep.CompanyID != viewedCompany(r) || !auth.CallerFrom(r.Context()).CanManageCompany(rep.CompanyID) {
		return nil, errs.New(errs.NotFound, errs.IDNotFound)
	}
	return rep, nil
}

// editorPage is /report/create and /report/{reportId}.
func (p *Pages) editorPage(w http.ResponseWriter, r *http.Request) error {
	title := "reports.create.title"
	company := viewedCompany(r)
	if company == 0 {
		return p.ui.Render(w, r, http.StatusOK, title, noCompany(title))
	}
	var rep *reports.Report
	if r.PathValue("reportId") != "" {
		var err error
		if rep, err = p.pageReport(r); err != nil {
			return err
		}
		title = "reports.edit.title"
	}
	var id int64
	if rep != nil {
		id = rep.ID
	}
	props, err := p.props(r, company, id)
	if err != nil {
		return err
	}
	return p.ui.Render(w, r, http.StatusOK, title, editorPage(title, rep, props), ui.Options{Islands: true})
}

// deletePage asks before a report is deleted.
func (p *Pages) deletePage(w http.ResponseWriter, r *http.Request) error {
	rep, err := p.pageReport(r)
	if err != nil {
		return err
	}
	return p.ui.Render(w, r, http.StatusOK, "reports.delete.title", deleteConfirm(rep))
}

// deleteSubmit deletes a report.
func (p *Pages) deleteSubmit(w http.ResponseWriter, r *http.Request) error {
	rep, err := p.pageReport(r)
	if err != nil {
		return err
	}
	if err := store.Delete(r.Context(), p.host.DB, rep.ID); err != nil {
		return err
	}
	web.Toast(w, r, "success", p.host.Catalogs.T(web.ViewerFrom(r.Context()).Lang, "reports.deleted", map[string]any{"name": rep.Name}))
	web.Redirect(w, r, "/report")
	return nil
}

// sendSubmit is "Send now" of the list: the last finished period, queued.
func (p *Pages) sendSubmit(w http.ResponseWriter, r *http.Request) error {
	rep, err := p.pageReport(r)
	if err != nil {
		return err
	}
	lang := web.ViewerFrom(r.Context()).Lang
	if _, err := p.deliver.SendNow(r.Context(), rep, time.Now()); err != nil {
		if errs.KindOf(err) != errs.Invalid {
			return err
		}
		var e *errs.Error
		id := reports.IDFetchFailed
		if asError(err, &e) {
			id = e.ID
		}
		web.Toast(w, r, "error", p.host.Catalogs.T(lang, id, nil))
	} else {
		web.Toast(w, r, "success", p.host.Catalogs.T(lang, "reports.sent", map[string]any{"name": rep.Name}))
	}
	web.Redirect(w, r, "/report")
	return nil
}

// tempoLabel is the message id of a tempo.
func tempoLabel(t int) string { return fmt.Sprintf("reports.tempo.%d", t) }

// typeLabel is the message id of a type.
func typeLabel(t string) string { return "reports.type." + t }
