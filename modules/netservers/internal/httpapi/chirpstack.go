package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/modules/netservers/internal/parse"
)

// chirpStack answers POST /ingest/chirpstack?event=..., ChirpStack v4's
// HTTP integration with the JSON encoding.
func (a *API) chirpStack(w http.ResponseWriter, r *http.Request) error {
	company, body, err := a.begin(r)
	if err != nil {
		return err
	}
	msg, err := parse.ChirpStack(chirpStackEvent(r), body, a.window())
	if err != nil {
		return err
	}
	return a.handle(r.Context(), w, company, msg)
}

// chirpStackEvent is the event type of a ChirpStack request: the last
// event parameter, since ChirpStack appends its own to the address it was
// given, which may already carry one (pasted as ".../chirpstack?event=up").
func chirpStackEvent(r *http.Request) string {
	events := r.URL.Query()["event"]
	if len(events) == 0 {
		return ""
	}
	return events[len(events)-1]
}
