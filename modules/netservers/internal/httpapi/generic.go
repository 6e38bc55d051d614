package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/modules/netservers/internal/parse"
)

// generic answers POST /ingest/generic, Fieldhub's own form.
func (a *API) generic(w http.ResponseWriter, r *http.Request) error {
	company, body, err := a.begin(r)
	if err != nil {
		return err
	}
	msg, err := parse.Generic(body, a.window())
	if err != nil {
		return err
	}
	return a.handle(r.Context(), w, company, msg)
}
