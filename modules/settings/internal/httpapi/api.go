// Package httpapi answers the settings module's JSON routes under
// /api/settings: a user's own settings, the global settings and a
// company's settings with the fields of its form.
package httpapi

import (
	"encoding/json"
	"net/http"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/settings"
	"github.com/fieldhub/fieldhub/modules/settings/internal/values"
)

// API is the module's JSON routes.
type API struct {
	host     *kernel.Host
	values   *values.Service
	accounts settings.Accounts
}

// New returns the routes, which store through v and ask accounts whether a
// company exists.
func New(host *kernel.Host, v *values.Service, accounts settings.Accounts) *API {
	return &API{host: host, values: v, accounts: accounts}
}

// Routes registers the routes: every signed-in user reads and saves their
// own settings and reads the branding; a SuperAdmin saves the global
// settings; an Admin or a CompanyAdmin reads and saves a company's.
func (a *API) Routes(r *web.ModuleRoutes) {
	r.Describe(docs)
	r.API("GET /settings", auth.CompanyOrUser, a.getUserSettings)
	r.API("POST /settings", auth.CompanyOrUser, a.postUserSettings)
	r.API("GET /settings/global", auth.CompanyOrUser, a.getGlobal)
	r.API("POST /settings/global", auth.SuperAdminOnly, a.postGlobal)
	r.API("GET /settings/global/logo", auth.Open, a.getLogo)
	r.API("POST /settings/global/logo", auth.SuperAdminOnly, a.putLogo, web.MaxBody(web.ImageBodyLimit))
	r.API("DELETE /settings/global/logo", auth.SuperAdminOnly, a.deleteLogo)
	r.API("GET /settings/company/fields", auth.AdminOrCompanyAdmin, a.companyFields)
	r.API("GET /settings/company/{companyId}", auth.AdminOrCompanyAdmin, a.getCompany)
	r.API("PUT /settings/company/{companyId}", auth.AdminOrCompanyAdmin, a.putCompany)
}

// decodeBody reads a request body that must be a JSON object of settings.
func decodeBody(r *http.Request) (map[string]json.RawMessage, error) {
	var body map[string]json.RawMessage
	if err := web.Decode(r, &body); err != nil {
		return nil, err
	}
	return body, nil
}

// notFound is the answer for a company the caller may not see, so that ids
// of other companies reveal nothing.
var notFound = errs.New(errs.NotFound, errs.IDNotFound)
