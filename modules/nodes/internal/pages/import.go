package pages

import (
	"errors"
	"net/http"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/bulk"
)

// The bulk import page (/tag/import) checks a file, which answers the dry
// run's table, and imports it with the same form's second button; its
// export links download the viewed company's nodes in the same format.

const importTitle = "page.tag.import.title"

// importPage shows the form; without a company, the way to one.
func (pg *Pages) importPage(w http.ResponseWriter, r *http.Request) error {
	if viewedCompany(r) == 0 {
		return pg.ui.Render(w, r, http.StatusOK, importTitle, noCompany(importTitle))
	}
	if _, err := managedCompany(r); err != nil {
		return err
	}
	return pg.ui.Render(w, r, http.StatusOK, importTitle, importPage(templ.NopComponent))
}

// importSubmit checks the uploaded file (step=check) or imports it
// (step=apply) and answers the result: alone to htmx, in the page
// otherwise. A file that cannot be read is said in the result.
func (pg *Pages) importSubmit(w http.ResponseWriter, r *http.Request) error {
	company, err := managedCompany(r)
	if err != nil {
		return err
	}
	var result templ.Component
	data, err := bulk.ReadUpload(r)
	apply := r.FormValue("step") == "apply"
	var report *bulk.Report
	if err == nil {
		report, err = pg.bulk.Import(r.Context(), company, data, apply)
	}
	var e *errs.Error
	switch {
	case err == nil:
		report.Translate(pg.host.Catalogs, web.ViewerFrom(r.Context()).Lang)
		result = importReport(report)
		if report.Applied {
			web.Toast(w, r, "success", pg.t(r, "page.tag.import.done", "created", report.Counts.Created, "changed", report.Counts.Changed))
		}
	case errors.As(err, &e) && e.Kind != errs.Internal && e.Kind != errs.Unavailable:
		result = importFailed(pg.host.Catalogs.T(web.ViewerFrom(r.Context()).Lang, e.ID, e.Args))
	default:
		return err
	}
	if web.IsHTMX(r) {
		return pg.ui.Fragment(w, r, http.StatusOK, result)
	}
	return pg.ui.Render(w, r, http.StatusOK, importTitle, importPage(result))
}

// exportFile downloads the viewed company's nodes.
func (pg *Pages) exportFile(w http.ResponseWriter, r *http.Request) error {
	company, err := managedCompany(r)
	if err != nil {
		return err
	}
	return bulk.ServeExport(w, r, pg.bulk, company, r.URL.Query().Get("format"))
}

// actionClass colours a row's action: refused as an alarm, what changes
// as news, unchanged plain.
func actionClass(a bulk.Action) string {
	switch a {
	case bulk.Refused:
		return "alarm"
	case bulk.Created, bulk.Changed:
		return "info"
	}
	return ""
}
