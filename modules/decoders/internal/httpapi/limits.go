package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/decoding"
)

// getLimits answers GET /companies/{companyId}/decoders/limits.
func (a *API) getLimits(w http.ResponseWriter, r *http.Request) error {
	company, err := a.svc.PathCompany(r, true)
	if err != nil {
		return err
	}
	v, err := a.svc.LimitsView(r.Context(), company)
	if err != nil {
		return err
	}
	return web.OK(w, v)
}

// putLimits answers PUT /companies/{companyId}/decoders/limits: a
// SuperAdmin sets a company's limits (a company cannot raise its own).
func (a *API) putLimits(w http.ResponseWriter, r *http.Request) error {
	company, err := a.svc.PathCompany(r, true)
	if err != nil {
		return err
	}
	var in decoding.LimitsInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	if err := a.svc.SetLimits(r.Context(), company, in); err != nil {
		return err
	}
	v, err := a.svc.LimitsView(r.Context(), company)
	if err != nil {
		return err
	}
	return web.OK(w, v)
}

// deleteLimits answers DELETE /companies/{companyId}/decoders/limits: the
// company has the installation's limits again.
func (a *API) deleteLimits(w http.ResponseWriter, r *http.Request) error {
	company, err := a.svc.PathCompany(r, true)
	if err != nil {
		return err
	}
	if err := a.svc.ResetLimits(r.Context(), company); err != nil {
		return err
	}
	v, err := a.svc.LimitsView(r.Context(), company)
	if err != nil {
		return err
	}
	return web.OK(w, v)
}
