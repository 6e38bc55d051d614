package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/fieldhub/fieldhub/plugins/internal/smshttp"
	"github.com/fieldhub/fieldhub/sdk/sms"
)

// baseURLEnv names the variable that overrides the API's base URL.
const baseURLEnv = "SMS_TWILIO_URL"

// twilio sends through Twilio. Its Messages API takes no idempotency key,
// so it is not sms.Idempotent.
type twilio struct{}

// message is the part of a created Message the plugin reads.
type message struct {
	SID    string `json:"sid"`
	Status string `json:"status"`
}

// restError is Twilio's error body.
type restError struct {
	Code     int    `json:"code"`
	Message  string `json:"message"`
	MoreInfo string `json:"more_info"`
	Status   int    `json:"status"`
}

func (twilio) Send(ctx context.Context, req sms.Request) (sms.Response, error) {
	sid, token := req.Credentials["account_sid"], req.Credentials["auth_token"]
	if sid == "" || token == "" {
		return sms.Response{}, sms.PluginFailed("Twilio needs the account SID and auth token in the SMS settings")
	}
	if req.Sender == "" {
		return sms.Response{}, sms.PluginFailed("Twilio needs the sending number in the SMS settings")
	}
	form := url.Values{"To": {smshttp.E164(req.To)}, "From": {smshttp.E164(req.Sender)}, "Body": {req.Text}}
	u := smshttp.BaseURL(baseURLEnv, "https://api.twilio.com") + "/2010-04-01/Accounts/" + url.PathEscape(sid) + "/Messages.json"
	a, err := smshttp.PostForm(ctx, u, sid, token, form)
	if err != nil {
		return sms.Response{}, err
	}
	if a.Status < 200 || a.Status > 299 {
		var re restError
		code, text := "", strings.TrimSpace(string(a.Body))
		if json.Unmarshal(a.Body, &re) == nil && re.Message != "" {
			code, text = strconv.Itoa(re.Code), re.Message
		}
		if text == "" {
			text = http.StatusText(a.Status)
		}
		return sms.Response{}, smshttp.Refusal(a.Status, code, text)
	}
	var m message
	if err := json.Unmarshal(a.Body, &m); err != nil || m.SID == "" {
		return sms.Response{}, sms.ProviderUnavailable("Twilio answered without a message SID", false)
	}
	return sms.Response{ID: m.SID, Status: m.Status}, nil
}
