package recorder

import (
	"context"
	"strings"

	kevents "github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/kernel/outbox"
	"github.com/fieldhub/fieldhub/modules/logs"
)

// outboxEntries maps a channel's outcomes to an entry's type and message.
var outboxEntries = map[string]map[outbox.Outcome]struct{ typ, id string }{
	outbox.ChannelSMS: {
		outbox.Sent:    {logs.TypeSMS, logs.IDEntrySMSSent},
		outbox.Retry:   {logs.TypeError, logs.IDEntrySMSRetry},
		outbox.GaveUp:  {logs.TypeError, logs.IDEntrySMSGaveUp},
		outbox.Resumed: {logs.TypeSMS, logs.IDEntrySMSResumed},
	},
	outbox.ChannelMail: {
		outbox.Sent:   {logs.TypeApp, logs.IDEntryMailSent},
		outbox.Retry:  {logs.TypeError, logs.IDEntryMailRetry},
		outbox.GaveUp: {logs.TypeError, logs.IDEntryMailGaveUp},
	},
	outbox.ChannelForwarding: {
		outbox.GaveUp: {logs.TypeError, logs.IDEntryForwardingOff},
	},
}

// sentNowEntries are those of a message sent at once, outside the outbox.
var sentNowEntries = map[string]map[outbox.Outcome]struct{ typ, id string }{
	outbox.ChannelSMS: {
		outbox.Sent:   {logs.TypeSMS, logs.IDEntrySMSSentNow},
		outbox.GaveUp: {logs.TypeError, logs.IDEntrySMSFailedNow},
	},
	outbox.ChannelMail: {
		outbox.Sent:   {logs.TypeApp, logs.IDEntryMailSentNow},
		outbox.GaveUp: {logs.TypeError, logs.IDEntryMailFailedNow},
	},
}

// onOutboxAttempt logs each attempt of the mail and SMS outboxes and its
// outcome, in the message's company (the installation's for none).
func (rec *Recorder) onOutboxAttempt(_ context.Context, ev kevents.Event) {
	a, ok := ev.(outbox.Attempt)
	if !ok {
		return
	}
	entries := outboxEntries
	if a.MessageID == 0 {
		entries = sentNowEntries
	}
	kind, ok := entries[a.Channel][a.Outcome]
	if !ok {
		return
	}
	args := map[string]any{"id": a.MessageID, "to": strings.Join(a.To, ", "), "attempt": a.Number}
	if a.ProviderID != "" {
		args["providerId"] = a.ProviderID
	}
	if a.Error != "" {
		args["error"] = a.Error
	}
	data := map[string]any{"kind": logs.KindOutbox, "channel": a.Channel, "outcome": string(a.Outcome)}
	for k, v := range args {
		data[k] = v
	}
	e := logs.Entry{Type: kind.typ, Message: rec.host.Catalogs.T(i18n.Default, kind.id, args), MessageID: kind.id, Data: data, CreatedAt: a.At}
	if a.CompanyID > 0 {
		e.CompanyID = &a.CompanyID
	}
	rec.Record(e)
}
