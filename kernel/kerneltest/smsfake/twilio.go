package smsfake

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Twilio is a double of Twilio's POST
// /2010-04-01/Accounts/{AccountSid}/Messages.json.
type Twilio struct {
	*double
	AccountSID, AuthToken string
}

// NewTwilio starts a Twilio double for one account.
func NewTwilio(t testing.TB, accountSID, authToken string) *Twilio {
	tw := &Twilio{AccountSID: accountSID, AuthToken: authToken}
	tw.double = newDouble(t, tw.serve)
	return tw
}

func (tw *Twilio) serve(d *double, w http.ResponseWriter, r *http.Request) {
	const prefix, suffix = "/2010-04-01/Accounts/", "/Messages.json"
	sid, found := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, prefix), suffix)
	if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, prefix) || !found {
		twilioError(w, http.StatusNotFound, 20404, "The requested resource "+r.URL.Path+" was not found")
		return
	}
	user, pass, ok := r.BasicAuth()
	if !ok || user != tw.AccountSID || pass != tw.AuthToken || sid != tw.AccountSID {
		twilioError(w, http.StatusUnauthorized, 20003, "Authenticate")
		return
	}
	if err := r.ParseForm(); err != nil {
		twilioError(w, http.StatusBadRequest, 20001, "Bad request")
		return
	}
	s := SMS{From: r.PostForm.Get("From"), To: r.PostForm.Get("To"), Text: r.PostForm.Get("Body")}
	n := d.record(s)
	d.hold(n)
	switch {
	case !e164.MatchString(s.To):
		twilioError(w, http.StatusBadRequest, 21211, "The 'To' number "+s.To+" is not a valid phone number.")
		return
	case s.Text == "":
		twilioError(w, http.StatusBadRequest, 21602, "Message body is required.")
		return
	case !e164.MatchString(s.From):
		twilioError(w, http.StatusBadRequest, 21606, "The From phone number "+s.From+" is not a valid, SMS-capable inbound phone number or short code for your account.")
		return
	}
	id := "SM" + hexID(16)
	now := time.Now().UTC().Format(time.RFC1123Z)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"account_sid":           tw.AccountSID,
		"api_version":           "2010-04-01",
		"body":                  s.Text,
		"date_created":          now,
		"date_sent":             nil,
		"date_updated":          now,
		"direction":             "outbound-api",
		"error_code":            nil,
		"error_message":         nil,
		"from":                  s.From,
		"messaging_service_sid": nil,
		"num_media":             "0",
		"num_segments":          "1",
		"price":                 nil,
		"price_unit":            "USD",
		"sid":                   id,
		"status":                "queued",
		"subresource_uris":      map[string]string{"media": prefix + tw.AccountSID + "/Messages/" + id + "/Media.json"},
		"to":                    s.To,
		"uri":                   prefix + tw.AccountSID + "/Messages/" + id + ".json",
	})
	d.accept(n, id)
}

func twilioError(w http.ResponseWriter, status, code int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"code": code, "message": message, "more_info": "https://www.twilio.com/docs/errors/" + strconv.Itoa(code), "status": status,
	})
}
