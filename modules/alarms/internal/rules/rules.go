// Package rules reads and checks the body of a rule as the routes and
// pages receive it, with SPEC.md's messages.
package rules

import (
	"context"
	"net/mail"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/alarms"
)

// Input is the body of POST /companies/{cid}/alarm and PUT
// /companies/{cid}/alarm/{id}. A field left out takes its default.
type Input struct {
	Name               string   `json:"name"`
	Priority           *int     `json:"priority"`
	AlarmDelay         *int     `json:"alarmDelay"`
	Active             *bool    `json:"active"`
	TagDataKey         string   `json:"tagDataKey"`
	Tag                int64    `json:"tag"`
	Message            string   `json:"message"`
	LimitHigh          *float64 `json:"limitHigh"`
	LimitLow           *float64 `json:"limitLow"`
	ContactType        *int     `json:"contactType"`
	AlarmContacts      []string `json:"alarmContacts"`
	ActiveDays         []int    `json:"activeDays"`
	SignalType         *int     `json:"signalType"`
	DigitalTrigger     *float64 `json:"digitalTrigger"`
	TriggerHigh        bool     `json:"triggerHigh"`
	TriggerLow         bool     `json:"triggerLow"`
	Advanced           bool     `json:"advanced"`
	Hysteresis         float64  `json:"hysteresis"`
	RenotifyInterval   int      `json:"renotifyInterval"`
	EscalateAfter      int      `json:"escalateAfter"`
	EscalationContacts []string `json:"escalationContacts"`
}

// TagOf answers the company of a node, errs.NotFound for none.
type TagOf func(ctx context.Context, id int64) (companyID int64, err error)

// Build checks in and returns the rule it describes for company, or an
// errs.Invalid error naming every bad field.
func Build(ctx context.Context, in Input, company int64, tagOf TagOf) (*alarms.Alarm, error) {
	v := &errs.Validation{}
	a := &alarms.Alarm{CompanyID: company, Name: strings.TrimSpace(in.Name), TagDataKey: strings.TrimSpace(in.TagDataKey),
		TagID: in.Tag, Message: strings.TrimSpace(in.Message), LimitHigh: in.LimitHigh, LimitLow: in.LimitLow,
		Priority: or(in.Priority, alarms.PriorityA), AlarmDelay: or(in.AlarmDelay, 0), Active: in.Active == nil || *in.Active,
		ContactType: or(in.ContactType, alarms.ContactBoth), SignalType: or(in.SignalType, alarms.SignalAnalog),
		DigitalTrigger: 1, TriggerHigh: in.TriggerHigh, TriggerLow: in.TriggerLow, Advanced: in.Advanced,
		Hysteresis: in.Hysteresis, RenotifyInterval: in.RenotifyInterval, EscalateAfter: in.EscalateAfter, Armed: true}
	if in.DigitalTrigger != nil {
		a.DigitalTrigger = *in.DigitalTrigger
	}
	text("name", a.Name, alarms.MaxName, true, v)
	text("tagDataKey", a.TagDataKey, alarms.MaxName, true, v)
	text("message", a.Message, alarms.MaxMessage, false, v)
	if a.TagID <= 0 {
		v.Add("tag", errs.IDRequired)
	} else if c, err := tagOf(ctx, a.TagID); err != nil || c != company {
		if err != nil && !errs.Is(err, errs.NotFound) {
			return nil, err
		}
		v.Add("tag", alarms.IDTagUnknown)
	}
	if a.Priority < alarms.PriorityA || a.Priority > alarms.PriorityC {
		v.Add("priority", alarms.IDPriorityInvalid)
	}
	if a.ContactType < alarms.ContactSMS || a.ContactType > alarms.ContactBoth {
		v.Add("contactType", alarms.IDContactTypeInvalid)
	} else if e, s := alarms.Channels(a.Priority, a.ContactType); !v.Has("priority") && !e && !s {
		v.Add("contactType", alarms.IDChannelsNone)
	}
	if a.AlarmDelay < 0 || a.AlarmDelay > 10080 {
		v.Add("alarmDelay", alarms.IDDelayInvalid)
	}
	a.ActiveDays = days(in.ActiveDays, v)
	switch a.SignalType {
	case alarms.SignalAnalog:
		switch {
		case a.LimitHigh == nil && a.LimitLow == nil:
			v.Add("limitHigh", errs.IDRequired)
		case a.LimitHigh != nil && a.LimitLow != nil && *a.LimitLow >= *a.LimitHigh:
			v.Add("limitLow", alarms.IDLimitsOrder)
		}
	case alarms.SignalDigital:
		if !a.TriggerHigh && !a.TriggerLow {
			v.Add("triggerHigh", alarms.IDTriggerRequired)
		}
	default:
		v.Add("signalType", alarms.IDSignalTypeInvalid)
	}
	a.AlarmContacts = Contacts("alarmContacts", in.AlarmContacts, v)
	a.EscalationContacts = Contacts("escalationContacts", in.EscalationContacts, v)
	if len(a.AlarmContacts) == 0 && !v.Has("alarmContacts") {
		v.Add("alarmContacts", errs.IDRequired)
	}
	if a.Hysteresis < 0 {
		v.Add("hysteresis", alarms.IDNumberInvalid)
	}
	if a.RenotifyInterval < 0 || a.RenotifyInterval > 10080 {
		v.Add("renotifyInterval", alarms.IDNumberInvalid)
	}
	if a.EscalateAfter < 0 || a.EscalateAfter > 10080 {
		v.Add("escalateAfter", alarms.IDNumberInvalid)
	} else if a.Advanced && a.EscalateAfter > 0 && len(a.EscalationContacts) == 0 && !v.Has("escalationContacts") {
		v.Add("escalationContacts", errs.IDRequired)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return a, nil
}

func or(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// text checks a text field: required, and at most max characters.
func text(field, s string, max int, required bool, v *errs.Validation) {
	switch {
	case required && s == "":
		v.Add(field, errs.IDRequired)
	case utf8.RuneCountInString(s) > max && max == alarms.MaxName:
		v.Add(field, errs.IDMaxChars255)
	case utf8.RuneCountInString(s) > max:
		v.Add(field, errs.IDTooLong)
	}
}

// days checks activeDays: left out, every day; else 0 (sunday) to 6, at
// least one, each once, in order.
func days(in []int, v *errs.Validation) []int {
	if in == nil {
		return []int{0, 1, 2, 3, 4, 5, 6}
	}
	out := []int{}
	for _, d := range in {
		if d < 0 || d > 6 {
			v.Add("activeDays", alarms.IDDayInvalid)
			return out
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		v.Add("activeDays", errs.IDRequired)
	}
	slices.Sort(out)
	return out
}

// Contacts checks a list of contacts: e-mail addresses, and phone numbers
// with their country code (SPEC.md section 5), stored normalised.
func Contacts(field string, in []string, v *errs.Validation) []string {
	out := []string{}
	if len(in) > alarms.MaxContacts {
		v.Add(field, alarms.IDTooManyContacts)
		return out
	}
	for _, c := range in {
		c = strings.TrimSpace(c)
		switch {
		case c == "":
			continue
		case strings.Contains(c, "@"):
			if addr, err := mail.ParseAddress(c); err != nil || addr.Address != c || len(c) > 255 {
				v.AddArgs(field, alarms.IDEmailInvalid, map[string]any{"contact": c})
				return out
			}
			out = append(out, c)
		default:
			p := alarms.NormalisePhone(c)
			if !alarms.ValidPhone(p) {
				v.AddArgs(field, alarms.IDPhoneCountryCode, map[string]any{"contact": c})
				return out
			}
			out = append(out, p)
		}
	}
	return out
}
