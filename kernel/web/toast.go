package web

import (
	"encoding/json"
	"net/http"
	"net/url"
)

// The snackbar shows success and error texts bottom right for 3000 ms. A
// handler asks for one with Toast. The text always travels in a short-lived
// cookie, which the next page reads and clears (an answer that redirects,
// HX-Redirect included, loads a new page); for htmx it also travels in the
// HX-Trigger header, and the page script clears the
// cookie when it shows the text in place.

// ToastCookie carries a message across a redirect.
const ToastCookie = "fieldhub_toast"

type toast struct {
	Level string `json:"level"`
	Text  string `json:"text"`
}

// Toast shows text in the snackbar; level is "success" or "error".
func Toast(w http.ResponseWriter, r *http.Request, level, text string) {
	if IsHTMX(r) {
		payload, _ := json.Marshal(map[string]toast{"fieldhub:toast": {Level: level, Text: text}})
		w.Header().Set("HX-Trigger", string(payload))
	}
	one, _ := json.Marshal(toast{Level: level, Text: text})
	// PathEscape, not QueryEscape: the page reads the cookie with
	// decodeURIComponent, which leaves a "+" as it is.
	http.SetCookie(w, &http.Cookie{Name: ToastCookie, Value: url.PathEscape(string(one)), Path: "/", MaxAge: 30, SameSite: http.SameSiteLaxMode})
}
