// Package httpapi answers the reports module's JSON routes under /api
// (docs/api/reports.md).
package httpapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/audit"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/reports"
	"github.com/fieldhub/fieldhub/modules/reports/internal/delivery"
	"github.com/fieldhub/fieldhub/modules/reports/internal/render"
	"github.com/fieldhub/fieldhub/modules/reports/internal/store"
)

// API holds what the routes use.
type API struct {
	host     *kernel.Host
	db       *bun.DB
	accounts reports.Accounts
	render   *render.Renderer
	deliver  *delivery.Deliverer
}

// New returns the routes of the module.
func New(host *kernel.Host, acc reports.Accounts, r *render.Renderer, d *delivery.Deliverer) *API {
	return &API{host: host, db: host.DB, accounts: acc, render: r, deliver: d}
}

// Routes registers the routes of docs/api/reports.md.
func (a *API) Routes(r *web.ModuleRoutes) {
	r.Describe(docs)
	r.API("GET /report/company/{companyId}", auth.AdminOrCompanyAdmin, a.companyReports)
	r.API("GET /report/{reportId}", auth.AdminOrCompanyAdmin, a.getReport)
	r.API("POST /report", auth.AdminOrCompanyAdmin, a.createReport)
	r.API("PUT /report/{reportId}", auth.AdminOrCompanyAdmin, a.updateReport)
	r.API("DELETE /report/{reportId}", auth.AdminOrCompanyAdmin, a.deleteReport)
	r.API("POST /report/{reportId}/send", auth.AdminOrCompanyAdmin, a.sendNow)
	r.API("POST /report/preview", auth.AdminOrCompanyAdmin, a.preview)
	r.API("POST /report/multiexport", auth.AdminOrCompanyAdmin, a.multiExport)
}

func notFound() error { return errs.New(errs.NotFound, errs.IDNotFound) }

// CallerCompany is the company a call without one in its path acts for:
// the caller's own; a SuperAdmin's ?companyId=, else the company chosen in
// the switcher, else their own.
func (a *API) CallerCompany(r *http.Request) (*accounts.Company, error) {
	id, err := accounts.RequestedCompany(r)
	if err != nil {
		return nil, err
	}
	if id == 0 {
		return nil, errs.New(errs.Invalid, reports.IDNoCompany)
	}
	return a.accounts.Company(r.Context(), id)
}

// pathReport loads the path's report if the caller manages its company.
func (a *API) pathReport(r *http.Request) (*reports.Report, error) {
	id, err := web.PathID(r, "reportId")
	if err != nil {
		return nil, err
	}
	rep, err := store.Report(r.Context(), a.db, id)
	if err != nil {
		return nil, err
	}
	if !auth.CallerFrom(r.Context()).CanManageCompany(rep.CompanyID) {
		return nil, notFound()
	}
	return rep, nil
}

// companyReports answers GET /report/company/{companyId}.
func (a *API) companyReports(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "companyId")
	if err != nil {
		return err
	}
	if !auth.CallerFrom(r.Context()).CanManageCompany(id) {
		return notFound()
	}
	if _, err := a.accounts.Company(r.Context(), id); err != nil {
		return err
	}
	list, err := store.CompanyReports(r.Context(), a.db, id)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

// getReport answers GET /report/{reportId}.
func (a *API) getReport(w http.ResponseWriter, r *http.Request) error {
	rep, err := a.pathReport(r)
	if err != nil {
		return err
	}
	return web.OK(w, rep)
}

// createReport answers POST /report: in the caller's company.
func (a *API) createReport(w http.ResponseWriter, r *http.Request) error {
	company, err := a.CallerCompany(r)
	if err != nil {
		return err
	}
	var in ReportInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	rep := &reports.Report{CompanyID: company.ID}
	if err := a.check(r.Context(), &in, rep, company); err != nil {
		return err
	}
	if err := store.Insert(r.Context(), a.db, rep); err != nil {
		return err
	}
	a.announce(r.Context(), rep.CompanyID, reports.AuditCreated, rep, nil, nil)
	return web.Created(w, rep)
}

// updateReport answers PUT /report/{reportId}.
func (a *API) updateReport(w http.ResponseWriter, r *http.Request) error {
	rep, err := a.pathReport(r)
	if err != nil {
		return err
	}
	var in ReportInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	company, err := a.accounts.Company(r.Context(), rep.CompanyID)
	if err != nil {
		return err
	}
	was := fields(rep)
	if err := a.check(r.Context(), &in, rep, company); err != nil {
		return err
	}
	if err := store.Update(r.Context(), a.db, rep); err != nil {
		return err
	}
	if before, after := audit.Diff(was, fields(rep)); !audit.Empty(after) {
		a.announce(r.Context(), rep.CompanyID, reports.AuditEdited, rep, before, after)
	}
	return web.OK(w, rep)
}

// check applies in to rep and checks that its nodes are the company's.
func (a *API) check(ctx context.Context, in *ReportInput, rep *reports.Report, company *accounts.Company) error {
	if err := in.apply(rep, company.Location(), time.Now()); err != nil {
		return err
	}
	_, err := a.render.Collector.Resolve(ctx, reports.Spec{Company: company.ID, Nodes: rep.Nodes, Keys: rep.Keys})
	return nodesField(err)
}

// nodesField names the nodes field in an unknown node's error.
func nodesField(err error) error {
	var e *errs.Error
	if err != nil && errs.Is(err, errs.Invalid) && errors.As(err, &e) && e.ID == reports.IDNodeUnknown {
		var v errs.Validation
		v.AddArgs("nodes", reports.IDNodeUnknown, e.Args)
		return v.Err()
	}
	return err
}

// deleteReport answers DELETE /report/{reportId}.
func (a *API) deleteReport(w http.ResponseWriter, r *http.Request) error {
	rep, err := a.pathReport(r)
	if err != nil {
		return err
	}
	if err := store.Delete(r.Context(), a.db, rep.ID); err != nil {
		return err
	}
	a.announce(r.Context(), rep.CompanyID, reports.AuditDeleted, rep, nil, nil)
	return web.NoContent(w)
}

// SendAnswer is the answer of POST /report/{id}/send: the period sent.
type SendAnswer struct {
	From     time.Time  `json:"from"`
	To       time.Time  `json:"to"`
	LastSent *time.Time `json:"lastSent"`
}

// sendNow answers POST /report/{reportId}/send: the last finished period,
// queued for its contacts now.
func (a *API) sendNow(w http.ResponseWriter, r *http.Request) error {
	rep, err := a.pathReport(r)
	if err != nil {
		return err
	}
	now := time.Now()
	p, err := a.deliver.SendNow(r.Context(), rep, now)
	if err != nil {
		return nodesField(err)
	}
	sent := now.UTC()
	return web.OK(w, SendAnswer{From: p.From, To: p.To, LastSent: &sent})
}

// preview answers POST /report/preview: the first rows of the first node.
func (a *API) preview(w http.ResponseWriter, r *http.Request) error {
	company, err := a.CallerCompany(r)
	if err != nil {
		return err
	}
	var in ExportInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	spec, _, err := in.spec(company.ID, company.Location())
	if err != nil {
		return err
	}
	p, err := a.render.Preview(r.Context(), spec, a.host.Router.Lang(r))
	if err != nil {
		return nodesField(err)
	}
	return web.OK(w, p)
}

// multiExport answers POST /report/multiexport: the file, or 404 with
// IDNoData when the window holds no value of the chosen keys.
func (a *API) multiExport(w http.ResponseWriter, r *http.Request) error {
	company, err := a.CallerCompany(r)
	if err != nil {
		return err
	}
	var in ExportInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	loc := company.Location()
	spec, format, err := in.spec(company.ID, loc)
	if err != nil {
		return err
	}
	name := reports.FileName("report", time.Now().In(loc), format)
	f, err := a.render.Make(r.Context(), spec, format, company.Name, name, a.host.Router.Lang(r))
	if err != nil {
		return nodesField(err)
	}
	defer f.Close()
	if f.Stats.Values() == 0 {
		return errs.New(errs.NotFound, reports.IDNoData)
	}
	info, err := f.Stat()
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", f.ContentType)
	h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	h.Set("Content-Length", strconv.FormatInt(info.Size(), 10))
	h.Set("Cache-Control", "no-store")
	_, err = io.Copy(w, f.File)
	return err
}

// announce puts a change to a company's reports on the audit trail.
func (a *API) announce(ctx context.Context, company int64, id string, rep *reports.Report, before, after map[string]any) {
	audit.Announce(ctx, a.host.Bus, audit.Change{CompanyID: company, MessageID: id, Args: map[string]any{"name": rep.Name}, Before: before, After: after})
}

// fields are the fields of a report the audit trail shows.
func fields(r *reports.Report) map[string]any {
	return map[string]any{"name": r.Name, "type": r.Type, "tempo": r.Tempo, "refrenceDate": r.RefrenceDate,
		"reportContacts": fmt.Sprint(r.ReportContacts), "nodes": fmt.Sprint(r.Nodes), "keys": fmt.Sprint(r.Keys), "resolution": r.Resolution}
}
