// Package httpapi holds the ingest's JSON routes: those of the re-decode
// jobs (redecode.go).
package httpapi

import (
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/redecode"
)

// API answers the JSON routes.
type API struct {
	jobs *redecode.Jobs
}

// New returns the routes of jobs.
func New(jobs *redecode.Jobs) *API { return &API{jobs: jobs} }

// Routes registers the routes.
func (a *API) Routes(r *web.ModuleRoutes) {
	r.Describe(docs)
	r.API("GET /companies/{companyId}/redecode", auth.AdminOrCompanyAdmin, a.listJobs)
	r.API("POST /companies/{companyId}/redecode", auth.AdminOrCompanyAdmin, a.createJob)
	r.API("GET /redecode/{jobId}", auth.AdminOrCompanyAdmin, a.getJob)
	r.API("POST /redecode/{jobId}/cancel", auth.AdminOrCompanyAdmin, a.cancelJob)
}
