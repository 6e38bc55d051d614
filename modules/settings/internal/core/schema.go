package core

import (
	"bytes"
	"encoding/json"
	"net/mail"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/kernel/errs"
)

// Message IDs of this module; each is a key of the locale catalogs.
const (
	msgUnknown    = "settings.unknown"
	msgBadValue   = "settings.badValue"
	msgWhiteLabel = "settings.whiteLabel"
)

// masked stands for a stored secret in answers; sent back, it means "keep
// the stored value".
const masked = "********"

// maxValue is the longest value, in characters, any setting may hold.
const maxValue = 1000

// kind says how a setting's value is written, read and shown.
type kind int

const (
	text    kind = iota // a string
	boolean             // stored as "true" or "false", shown as a JSON boolean
	secret              // sealed when stored, masked when shown
)

// Company setting field types of SPEC.md section 3.
const (
	typeString   = 0
	typeSelect   = 3
	typeCheckbox = 4
	typePassword = 5
)

// setting describes one named setting.
type setting struct {
	name      string
	kind      kind
	def       string
	options   []string            // the allowed values; nil allows any
	normalise func(string) string // applied before checking; nil keeps the value
	valid     func(string) bool   // an extra rule; nil for none
	label     string              // catalog key of the field label
}

// fieldType is the setting's SPEC.md field type.
func (s *setting) fieldType() int {
	switch {
	case s.kind == secret:
		return typePassword
	case s.kind == boolean:
		return typeCheckbox
	case s.options != nil:
		return typeSelect
	}
	return typeString
}

// decode turns a JSON value into the stored string. ok is false for a value
// the setting cannot hold; tooLong reports the length rule apart, as it has
// its own message.
func (s *setting) decode(raw json.RawMessage) (value string, ok, tooLong bool) {
	raw = bytes.TrimSpace(raw)
	var b bool
	if s.kind == boolean && json.Unmarshal(raw, &b) == nil && string(raw) != "null" {
		return strconv.FormatBool(b), true, false
	}
	// PostgreSQL's TEXT cannot hold a NUL character, so it is refused here
	// rather than failing the insert.
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &value) != nil || strings.ContainsRune(value, 0) {
		return "", false, false
	}
	if utf8.RuneCountInString(value) > maxValue {
		return "", false, true
	}
	if s.normalise != nil {
		value = s.normalise(value)
	}
	switch {
	case s.kind == boolean:
		ok = value == "true" || value == "false"
	case s.options != nil:
		ok = slices.Contains(s.options, value)
	default:
		ok = s.valid == nil || s.valid(value)
	}
	return value, ok, false
}

// show is how a stored value appears in answers.
func (s *setting) show(stored string) any {
	switch {
	case s.kind == boolean:
		return stored == "true"
	case s.kind == secret && stored != "":
		return masked
	}
	return stored
}

// schema is an ordered set of settings.
type schema []setting

func (sc schema) get(name string) *setting {
	for i := range sc {
		if sc[i].name == name {
			return &sc[i]
		}
	}
	return nil
}

// parse validates every entry of body and returns the values to store. A
// secret sent back masked is left out, as it means "unchanged". Any bad entry
// fails the whole body, so that nothing is stored.
func (sc schema) parse(body map[string]json.RawMessage) (map[string]string, error) {
	names := make([]string, 0, len(body))
	for name := range body {
		names = append(names, name)
	}
	sort.Strings(names)
	v := &errs.Validation{}
	out := map[string]string{}
	for _, name := range names {
		s := sc.get(name)
		if s == nil {
			v.AddArgs(name, msgUnknown, map[string]any{"name": name})
			continue
		}
		value, ok, tooLong := s.decode(body[name])
		switch {
		case tooLong:
			v.AddArgs(name, errs.IDTooLong, map[string]any{"name": name, "max": maxValue})
		case !ok:
			v.AddArgs(name, msgBadValue, map[string]any{"name": name})
		case s.kind == secret && value == masked:
		default:
			out[name] = value
		}
	}
	return out, v.Err()
}

// render shows every setting for which keep is true (nil keeps all), with
// its stored value or its default.
func (sc schema) render(stored map[string]string, keep func(*setting) bool) map[string]any {
	out := map[string]any{}
	for i := range sc {
		s := &sc[i]
		if keep != nil && !keep(s) {
			continue
		}
		value, ok := stored[s.name]
		if !ok {
			value = s.def
		}
		out[s.name] = s.show(value)
	}
	return out
}

// The SMS settings exist both globally and per company.
var (
	smsProvider = setting{name: "SMS_PROVIDER", options: []string{"", "46elks", "twilio"}, label: "settings.field.smsProvider"}
	elksUser    = setting{name: "ELKS_USERNAME", normalise: strings.TrimSpace, label: "settings.field.provider1Username"}
	elksPass    = setting{name: "ELKS_PASSWORD", kind: secret, label: "settings.field.provider1Password"}
	elksSender  = setting{name: "ELKS_SENDER", normalise: strings.TrimSpace, valid: senderName.MatchString, label: "settings.field.provider1Sender"}
	twilioNum   = setting{name: "TWILIO_NUMBER", normalise: normalisePhone, valid: validPhone, label: "settings.field.provider2Number"}
	twilioSID   = setting{name: "TWILIO_ACCOUNT_SID", normalise: strings.TrimSpace, label: "settings.field.provider2AccountSid"}
	twilioToken = setting{name: "TWILIO_AUTH_TOKEN", kind: secret, label: "settings.field.provider2AuthToken"}
)

// brandingNames are the global settings that white-label gates and that
// every signed-in user may read.
var brandingNames = []string{"branding", "powered_by", "brand_icon"}

// defaultBrandIcon is the side menu's brand icon until another is chosen.
const defaultBrandIcon = "mdi-access-point-network"

// iconName is the form of a Material Design icon class, such as mdi-home.
var iconName = regexp.MustCompile(`^mdi-[a-z0-9-]+$`)

var globalSchema = schema{
	{name: "branding"}, {name: "powered_by"},
	{name: "brand_icon", def: defaultBrandIcon, normalise: strings.TrimSpace, valid: iconName.MatchString},
	smsProvider, elksUser, elksPass, elksSender, twilioNum, twilioSID, twilioToken,
}

var companySchema = schema{
	smsProvider,
	{name: "INACTIVITY_EMAIL", normalise: strings.TrimSpace, valid: validEmail, label: "settings.field.inactivityEmail"},
	elksUser, elksPass, elksSender, twilioNum, twilioSID, twilioToken,
}

// userSchema lists the user settings; languages are those with a catalog.
// The language's default depends on the caller's company and is filled in by
// the handler.
func userSchema(languages []string) schema {
	return schema{
		{name: "theme", def: "Colors", options: []string{"Colors", "Scientific"}},
		{name: "darkMode", kind: boolean, def: "false"},
		{name: "toolbarTransparent", kind: boolean, def: "false"},
		{name: "stickySideMenu", kind: boolean, def: "false"},
		{name: "language", options: languages},
		{name: "defaultRange", def: "24h", options: []string{"1h", "5h", "24h", "7d", "30d"}},
	}
}

// senderName is the SMS alphanumeric sender rule: up to 11 letters or digits.
var senderName = regexp.MustCompile(`^[A-Za-z0-9]{0,11}$`)

var phoneStrip = strings.NewReplacer("+", "", "-", "", " ", "")
var phoneDigits = regexp.MustCompile(`^[1-9][0-9]{6,14}$`)

// normalisePhone strips +, - and spaces as SPEC.md section 5 says.
func normalisePhone(s string) string { return phoneStrip.Replace(strings.TrimSpace(s)) }

// validPhone accepts an empty value or digits that start with a country
// code, so not with 0, of an E.164 length.
func validPhone(s string) bool { return s == "" || phoneDigits.MatchString(s) }

// validEmail accepts an empty value or a bare address with a dotted domain.
func validEmail(s string) bool {
	if s == "" {
		return true
	}
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && strings.Contains(s[strings.LastIndex(s, "@"):], ".")
}
