// Package sms queues text messages in an outbox: a module enqueues a message
// in the same transaction as the fact that caused it (an alarm that fired),
// so a message the portal decided to send survives a crash. Run delivers
// them through the Sender (the SMS provider plugins' host, kernel/sms/host),
// one recipient at a time, with retries and backoff, and announces each
// attempt as an outbox.Attempt. The provider and its credentials come from
// the settings through a Resolver, which the application wires in.
package sms

import (
	"context"
	"errors"
)

// Message is one text to one or more phone numbers.
type Message struct {
	// CompanyID is the company whose SMS settings send the message; 0
	// sends it with the installation's global settings.
	CompanyID int64
	// To are phone numbers with country code, digits only (4670xxxxxxx).
	To   []string
	Text string
	// IdempotencyKey is the same for every attempt at this message to
	// this recipient; the outbox sets it (one recipient per Send) and a
	// provider that honours it drops a repeat. SendNow leaves it "".
	IdempotencyKey string
}

// Sender delivers one message now through the SMS provider that the
// message's company (or the installation) has chosen, and answers the
// provider's id of the accepted message (ids joined by "," for several
// recipients).
type Sender interface {
	Send(ctx context.Context, m Message) (providerID string, err error)
}

// Deduper is implemented by a Sender that knows whether the provider of a
// company's messages drops a repeated IdempotencyKey. The outbox resends a
// message whose outcome a crash hid; without a provider that dedupes, it
// does so at most once.
type Deduper interface {
	Dedupes(ctx context.Context, companyID int64) (bool, error)
}

// Route is how one company's messages go out.
type Route struct {
	// Provider is the SMS_PROVIDER setting: "46elks", "twilio" (the
	// plugin sms-<Provider> sends); "" when none is chosen.
	Provider string
	// Sender is the sender name or number the provider shows.
	Sender string
	// Credentials are the provider's credentials by the names its plugin
	// reads (46elks: username, password; Twilio: account_sid, auth_token).
	Credentials map[string]string
}

// Resolver answers the route of a company's messages (companyID 0: the
// installation's): the company's own provider when it chose one, else the
// global settings'. The application builds it from the settings module.
type Resolver func(ctx context.Context, companyID int64) (Route, error)

// ErrNoProvider is the answer while no provider can send.
var ErrNoProvider = errors.New("no SMS provider is configured")
