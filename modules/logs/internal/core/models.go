package core

import (
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"
)

// The log types of SPEC.md section 3.
const (
	TypeSMS       = "SMS"
	TypeApp       = "APP"
	TypeWarning   = "WARNING"
	TypeError     = "ERROR"
	TypeUserEvent = "USEREVENT"
	TypeLogin     = "LOGIN"
)

// Types lists the log types in the order of SPEC.md.
var Types = []string{TypeSMS, TypeApp, TypeWarning, TypeError, TypeUserEvent, TypeLogin}

// Limits of an entry and of a list.
const (
	MaxMessage   = 1000
	MaxData      = 4096
	DefaultLimit = 200
	MaxLimit     = 1000
)

// Entry is one log entry. The JSON is what GET /logs lists and the live
// feed's LogEntry message carries.
type Entry struct {
	bun.BaseModel `bun:"table:log_entries,alias:le" json:"-"`

	ID int64 `bun:"id,pk,autoincrement" json:"id"`
	// CompanyID is nil for an entry of the installation.
	CompanyID *int64 `bun:"company_id" json:"companyId"`
	// UserID names the user an entry is about (a LOGIN), nil for none.
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

// EntryWritten is published after an entry is stored.
type EntryWritten struct{ Entry Entry }

// Topic names the event.
func (EntryWritten) Topic() string { return "logs.entry_written" }

// Company returns the entry's company id, 0 for the installation.
func (e *Entry) Company() int64 {
	if e.CompanyID == nil {
		return 0
	}
	return *e.CompanyID
}

// validType reports whether t is one of the log types.
func validType(t string) bool {
	for _, v := range Types {
		if v == t {
			return true
		}
	}
	return false
}

// normalise readies e for storage and reports whether it can be stored: a
// known type and a message. It cuts a long message, drops data too large
// or not JSON-encodable and a DevEUI that is not 16 hexadecimal digits,
// and spells the DevEUI upper case.
func (e *Entry) normalise(now time.Time) bool {
	e.ID = 0
	if !validType(e.Type) || strings.TrimSpace(e.Message) == "" {
		return false
	}
	e.Message = clip(strings.ToValidUTF8(e.Message, "�"), MaxMessage)
	e.MessageID = clip(e.MessageID, 64)
	e.DevEUI = strings.ToUpper(e.DevEUI)
	if !validDevEUI(e.DevEUI) {
		e.DevEUI = ""
	}
	if e.CompanyID != nil && *e.CompanyID <= 0 {
		e.CompanyID = nil
	}
	if e.UserID != nil && *e.UserID <= 0 {
		e.UserID = nil
	}
	if raw, err := json.Marshal(e.Data); err != nil || len(raw) > MaxData {
		e.Data = map[string]any{}
	} else if e.Data == nil {
		e.Data = map[string]any{}
	} else {
		// What is stored is what every reader gets: numbers as float64.
		var round map[string]any
		_ = json.Unmarshal(raw, &round)
		e.Data = round
	}
	if e.CreatedAt.IsZero() {
		e.CreatedAt = now
	}
	// The stores keep microseconds: the live feed then says what the list
	// will say.
	e.CreatedAt = e.CreatedAt.UTC().Truncate(time.Microsecond)
	return true
}

// validDevEUI reports whether s is 16 upper-case hexadecimal digits.
func validDevEUI(s string) bool {
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

// clip cuts s to at most n characters.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}

// activity is a user seen at a time: a sign-in or a session renewal.
type activity struct {
	bun.BaseModel `bun:"table:log_user_activity,alias:ua"`

	UserID     int64     `bun:"user_id,pk"`
	CompanyID  *int64    `bun:"company_id"`
	LastSeenAt time.Time `bun:"last_seen_at"`
}

// ActiveUsers is the answer of GET /logs/activeusers.
type ActiveUsers struct {
	Last24Hours int64 `json:"last24Hours"`
	Last7Days   int64 `json:"last7Days"`
	Last30Days  int64 `json:"last30Days"`
}

// DataPoints is the answer of GET /logs/datapoints: the data points stored
// in [From, To), the last 24 hours, in total and per clock hour (the first
// and the last hour cut to the window).
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
