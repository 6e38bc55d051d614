package httpapi

import (
	"net/http"
	"strconv"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/access"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/bulk"
)

// importNodes answers POST /companies/{companyId}/nodes/import: the
// per-row report of a file (multipart field "file", or the body); with
// ?dryRun=false the file is written, in one transaction. An apply with
// refused rows answers 400 with the report.
func (a *API) importNodes(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	company, err := access.ManagedCompanyID(ctx, r, a.accounts)
	if err != nil {
		return err
	}
	dryRun := true
	if raw := r.URL.Query().Get("dryRun"); raw != "" {
		if dryRun, err = strconv.ParseBool(raw); err != nil {
			return errs.New(errs.Invalid, errs.IDValidation)
		}
	}
	data, err := bulk.ReadUpload(r)
	if err != nil {
		return err
	}
	report, err := a.bulk.Import(ctx, company, data, !dryRun)
	if err != nil {
		return err
	}
	report.Translate(a.catalogs, a.router.Lang(r))
	if report.ID != "" {
		web.JSON(w, http.StatusBadRequest, report)
		return nil
	}
	return web.OK(w, report)
}

// exportNodes answers GET /companies/{companyId}/nodes/export?format=xlsx
// (the default) or csv.
func (a *API) exportNodes(w http.ResponseWriter, r *http.Request) error {
	company, err := access.ManagedCompanyID(r.Context(), r, a.accounts)
	if err != nil {
		return err
	}
	return bulk.ServeExport(w, r, a.bulk, company, r.URL.Query().Get("format"))
}
