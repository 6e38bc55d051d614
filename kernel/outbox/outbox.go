// Package outbox is the kernel's event for what the outboxes (kernel/mail,
// kernel/sms) do with each message: every attempt and its outcome is
// announced as an Attempt on the bus, and the logs module writes it (SMS,
// APP or ERROR). The kernel publishes, a module subscribes: the kernel
// never imports the logs module.
package outbox

import "time"

// The channels.
const (
	ChannelSMS  = "sms"
	ChannelMail = "mail"
	// ChannelForwarding is a forwarding target's queue (the forwarding
	// module): its one announced outcome is GaveUp, when failures in a
	// row switch the target off; MessageID is then the target's id, To
	// its name and Number the failures.
	ChannelForwarding = "forwarding"
)

// Outcome is what became of an attempt.
type Outcome string

const (
	// Sent: the provider (or mail server) accepted the message.
	Sent Outcome = "sent"
	// Retry: the attempt failed; another follows after a backoff.
	Retry Outcome = "retry"
	// GaveUp: the attempt failed and no other follows.
	GaveUp Outcome = "gaveUp"
	// Resumed: an earlier attempt was interrupted (the process ended
	// while it sent) and its outcome is unknown; this attempt sends again.
	Resumed Outcome = "resumed"
)

// Attempt is one attempt to deliver one outbox message.
type Attempt struct {
	Channel string
	// MessageID is the message's id in its outbox; 0 for a message sent
	// at once, outside the outbox (SendNow: a test message), whose one
	// attempt is Sent or GaveUp.
	MessageID int64
	// CompanyID is the company the message belongs to, 0 for the
	// installation.
	CompanyID int64
	To        []string
	// Number counts the attempts at this message, from 1.
	Number  int
	Outcome Outcome
	// ProviderID is the provider's id of an accepted SMS.
	ProviderID string
	// Error says why the attempt failed.
	Error string
	At    time.Time
}

// Topic names the event.
func (Attempt) Topic() string { return "outbox.attempt" }
