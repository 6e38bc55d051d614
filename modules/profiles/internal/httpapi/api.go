// Package httpapi serves the profiles module's JSON routes under
// /api/profiles; docs/api/profiles.md documents them.
package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/profiles"
	"github.com/fieldhub/fieldhub/modules/profiles/internal/registry"
)

// API serves the routes.
type API struct{ reg *registry.Registry }

// New returns the routes over reg.
func New(reg *registry.Registry) *API { return &API{reg: reg} }

// Routes registers the routes, all for those who manage a company; company
// 0 is the installation, whose profiles only the SuperAdmin changes.
func (a *API) Routes(r *web.ModuleRoutes) {
	r.Describe(docs)
	r.API("GET /companies/{companyId}/profiles", auth.AdminOrCompanyAdmin, a.list)
	r.API("POST /companies/{companyId}/profiles", auth.AdminOrCompanyAdmin, a.create)
	r.API("POST /profiles/from-model", auth.AdminOrCompanyAdmin, a.fromModel)
	r.API("GET /profiles/{profileId}", auth.AdminOrCompanyAdmin, a.get)
	r.API("PUT /profiles/{profileId}", auth.AdminOrCompanyAdmin, a.update)
	r.API("DELETE /profiles/{profileId}", auth.AdminOrCompanyAdmin, a.remove)
	r.API("POST /profiles/{profileId}/apply", auth.AdminOrCompanyAdmin, a.apply)
}

// companyID reads {companyId}, where 0 names the installation.
func companyID(r *http.Request) (int64, error) {
	if r.PathValue("companyId") == "0" {
		return 0, nil
	}
	return web.PathID(r, "companyId")
}

func (a *API) list(w http.ResponseWriter, r *http.Request) error {
	id, err := companyID(r)
	if err != nil {
		return err
	}
	list, err := a.reg.List(r.Context(), id)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

func (a *API) create(w http.ResponseWriter, r *http.Request) error {
	id, err := companyID(r)
	if err != nil {
		return err
	}
	var in profiles.Input
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	p, err := a.reg.Create(r.Context(), id, in)
	if err != nil {
		return err
	}
	return web.Created(w, p)
}

func (a *API) fromModel(w http.ResponseWriter, r *http.Request) error {
	var in profiles.FromModel
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	p, err := a.reg.FromModel(r.Context(), in)
	if err != nil {
		return err
	}
	return web.Created(w, p)
}

func (a *API) get(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "profileId")
	if err != nil {
		return err
	}
	p, err := a.reg.Profile(r.Context(), id, false)
	if err != nil {
		return err
	}
	return web.OK(w, p)
}

// update answers the changed profile; its nodes count tells the caller
// whether to offer POST /profiles/{profileId}/apply.
func (a *API) update(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "profileId")
	if err != nil {
		return err
	}
	var in profiles.Input
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	p, err := a.reg.Update(r.Context(), id, in)
	if err != nil {
		return err
	}
	return web.OK(w, p)
}

func (a *API) remove(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "profileId")
	if err != nil {
		return err
	}
	if err := a.reg.Delete(r.Context(), id); err != nil {
		return err
	}
	return web.NoContent(w)
}

func (a *API) apply(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "profileId")
	if err != nil {
		return err
	}
	n, err := a.reg.Apply(r.Context(), id)
	if err != nil {
		return err
	}
	return web.OK(w, n)
}
