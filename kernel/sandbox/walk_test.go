package sandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/sandbox"
)

// TestResultsSerialiseAsJSONStringify checks that a codec's result, which
// the host walks through the QuickJS API (walk.go), comes out as the JSON
// that JSON.stringify makes of it in the codec: byte for byte, with the
// data encoding/json reads from that JSON, and with JSON.stringify's error
// where it throws; for a trusted codec and an uploaded one.
func TestResultsSerialiseAsJSONStringify(t *testing.T) {
	e := newEngine(t, sandbox.Options{})
	results := []struct{ name, expr string }{
		{"integers", `{a: 0, b: -1, c: 2147483647, d: -2147483648, e: 255}`},
		{"doubles", `{a: 0.1 + 0.2, b: -1.5, c: 1e21, d: 1e-7, e: 1.5e-7, f: 0.000001, g: 123e18, h: 5e-324, i: 1.7976931348623157e308, j: 2147483648, k: -0, l: bytes[0] / 3}`},
		{"not finite", `{a: NaN, b: Infinity, c: -Infinity, d: [NaN, 1 / 0]}`},
		{"strings", `{a: "", b: "plain", c: "quote \" backslash \\ slash /", d: "\b\f\n\r\t\u0000\u001f\u007f", e: "é ü ÿ", f: "€ 😀 \u2028\u2029", g: "lone \ud800 and \udfff", h: "<script>&"}`},
		{"keys", `{"é": 1, "€": 2, "a\"b": 3, "": 4, "length": 5, "constructor": 6, "__proto__x": 7, "data": 8, "errors": 9}`},
		{"nested", `{data: {a: [1, [2, [3, {b: "c"}]]], e: {}, f: []}, warnings: ["w"], errors: []}`},
		{"undefined and holes", `{a: undefined, b: [undefined, , 3], c: null, d: 1}`},
		{"only undefined", `{a: undefined}`},
		{"booleans", `{t: true, f: false, a: [true, false]}`},
		{"deleted and non-enumerable", `(function () { var o = {a: 1, b: 2, c: 3}; delete o.b; Object.defineProperty(o, "hidden", {value: 4, enumerable: false}); return o; })()`},
		{"integer keys", `{b: 1, 2: "two", a: 3, 1: "one"}`},
		{"numeric string key", `{"4294967294": 1, x: 2}`},
		{"getter", `{get a() { return 1; }, b: 2}`},
		{"function property", `{a: function () {}, b: 2}`},
		{"own toJSON", `{a: {toJSON: function () { return "x"; }}}`},
		{"date", `{a: new Date(0)}`},
		{"boxed", `{a: new Number(1), b: new String("s"), c: new Boolean(false)}`},
		{"typed array", `{a: new Uint8Array([1, 2])}`},
		{"symbol value and key", `(function () { var o = {a: Symbol("s"), b: 1}; o[Symbol("k")] = 2; return o; })()`},
		{"well-known symbol key", `(function () { var o = {b: 1}; o[Symbol.iterator] = 2; return o; })()`},
		{"map", `{a: new Map([[1, 2]])}`},
		{"bigint", `{a: 1n}`},
		{"cycle", `(function () { var o = {}; o.o = o; return o; })()`},
		{"shared", `(function () { var s = {x: 1}; return {a: s, b: s}; })()`},
		{"class instance", `(function () { function P() { this.x = 1; } P.prototype.y = 2; return new P(); })()`},
		{"array result", `[1, 2]`},
		{"string result", `"s"`},
		{"number result", `1.5`},
		{"undefined result", `undefined`},
		{"null result", `null`},
		{"rope", `{a: Array(50).join("ab") + "c"}`},
		{"proxy", `{a: new Proxy({b: 1}, {})}`},
		{"throwing getter", `{get a() { throw new Error("no"); }}`},
		{"arguments", `(function () { return {a: arguments}; })(1, 2)`},
		{"nested undefined and arrays of objects", `{a: [{b: undefined, c: [{}, []]}, {d: -0.5}], e: {f: {g: {h: "deep"}}}}`},
		{"many keys", `(function () { var o = {}; for (var i = 0; i < 100; i++) o["k" + i] = i * 1.25; return o; })()`},
	}
	ctx := context.Background()
	in := sandbox.Input{FPort: 1, Bytes: []byte{7, 8}, Tenant: "acme"}
	for _, tt := range results {
		t.Run(tt.name, func(t *testing.T) {
			src := fmt.Sprintf("function Decoder(bytes, port) { return (%s); }", tt.expr)
			// The oracle: JSON.stringify in the codec itself.
			oracle := mustCodec(t, e, fmt.Sprintf(`function Decoder(bytes, port) {
				var s;
				try { s = JSON.stringify((%s)); } catch (e) { return {threw: e.name + ": " + e.message}; }
				return {json: s === undefined ? "null" : s};
			}`, tt.expr))
			o, err := oracle.DecodeUplink(ctx, in, roomy)
			if err != nil {
				t.Fatal(err)
			}
			trusted, err := e.TrustedCodec(ctx, src)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []*sandbox.Codec{trusted, mustCodec(t, e, src)} {
				// Twice: the second call runs on an instance that was not reset.
				for i := 0; i < 2; i++ {
					got, err := c.DecodeUplink(ctx, in, roomy)
					var se *sandbox.Error
					if threw, ok := o.Data["threw"].(string); ok {
						if !errors.As(err, &se) || se.Kind != sandbox.KindThrown || se.Message != threw {
							t.Fatalf("trusted %v, call %d: %v, want JSON.stringify's %s", c.Trusted(), i, err, threw)
						}
						continue
					}
					want := o.Data["json"].(string)
					if string(got.Raw) != want {
						t.Fatalf("trusted %v, call %d: %s, JSON.stringify %s", c.Trusted(), i, got.Raw, want)
					}
					var data any
					if err := json.Unmarshal([]byte(want), &data); err != nil {
						t.Fatal(err)
					}
					if obj, ok := data.(map[string]any); !ok {
						// Decoder must return an object.
						if !errors.As(err, &se) || se.Kind != sandbox.KindResult {
							t.Fatalf("trusted %v, call %d: %v for %s", c.Trusted(), i, err, want)
						}
					} else if err != nil || !reflect.DeepEqual(got.Data, obj) {
						// The walk also gives the data, without reading the JSON.
						t.Fatalf("trusted %v, call %d: data %#v (%v), from the JSON %#v", c.Trusted(), i, got.Data, err, obj)
					}
				}
			}
		})
	}
}

// TestTrustedResultKeysFollowTheirAtoms calls a trusted codec whose keys are
// made anew by every call: QuickJS frees such a key's atom after the call
// and may give its number to the next call's key, which the walk's cache of
// names by atom must not confuse (more keys than the cache holds, too).
func TestTrustedResultKeysFollowTheirAtoms(t *testing.T) {
	e := newEngine(t, sandbox.Options{PoolSize: 1})
	ctx := context.Background()
	c, err := e.TrustedCodec(ctx, `function Decoder(bytes) { var o = {}; o["key" + (bytes[0] * 256 + bytes[1])] = bytes[1]; return o; }`)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 600; i++ {
		r, err := c.DecodeUplink(ctx, sandbox.Input{Bytes: []byte{byte(i >> 8), byte(i)}}, roomy)
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf(`{"key%d":%d}`, i, i&0xff); string(r.Raw) != want {
			t.Fatalf("call %d gave %s, want %s", i, r.Raw, want)
		}
	}
}
