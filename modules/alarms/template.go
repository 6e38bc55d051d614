package alarms

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
)

// Limit types of a Template: the rule fires above LimitHigh or below
// LimitLow.
const (
	LimitHigh = "HIGH"
	LimitLow  = "LOW"
)

// IDLimitTypeInvalid is the field error of a template whose limit type is
// neither HIGH nor LOW.
const IDLimitTypeInvalid = "alarms.limitType.invalid"

// Template is an analog rule without its node: what a device profile
// (modules/profiles) gives each node created with it. The rule it makes
// has no contacts yet: a firing notifies the company's users, and people
// add the contacts on the alarm's page.
type Template struct {
	// Name names the rule; empty names it after the key and limit type.
	Name      string   `json:"name"`
	Key       string   `json:"key"`
	LimitType string   `json:"limitType"`
	LimitHigh *float64 `json:"limitHigh"`
	LimitLow  *float64 `json:"limitLow"`
	Priority  int      `json:"priority"`
	Delay     int      `json:"delay"`
	Message   string   `json:"message"`
}

// Templates makes rules from templates.
type Templates interface {
	// CreateFromTemplate makes the rule t describes on node tagID of
	// company companyID, in idb (the caller's transaction), and returns
	// its id. The caller vouches that the node is the company's. A
	// template that is not a valid rule is an errs.Invalid error naming
	// the template's fields.
	CreateFromTemplate(ctx context.Context, idb bun.IDB, companyID, tagID int64, t Template) (int64, error)
}

// CheckTemplate checks a rule template, naming its fields with prefix
// (such as "alarms[0]."), and returns it tidied: the limit that its type
// does not use dropped, the name filled in.
func CheckTemplate(t Template, prefix string, v *errs.Validation) Template {
	t.Key, t.Message, t.Name = strings.TrimSpace(t.Key), strings.TrimSpace(t.Message), strings.TrimSpace(t.Name)
	t.LimitType = strings.ToUpper(strings.TrimSpace(t.LimitType))
	textField(prefix+"key", t.Key, MaxName, true, v)
	textField(prefix+"message", t.Message, MaxMessage, false, v)
	switch t.LimitType {
	case LimitHigh:
		t.LimitLow = nil
		if t.LimitHigh == nil {
			v.Add(prefix+"limitHigh", errs.IDRequired)
		}
	case LimitLow:
		t.LimitHigh = nil
		if t.LimitLow == nil {
			v.Add(prefix+"limitLow", errs.IDRequired)
		}
	default:
		v.Add(prefix+"limitType", IDLimitTypeInvalid)
	}
	if t.Priority < PriorityA || t.Priority > PriorityC {
		v.Add(prefix+"priority", IDPriorityInvalid)
	}
	if t.Delay < 0 || t.Delay > 10080 {
		v.Add(prefix+"delay", IDDelayInvalid)
	}
	if t.Name == "" && t.Key != "" {
		t.Name = t.Key + " " + strings.ToLower(t.LimitType)
	}
	textField(prefix+"name", t.Name, MaxName, false, v)
	return t
}

// textField adds a field error for a missing or too long text.
func textField(field, s string, max int, required bool, v *errs.Validation) {
	switch n := utf8.RuneCountInString(s); {
	case required && n == 0:
		v.Add(field, errs.IDRequired)
	case n > max && max == MaxName:
		v.Add(field, errs.IDMaxChars255)
	case n > max:
		v.Add(field, errs.IDTooLong)
	}
}
