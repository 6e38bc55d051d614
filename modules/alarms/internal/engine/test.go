package engine

import (
	"context"
	"errors"

	"github.com/fieldhub/fieldhub/kernel/mail"
	"github.com/fieldhub/fieldhub/kernel/sms"
	"github.com/fieldhub/fieldhub/modules/alarms"
)

// SendTest sends text now, outside the outboxes, on each channel that a's
// priority and contact type choose, to the contacts of that kind, and
// answers what became of it on each channel: the answer of POST
// /alarms/setting/test.
func (e *Engine) SendTest(ctx context.Context, a *alarms.Alarm, text string) alarms.TestResult {
	wantMail, wantSMS := alarms.Channels(a.Priority, a.ContactType)
	emails, phones := alarms.SplitContacts(a.AlarmContacts)
	out := alarms.TestResult{Message: text,
		Email: alarms.ChannelResult{Status: alarms.OutcomeSkipped, To: nonNil(emails)},
		SMS:   alarms.ChannelResult{Status: alarms.OutcomeSkipped, To: nonNil(phones)}}
	switch {
	case !wantMail:
		out.Email.Error = alarms.IDTestNotChannel
	case len(emails) == 0:
		out.Email.Error = alarms.IDTestNoContact
	default:
		if err := e.mail.SendNow(ctx, mail.Message{To: emails, Subject: "Test: " + a.Name, Text: text}); err != nil {
			out.Email = alarms.ChannelResult{Status: alarms.OutcomeFailed, To: emails, Error: alarms.IDTestFailed, Detail: err.Error()}
		} else {
			out.Email.Status = alarms.OutcomeSent
		}
	}
	switch {
	case !wantSMS:
		out.SMS.Error = alarms.IDTestNotChannel
	case len(phones) == 0:
		out.SMS.Error = alarms.IDTestNoContact
	default:
		id, err := e.sms.SendNow(ctx, sms.Message{CompanyID: a.CompanyID, To: phones, Text: text})
		switch {
		case errors.Is(err, sms.ErrNoProvider):
			out.SMS = alarms.ChannelResult{Status: alarms.OutcomeFailed, To: phones, Error: alarms.IDTestNoProvider, Detail: err.Error()}
		case err != nil:
			out.SMS = alarms.ChannelResult{Status: alarms.OutcomeFailed, To: phones, Error: alarms.IDTestFailed, Detail: err.Error()}
		default:
			out.SMS.Status, out.SMS.ProviderID = alarms.OutcomeSent, id
		}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
