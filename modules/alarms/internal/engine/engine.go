// Package engine evaluates the alarm rules: on every stored uplink (the
// ingest's UplinkReceived, in commit order), in the sweep job (delays that
// pass without a new uplink, re-notification, escalation) and in the
// inactivity job. A firing, its history entry, its mail and SMS outbox rows
// and its notification are written in one transaction, under the rule's
// row lock, so that it happens once across instances.
package engine

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/mail"
	"github.com/fieldhub/fieldhub/kernel/sms"
	"github.com/fieldhub/fieldhub/modules/alarms"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/store"
)

// Deps is what the engine works with.
type Deps struct {
	Config   alarms.Config
	Accounts alarms.Accounts
	Tags     alarms.Tags
	Settings alarms.Settings
	Notifier alarms.Notifier
}

// Engine evaluates rules and sends what their firings say.
type Engine struct {
	db   *bun.DB
	mail *mail.Outbox
	sms  *sms.Outbox
	deps Deps
	log  *slog.Logger
	// rules are the active rules by node (rulecache.go).
	rules ruleCache
	// unwritten are the evaluations Flush writes (flush.go).
	unwritten unwritten
	// queued counts the sends into the outboxes, for inTx's wake.
	queued atomic.Int64
}

// New returns the engine on the host's database and outboxes.
func New(host *kernel.Host, deps Deps) *Engine {
	return &Engine{db: host.DB, mail: host.Mail, sms: host.SMS, deps: deps, log: host.Logger("alarms")}
}

// node names a rule's node in its messages.
type node struct{ name, deveui string }

// number reads a stored value: float64 for numbers and booleans.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// Evaluate takes value v of rule id's key at time at, under the rule's
// lock: it updates the rule's state and fires it when its condition has
// held for its delay on one of its days. A value older than the last one
// evaluated is ignored, so that a catch-up never undoes a newer state.
func (e *Engine) Evaluate(ctx context.Context, id int64, v float64, at time.Time, n node) error {
	return e.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		a, err := store.Lock(ctx, tx, id)
		if errs.Is(err, errs.NotFound) {
			return nil // deleted since the batch read it
		}
		if err != nil || !a.Active {
			return err
		}
		if a.EvaluatedAt != nil && at.Before(*a.EvaluatedAt) {
			return nil
		}
		at := at.UTC()
		a.EvaluatedAt, a.LastValue = &at, &v
		if e.step(a, v, at) {
			if err := e.fire(ctx, tx, a, v, at, n); err != nil {
				return err
			}
		}
		if a.OpenEventID != nil && a.Classify(v, a.DigitalState) == alarms.Normal {
			if err := store.ClearEvent(ctx, tx, *a.OpenEventID, at); err != nil {
				return err
			}
		}
		return store.SaveState(ctx, tx, a)
	})
}

// step moves a rule's state by one value and reports whether its
// condition has now held for its delay.
func (e *Engine) step(a *alarms.Alarm, v float64, at time.Time) bool {
	if a.OnChange() && a.DigitalState == nil {
		d := a.Digital(v) // the first level seen is the baseline of a change
		a.DigitalState = &d
		return false
	}
	switch a.Classify(v, a.DigitalState) {
	case alarms.Normal:
		a.PendingSince, a.Armed = nil, true
		return false
	case alarms.Band:
		a.PendingSince = nil
		return false
	}
	if !a.Armed || a.OpenEventID != nil {
		return false
	}
	if a.PendingSince == nil {
		a.PendingSince = &at
	}
	return !at.Before(a.PendingSince.Add(e.delay(a.AlarmDelay)))
}

// delay is a number of the rules' time units.
func (e *Engine) delay(units int) time.Duration {
	return time.Duration(units) * e.deps.Config.DelayUnit
}

// fire opens a firing of rule a in tx, unless at is not one of its days
// (the condition then stays pending): the history entry, the mail and SMS
// to its contacts, the notification of the company's users.
func (e *Engine) fire(ctx context.Context, tx bun.Tx, a *alarms.Alarm, v float64, at time.Time, n node) error {
	company, err := e.deps.Accounts.Company(ctx, a.CompanyID)
	if err != nil {
		return fmt.Errorf("company of alarm %d: %w", a.ID, err)
	}
	loc := company.Location()
	if !a.ActiveOn(at, loc) {
		return nil
	}
	text := alarms.Render(a.Message, alarms.Facts{Alarm: a.Name, Node: n.name, DevEUI: n.deveui, Key: a.TagDataKey, Value: v, Time: at, Zone: loc})
	channels, err := e.send(ctx, tx, a, a.AlarmContacts, "Alarm: "+a.Name, text)
	if err != nil {
		return err
	}
	ev := &alarms.Event{AlarmID: a.ID, CompanyID: a.CompanyID, TagID: a.TagID, Name: a.Name, TagDataKey: a.TagDataKey, Value: v,
		MessageSent: text, Channels: channels, TriggeredAt: at, NotifiedAt: at, NotifyCount: 1}
	if err := store.InsertEvent(ctx, tx, ev); err != nil {
		return err
	}
	if e.deps.Notifier != nil {
		note := alarms.Notification{Label: a.Name, Message: text, Route: "/alarm/active"}
		if err := e.deps.Notifier.NotifyCompany(ctx, tx, a.CompanyID, note); err != nil {
			return fmt.Errorf("notify of alarm %d: %w", a.ID, err)
		}
	}
	a.OpenEventID, a.Armed, a.PendingSince = &ev.ID, false, nil
	if a.OnChange() {
		d := a.Digital(v)
		a.DigitalState = &d
	}
	return nil
}

// inTx runs fn in a transaction and, when fn queued mail or SMS (send)
// and the transaction committed, wakes the outboxes: their own wake in
// Enqueue comes before the commit, and the message would wait for their
// next tick (docs/performance.md, "Firing to provider request"). A
// concurrent transaction's send may cause a spare wake, never a missed one.
func (e *Engine) inTx(ctx context.Context, fn func(ctx context.Context, tx bun.Tx) error) error {
	before := e.queued.Load()
	if err := e.db.RunInTx(ctx, nil, fn); err != nil {
		return err
	}
	if e.queued.Load() != before {
		e.mail.Wake()
		e.sms.Wake()
	}
	return nil
}

// send queues text to contacts on the channels of a's priority and contact
// type, in tx, and names the channels used ("email,sms").
func (e *Engine) send(ctx context.Context, tx bun.IDB, a *alarms.Alarm, contacts []string, subject, text string) (string, error) {
	wantMail, wantSMS := alarms.Channels(a.Priority, a.ContactType)
	emails, phones := alarms.SplitContacts(contacts)
	var used []string
	e.queued.Add(1)
	if wantMail && len(emails) > 0 {
		if err := e.mail.Enqueue(ctx, tx, mail.Message{To: emails, Subject: subject, Text: text}); err != nil {
			return "", err
		}
		used = append(used, "email")
	}
	if wantSMS && len(phones) > 0 {
		if err := e.sms.Enqueue(ctx, tx, sms.Message{CompanyID: a.CompanyID, To: phones, Text: text}); err != nil {
			return "", err
		}
		used = append(used, "sms")
	}
	return strings.Join(used, ","), nil
}
