package parse

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/ingest"
)

// IDBodyObject is the message of a body that is JSON but not an object.
const IDBodyObject = "ingest.body.object"

// decodeBody reads a JSON object, numbers kept as json.Number so that no
// precision is lost before a field's type is known.
func decodeBody(body []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, errs.New(errs.Invalid, errs.IDBadJSON).Wrap(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errs.New(errs.Invalid, errs.IDBadJSON)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errs.New(errs.Invalid, IDBodyObject)
	}
	return m, nil
}

// obj reads the fields of one JSON object, noting in v every field that is
// of the wrong type. A field that is absent or null reads as absent. An
// absent object reads as an empty one, so that optional parts need no
// checks.
type obj struct {
	m    map[string]any
	path string
	v    *errs.Validation
}

func (o obj) field(k string) string {
	if o.path == "" {
		return k
	}
	return o.path + "." + k
}

func (o obj) get(k string) (any, bool) {
	x, ok := o.m[k]
	return x, ok && x != nil
}

func (o obj) has(k string) bool {
	_, ok := o.get(k)
	return ok
}

func (o obj) typeErr(k, typ string) {
	f := o.field(k)
	if !o.v.Has(f) {
		o.v.AddArgs(f, IDBadJSONType, map[string]any{"field": f, "type": typ})
	}
}

func (o obj) fail(k, id string, args map[string]any) {
	f := o.field(k)
	if !o.v.Has(f) {
		o.v.AddArgs(f, id, args)
	}
}

func (o obj) str(k string) string {
	x, ok := o.get(k)
	if !ok {
		return ""
	}
	s, ok := x.(string)
	if !ok {
		o.typeErr(k, "string")
	}
	return s
}

func (o obj) boolean(k string) bool {
	x, ok := o.get(k)
	if !ok {
		return false
	}
	b, ok := x.(bool)
	if !ok {
		o.typeErr(k, "boolean")
	}
	return b
}

func (o obj) object(k string) obj {
	sub := obj{path: o.field(k), v: o.v}
	x, ok := o.get(k)
	if !ok {
		return sub
	}
	m, ok := x.(map[string]any)
	if !ok {
		o.typeErr(k, "object")
		return sub
	}
	sub.m = m
	return sub
}

func (o obj) array(k string) []any {
	x, ok := o.get(k)
	if !ok {
		return nil
	}
	a, ok := x.([]any)
	if !ok {
		o.typeErr(k, "array")
	}
	return a
}

// at returns element i of an array as an object.
func (o obj) at(a []any, k string, i int) obj {
	f := o.field(k) + "[" + strconv.Itoa(i) + "]"
	sub := obj{path: f, v: o.v}
	m, ok := a[i].(map[string]any)
	if !ok {
		if a[i] != nil && !o.v.Has(f) {
			o.v.AddArgs(f, IDBadJSONType, map[string]any{"field": f, "type": "object"})
		}
		return sub
	}
	sub.m = m
	return sub
}

// number reads a number, which protobuf's JSON mapping and The Things
// Stack may also write as a string ("867900000").
func (o obj) number(k string) (float64, bool) {
	x, ok := o.get(k)
	if !ok {
		return 0, false
	}
	var text string
	switch n := x.(type) {
	case json.Number:
		text = string(n)
	case string:
		text = strings.TrimSpace(n)
	default:
		o.typeErr(k, "number")
		return 0, false
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		o.fail(k, IDNumberInvalid, nil)
		return 0, false
	}
	return f, true
}

// integer reads a whole number in [min, max]; a number outside it is noted
// with the message id.
func (o obj) integer(k string, min, max int64, id string) (int64, bool) {
	f, ok := o.number(k)
	if !ok {
		return 0, false
	}
	if f != math.Trunc(f) || f < float64(min) || f > float64(max) {
		o.fail(k, id, map[string]any{"min": min, "max": max})
		return 0, false
	}
	return int64(f), true
}

// reading reads an optional number that must lie in [min, max]: a radio
// or battery reading. One outside is noted with the range.
func (o obj) reading(k string, min, max float64) *float64 {
	f, ok := o.number(k)
	if !ok {
		return nil
	}
	if f < min || f > max {
		o.fail(k, IDNumberRange, map[string]any{"min": min, "max": max})
		return nil
	}
	return &f
}

// devEUI reads a required DevEUI in any spelling and returns it as 16
// lower-case hexadecimal digits.
func (o obj) devEUI(k string) string {
	raw := o.str(k)
	if o.v.Has(o.field(k)) {
		return ""
	}
	if raw == "" {
		o.fail(k, errs.IDRequired, nil)
		return ""
	}
	eui := NormaliseEUI(raw)
	if !tsdb.ValidDevEUI(eui) {
		o.fail(k, IDDevEUIInvalid, nil)
		return ""
	}
	return eui
}

var euiStrip = strings.NewReplacer(" ", "", "-", "", ":", "")

// NormaliseEUI strips spaces, dashes and colons from an EUI and lower-cases
// it, the spelling of the time series.
func NormaliseEUI(s string) string {
	return strings.ToLower(euiStrip.Replace(strings.TrimSpace(s)))
}

// time reads an RFC 3339 time within w; absent, it is def.
func (o obj) time(k string, def time.Time, w Window) time.Time {
	raw := o.str(k)
	if raw == "" {
		return def
	}
	t, err := time.Parse(time.RFC3339Nano, raw)
	switch {
	case err != nil || !validTime(t, w.Now):
		o.fail(k, IDTimeInvalid, nil)
		return def
	case t.Before(w.Now.Add(-w.maxAge())):
		o.fail(k, IDTimeTooOld, map[string]any{"days": int(w.maxAge() / (24 * time.Hour))})
		return def
	}
	return t.UTC()
}

// bytes reads base64 in any of its spellings: protobuf's JSON mapping
// accepts standard and URL-safe alphabets, with or without padding.
func (o obj) bytes(k string) []byte {
	raw := o.str(k)
	if raw == "" {
		return nil
	}
	if base64.StdEncoding.DecodedLen(len(raw)) > ingest.MaxPayload+3 {
		o.fail(k, IDDataTooLong, map[string]any{"max": ingest.MaxPayload})
		return nil
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(raw); err == nil {
			if len(b) > ingest.MaxPayload {
				o.fail(k, IDDataTooLong, map[string]any{"max": ingest.MaxPayload})
				return nil
			}
			return b
		}
	}
	o.fail(k, IDDataInvalid, nil)
	return nil
}

// values reads an object of decoded values: numbers become float64, and
// the whole must flatten to at most ingest.MaxValues values nested at
// most ingest.MaxDepth deep. Absent or null, it is nil.
func (o obj) values(k string) map[string]any {
	x, ok := o.get(k)
	if !ok {
		return nil
	}
	m, ok := x.(map[string]any)
	if !ok {
		o.typeErr(k, "object")
		return nil
	}
	if _, err := ingest.Flatten(m); err != nil {
		var e *errs.Error
		if errors.As(err, &e) {
			o.fail(k, e.ID, e.Args)
		}
		return nil
	}
	return plain(m).(map[string]any)
}

// plain converts the json.Numbers of a decoded tree to float64; Flatten has
// checked that they are finite.
func plain(x any) any {
	switch v := x.(type) {
	case json.Number:
		f, _ := strconv.ParseFloat(string(v), 64)
		return f
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = plain(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = plain(e)
		}
		return out
	}
	return x
}
