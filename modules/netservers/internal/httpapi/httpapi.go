// Package httpapi holds the netservers module's JSON routes: those network
// servers and devices post to (chirpstack.go, tts.go, generic.go), each
// authenticated by an integration token rather than a session, and those
// of the downlink queue (downlinks.go).
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
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/dispatch"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/parse"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/queue"
)

// API answers the JSON routes.
type API struct {
	tokens     netservers.Tokens
	dispatcher *dispatch.Dispatcher
	queue      *queue.Queue
	now        func() time.Time
	// maxAge is how far back a message's time may lie.
	maxAge time.Duration
}

// New returns the routes; a message's time may lie up to maxAge back.
func New(tokens netservers.Tokens, dispatcher *dispatch.Dispatcher, queue *queue.Queue, maxAge time.Duration) *API {
	return &API{tokens: tokens, dispatcher: dispatcher, queue: queue, now: time.Now, maxAge: maxAge}
}

// window is when the time of a message arriving now may lie.
func (a *API) window() parse.Window { return parse.Window{Now: a.now(), MaxAge: a.maxAge} }

// Routes registers the routes. The ingest routes are open as far as
// sessions go: each authenticates its caller by an integration token
// instead, as the API documentation says.
func (a *API) Routes(r *web.ModuleRoutes) {
	r.Describe(docs)
	ingest := []web.RouteOption{web.MaxBody(netservers.MaxBody), web.AuthenticatedBy(netservers.IDIntegrationToken)}
	r.API("POST /ingest/chirpstack", auth.Open, a.chirpStack, ingest...)
	r.API("POST /ingest/tts", auth.Open, a.tts, ingest...)
	r.API("POST /ingest/generic", auth.Open, a.generic, ingest...)
	a.downlinkRoutes(r)
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
	res, err := a.dispatcher.Dispatch(ctx, company, msg)
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
