// Package httpapi serves the license module's JSON route, GET
// /api/license/terms.
package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/auth"
	klicense "github.com/fieldhub/fieldhub/kernel/license"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/license"
)

// API answers the license's terms.
type API struct{ lic *klicense.License }

// New returns the API of lic, the installation's license.
func New(lic *klicense.License) *API { return &API{lic: lic} }

// Routes registers GET /api/license/terms for every signed-in role.
func (a *API) Routes(r *web.ModuleRoutes) {
	r.Describe(docs)
	r.API("GET /license/terms", auth.CompanyOrUser, a.terms)
}

func (a *API) terms(w http.ResponseWriter, _ *http.Request) error {
	return web.OK(w, Answer(a.lic))
}

// Answer is lic as GET /api/license/terms answers it.
func Answer(lic *klicense.License) license.Terms {
	return license.Terms{Email: lic.Email, Name: lic.Name, MaxCompanies: lic.MaxCompanies,
		DecoderIncluded: lic.DecoderIncluded, WhiteLabel: lic.WhiteLabel, Free: lic.File == ""}
}
