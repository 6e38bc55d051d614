package sandbox

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/tetratelabs/wazero/api"
)

// A codec's result is turned into JSON by walking it from Go
// through the QuickJS API, to the text JSON.stringify would make of it.
// Inside QuickJS, JSON.stringify costs a few microseconds a call plus one or
// two a property (it lists each object's keys as new strings and formats
// each number as one), which made it the largest part of a small codec's
// call; JS_WriteObject, the binary writer, zeroes an array as long as the
// highest atom number of the result's keys on every call, which costs as
// much. The walk reads numbers and booleans from the JSValues themselves and
// makes three calls into the instance for each key.
//
// Only plain data is walked: objects of class Object and Array without a
// toJSON method, strings, numbers, booleans, null and undefined. Anything
// else (Dates, boxed primitives, typed arrays, functions, symbols, BigInts,
// Proxies, cycles, a getter that throws) returns errNotPlain, and the host
// asks JSON.stringify instead, so that such results come out as they always
// did.
//
// The walk also tells whether the result holds an object that outlives the
// call (jsVM.shared): a codec that fills an object kept at its top level
// and returns it would otherwise carry one uplink's values into the next.

// errNotPlain: the value holds something only JSON.stringify serialises
// faithfully.
var errNotPlain = errors.New("result is not plain data")

// errTooLong: the JSON would be longer than the output limit.
var errTooLong = errors.New("result too long")

// Class ids (JS_CLASS_*) and property-listing flags (JS_GPN_*).
const (
	classObject   = 1
	classArray    = 2
	gpnStringMask = 1 << 0
	gpnEnumOnly   = 1 << 4
)

// refCountAt is how far before an object (the pointer in its JSValue) its
// reference count is (JSRefCountHeader, in front of the GC header in this
// QuickJS). TestResultsKeptByTheCodecAreNotCarriedOver fails if the count
// is not there, and so does TestStateStaysWithItsTenant if what is there
// is always more.
const refCountAt = 4

// walkMaxDepth bounds the nesting the walk follows; deeper results go to
// JSON.stringify, which has its own limits.
const walkMaxDepth = 256

// jsonWalk is one walk over a result.
type jsonWalk struct {
	vm   *jsVM
	ctx  context.Context
	out  []byte
	max  int
	path []uint32 // the objects being walked, to find cycles
}

// walkJSON appends the JSON of v (which stays the caller's) to out, and
// gives the value that JSON reads as with encoding/json (float64 numbers,
// map[string]any objects), which spares the host parsing it.
func (vm *jsVM) walkJSON(ctx context.Context, v uint64, out []byte, max int) ([]byte, any, error) {
	w := jsonWalk{vm: vm, ctx: ctx, out: out, max: len(out) + max, path: vm.walkPath[:0]}
	if jsTag(v) == tagUndef {
		return append(out, "null"...), nil, nil
	}
	x, _, err := w.value(v, true)
	vm.walkPath = w.path[:0]
	return w.out, x, err
}

func (w *jsonWalk) call(f api.Function, args ...uint64) (uint64, error) {
	return w.vm.call(w.ctx, f, args...)
}

// value appends v and returns what it reads as; omitted reports a value
// JSON leaves out of an object (undefined), which inArray writes as null.
func (w *jsonWalk) value(v uint64, inArray bool) (x any, omitted bool, err error) {
	if len(w.out) > w.max {
		return nil, false, errTooLong
	}
	tag := jsTag(v)
	switch {
	case tag == tagInt:
		n := int32(uint32(v))
		w.out = strconv.AppendInt(w.out, int64(n), 10)
		return float64(n), false, nil
	case tag == tagBool:
		b := uint32(v) != 0
		w.out = strconv.AppendBool(w.out, b)
		return b, false, nil
	case tag == tagNull:
		w.out = append(w.out, "null"...)
	case tag == tagUndef:
		if !inArray {
			return nil, true, nil
		}
		w.out = append(w.out, "null"...)
	case uint32(tag-tagFirst) >= tagFloat64-tagFirst:
		f := math.Float64frombits(v + float64Addend)
		w.out = appendJSNumber(w.out, f)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, false, nil
		}
		return f + 0, false, nil // -0 is written 0, and reads back as 0
	case tag == tagString || tag == tagStringRope:
		x, err := w.string(v)
		return x, false, err
	case tag == tagObject:
		x, err := w.object(v)
		return x, false, err
	default:
		return nil, false, errNotPlain
	}
	return nil, false, nil
}

func (w *jsonWalk) string(v uint64) (string, error) {
	vm := w.vm
	c := uint64(vm.js.ctxPtr)
	p, err := w.call(vm.toCString, c, uint64(vm.js.ioPtr+ioLen), v, 0)
	if err != nil {
		return "", err
	}
	return w.cString(p)
}

// cString appends and returns the string QuickJS gave at p (the length at
// ioLen), and frees it.
func (w *jsonWalk) cString(p uint64) (string, error) {
	vm := w.vm
	if uint32(p) == 0 {
		return "", w.dropException()
	}
	n, _ := vm.mem.ReadUint32Le(vm.js.ioPtr + ioLen)
	b, ok := vm.mem.Read(uint32(p), n)
	if !ok {
		return "", errors.New("string out of range")
	}
	w.out = appendJSONUTF8(w.out, b)
	s := goString(b)
	_, err := w.call(vm.freeCString, uint64(vm.js.ctxPtr), p)
	return s, err
}

// dropException clears what QuickJS threw while the walk read a value (a
// getter's throw, say); JSON.stringify will meet it again.
func (w *jsonWalk) dropException() error {
	c := uint64(w.vm.js.ctxPtr)
	exc, err := w.call(w.vm.getException, c)
	if err != nil {
		return err
	}
	if _, err := w.call(w.vm.freeValue, c, exc); err != nil {
		return err
	}
	return errNotPlain
}

// child appends a value the walk read (a new reference) and frees it.
func (w *jsonWalk) child(v uint64, inArray bool) (any, bool, error) {
	if jsTag(v) == tagException {
		return nil, false, w.dropException()
	}
	x, omitted, err := w.value(v, inArray)
	if ferr := w.vm.freeValues(w.ctx, v); ferr != nil {
		return nil, false, ferr
	}
	return x, omitted, err
}

func (w *jsonWalk) object(v uint64) (any, error) {
	vm := w.vm
	c := uint64(vm.js.ctxPtr)
	ptr := uint32(v)
	for _, p := range w.path {
		if p == ptr {
			return nil, errNotPlain // a cycle: JSON.stringify throws
		}
	}
	if len(w.path) >= walkMaxDepth {
		return nil, errNotPlain
	}
	class, err := w.call(vm.getClassID, v)
	if err != nil {
		return nil, err
	}
	if uint32(class) != classObject && uint32(class) != classArray {
		return nil, errNotPlain
	}
	// An object that something besides the result holds (a global, a
	// closure) outlives the call. QuickJS keeps an object's reference count
	// in the four bytes before the object (refCountAt); the result holds
	// one reference, and the walk one more below the root (the root's
	// only one is the host's).
	held := uint32(2)
	if len(w.path) == 0 {
		held = 1
	}
	if refs, _ := vm.mem.ReadUint32Le(ptr - refCountAt); refs > held {
		vm.shared = true
	}
	toJSON, err := w.call(vm.getProperty, c, v, uint64(vm.js.atomToJSON))
	if err != nil {
		return nil, err
	}
	if jsTag(toJSON) != tagUndef {
		if jsTag(toJSON) == tagException {
			return nil, w.dropException()
		}
		if err := vm.freeValues(w.ctx, toJSON); err != nil {
			return nil, err
		}
		return nil, errNotPlain
	}
	w.path = append(w.path, ptr)
	var x any
	if uint32(class) == classArray {
		x, err = w.array(v)
	} else {
		x, err = w.properties(v)
	}
	w.path = w.path[:len(w.path)-1]
	return x, err
}

func (w *jsonWalk) array(v uint64) ([]any, error) {
	vm := w.vm
	c := uint64(vm.js.ctxPtr)
	rc, err := w.call(vm.getLength, c, v, uint64(vm.js.ioPtr+ioLogLen))
	if err != nil {
		return nil, err
	}
	if int32(rc) < 0 {
		return nil, w.dropException()
	}
	n, _ := vm.mem.ReadUint64Le(vm.js.ioPtr + ioLogLen)
	if n > uint64(w.max) {
		return nil, errTooLong // each element takes a byte at least
	}
	l := make([]any, n)
	w.out = append(w.out, '[')
	for i := range l {
		if i > 0 {
			w.out = append(w.out, ',')
		}
		e, err := w.call(vm.getPropU32, c, v, uint64(i))
		if err != nil {
			return nil, err
		}
		if l[i], _, err = w.child(e, true); err != nil {
			return nil, err
		}
	}
	w.out = append(w.out, ']')
	return l, nil
}

// properties appends an object's own enumerable string-keyed properties in
// the order JSON.stringify takes them (integer keys first).
func (w *jsonWalk) properties(v uint64) (map[string]any, error) {
	vm := w.vm
	c := uint64(vm.js.ctxPtr)
	rc, err := w.call(vm.getOwnPropertyNames, c, uint64(vm.js.ioPtr+ioLen), uint64(vm.js.ioPtr+ioLen+4), v, gpnStringMask|gpnEnumOnly)
	if err != nil {
		return nil, err
	}
	if int32(rc) < 0 {
		return nil, w.dropException()
	}
	tab, _ := vm.mem.ReadUint32Le(vm.js.ioPtr + ioLen)
	n, _ := vm.mem.ReadUint32Le(vm.js.ioPtr + ioLen + 4)
	m, err := w.members(v, tab, n)
	if _, ferr := w.call(vm.freePropertyEnum, c, uint64(tab), uint64(n)); ferr != nil && err == nil {
		err = ferr
	}
	return m, err
}

// members appends the properties listed in tab, n JSPropertyEnum entries
// ({bool is_enumerable; JSAtom atom}, 8 bytes each).
func (w *jsonWalk) members(v uint64, tab, n uint32) (map[string]any, error) {
	vm := w.vm
	c := uint64(vm.js.ctxPtr)
	entries, ok := vm.mem.Read(tab, 8*n)
	if !ok && n > 0 {
		return nil, errors.New("property list out of range")
	}
	m := make(map[string]any, n)
	w.out = append(w.out, '{')
	first := true
	for i := uint32(0); i < n; i++ {
		atom := binary.LittleEndian.Uint32(entries[8*i+4:])
		mark := len(w.out)
		if !first {
			w.out = append(w.out, ',')
		}
		k, err := w.key(atom)
		if err != nil {
			return nil, err
		}
		w.out = append(w.out, ':')
		val, err := w.call(vm.getProperty, c, v, uint64(atom))
		if err != nil {
			return nil, err
		}
		x, omitted, err := w.child(val, false)
		if err != nil {
			return nil, err
		}
		if omitted {
			w.out = w.out[:mark]
			continue
		}
		m[k] = x
		first = false
	}
	w.out = append(w.out, '}')
	return m, nil
}

// atomIsInt marks an atom that is an integer key (JS_ATOM_TAG_INT).
const atomIsInt = 1 << 31

// keyCacheSize bounds the keys an instance remembers (jsVM.keys).
const keyCacheSize = 256

// cachedKey is a property name the instance resolved before, and its JSON.
type cachedKey struct {
	name   string
	quoted []byte
}

// key appends a property name. Names are remembered per instance, keyed by
// atom: the instance takes a reference to each atom it remembers, so that
// QuickJS never frees it and never gives its number to another string, and
// forgets them all when its memory is restored from an image.
func (w *jsonWalk) key(atom uint32) (string, error) {
	if atom&atomIsInt != 0 {
		k := strconv.FormatUint(uint64(atom&^atomIsInt), 10)
		w.out = append(append(append(w.out, '"'), k...), '"')
		return k, nil
	}
	vm := w.vm
	if k, ok := vm.keys[atom]; ok {
		w.out = append(w.out, k.quoted...)
		return k.name, nil
	}
	c := uint64(vm.js.ctxPtr)
	p, err := w.call(vm.atomToCString, c, uint64(vm.js.ioPtr+ioLen), uint64(atom))
	if err != nil {
		return "", err
	}
	start := len(w.out)
	name, err := w.cString(p)
	if err != nil || len(vm.keys) >= keyCacheSize {
		return name, err
	}
	if _, err := w.call(vm.dupAtom, c, uint64(atom)); err != nil {
		return "", err
	}
	if vm.keys == nil {
		vm.keys = make(map[uint32]cachedKey)
	}
	vm.keys[atom] = cachedKey{name: name, quoted: append([]byte(nil), w.out[start:]...)}
	return name, nil
}

// appendJSONUTF8 appends a string QuickJS gave as UTF-8 (JS_ToCStringLen2),
// quoted as JSON.stringify quotes it: a surrogate code unit without its
// pair is escaped as \uXXXX (see nextChar).
func appendJSONUTF8(out []byte, b []byte) []byte {
	out = append(out, '"')
	for i := 0; i < len(b); {
		if c := b[i]; c < utf8.RuneSelf {
			out = appendJSONByte(out, c)
			i++
			continue
		}
		r, size, lone := nextChar(b[i:])
		if lone {
			out = appendUnicodeEscape(out, uint16(r))
		} else {
			out = utf8.AppendRune(out, r)
		}
		i += size
	}
	return append(out, '"')
}

// goString reads a string QuickJS gave as UTF-8 as encoding/json reads its
// JSON: a surrogate without its pair, or a byte that is no UTF-8, becomes
// U+FFFD.
func goString(b []byte) string {
	if utf8.Valid(b) { // Go's UTF-8 has no surrogates
		return string(b)
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		r, size, lone := nextChar(b[i:])
		if lone {
			r = utf8.RuneError
		}
		out = utf8.AppendRune(out, r)
		i += size
	}
	return string(out)
}

// nextChar reads the character b starts with: a rune and its length in
// bytes (U+FFFD for a byte that is no UTF-8). QuickJS writes a surrogate
// code unit as three bytes (ED A0-BF xx); a pair written that way is joined
// into its rune, and a unit without its pair is returned as lone.
func nextChar(b []byte) (r rune, size int, lone bool) {
	if s, ok := surrogate(b); ok {
		if s < 0xdc00 {
			if t, ok := surrogate(b[3:]); ok && t >= 0xdc00 {
				return (rune(s)-0xd800)<<10 + (rune(t) - 0xdc00) + 0x10000, 6, false
			}
		}
		return rune(s), 3, true
	}
	r, size = utf8.DecodeRune(b)
	return r, size, false
}

// surrogate reads a surrogate code unit encoded as three UTF-8 bytes.
func surrogate(b []byte) (uint16, bool) {
	if len(b) < 3 || b[0] != 0xed || b[1] < 0xa0 || b[1] > 0xbf || b[2]&0xc0 != 0x80 {
		return 0, false
	}
	return 0xd000 | uint16(b[1]&0x3f)<<6 | uint16(b[2]&0x3f), true
}

// jsonEscapes are the characters JSON.stringify escapes with a letter.
var jsonEscapes = [0x60]byte{'"': '"', '\\': '\\', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't'}

// appendJSONByte appends an ASCII character of a string, escaped as
// JSON.stringify escapes it.
func appendJSONByte(out []byte, c byte) []byte {
	if c < byte(len(jsonEscapes)) && jsonEscapes[c] != 0 {
		return append(out, '\\', jsonEscapes[c])
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
