package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/access"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/store"
)

// defaultInput is the optional body of PUT /dashboards/{id}/default.
type defaultInput struct {
	Scope string `json:"scope"`
}

// setDefault answers PUT /dashboards/{dashboardId}/default: the caller's
// own default (scope "user", any staff role), or the company's (scope
// "company", those who manage it).
func (a *API) setDefault(w http.ResponseWriter, r *http.Request) error {
	scope, err := readScope(r)
	if err != nil {
		return err
	}
	d, err := a.guard.PathDashboard(r, scope == "company")
	if err != nil {
		return err
	}
	c := auth.CallerFrom(r.Context())
	if scope == "company" {
		err = store.SetCompanyDefault(r.Context(), a.db, d.CompanyID, d.ID)
	} else {
		err = store.SetUserDefault(r.Context(), a.db, c.UserID, d.CompanyID, d.ID)
	}
	if err != nil {
		return err
	}
	a.announce(r.Context(), d.CompanyID, dashboards.AuditDefaultSet, map[string]any{"name": d.Name, "scope": scope}, nil, nil)
	return web.NoContent(w)
}

// clearDefault answers DELETE /dashboards/{dashboardId}/default: the
// dashboard stops being the caller's default, or with ?scope=company (or
// that body) the company's.
func (a *API) clearDefault(w http.ResponseWriter, r *http.Request) error {
	scope, err := readScope(r)
	if err != nil {
		return err
	}
	d, err := a.guard.PathDashboard(r, scope == "company")
	if err != nil {
		return err
	}
	if scope == "company" {
		err = store.ClearCompanyDefault(r.Context(), a.db, d.ID)
	} else {
		err = store.ClearUserDefault(r.Context(), a.db, auth.CallerFrom(r.Context()).UserID, d.ID)
	}
	if err != nil {
		return err
	}
	a.announce(r.Context(), d.CompanyID, dashboards.AuditDefaultCleared, map[string]any{"name": d.Name, "scope": scope}, nil, nil)
	return web.NoContent(w)
}

// readScope reads the scope of a default from ?scope= or the body.
func readScope(r *http.Request) (string, error) {
	scope := r.URL.Query().Get("scope")
	if scope == "" && r.ContentLength != 0 && r.Body != nil && r.Body != http.NoBody {
		var in defaultInput
		if err := web.Decode(r, &in); err != nil {
			return "", err
		}
		scope = in.Scope
	}
	switch scope {
	case "", "user":
		return "user", nil
	case "company":
		return "company", nil
	}
	v := errs.Validation{}
	v.Add("scope", dashboards.IDScope)
	return "", v.Err()
}

// defaultDashboard answers GET /dashboards/default: the caller's default in
// their company (their own, else the company's), or 204 without one.
func (a *API) defaultDashboard(w http.ResponseWriter, r *http.Request) error {
	c := auth.CallerFrom(r.Context())
	companyID, err := a.guard.CallerCompany(r)
	if err != nil {
		if errs.Is(err, errs.Invalid) && c.CompanyID == 0 { // no company, so no default
			return web.NoContent(w)
		}
		return err
	}
	if err := access.Scoped(r.Context(), companyID, false); err != nil {
		return err
	}
	id, err := store.DefaultOf(r.Context(), a.db, c.UserID, companyID)
	if err != nil {
		return err
	}
	if id == 0 {
		return web.NoContent(w)
	}
	d, err := store.Dashboard(r.Context(), a.db, id)
	if err != nil {
		return err
	}
	if err := a.present(r.Context(), d); err != nil {
		return err
	}
	return web.OK(w, d)
}
