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
	msg, err := parse.ChirpStack(r.URL.Query().Get("event"), body, a.window())
	if err != nil {
		return err
	}
	return a.handle(r.Context(), w, company, msg)
}
