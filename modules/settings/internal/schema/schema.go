// Package schema describes the settings each scope holds (a user's, a
// company's, the installation's): their names, kinds, defaults and rules,
// how a JSON body is checked against them and how stored values are shown.
// It is pure: the values package stores what it accepts.
package schema

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/settings"
)

// Masked stands for a stored secret in answers; sent back, it means "keep
// the stored value".
const Masked = "********"

// MaxValue is the longest value, in characters, any setting may hold.
const MaxValue = 1000

// Kind says how a setting's value is written, read and shown.
type Kind int

// The kinds of setting.
const (
	Text    Kind = iota // a string
	Boolean             // stored as "true" or "false", shown as a JSON boolean
	Secret              // sealed when stored, masked when shown
)

// The field types of the company settings form, as GET
// /settings/company/fields numbers them for the clients.
const (
	TypeString   = 0
	TypeSelect   = 3
	TypeCheckbox = 4
	TypePassword = 5
)

// Setting describes one named setting.
type Setting struct {
	Name      string
	Kind      Kind
	Default   string
	Options   []string            // the allowed values; nil allows any
	Normalise func(string) string // applied before checking; nil keeps the value
	Valid     func(string) bool   // an extra rule; nil for none
	Label     string              // catalog key of the field label
	Invalid   string              // catalog key of the message for a value it cannot hold; "" for settings.IDBadValue
}

// FieldType is the form field the clients draw for the setting.
func (s *Setting) FieldType() int {
	switch {
	case s.Kind == Secret:
		return TypePassword
	case s.Kind == Boolean:
		return TypeCheckbox
	case s.Options != nil:
		return TypeSelect
	}
	return TypeString
}

// decode turns a JSON value into the stored string. ok is false for a value
// the setting cannot hold; tooLong reports the length rule apart, as it has
// its own message.
func (s *Setting) decode(raw json.RawMessage) (value string, ok, tooLong bool) {
	raw = bytes.TrimSpace(raw)
	var b bool
	if s.Kind == Boolean && json.Unmarshal(raw, &b) == nil && string(raw) != "null" {
		return strconv.FormatBool(b), true, false
	}
	// PostgreSQL's TEXT cannot hold a NUL character, so it is refused here
	// rather than failing the insert.
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &value) != nil || strings.ContainsRune(value, 0) {
		return "", false, false
	}
	if utf8.RuneCountInString(value) > MaxValue {
		return "", false, true
	}
	if s.Normalise != nil {
		value = s.Normalise(value)
	}
	switch {
	case s.Kind == Boolean:
		ok = value == "true" || value == "false"
	case s.Options != nil:
		ok = slices.Contains(s.Options, value)
	default:
		ok = s.Valid == nil || s.Valid(value)
	}
	return value, ok, false
}

// Show is how a stored value appears in answers.
func (s *Setting) Show(stored string) any {
	switch {
	case s.Kind == Boolean:
		return stored == "true"
	case s.Kind == Secret && stored != "":
		return Masked
	}
	return stored
}

// Schema is an ordered set of settings.
type Schema []Setting

// Get returns the setting of that name, nil if the schema has none.
func (sc Schema) Get(name string) *Setting {
	for i := range sc {
		if sc[i].Name == name {
			return &sc[i]
		}
	}
	return nil
}

// Parse validates every entry of body and returns the values to store. A
// secret sent back masked is left out, as it means "unchanged". Any bad entry
// fails the whole body, so that nothing is stored.
func (sc Schema) Parse(body map[string]json.RawMessage) (map[string]string, error) {
	names := make([]string, 0, len(body))
	for name := range body {
		names = append(names, name)
	}
	sort.Strings(names)
	v := &errs.Validation{}
	out := map[string]string{}
	for _, name := range names {
		s := sc.Get(name)
		if s == nil {
			v.AddArgs(name, settings.IDUnknown, map[string]any{"name": name})
			continue
		}
		value, ok, tooLong := s.decode(body[name])
		switch {
		case tooLong:
			v.AddArgs(name, errs.IDTooLong, map[string]any{"name": name, "max": MaxValue})
		case !ok && s.Invalid != "":
			v.AddArgs(name, s.Invalid, map[string]any{"name": name})
		case !ok:
			v.AddArgs(name, settings.IDBadValue, map[string]any{"name": name})
		case s.Kind == Secret && value == Masked:
		default:
			out[name] = value
		}
	}
	return out, v.Err()
}

// Render shows every setting for which keep is true (nil keeps all), with
// its stored value or its default.
func (sc Schema) Render(stored map[string]string, keep func(*Setting) bool) map[string]any {
	out := map[string]any{}
	for i := range sc {
		s := &sc[i]
		if keep != nil && !keep(s) {
			continue
		}
		value, ok := stored[s.Name]
		if !ok {
			value = s.Default
		}
		out[s.Name] = s.Show(value)
	}
	return out
}
