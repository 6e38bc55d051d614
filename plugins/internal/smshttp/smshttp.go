// Package smshttp is what the bundled SMS plugins share: posting a form to
// a provider's HTTP API and telling, from how a request failed, whether
// the provider can have accepted the message.
package smshttp

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/sdk/sms"
)

// Client posts to a provider. Requests time out after 30 s unless ctx ends
// sooner.
var Client = &http.Client{Timeout: 30 * time.Second}

// BaseURL is the provider's base URL: the environment variable env (which
// the portal passes on, so that tests point a plugin at a double of the
// provider), else def.
func BaseURL(env, def string) string {
	if v := strings.TrimRight(os.Getenv(env), "/"); v != "" {
		return v
	}
	return def
}

// Answer is the provider's answer: its status and body (at most 64 KiB).
type Answer struct {
	Status int
	Body   []byte
}

// PostForm posts form to u with basic auth and returns the answer. A
// failure to get one is an *sms.Error of the provider that tells whether
// the request can have reached it.
func PostForm(ctx context.Context, u, user, password string, form url.Values) (Answer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(form.Encode()))
	if err != nil {
		return Answer{}, sms.PluginFailed("make the request: %v", err)
	}
	req.SetBasicAuth(user, password)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	res, err := Client.Do(req)
	if err != nil {
		return Answer{}, sms.ProviderUnavailable(describe(err), neverLeft(err))
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	if err != nil {
		// The provider answered; only its body was lost.
		return Answer{}, sms.ProviderUnavailable("read the answer: "+err.Error(), res.StatusCode >= 400)
	}
	return Answer{Status: res.StatusCode, Body: body}, nil
}

// neverLeft reports whether the request surely never reached the provider:
// the connection could not be made.
func neverLeft(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns)
}

// describe says what failed without the URL (which holds no secret, but
// the log entry is shorter without it).
func describe(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return "no answer in time: " + err.Error()
	}
	return err.Error()
}

// Refusal turns an error status into the provider's refusal. Rate limits
// and a provider that is unavailable (502, 503, 504) refused for now;
// another 5xx leaves it open whether the message was taken; any 4xx is a
// refusal that stands until something changes.
func Refusal(status int, code, message string) *sms.Error {
	if code == "" {
		code = strconv.Itoa(status)
	}
	switch {
	case status == http.StatusTooManyRequests || status == http.StatusBadGateway || status == http.StatusServiceUnavailable || status == http.StatusGatewayTimeout:
		return sms.ProviderRefused(code, message, true)
	case status >= 500:
		e := sms.ProviderUnavailable(message, false)
		e.Code = code
		return e
	}
	return sms.ProviderRefused(code, message, false)
}

// E164 makes a number E.164: digits with their country code get a "+".
func E164(number string) string {
	number = strings.TrimSpace(number)
	if number != "" && !strings.HasPrefix(number, "+") && strings.Trim(number, "0123456789") == "" {
		return "+" + number
	}
	return number
}
