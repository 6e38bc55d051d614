package alarms

import (
	"math"
	"slices"
	"strings"
	"time"
)

// Channels is which channels a firing of a rule uses: its priority's (A
// both, B SMS, C e-mail) narrowed by its contact type.
func Channels(priority, contactType int) (email, sms bool) {
	email = priority == PriorityA || priority == PriorityC
	sms = priority == PriorityA || priority == PriorityB
	switch contactType {
	case ContactSMS:
		email = false
	case ContactEmail:
		sms = false
	}
	return email, sms
}

// SplitContacts parts contacts into e-mail addresses and phone numbers
// (digits only, with the country code).
func SplitContacts(contacts []string) (emails, phones []string) {
	for _, c := range contacts {
		if strings.Contains(c, "@") {
			emails = append(emails, c)
		} else if p := NormalisePhone(c); p != "" {
			phones = append(phones, p)
		}
	}
	return emails, phones
}

// NormalisePhone strips +, - and spaces from a phone number (SPEC.md
// section 5).
func NormalisePhone(s string) string {
	return strings.NewReplacer("+", "", "-", "", " ", "").Replace(strings.TrimSpace(s))
}

// ValidPhone reports whether a normalised phone number has a country code:
// digits only, not starting with 0, at least 8 of them.
func ValidPhone(p string) bool {
	if len(p) < 8 || len(p) > 15 || p[0] == '0' {
		return false
	}
	for _, c := range p {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Level is what one value means to a rule.
type Level int

// The levels.
const (
	// Normal: the condition does not hold, and the value is back past the
	// limit by the hysteresis band: the rule re-arms.
	Normal Level = iota
	// Band: the condition does not hold, but the value is within the
	// hysteresis band of a limit: the rule stays as it is.
	Band
	// Breach: the condition holds.
	Breach
)

// Hyst is the hysteresis band in effect: the rule's when advanced, else 0.
func (a *Alarm) Hyst() float64 {
	if a.Advanced && a.Hysteresis > 0 {
		return a.Hysteresis
	}
	return 0
}

// Digital is the level of a value for a digital rule: 1 at or above
// digitalTrigger, else 0.
func (a *Alarm) Digital(v float64) int {
	if v >= a.DigitalTrigger {
		return 1
	}
	return 0
}

// OnChange reports whether a digital rule fires on every change of level.
func (a *Alarm) OnChange() bool {
	return a.SignalType == SignalDigital && a.TriggerHigh && a.TriggerLow
}

// Classify says what value v means to the rule; prev is the digital level
// before v (nil when unknown), used by a rule that fires on change.
func (a *Alarm) Classify(v float64, prev *int) Level {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return Band
	}
	if a.SignalType == SignalDigital {
		d := a.Digital(v)
		switch {
		case a.OnChange():
			if prev != nil && *prev != d {
				return Breach
			}
			return Normal
		case a.TriggerHigh && d == 1, a.TriggerLow && d == 0:
			return Breach
		}
		return Normal
	}
	h := a.Hyst()
	level := Normal
	if a.LimitHigh != nil {
		if v > *a.LimitHigh {
			return Breach
		}
		if v > *a.LimitHigh-h {
			level = Band
		}
	}
	if a.LimitLow != nil {
		if v < *a.LimitLow {
			return Breach
		}
		if v < *a.LimitLow+h {
			level = Band
		}
	}
	return level
}

// ActiveOn reports whether the rule may fire at t in loc: the weekday of
// t there (sunday 0) is one of its activeDays.
func (a *Alarm) ActiveOn(t time.Time, loc *time.Location) bool {
	return slices.Contains(a.ActiveDays, int(t.In(loc).Weekday()))
}
