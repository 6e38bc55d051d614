// Package sms is the contract between Fieldhub and an SMS provider plugin:
// a plugin is a program of its own that implements Provider and calls
// Serve from main; Fieldhub starts it with hashicorp/go-plugin over gRPC,
// hands it one message at a time and learns what the provider answered.
//
// A minimal plugin:
//
//	func main() { sms.Serve(myProvider{}) }
//
// The plugin receives everything it needs in each Request (the recipient,
// the text, the sender name, the company's credentials and an idempotency
// key) and keeps no state between requests. It reports failures with the
// errors of this package so that Fieldhub knows whether a retry is safe:
// see Error. Package smstest runs a provider through the real protocol in
// tests. The wire format is described in protocol.go; it needs no
// generated code.
package sms

import "context"

// Provider sends text messages through one SMS provider's API.
type Provider interface {
	// Send asks the provider to send one message and answers its id for
	// it. It honours ctx: Fieldhub cancels it when it gives up waiting. A
	// failure should be an *Error (ProviderRefused, ProviderUnavailable,
	// PluginFailed); any other error counts as the plugin's own failure,
	// with the message's fate unknown.
	Send(ctx context.Context, req Request) (Response, error)
}

// Request is one message to one recipient.
type Request struct {
	// To is the recipient's number in E.164 form, "+46700000000".
	To string `json:"to"`
	// Text is the message text.
	Text string `json:"text"`
	// Sender is who the message comes from: a text sender id or a number,
	// as the company's settings name it ("" when they name none).
	Sender string `json:"sender"`
	// Credentials are the provider's credentials from the company's (or
	// the installation's) settings, by the names the plugin documents
	// (the bundled plugins: username and password for 46elks, account_sid
	// and auth_token for Twilio).
	Credentials map[string]string `json:"credentials"`
	// IdempotencyKey is the same for every attempt to send this message to
	// this recipient. A provider whose API drops a repeated key (and says
	// so with Idempotent) must pass it on, so that a retry after a crash
	// never sends twice.
	IdempotencyKey string `json:"idempotencyKey"`
}

// Response is the provider's acceptance of a message.
type Response struct {
	// ID is the provider's id of the accepted message.
	ID string `json:"id"`
	// Status is the provider's status word ("created", "queued", ...),
	// kept for the log.
	Status string `json:"status,omitempty"`
}

// Idempotent is implemented by a provider whose API accepts
// Request.IdempotencyKey and drops a message whose key it has seen: then
// Fieldhub resends a message whose outcome a crash hid, knowing that the
// provider will not send it twice. A provider without it gets at most one
// more attempt after such a crash.
type Idempotent interface {
	Idempotent() bool
}

// Info is what a plugin tells about itself.
type Info struct {
	// Protocol is the ProtocolVersion the plugin was built with.
	Protocol int `json:"protocol"`
	// Idempotent tells whether the provider drops a repeated idempotency
	// key (see the Idempotent interface).
	Idempotent bool `json:"idempotent"`
}
