package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/modules/netservers/internal/parse"
)

// tts answers POST /ingest/tts, a webhook of The Things Stack v3.
func (a *API) tts(w http.ResponseWriter, r *http.Request) error {
	company, body, err := a.begin(r)
	if err != nil {
		return err
	}
	msg, err := parse.TTS(body, a.window())
	if err != nil {
		return err
	}
	return a.handle(r.Context(), w, company, msg)
}
