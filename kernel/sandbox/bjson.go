package sandbox

import (
	"encoding/binary"
	"errors"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A trusted codec's result reaches the host in QuickJS's binary object
// format (JS_WriteObject, no bytecode, no references), which bjsonToJSON
// turns into the JSON that JSON.stringify would have made of it. Inside
// QuickJS, JSON.stringify costs a few microseconds a call plus one or two a
// property (it formats every number and looks for toJSON on every object),
// which made it the largest part of a small codec's call; the binary writer
// copies the values as they are.
//
// Only plain data is converted here: objects of class Object without integer
// keys, arrays, strings, numbers, booleans, null and undefined. Anything else
// (Dates, boxed primitives, typed arrays, symbols, BigInts, accessors,
// functions, which the writer refuses) returns errNotPlain, and the host asks
// JSON.stringify instead, so that such results come out as they always did.
// What the binary format cannot show is a toJSON method inherited from a
// prototype; the built-in codecs, the only ones that take this path, use
// none, and the differential test compares their JSON with Node's.

// errNotPlain: the value holds something only JSON.stringify can serialise
// faithfully.
var errNotPlain = errors.New("result is not plain data")

// errTooLong: the JSON would be longer than the output limit.
var errTooLong = errors.New("result too long")

// bjsonVersion is the format version of the quickjs.wasm the sandbox embeds
// (BC_VERSION); another version is read as not plain, never misread.
const bjsonVersion = 28

// Tags of the binary format (BCTagEnum) that plain data uses.
const (
	bcNull      = 1
	bcUndefined = 2
	bcFalse     = 3
	bcTrue      = 4
	bcInt32     = 5
	bcFloat64   = 6
	bcString    = 7
	bcObject    = 8
	bcArray     = 9
)

// The entries of the format's atom table. A predefined atom is written as
// its number: a byte with atomConst set holds the number's low 6 bits and,
// with atomConstMore set, a LEB128 of the rest follows. Any other entry is
// a type byte (atomString, or a symbol's) and the string.
const (
	atomConst     = 0x80
	atomConstMore = 0x40
	atomString    = 1
)

// bjsonReader reads one serialised value.
type bjsonReader struct {
	b     []byte
	pos   int
	atoms []string
	// constAtom names a predefined atom; ok is false for a symbol.
	constAtom func(id uint32) (name string, ok bool)
	out       []byte
	max       int
}

// bjsonToJSON converts buf, appending to out; max bounds the JSON's length.
func bjsonToJSON(buf []byte, out []byte, max int, constAtom func(uint32) (string, bool)) ([]byte, error) {
	r := bjsonReader{b: buf, constAtom: constAtom, out: out, max: len(out) + max}
	if err := r.header(); err != nil {
		return nil, err
	}
	tag, err := r.u8()
	if err != nil {
		return nil, err
	}
	if tag == bcUndefined {
		r.out = append(r.out, "null"...)
	} else if err := r.value(tag); err != nil {
		return nil, err
	}
	if r.pos != len(r.b) {
		return nil, errNotPlain
	}
	return r.out, nil
}

func (r *bjsonReader) header() error {
	v, err := r.u8()
	if err != nil || v != bjsonVersion {
		return errNotPlain
	}
	r.pos += 4 // checksum
	n, err := r.leb128()
	if err != nil || int(n) > len(r.b) {
		return errNotPlain
	}
	r.atoms = make([]string, n)
	for i := range r.atoms {
		typ, err := r.u8()
		if err != nil {
			return err
		}
		switch {
		case typ&atomConst != 0:
			id := uint32(typ & 0x3f)
			if typ&atomConstMore != 0 {
				more, err := r.leb128()
				if err != nil {
					return err
				}
				id |= more << 6
			}
			name, ok := r.constAtom(id)
			if !ok {
				return errNotPlain
			}
			r.atoms[i] = name
		case typ == atomString:
			s, err := r.rawString()
			if err != nil {
				return err
			}
			r.atoms[i] = s
		default: // a symbol
			return errNotPlain
		}
	}
	return nil
}

func (r *bjsonReader) u8() (byte, error) {
	if r.pos >= len(r.b) {
		return 0, errNotPlain
	}
	v := r.b[r.pos]
	r.pos++
	return v, nil
}

func (r *bjsonReader) leb128() (uint32, error) {
	var v uint32
	for shift := 0; shift < 35; shift += 7 {
		c, err := r.u8()
		if err != nil {
			return 0, err
		}
		v |= uint32(c&0x7f) << shift
		if c < 0x80 {
			return v, nil
		}
	}
	return 0, errNotPlain
}

// value converts the value whose tag has been read.
func (r *bjsonReader) value(tag byte) error {
	if len(r.out) > r.max {
		return errTooLong
	}
	switch tag {
	case bcNull, bcUndefined: // undefined only inside arrays, where JSON has null
		r.out = append(r.out, "null"...)
	case bcFalse:
		r.out = append(r.out, "false"...)
	case bcTrue:
		r.out = append(r.out, "true"...)
	case bcInt32:
		u, err := r.leb128()
		if err != nil {
			return err
		}
		r.out = strconv.AppendInt(r.out, int64(int32(u>>1)^-int32(u&1)), 10)
	case bcFloat64:
		if r.pos+8 > len(r.b) {
			return errNotPlain
		}
		r.out = appendJSNumber(r.out, math.Float64frombits(binary.LittleEndian.Uint64(r.b[r.pos:])))
		r.pos += 8
	case bcString:
		return r.string()
	case bcArray:
		n, err := r.leb128()
		if err != nil {
			return err
		}
		r.out = append(r.out, '[')
		for i := uint32(0); i < n; i++ {
			if i > 0 {
				r.out = append(r.out, ',')
			}
			t, err := r.u8()
			if err != nil {
				return err
			}
			if err := r.value(t); err != nil {
				return err
			}
		}
		r.out = append(r.out, ']')
	case bcObject:
		return r.object()
	default:
		return errNotPlain
	}
	return nil
}

// object converts an object's properties in the order the writer gave
// them, its shape's order, which is JSON.stringify's for string keys.
// Integer keys, which JSON.stringify puts first, are left to it.
func (r *bjsonReader) object() error {
	n, err := r.leb128()
	if err != nil {
		return err
	}
	r.out = append(r.out, '{')
	first := true
	for i := uint32(0); i < n; i++ {
		a, err := r.leb128()
		if err != nil {
			return err
		}
		if a&1 != 0 || int(a>>1) < 1 || int(a>>1) > len(r.atoms) {
			return errNotPlain
		}
		key := r.atoms[a>>1-1]
		if key != "" && key[0] >= '0' && key[0] <= '9' {
			return errNotPlain // perhaps an array index, which sorts first
		}
		t, err := r.u8()
		if err != nil {
			return err
		}
		if t == bcUndefined {
			continue // JSON.stringify leaves such properties out
		}
		if !first {
			r.out = append(r.out, ',')
		}
		first = false
		r.out = appendJSONString(r.out, key)
		r.out = append(r.out, ':')
		if err := r.value(t); err != nil {
			return err
		}
	}
	r.out = append(r.out, '}')
	return nil
}

// rawString reads a string as UTF-8, lone surrogates as U+FFFD (atom
// names only: JSON escapes them, see string).
func (r *bjsonReader) rawString() (string, error) {
	n, wide, err := r.stringHeader()
	if err != nil {
		return "", err
	}
	if !wide {
		s := r.b[r.pos : r.pos+n]
		r.pos += n
		ascii := true
		for _, c := range s {
			if c >= 0x80 {
				ascii = false
				break
			}
		}
		if ascii {
			return string(s), nil
		}
		buf := make([]byte, 0, 2*n)
		for _, c := range s {
			buf = utf8.AppendRune(buf, rune(c))
		}
		return string(buf), nil
	}
	u := make([]uint16, n)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(r.b[r.pos+2*i:])
	}
	r.pos += 2 * n
	if hasLoneSurrogate(u) {
		return "", errNotPlain // a key JSON would escape
	}
	return string(utf16.Decode(u)), nil
}

func (r *bjsonReader) stringHeader() (n int, wide bool, err error) {
	h, err := r.leb128()
	if err != nil {
		return 0, false, err
	}
	n, wide = int(h>>1), h&1 != 0
	size := n
	if wide {
		size *= 2
	}
	if size > len(r.b)-r.pos {
		return 0, false, errNotPlain
	}
	return n, wide, nil
}

// string converts a string value as JSON.stringify does: lone surrogates
// become \uXXXX escapes.
func (r *bjsonReader) string() error {
	n, wide, err := r.stringHeader()
	if err != nil {
		return err
	}
	if !wide {
		s := r.b[r.pos : r.pos+n]
		r.pos += n
		r.out = append(r.out, '"')
		for _, c := range s {
			if c >= 0x80 {
				r.out = utf8.AppendRune(r.out, rune(c))
			} else {
				r.out = appendJSONByte(r.out, c)
			}
		}
		r.out = append(r.out, '"')
		return nil
	}
	r.out = append(r.out, '"')
	for i := 0; i < n; i++ {
		c := binary.LittleEndian.Uint16(r.b[r.pos+2*i:])
		switch {
		case c < 0x80:
			r.out = appendJSONByte(r.out, byte(c))
		case c >= 0xd800 && c < 0xdc00 && i+1 < n:
			d := binary.LittleEndian.Uint16(r.b[r.pos+2*i+2:])
			if d >= 0xdc00 && d < 0xe000 {
				r.out = utf8.AppendRune(r.out, utf16.DecodeRune(rune(c), rune(d)))
				i++
			} else {
				r.out = appendUnicodeEscape(r.out, c)
			}
		case c >= 0xd800 && c < 0xe000:
			r.out = appendUnicodeEscape(r.out, c)
		default:
			r.out = utf8.AppendRune(r.out, rune(c))
		}
	}
	r.pos += 2 * n
	r.out = append(r.out, '"')
	return nil
}

func hasLoneSurrogate(u []uint16) bool {
	for i := 0; i < len(u); i++ {
		c := u[i]
		if c >= 0xd800 && c < 0xdc00 && i+1 < len(u) && u[i+1] >= 0xdc00 && u[i+1] < 0xe000 {
			i++
			continue
		}
		if c >= 0xd800 && c < 0xe000 {
			return true
		}
	}
	return false
}

// appendJSONString appends s (valid UTF-8) as JSON.stringify writes it.
func appendJSONString(out []byte, s string) []byte {
	out = append(out, '"')
	for i := 0; i < len(s); i++ {
		out = appendJSONByte(out, s[i])
	}
	return append(out, '"')
}

// appendJSONByte appends one byte of a string, escaped as JSON.stringify
// escapes it; bytes of multi-byte UTF-8 sequences pass as they are.
func appendJSONByte(out []byte, c byte) []byte {
	switch c {
	case '"':
		return append(out, '\\', '"')
	case '\\':
		return append(out, '\\', '\\')
	case '\b':
		return append(out, '\\', 'b')
	case '\f':
		return append(out, '\\', 'f')
	case '\n':
		return append(out, '\\', 'n')
	case '\r':
		return append(out, '\\', 'r')
	case '\t':
		return append(out, '\\', 't')
	}
	if c < 0x20 {
		return appendUnicodeEscape(out, uint16(c))
	}
	return append(out, c)
}

func appendUnicodeEscape(out []byte, c uint16) []byte {
	const hex = "0123456789abcdef"
	return append(out, '\\', 'u', hex[c>>12], hex[c>>8&0xf], hex[c>>4&0xf], hex[c&0xf])
}

// appendJSNumber appends f as JavaScript's Number::toString, which
// JSON.stringify uses for finite numbers (the shortest decimal that reads
// back as f; exponents below 1e-6 and from 1e21); NaN and the infinities
// are null in JSON, and -0 is 0.
func appendJSNumber(out []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(out, "null"...)
	}
	if f == 0 {
		return append(out, '0')
	}
	abs := math.Abs(f)
	if abs >= 1e-6 && abs < 1e21 {
		return strconv.AppendFloat(out, f, 'f', -1, 64)
	}
	out = strconv.AppendFloat(out, f, 'e', -1, 64)
	// Go writes e-07 and e+21 where JavaScript writes e-7 and e+21.
	n := len(out)
	if n >= 4 && out[n-4] == 'e' && out[n-2] == '0' {
		out[n-2] = out[n-1]
		out = out[:n-1]
	}
	return out
}
