// Package httpapi serves the forwarding module's JSON routes: the targets
// of an application and the test call.
package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/forwarding"
	"github.com/fieldhub/fieldhub/modules/forwarding/internal/forwarder"
)

// API answers the forwarding routes.
type API struct{ f *forwarder.Forwarder }

// New returns the API of f.
func New(f *forwarder.Forwarder) *API { return &API{f: f} }

// Routes registers the routes, for those who manage the application's
// company (the forwarder checks which company).
func (a *API) Routes(r *web.ModuleRoutes) {
	r.Describe(docs)
	r.API("GET /applications/{applicationId}/forwarding", auth.AdminOrCompanyAdmin, a.list)
	r.API("POST /applications/{applicationId}/forwarding", auth.AdminOrCompanyAdmin, a.create)
	r.API("PUT /forwarding/{targetId}", auth.AdminOrCompanyAdmin, a.update)
	r.API("DELETE /forwarding/{targetId}", auth.AdminOrCompanyAdmin, a.remove)
	r.API("POST /forwarding/{targetId}/test", auth.AdminOrCompanyAdmin, a.test)
}

func (a *API) list(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "applicationId")
	if err != nil {
		return err
	}
	app, err := a.f.Application(r.Context(), id)
	if err != nil {
		return err
	}
	list, err := a.f.Targets(r.Context(), app)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

func (a *API) create(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "applicationId")
	if err != nil {
		return err
	}
	app, err := a.f.Application(r.Context(), id)
	if err != nil {
		return err
	}
	var in forwarding.Input
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	t, err := a.f.Add(r.Context(), app, in)
	if err != nil {
		return err
	}
	return web.Created(w, t)
}

func (a *API) target(r *http.Request) (*forwarding.Target, error) {
	id, err := web.PathID(r, "targetId")
	if err != nil {
		return nil, err
	}
	return a.f.Target(r.Context(), id)
}

func (a *API) update(w http.ResponseWriter, r *http.Request) error {
	t, err := a.target(r)
	if err != nil {
		return err
	}
	var in forwarding.Input
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	t, err = a.f.Change(r.Context(), t, in)
	if err != nil {
		return err
	}
	return web.OK(w, t)
}

func (a *API) remove(w http.ResponseWriter, r *http.Request) error {
	t, err := a.target(r)
	if err != nil {
		return err
	}
	if err := a.f.Remove(r.Context(), t); err != nil {
		return err
	}
	return web.NoContent(w)
}

func (a *API) test(w http.ResponseWriter, r *http.Request) error {
	t, err := a.target(r)
	if err != nil {
		return err
	}
	return web.OK(w, a.f.Test(r.Context(), t))
}
