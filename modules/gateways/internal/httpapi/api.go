// Package httpapi serves the gateways module's JSON routes (SPEC section 7
// "Other": gateways, and the unknown gateways and address lookup beside
// them); docs/api/gateways.md documents them.
package httpapi

import (
	"net/http"
	"strconv"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/gateways"
	"github.com/fieldhub/fieldhub/modules/gateways/internal/registry"
)

// API serves the routes.
type API struct {
	reg    *registry.Registry
	router *web.Router // the language of an answer
}

// New returns the routes over reg.
func New(reg *registry.Registry, router *web.Router) *API { return &API{reg: reg, router: router} }

// Routes registers the routes: reads for every company role, changes for
// those who manage the company.
func (a *API) Routes(r *web.ModuleRoutes) {
	r.Describe(docs)
	r.API("POST /gateway/{applicationId}", auth.AdminOrCompanyAdmin, a.create)
	r.API("GET /gateway/{gatewayId}", auth.CompanyOrUser, a.get)
	r.API("DELETE /gateway/{gatewayId}", auth.AdminOrCompanyAdmin, a.remove)
	r.API("PUT /gateway/{gatewayId}/pos", auth.AdminOrCompanyAdmin, a.move)
	r.API("GET /gateway/company/{companyId}", auth.CompanyOrUser, a.list)
	r.API("GET /gateway/company/{companyId}/unknown", auth.CompanyOrUser, a.unknown)
	r.API("GET /gateway/geocode", auth.AdminOrCompanyAdmin, a.geocode)
}

func (a *API) create(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "applicationId")
	if err != nil {
		return err
	}
	var in gateways.Input
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	gw, err := a.reg.Create(r.Context(), id, in)
	if err != nil {
		return err
	}
	return web.Created(w, gw)
}

func (a *API) get(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "gatewayId")
	if err != nil {
		return err
	}
	gw, err := a.reg.Gateway(r.Context(), id, false)
	if err != nil {
		return err
	}
	return web.OK(w, gw)
}

func (a *API) remove(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "gatewayId")
	if err != nil {
		return err
	}
	if _, err := a.reg.Delete(r.Context(), id); err != nil {
		return err
	}
	return web.NoContent(w)
}

func (a *API) move(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "gatewayId")
	if err != nil {
		return err
	}
	var p gateways.Position
	if err := web.Decode(r, &p); err != nil {
		return err
	}
	gw, err := a.reg.Move(r.Context(), id, p)
	if err != nil {
		return err
	}
	return web.OK(w, gw)
}

func (a *API) list(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "companyId")
	if err != nil {
		return err
	}
	list, err := a.reg.List(r.Context(), id)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

func (a *API) unknown(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "companyId")
	if err != nil {
		return err
	}
	list, err := a.reg.Unknown(r.Context(), id)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

// geocode answers GET /api/gateway/geocode?lat=&lon=.
func (a *API) geocode(w http.ResponseWriter, r *http.Request) error {
	lat, err1 := queryFloat(r, "lat")
	lng, err2 := queryFloat(r, "lon")
	if err1 != nil || err2 != nil {
		var v errs.Validation
		if err1 != nil {
			v.Add("latitude", gateways.IDBadLatitude)
		}
		if err2 != nil {
			v.Add("longitude", gateways.IDBadLongitude)
		}
		return v.Err()
	}
	addr, err := a.reg.Reverse(r.Context(), lat, lng, a.router.Lang(r))
	if err != nil {
		return err
	}
	return web.OK(w, addr)
}

// queryFloat reads a number from the query; absent is nil.
func queryFloat(r *http.Request, name string) (*float64, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return nil, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, err
	}
	return &f, nil
}
