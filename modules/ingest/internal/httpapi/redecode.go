package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/redecode"
)

// listJobs answers GET /companies/{companyId}/redecode[?decoder=key]: the
// company's last jobs, newest first.
func (a *API) listJobs(w http.ResponseWriter, r *http.Request) error {
	company, err := a.jobs.PathCompany(r)
	if err != nil {
		return err
	}
	list, err := a.jobs.List(r.Context(), company, r.URL.Query().Get("decoder"))
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

// createJob answers POST /companies/{companyId}/redecode.
func (a *API) createJob(w http.ResponseWriter, r *http.Request) error {
	company, err := a.jobs.PathCompany(r)
	if err != nil {
		return err
	}
	var in redecode.Input
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	j, err := a.jobs.Create(r.Context(), company, in)
	if err != nil {
		return err
	}
	return web.Created(w, j)
}

// getJob answers GET /redecode/{jobId}: the job with its progress.
func (a *API) getJob(w http.ResponseWriter, r *http.Request) error {
	j, err := a.jobs.PathJob(r)
	if err != nil {
		return err
	}
	return web.OK(w, j)
}

// cancelJob answers POST /redecode/{jobId}/cancel: a queued or running job
// stops after the batch under way (what it stored stays).
func (a *API) cancelJob(w http.ResponseWriter, r *http.Request) error {
	j, err := a.jobs.PathJob(r)
	if err != nil {
		return err
	}
	if err := a.jobs.Cancel(r.Context(), j); err != nil {
		return err
	}
	if j, err = a.jobs.Job(r.Context(), j.ID); err != nil {
		return err
	}
	return web.OK(w, j)
}
