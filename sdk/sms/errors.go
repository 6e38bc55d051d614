package sms

import (
	"errors"
	"fmt"
)

// Party names who failed.
type Party string

const (
	// PartyPlugin: the plugin itself failed (a bug, a crash, a missing
	// credential it cannot work without, a broken connection to it).
	PartyPlugin Party = "plugin"
	// PartyProvider: the provider refused the message or could not be reached.
	PartyProvider Party = "provider"
)

// Error is a failure to send, as the plugin and Fieldhub tell it to each
// other.
type Error struct {
	// Party is who failed.
	Party Party `json:"party"`
	// Code is the provider's own code or HTTP status ("401", "21211"),
	// when it gave one.
	Code string `json:"code,omitempty"`
	// Message says what happened, for the log; it never holds credentials.
	Message string `json:"message"`
	// NotSent is true when the provider surely did not accept the message
	// (it answered with a refusal, or the request never left): a retry
	// cannot send it twice. False means the message may have gone out.
	NotSent bool `json:"notSent"`
	// Temporary is true when a later attempt may succeed (the provider was
	// unreachable, overloaded or rate-limited); false for a refusal that
	// will stand until someone changes something (bad credentials, an
	// invalid number).
	Temporary bool `json:"temporary"`
}

func (e *Error) Error() string {
	s := string(e.Party) + " failed"
	if e.Code != "" {
		s += " (" + e.Code + ")"
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// ProviderRefused is the provider's answer that it will not send the
// message (bad credentials, an invalid number): it did not accept it.
// temporary tells whether the same request may succeed later (a rate
// limit, a provider's own outage answered with an error status).
func ProviderRefused(code, message string, temporary bool) *Error {
	return &Error{Party: PartyProvider, Code: code, Message: message, NotSent: true, Temporary: temporary}
}

// ProviderUnavailable is a failure to reach the provider or to read its
// answer. notSent tells whether the request surely never reached it (the
// connection was refused); otherwise the provider may have accepted the
// message.
func ProviderUnavailable(message string, notSent bool) *Error {
	return &Error{Party: PartyProvider, Message: message, NotSent: notSent, Temporary: true}
}

// PluginFailed is the plugin's own failure before it asked the provider
// anything, so the message was not sent (a missing credential, a request
// it cannot make).
func PluginFailed(format string, args ...any) *Error {
	return &Error{Party: PartyPlugin, Message: fmt.Sprintf(format, args...), NotSent: true}
}

// AsError returns err as an *Error: itself when it is one (or wraps one),
// else a plugin failure whose outcome is unknown.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Party: PartyPlugin, Message: err.Error(), Temporary: true}
}
