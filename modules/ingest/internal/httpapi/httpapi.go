// Package httpapi holds the ingest's JSON routes: the routes network
// servers and devices post to (chirpstack.go, tts.go, generic.go), each
// authenticated by an integration token rather than a session, and the
// routes of the re-decode jobs (redecode.go).
package httpapi

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/parse"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/redecode"
)

// Processor does what a message reports, for a company: the pipeline.
type Processor interface {
	Process(ctx context.Context, company int64, msg parse.Message) (*ingest.UplinkResult, error)
}

// API answers the JSON routes.
type API struct {
	tokens    ingest.Tokens
	processor Processor
	jobs      *redecode.Jobs // nil: no re-decode routes
	now       func() time.Time
}

// New returns the routes; jobs may be nil.
func New(tokens ingest.Tokens, processor Processor, jobs *redecode.Jobs) *API {
	return &API{tokens: tokens, processor: processor, jobs: jobs, now: time.Now}
}

// Routes registers the routes. The ingest routes are open as far as
// sessions go: each authenticates its caller by an integration token
// instead.
func (a *API) Routes(r *web.ModuleRoutes) {
	r.API("POST /ingest/chirpstack", auth.Open, a.chirpStack, web.MaxBody(ingest.MaxBody))
	r.API("POST /ingest/tts", auth.Open, a.tts, web.MaxBody(ingest.MaxBody))
	r.API("POST /ingest/generic", auth.Open, a.generic, web.MaxBody(ingest.MaxBody))
	if a.jobs != nil {
		r.API("GET /companies/{companyId}/redecode", auth.AdminOrCompanyAdmin, a.listJobs)
		r.API("POST /companies/{companyId}/redecode", auth.AdminOrCompanyAdmin, a.createJob)
		r.API("GET /redecode/{jobId}", auth.AdminOrCompanyAdmin, a.getJob)
		r.API("POST /redecode/{jobId}/cancel", auth.AdminOrCompanyAdmin, a.cancelJob)
	}
}

// begin authenticates the caller by the integration token of its
// Authorization header and reads the body. A missing, malformed or unknown
// token is the nodes module's 401, before the body is read.
func (a *API) begin(r *http.Request) (int64, []byte, error) {
	token := ""
	if scheme, rest, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") {
		token = strings.TrimSpace(rest)
	}
	company, err := a.tokens.TokenCompany(r.Context(), token)
	if err != nil {
		return 0, nil, err
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return 0, nil, fmt.Errorf("read ingest body: %w", err)
	}
	return company, body, nil
}

// handle does what msg reports, for the company of the token, and answers:
// 200 with the result of a stored uplink, 202 for one that went to the
// pool, 204 for other messages.
func (a *API) handle(ctx context.Context, w http.ResponseWriter, company int64, msg parse.Message) error {
	res, err := a.processor.Process(ctx, company, msg)
	switch {
	case err != nil:
		return err
	case res == nil:
		return web.NoContent(w)
	case res.Pooled:
		web.JSON(w, http.StatusAccepted, res)
		return nil
	}
	return web.OK(w, res)
}
