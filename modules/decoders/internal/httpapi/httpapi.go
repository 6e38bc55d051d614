// Package httpapi holds the decoders module's JSON routes: the decoder list
// (GET /api/decoder), the test call, a company's own decoders with their
// versions, and a company's sandbox limits. They act through the decoding
// service.
package httpapi

import (
	"net/http"
	"strconv"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/decoding"
)

// API answers the JSON routes.
type API struct {
	svc *decoding.Service
}

// New returns the routes of svc.
func New(svc *decoding.Service) *API { return &API{svc: svc} }

// Routes registers the JSON routes.
func (a *API) Routes(r *web.ModuleRoutes) {
	r.Describe(docs)
	r.API("GET /decoder", auth.CompanyOrUser, a.list)
	r.API("POST /decoder/test", auth.AdminOrCompanyAdmin, a.test, web.MaxBody(decoding.MaxTestBody))
	r.API("GET /companies/{companyId}/decoders", auth.AdminOrCompanyAdmin, a.listCustom)
	r.API("POST /companies/{companyId}/decoders", auth.AdminOrCompanyAdmin, a.createCustom, web.MaxBody(decoding.MaxVersionIn))
	r.API("GET /decoders/{decoderId}", auth.AdminOrCompanyAdmin, a.getCustom)
	r.API("PUT /decoders/{decoderId}", auth.AdminOrCompanyAdmin, a.renameCustom)
	r.API("DELETE /decoders/{decoderId}", auth.AdminOrCompanyAdmin, a.deleteCustom)
	r.API("POST /decoders/{decoderId}/versions", auth.AdminOrCompanyAdmin, a.addCustomVersion, web.MaxBody(decoding.MaxVersionIn))
	r.API("GET /decoders/{decoderId}/versions/{version}", auth.AdminOrCompanyAdmin, a.getCustomVersion)
	r.API("POST /decoders/{decoderId}/versions/{version}/activate", auth.AdminOrCompanyAdmin, a.activateCustom)
	r.API("POST /decoders/{decoderId}/switch-on", auth.AdminOrCompanyAdmin, a.switchOnCustom)
	r.API("GET /companies/{companyId}/decoders/limits", auth.AdminOrCompanyAdmin, a.getLimits)
	r.API("PUT /companies/{companyId}/decoders/limits", auth.SuperAdminOnly, a.putLimits)
	r.API("DELETE /companies/{companyId}/decoders/limits", auth.SuperAdminOnly, a.deleteLimits)
	a.deviceRoutes(r)
}

// prompt is the first entry of the list the client shows: an empty choice.
var prompt = decoders.Entry{Key: "", Name: ""}

// list answers GET /decoder, which fills the node forms' decoder choice:
// the empty prompt, then every decoder the company's nodes may use, by
// name. The company is the caller's own; a SuperAdmin names one with
// ?companyId= (else the built-in ones alone).
func (a *API) list(w http.ResponseWriter, r *http.Request) error {
	company, err := decoding.QueryCompany(r, false)
	if err != nil {
		return err
	}
	list, err := a.svc.Catalog(r.Context(), company)
	if err != nil {
		return err
	}
	return web.OK(w, append([]decoders.Entry{prompt}, list...))
}

// test answers POST /decoder/test: the codec runs under the limits of the
// caller's company (a SuperAdmin's ?companyId=), and whatever it does (a
// throw, a broken limit, a result of the wrong shape) is answered with 200
// and errors, so that a tool or the decoder page shows it.
func (a *API) test(w http.ResponseWriter, r *http.Request) error {
	company, err := decoding.QueryCompany(r, true)
	if err != nil {
		return err
	}
	var in decoding.TestInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	out, err := a.svc.RunTest(r.Context(), company, in)
	if err != nil {
		return err
	}
	res := decoders.TestResult{Data: out.Data, Warnings: out.Warnings, Errors: out.Errors, Log: out.Log, Micros: out.Duration.Microseconds()}
	for _, l := range []*[]string{&res.Warnings, &res.Errors, &res.Log} {
		if *l == nil {
			*l = []string{}
		}
	}
	return web.OK(w, res)
}

// pathVersion is the path's version number.
func pathVersion(r *http.Request) (int, error) {
	raw := r.PathValue("version")
	n, err := strconv.Atoi(raw)
	if err != nil || n <= 0 {
		return 0, errs.New(errs.Invalid, errs.IDBadID).With("id", raw)
	}
	return n, nil
}
