// Package alarms is the contract of the alarms module: alarm rules on a
// node's data key, their evaluation on every stored uplink, their firings
// (the history) with acknowledgement, the inactivity alarm, and the routes
// of SPEC.md section 7 "Alarms" (docs/api/alarms.md describes them).
//
// A rule watches one key of one node. An analog rule (signalType 0) holds
// while the value is above limitHigh or below limitLow; a digital rule
// (signalType 1) reads a value at or above digitalTrigger as high and holds
// while the signal is high (triggerHigh), low (triggerLow), or, with both,
// fires on every change of level. The condition must hold for alarmDelay
// units (FIELDHUB_ALARM_DELAY_UNIT, a minute) before the rule fires, on a
// day of activeDays in the company's time zone. A firing opens a history
// entry, mails and/or texts the contacts in the same transaction (priority
// A both, B SMS only, C e-mail only, narrowed by contactType), notifies the
// company's users, and stays open until a user acknowledges (resets) it.
// With advanced set: the rule re-arms only when the value is back past the
// limit by the hysteresis band; while unacknowledged the contacts are
// notified again every renotifyInterval units, and escalationContacts
// once after escalateAfter units.
//
// Package module builds the module; the implementation lives in internal/.
package alarms

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Priorities (SPEC.md section 3): which channels a firing uses.
const (
	PriorityA = 0 // e-mail and SMS
	PriorityB = 1 // SMS only
	PriorityC = 2 // e-mail only
)

// Contact types (SPEC.md section 3).
const (
	ContactSMS   = 0
	ContactEmail = 1
	ContactBoth  = 2
)

// Signal types.
const (
	SignalAnalog  = 0
	SignalDigital = 1
)

// Limits of a rule.
const (
	MaxName     = 255
	MaxMessage  = 1000
	MaxContacts = 20
)

// Alarm is a rule. The JSON names are SPEC.md's; tag is the node's id, and
// tagName, deveui and triggered (an open firing) are derived.
type Alarm struct {
	bun.BaseModel `bun:"table:alarms,alias:al" json:"-"`

	ID          int64    `bun:"id,pk,autoincrement" json:"id"`
	CompanyID   int64    `bun:"company_id" json:"companyId"`
	Name        string   `bun:"name" json:"name"`
	Priority    int      `bun:"priority" json:"priority"`
	AlarmDelay  int      `bun:"alarm_delay" json:"alarmDelay"`
	Active      bool     `bun:"active" json:"active"`
	TagDataKey  string   `bun:"tag_data_key" json:"tagDataKey"`
	TagID       int64    `bun:"tag_id" json:"tag"`
	Message     string   `bun:"message" json:"message"`
	LimitHigh   *float64 `bun:"limit_high" json:"limitHigh"`
	LimitLow    *float64 `bun:"limit_low" json:"limitLow"`
	ContactType int      `bun:"contact_type" json:"contactType"`
	// AlarmContacts are e-mail addresses and phone numbers (digits with
	// the country code, as SPEC.md section 5 asks).
	AlarmContacts  []string `bun:"alarm_contacts,type:text" json:"alarmContacts"`
	ActiveDays     []int    `bun:"active_days,type:text" json:"activeDays"`
	SignalType     int      `bun:"signal_type" json:"signalType"`
	DigitalTrigger float64  `bun:"digital_trigger" json:"digitalTrigger"`
	TriggerHigh    bool     `bun:"trigger_high" json:"triggerHigh"`
	TriggerLow     bool     `bun:"trigger_low" json:"triggerLow"`
	Advanced       bool     `bun:"advanced" json:"advanced"`
	// Beyond SPEC.md, in effect while Advanced is set.
	Hysteresis         float64  `bun:"hysteresis" json:"hysteresis"`
	RenotifyInterval   int      `bun:"renotify_interval" json:"renotifyInterval"`
	EscalateAfter      int      `bun:"escalate_after" json:"escalateAfter"`
	EscalationContacts []string `bun:"escalation_contacts,type:text" json:"escalationContacts"`

	// The evaluation state; see the migration.
	PendingSince *time.Time `bun:"pending_since" json:"-"`
	Armed        bool       `bun:"armed" json:"-"`
	OpenEventID  *int64     `bun:"open_event_id" json:"-"`
	DigitalState *int       `bun:"digital_state" json:"-"`
	EvaluatedAt  *time.Time `bun:"evaluated_at" json:"-"`
	LastValue    *float64   `bun:"last_value" json:"-"`
	// StateVersion counts the writes of the state above (not of
	// EvaluatedAt and LastValue alone); see the engine's batches.
	StateVersion int64 `bun:"state_version" json:"-"`

	CreatedAt time.Time `bun:"created_at" json:"createdAt"`
	UpdatedAt time.Time `bun:"updated_at" json:"updatedAt"`

	// Derived when listed.
	TagName   string `bun:"-" json:"tagName"`
	DevEUI    string `bun:"-" json:"deveui"`
	Triggered bool   `bun:"-" json:"triggered"`
}

// Event is one firing of a rule: an entry of the history, open (active)
// until a user resets it.
type Event struct {
	bun.BaseModel `bun:"table:alarm_events,alias:ev" json:"-"`

	ID          int64      `bun:"id,pk,autoincrement" json:"id"`
	AlarmID     int64      `bun:"alarm_id" json:"alarmId"`
	CompanyID   int64      `bun:"company_id" json:"companyId"`
	TagID       int64      `bun:"tag_id" json:"tag"`
	Name        string     `bun:"name" json:"name"`
	TagDataKey  string     `bun:"tag_data_key" json:"tagDataKey"`
	Value       float64    `bun:"value" json:"value"`
	MessageSent string     `bun:"message_sent" json:"messageSent"`
	Channels    string     `bun:"channels" json:"channels"`
	TriggeredAt time.Time  `bun:"triggered_at" json:"triggered"`
	ClearedAt   *time.Time `bun:"cleared_at" json:"cleared"`
	ResetAt     *time.Time `bun:"reset_at" json:"reset"`
	ResetByID   *int64     `bun:"reset_by" json:"resetById"`
	ResetBy     string     `bun:"reset_by_name" json:"resetBy"`
	NotifiedAt  time.Time  `bun:"notified_at" json:"notified"`
	NotifyCount int        `bun:"notify_count" json:"notifyCount"`
	EscalatedAt *time.Time `bun:"escalated_at" json:"escalated"`

	// Derived when listed.
	TagName string `bun:"-" json:"tagName"`
	DevEUI  string `bun:"-" json:"deveui"`
}

// Channel outcomes of POST /alarms/setting/test.
const (
	OutcomeSent    = "sent"
	OutcomeFailed  = "failed"
	OutcomeSkipped = "skipped"
)

// ChannelResult is what became of the test message on one channel.
type ChannelResult struct {
	// Status is sent, failed or skipped (the priority or contact type
	// leaves the channel out, or no contact of its kind is given).
	Status string   `json:"status"`
	To     []string `json:"to"`
	// ProviderID is the SMS provider's id of an accepted message.
	ProviderID string `json:"providerId,omitempty"`
	// Error is why it failed or was skipped, a message id of the catalog;
	// Detail the server's or provider's own words.
	Error  string `json:"error,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// TestResult is the answer of POST /alarms/setting/test.
type TestResult struct {
	Email ChannelResult `json:"email"`
	SMS   ChannelResult `json:"sms"`
	// Message is the text that was sent.
	Message string `json:"message"`
}

// Notification is what the module asks the company's users to be told of
// a firing; it mirrors the notifications module's New.
type Notification struct {
	Label, Message, Route string
	// Roles limits who is told; empty tells every user of the company.
	Roles []string
}

// Notifier tells a company's users of a firing, through idb (the firing's
// transaction).
type Notifier interface {
	NotifyCompany(ctx context.Context, idb bun.IDB, companyID int64, n Notification) error
}

// Accounts is what the module asks of accounts: a company (its time zone)
// and a user (who acknowledged). Both answer errs.NotFound for an unknown
// id.
type Accounts interface {
	Company(ctx context.Context, id int64) (*accounts.Company, error)
	User(ctx context.Context, id int64) (*accounts.User, error)
}

// Tags is what the module asks of nodes.
type Tags interface {
	Tag(ctx context.Context, id int64) (*nodes.Tag, error)
	CompanyTags(ctx context.Context, companyID int64) ([]*nodes.Tag, error)
	nodes.Silence
}

// Settings is what the module asks of settings: a company's settings
// (INACTIVITY_EMAIL).
type Settings interface {
	Company(ctx context.Context, companyID int64) (map[string]string, error)
}

// Service is what other modules and tests may ask of the alarms module.
type Service interface {
	// OpenAlarmTags answers which of tagIDs have open (unacknowledged)
	// firings: the nodes' activeAlarm.
	OpenAlarmTags(ctx context.Context, tagIDs []int64) (map[int64]bool, error)
	// Sweep fires the rules whose condition has held for their delay by
	// now, re-notifies and escalates open firings; the scheduled job calls
	// it with the clock's time.
	Sweep(ctx context.Context, now time.Time) error
	// ScanInactivity mails the inactivity contacts of the nodes silent
	// since before now minus FIELDHUB_INACTIVITY_AFTER, once per silence.
	ScanInactivity(ctx context.Context, now time.Time) error
	// States answers the state of those of ids that are alarms of the
	// company; the others are left out.
	States(ctx context.Context, companyID int64, ids []int64) (map[int64]State, error)
	// Templates makes the rules of device profiles' templates.
	Templates
}

// State is what others may show of a rule without showing the rule: whether
// it is active, and its open (unacknowledged) firing, if any.
type State struct {
	Active bool
	// Open is the open firing, nil when there is none.
	Open *Event
}

// Module is the alarms module as the kernel and the application see it.
type Module interface {
	kernel.Module
	kernel.Router
	kernel.Starter
	Service
}
