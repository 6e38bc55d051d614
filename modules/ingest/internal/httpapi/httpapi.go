// Package httpapi holds the ingest's JSON routes: those of the re-decode
// jobs (redecode.go) and the manual values of a node's keys (tagdata.go).
package httpapi

import (
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/redecode"
)

// API answers the JSON routes.
type API struct {
	jobs   *redecode.Jobs
	tags   ingest.Tags
	values ingest.Values
}

// New returns the routes of jobs, and of values written to the tags.
func New(jobs *redecode.Jobs, tags ingest.Tags, values ingest.Values) *API {
	return &API{jobs: jobs, tags: tags, values: values}
}

// Routes registers the routes.
func (a *API) Routes(r *web.ModuleRoutes) {
	r.Describe(docs)
	r.API("GET /companies/{companyId}/redecode", auth.AdminOrCompanyAdmin, a.listJobs)
	r.API("POST /companies/{companyId}/redecode", auth.AdminOrCompanyAdmin, a.createJob)
	r.API("GET /redecode/{jobId}", auth.AdminOrCompanyAdmin, a.getJob)
	r.API("POST /redecode/{jobId}/cancel", auth.AdminOrCompanyAdmin, a.cancelJob)
	r.API("POST /tag/{tagId}/tagdata", auth.AdminOrCompanyAdmin, a.writeTagData)
}
