// Package logs is the contract of the logs module: the log entries (of the
// types SMS, APP, WARNING, ERROR, USEREVENT and LOGIN), the counts of active
// users and data points, and their routes:
//
//   - GET /api/logs?type=&from=&to=&deveui=&limit= lists entries, newest
//     first: type is one type or several separated by commas, from and to
//     RFC 3339 times (from included, to not), deveui a node's DevEUI, limit
//     1 to 1000 (default 200, the live log list's length).
//   - GET /api/logs/activeusers counts the users seen in the last 24 hours,
//     7 days and 30 days: a user is seen when they sign in and whenever a
//     session of theirs renews its access token, which a client in use does
//     at least every FIELDHUB_ACCESS_TOKEN_TTL.
//   - GET /api/logs/datapoints counts the data points stored in the last 24
//     hours, in total and per clock hour of the company's time zone.
//
// The routes are open to CompanyOrUser roles and answer for one company:
// the caller's own (the audit trail, USEREVENT, only for its CompanyAdmins
// and Admins). A caller may name it as ?companyId=; another company's id
// is not found, except for a SuperAdmin, who may name any company and
// otherwise gets the company chosen in the company switcher, else the
// installation (the entries that belong to no company and every company's
// audit trail; the active users of every company; data points need a
// company). A user without a company gets empty answers.
//
// The module writes entries for the facts other modules publish:
// ingest.DeviceEvent (joins, device status and the network servers' log
// messages as APP, WARNING or ERROR by their level; decoders and the node
// pool), netservers.DownlinkOutcome (what became of a downlink: APP, or
// ERROR when it failed), accounts.UserSignedIn (LOGIN; a session renewal
// only counts the user as active), nodes.DevEUIClaimRefused (a WARNING of
// the installation, which names both companies) and nodes.TagMoved (a
// USEREVENT of the installation, and an APP entry in each company), and
// audit.Change, the audit trail: a change a person made, in any module, as
// a USEREVENT of its company (KindAudit), and outbox.Attempt, each attempt
// of the kernel's mail and SMS outboxes and its outcome (SMS, APP for a
// mail, ERROR for a failure; KindOutbox). Other modules add entries with
// Service.Record. Entries are written in batches by one goroutine, so that
// the module that records one never waits for the database; each written
// entry is announced as EntryWritten, which the live feed forwards to the
// clients of its company. A daily job deletes the entries older than
// FIELDHUB_LOG_RETENTION_DAYS (0 keeps them). Package module builds the
// module; the implementation lives in internal/.
package logs

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/accounts"
)

// The log types.
const (
	TypeSMS       = "SMS"
	TypeApp       = "APP"
	TypeWarning   = "WARNING"
	TypeError     = "ERROR"
	TypeUserEvent = "USEREVENT"
	TypeLogin     = "LOGIN"
)

// Types lists the log types; a request with an unknown type is told them in
// this order.
var Types = []string{TypeSMS, TypeApp, TypeWarning, TypeError, TypeUserEvent, TypeLogin}

// Limits of an entry and of a list.
const (
	MaxMessage   = 1000 // characters of a message; longer ones are cut
	MaxData      = 4096 // bytes of an entry's data as JSON; larger data is dropped
	DefaultLimit = 200  // entries GET /logs lists without ?limit
	MaxLimit     = 1000 // the largest ?limit
)

// Message ids of the module's errors and entries; each is a key of the
// locale catalogs.
const (
	IDTypeInvalid     = "logs.type.invalid"
	IDTimeInvalid     = "logs.time.invalid"
	IDRangeInvalid    = "logs.range.invalid"
	IDDevEUIInvalid   = "logs.deveui.invalid"
	IDLimitInvalid    = "logs.limit.invalid"
	IDCompanyRequired = "logs.company.required"
	// IDEntryLogin is the message of a LOGIN entry.
	IDEntryLogin = "logs.entry.login"
)

// Message ids of the entries about nodes (the nodes module's events): a
// company refused a DevEUI that another company's node has (an entry of
// the installation, naming both); a SuperAdmin moved a node from one
// company to another (an entry of the installation naming both, and one in
// each company that names neither).
const (
	IDEntryDevEUIClaim  = "logs.entry.deveuiClaim"
	IDEntryTagMoved     = "logs.entry.tagMoved"
	IDEntryTagMovedAway = "logs.entry.tagMovedAway"
	IDEntryTagMovedHere = "logs.entry.tagMovedHere"
)

// Message ids of the entries about downlinks (netservers.DownlinkOutcome):
// handed to the network server, transmitted (by a named gateway),
// acknowledged by the device, failed.
const (
	IDEntryDownlinkHandedOver = "logs.entry.downlink.handedOver"
	IDEntryDownlinkSent       = "logs.entry.downlink.sent"
	IDEntryDownlinkSentBy     = "logs.entry.downlink.sentBy"
	IDEntryDownlinkAcked      = "logs.entry.downlink.acknowledged"
	IDEntryDownlinkFailed     = "logs.entry.downlink.failed"
)

// Message ids of the entries about the outboxes' deliveries
// (outbox.Attempt from kernel/mail and kernel/sms): an SMS accepted by the
// provider (SMS), an attempt that failed and will be retried, one after
// which the outbox gives up (ERROR), an SMS sent again after an
// interrupted attempt (SMS); a mail accepted by the mail server (APP) and
// the failures (ERROR). Their data kind is KindOutbox.
const (
	IDEntrySMSSent    = "logs.entry.sms.sent"
	IDEntrySMSRetry   = "logs.entry.sms.retry"
	IDEntrySMSGaveUp  = "logs.entry.sms.gaveUp"
	IDEntrySMSResumed = "logs.entry.sms.resumed"
	IDEntryMailSent   = "logs.entry.mail.sent"
	IDEntryMailRetry  = "logs.entry.mail.retry"
	IDEntryMailGaveUp = "logs.entry.mail.gaveUp"
	// IDEntryForwardingOff: a forwarding target switched off after
	// failures in a row (outbox.ChannelForwarding).
	IDEntryForwardingOff = "logs.entry.forwarding.off"
	// A message sent at once, outside the outbox (a test message).
	IDEntrySMSSentNow    = "logs.entry.sms.sentNow"
	IDEntrySMSFailedNow  = "logs.entry.sms.failedNow"
	IDEntryMailSentNow   = "logs.entry.mail.sentNow"
	IDEntryMailFailedNow = "logs.entry.mail.failedNow"
	KindOutbox           = "outbox"
)

// KindAudit is the data kind of a USEREVENT entry of the audit trail (an
// audit.Change); its data holds user (the email of who made the change),
// userId, companyId and company (the company's name) when it belongs to
// one, the message's arguments, and before and after where the change has
// them.
const KindAudit = "audit"

// Entry is one log entry. The JSON is what GET /logs lists and the live
// feed's LogEntry message carries.
type Entry struct {
	bun.BaseModel `bun:"table:log_entries,alias:le" json:"-"`

	ID int64 `bun:"id,pk,autoincrement" json:"id"`
	// CompanyID is nil for an entry of the installation.
	CompanyID *int64 `bun:"company_id" json:"companyId"`
	// UserID names the user an entry is about (a LOGIN), nil for none; the
	// entry is deleted with that user. An audit entry names who made the
	// change in its data instead, so that it outlives them.
	UserID *int64 `bun:"user_id" json:"userId"`
	Type   string `bun:"type" json:"type"`
	// Message is in English. MessageID, when set, is its locale catalog
	// key, with Data filling its placeholders, so that a client can show it
	// in its user's language.
	Message   string `bun:"message" json:"message"`
	MessageID string `bun:"message_id" json:"messageId,omitempty"`
	// DevEUI names the node an entry is about, upper case as GET /tag
	// spells it; "" for none.
	DevEUI string `bun:"deveui" json:"deveui,omitempty"`
	// Data holds the entry's particulars, a small JSON object.
	Data      map[string]any `bun:"data,type:text" json:"data"`
	CreatedAt time.Time      `bun:"created_at" json:"createdAt"`
}

// Company returns the entry's company id, 0 for the installation.
func (e *Entry) Company() int64 {
	if e.CompanyID == nil {
		return 0
	}
	return *e.CompanyID
}

// EntryWritten is published after an entry is stored, with its id.
type EntryWritten struct{ Entry Entry }

// Topic names the event.
func (EntryWritten) Topic() string { return "logs.entry_written" }

// ActiveUsers is the answer of GET /logs/activeusers.
type ActiveUsers struct {
	Last24Hours int64 `json:"last24Hours"`
	Last7Days   int64 `json:"last7Days"`
	Last30Days  int64 `json:"last30Days"`
}

// DataPoints is the answer of GET /logs/datapoints: the data points stored
// in [From, To), the last 24 hours, in total and per clock hour of the
// company's time zone (the first and the last hour cut to the window).
type DataPoints struct {
	From  time.Time   `json:"from"`
	To    time.Time   `json:"to"`
	Total int64       `json:"total"`
	Hours []HourCount `json:"hours"`
}

// HourCount is the data points of one hour of DataPoints.
type HourCount struct {
	Start time.Time `json:"start"`
	Count int64     `json:"count"`
}

// ValidType reports whether t is one of the log types.
func ValidType(t string) bool {
	for _, v := range Types {
		if v == t {
			return true
		}
	}
	return false
}

// ValidDevEUI reports whether s is a DevEUI as entries hold it: 16
// upper-case hexadecimal digits.
func ValidDevEUI(s string) bool {
	if len(s) != 16 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// Service is what other modules may ask of logs.
type Service interface {
	// Record queues an entry to be written: Type is one of the types,
	// Message is required; CreatedAt defaults to now; a DevEUI is stored
	// upper case, and one that is not 16 hexadecimal digits is left out.
	// It never waits: when the queue is full (the database is far behind)
	// the entry is dropped and counted in the metrics. Before Start and
	// after Stop nothing is queued.
	Record(e Entry)
}

// Accounts is the part of accounts.Service that logs uses: whether a
// company exists, and who a user is (the email an audit entry names). Both
// return an errs.NotFound error for an unknown id.
type Accounts interface {
	Company(ctx context.Context, id int64) (*accounts.Company, error)
	User(ctx context.Context, id int64) (*accounts.User, error)
}

// Series is the part of tsdb.Store that logs reads: how many data points a
// company's series hold in a window, as tsdb.Store documents.
type Series interface {
	Count(ctx context.Context, company int64, from, to time.Time) (int64, error)
}

// Module is the logs module as the kernel and the application see it.
// Start begins the writer; Stop writes what is queued and ends it.
type Module interface {
	kernel.Module
	kernel.Router
	kernel.Starter
	kernel.Stopper
	Service
}
