package smsfake

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Elks is a double of 46elks' POST /a1/sms.
type Elks struct {
	*double
	Username, Password string
}

// The 46elks text sender id: letters and digits, 3 to 11, not starting
// with a digit (EXTERNAL-APIS.md: the fake's rule).
var elksSenderID = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]{2,10}$`)

// NewElks starts a 46elks double that accepts username and password.
func NewElks(t testing.TB, username, password string) *Elks {
	e := &Elks{Username: username, Password: password}
	e.double = newDouble(t, e.serve)
	return e
}

func (e *Elks) serve(d *double, w http.ResponseWriter, r *http.Request) {
	// The docs spell the path /a1/sms and /a1/SMS.
	if r.Method != http.MethodPost || !strings.EqualFold(r.URL.Path, "/a1/sms") {
		plain(w, http.StatusNotFound, "Not found")
		return
	}
	user, pass, ok := r.BasicAuth()
	if !ok || user != e.Username || pass != e.Password {
		w.Header().Set("Www-Authenticate", `Basic realm="46elks API"`)
		plain(w, http.StatusUnauthorized, "API access require proper Basic HTTP authentication. Read documentation or examples.")
		return
	}
	if err := r.ParseForm(); err != nil {
		plain(w, http.StatusForbidden, "Invalid request")
		return
	}
	s := SMS{From: r.PostForm.Get("from"), To: r.PostForm.Get("to"), Text: r.PostForm.Get("message")}
	n := d.record(s)
	d.hold(n)
	switch {
	case !e164.MatchString(s.To):
		plain(w, http.StatusForbidden, "Invalid to number")
		return
	case !elksSenderID.MatchString(s.From) && !e164.MatchString(s.From):
		plain(w, http.StatusForbidden, "Invalid from")
		return
	case s.Text == "":
		plain(w, http.StatusForbidden, "Missing key message")
		return
	}
	id := "s" + hexID(16)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"status": "created", "direction": "outgoing", "from": s.From, "to": s.To, "message": s.Text,
		"created": time.Now().UTC().Format("2006-01-02T15:04:05.000000"), "parts": 1, "cost": 3500, "id": id,
	})
	d.accept(n, id)
}

func plain(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(text))
}
