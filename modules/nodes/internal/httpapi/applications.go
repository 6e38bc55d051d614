package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/access"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
)

// createApplication answers POST /applications/{companyId}.
func (a *API) createApplication(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	if c := auth.CallerFrom(ctx); c.CompanyID == 0 && c.Role != auth.SuperAdmin {
		return errs.New(errs.Invalid, nodes.IDAppNoCompany)
	}
	companyID, err := access.ManagedCompanyID(ctx, r, a.accounts)
	if err != nil {
		return err
	}
	var in registry.ApplicationInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	app, err := a.reg.AddApplication(ctx, companyID, in)
	if err != nil {
		return err
	}
	return web.Created(w, app)
}

// getApplication answers GET /applications/{applicationId}.
func (a *API) getApplication(w http.ResponseWriter, r *http.Request) error {
	app, err := a.pathApplication(r.Context(), r, false)
	if err != nil {
		return err
	}
	return web.OK(w, app)
}

// updateApplication answers PUT /applications/{applicationId}.
func (a *API) updateApplication(w http.ResponseWriter, r *http.Request) error {
	app, err := a.pathApplication(r.Context(), r, true)
	if err != nil {
		return err
	}
	var in registry.ApplicationInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	if err := a.reg.SaveApplication(r.Context(), app, in); err != nil {
		return err
	}
	return web.OK(w, app)
}

// deleteApplication answers DELETE /applications/{applicationId}.
func (a *API) deleteApplication(w http.ResponseWriter, r *http.Request) error {
	app, err := a.pathApplication(r.Context(), r, true)
	if err != nil {
		return err
	}
	if err := a.reg.RemoveApplication(r.Context(), app); err != nil {
		return err
	}
	return web.NoContent(w)
}

// companyApplications answers GET /companies/{companyId}/applications.
func (a *API) companyApplications(w http.ResponseWriter, r *http.Request) error {
	id, err := access.VisibleCompanyID(r.Context(), r, a.accounts)
	if err != nil {
		return err
	}
	list, err := a.reg.Applications(r.Context(), id)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}
