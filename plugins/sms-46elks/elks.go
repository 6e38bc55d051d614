package main

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/fieldhub/fieldhub/plugins/internal/smshttp"
	"github.com/fieldhub/fieldhub/sdk/sms"
)

// baseURLEnv names the variable that overrides the API's base URL.
const baseURLEnv = "SMS_46ELKS_URL"

// defaultSender is the from field when the settings name no sender.
const defaultSender = "Fieldhub"

// elks sends through 46elks. Its API takes no idempotency key, so it is
// not sms.Idempotent.
type elks struct{}

// answer is the part of 46elks' answer the plugin reads.
type answer struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

func (elks) Send(ctx context.Context, req sms.Request) (sms.Response, error) {
	user, pass := req.Credentials["username"], req.Credentials["password"]
	if user == "" || pass == "" {
		return sms.Response{}, sms.PluginFailed("46elks needs the API username and password in the SMS settings")
	}
	from := req.Sender
	if from == "" {
		from = defaultSender
	}
	form := url.Values{"from": {smshttp.E164(from)}, "to": {smshttp.E164(req.To)}, "message": {req.Text}}
	a, err := smshttp.PostForm(ctx, smshttp.BaseURL(baseURLEnv, "https://api.46elks.com")+"/a1/sms", user, pass, form)
	if err != nil {
		return sms.Response{}, err
	}
	if a.Status < 200 || a.Status > 299 {
		// 46elks explains an error in plain text.
		return sms.Response{}, smshttp.Refusal(a.Status, "", strings.TrimSpace(string(a.Body)))
	}
	var ans answer
	if err := json.Unmarshal(a.Body, &ans); err != nil || ans.ID == "" {
		// A 2xx means accepted, but the id to tell it by is missing.
		return sms.Response{}, sms.ProviderUnavailable("46elks answered without a message id", false)
	}
	return sms.Response{ID: ans.ID, Status: ans.Status}, nil
}
