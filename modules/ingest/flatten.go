package ingest

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// Flatten turns decoded values into the flat map that the time series and a
// node's latest data hold: nested objects and arrays become dotted keys
// ("position.lat", "bytes.0"), numbers float64, booleans 0 and 1, strings
// text (cut to the longest text a series keeps); nulls, and values of other
// types, are left out. Keys keep letters, digits, '.', '-' and '_', other
// characters becoming '_', and are cut to MaxKey characters; keys that
// become equal keep the value that sorts last. More than MaxValues values,
// nesting deeper than MaxDepth, or a number that is not finite is an
// errs.Invalid error.
func Flatten(m map[string]any) (map[string]any, error) {
	f := flattener{out: map[string]any{}}
	if err := f.walk("", m, 0); err != nil {
		return nil, err
	}
	return f.out, nil
}

type flattener struct {
	out   map[string]any
	count int
}

func (f *flattener) walk(prefix string, x any, depth int) error {
	if depth > MaxDepth {
		return errs.New(errs.Invalid, IDValuesTooDeep).With("max", MaxDepth)
	}
	switch v := x.(type) {
	case nil:
		return nil
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if err := f.walk(join(prefix, cleanKey(k)), v[k], depth+1); err != nil {
				return err
			}
		}
		return nil
	case []any:
		for i, e := range v {
			if err := f.walk(join(prefix, strconv.Itoa(i)), e, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	value, ok, err := leaf(x)
	if err != nil || !ok {
		return err
	}
	if f.count++; f.count > MaxValues {
		return errs.New(errs.Invalid, IDValuesTooMany).With("max", MaxValues)
	}
	if prefix == "" {
		prefix = "value"
	}
	f.out[prefix] = value
	return nil
}

// leaf converts one value: ok is false for a type that is not kept.
func leaf(x any) (any, bool, error) {
	var n float64
	switch v := x.(type) {
	case bool:
		if v {
			return 1.0, true, nil
		}
		return 0.0, true, nil
	case string:
		return CleanText(v), true, nil
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return nil, false, errs.New(errs.Invalid, IDNumberInvalid)
		}
		n = f
	default:
		rv := reflect.ValueOf(x)
		switch {
		case rv.CanFloat():
			n = rv.Float()
		case rv.CanInt():
			n = float64(rv.Int())
		case rv.CanUint():
			n = float64(rv.Uint())
		default:
			return nil, false, nil
		}
	}
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return nil, false, errs.New(errs.Invalid, IDNumberInvalid)
	}
	return n, true, nil
}

func join(prefix, key string) string {
	if prefix == "" {
		return cut(key)
	}
	return cut(prefix + "." + key)
}

func cut(k string) string {
	if len(k) > MaxKey {
		return k[:MaxKey]
	}
	return k
}

// cleanKey keeps what every store and the nodes module accept in a key.
func cleanKey(k string) string {
	if k == "" {
		return "_"
	}
	b := []byte(k)
	out := make([]byte, 0, len(b))
	for _, r := range k {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '.', r == '-', r == '_':
			out = append(out, byte(r))
		default:
			out = append(out, '_')
		}
		if len(out) >= MaxKey {
			break
		}
	}
	return string(out)
}

// CleanText makes a text storable: valid UTF-8 without NUL (which
// PostgreSQL refuses), at most tsdb.MaxTextBytes long.
func CleanText(s string) string {
	s = strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "")
	if len(s) <= tsdb.MaxTextBytes {
		return s
	}
	s = s[:tsdb.MaxTextBytes]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
