package recorder

import (
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/modules/logs"
)

// prepare readies e for storage and reports whether it can be stored: a
// known type and a message. It cuts a long message, drops data too large
// or not JSON-encodable and a DevEUI that is not 16 hexadecimal digits,
// and spells the DevEUI upper case.
func prepare(e *logs.Entry, now time.Time) bool {
	e.ID = 0
	if !logs.ValidType(e.Type) || strings.TrimSpace(e.Message) == "" {
		return false
	}
	e.Message = clip(strings.ToValidUTF8(e.Message, "�"), logs.MaxMessage)
	e.MessageID = clip(e.MessageID, 64)
	e.DevEUI = strings.ToUpper(e.DevEUI)
	if !logs.ValidDevEUI(e.DevEUI) {
		e.DevEUI = ""
	}
	if e.CompanyID != nil && *e.CompanyID <= 0 {
		e.CompanyID = nil
	}
	if e.UserID != nil && *e.UserID <= 0 {
		e.UserID = nil
	}
	if raw, err := json.Marshal(e.Data); err != nil || len(raw) > logs.MaxData {
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

// clip cuts s to at most n characters.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}
