package decoders_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/modules/decoders"
	decodersmodule "github.com/fieldhub/fieldhub/modules/decoders/module"
)

// started is the decoders module alone, started on SQLite, for what needs
// no company: the built-in decoders, under limits of the test's choosing.
// app.Build has no such portal, so it is built from the module package.
func started(tb testing.TB, limits sandbox.Limits) decoders.Module {
	tb.Helper()
	k := kerneltest.New(tb, kerneltest.Config(tb, db.SQLite, nil))
	m := decodersmodule.New(k.Host(), decodersmodule.Deps{Limits: limits})
	k.Add(m)
	kerneltest.Serve(tb, k)
	return m
}

func TestDecoderList(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		own := e.CreateDecoder(t, "acme", "Acme meter", "function decodeUplink(i) { return {data: {n: i.bytes.length}} }")
		e.CreateDecoder(t, "beta", "Beta meter", "function decodeUplink(i) { return {data: {}} }")

		list := e.Must(t, "acmeUser", "GET", "/api/decoder", nil, http.StatusOK).List()
		if len(list) < 62 || !reflect.DeepEqual(list[0], map[string]any{"key": "", "name": ""}) {
			t.Fatalf("GET /api/decoder: %d entries, first %v", len(list), list[0])
		}
		keys := map[string]map[string]any{}
		var names []string
		for _, x := range list[1:] {
			entry := x.(map[string]any)
			keys[entry["key"].(string)] = entry
			names = append(names, strings.ToLower(entry["name"].(string)))
		}
		for _, want := range []string{"raw", "elsys", "acrios_load", "ellenex", "mcf88", "netvox_150", "cayenne_lpp", "decentlab_dl_pr26"} {
			if keys[want] == nil {
				t.Errorf("the list lacks %q", want)
			}
		}
		if !slices.IsSorted(names) {
			t.Errorf("the list is not by name: %v", names)
		}
		if e := keys[decoders.CustomKey(own)]; e == nil || e["name"] != "Acme meter" || e["custom"] != true {
			t.Errorf("acme's own decoder: %v", e)
		}
		for k, entry := range keys {
			if entry["name"] == "Beta meter" {
				t.Errorf("acme sees beta's decoder %s", k)
			}
		}
		if r := e.Call(t, "", "GET", "/api/decoder", nil); r.Status != http.StatusUnauthorized {
			t.Errorf("a visitor: %d %s", r.Status, r.Body)
		}
		// A SuperAdmin names the company; another's own decoders stay its own.
		super := e.Must(t, "super", "GET", fmt.Sprintf("/api/decoder?companyId=%d", e.ID(t, "{beta}")), nil, http.StatusOK).List()
		if len(super) != len(list) {
			t.Errorf("SuperAdmin for beta: %d entries, acme has %d", len(super), len(list))
		}
		if r := e.Call(t, "acmeAdmin", "GET", fmt.Sprintf("/api/decoder?companyId=%d", e.ID(t, "{beta}")), nil); r.Status != http.StatusNotFound {
			t.Errorf("acme asking for beta's list: %d %s", r.Status, r.Body)
		}
	})
}

func TestDecode(t *testing.T) {
	t.Parallel()
	m := started(t, sandbox.Limits{})
	ctx := context.Background()
	at := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name string
		key  string
		in   []byte
		want map[string]any
	}{
		{"raw keeps two bytes as hex", decoders.Raw, []byte{0xAA, 0x01}, map[string]any{"raw": "aa01", "length": 2}},
		{"raw keeps one byte", decoders.Raw, []byte{0}, map[string]any{"raw": "00", "length": 1}},
		{"raw of nothing is its length", decoders.Raw, nil, map[string]any{"length": 0}},
		{"elsys decodes in the sandbox", "elsys", []byte{0x01, 0x00, 0xe2, 0x02, 0x29}, map[string]any{"temperature": 22.6, "humidity": 41.0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := m.Decode(ctx, tc.key, decoders.Input{FPort: 5, Bytes: tc.in, RecvTime: at})
			if err != nil || !reflect.DeepEqual(out.Data, tc.want) || len(out.Warnings) != 0 || len(out.Errors) != 0 {
				t.Errorf("Decode = %+v, %v; want %v", out, err, tc.want)
			}
		})
	}
	var e *errs.Error
	for _, key := range []string{"nope", "custom:1", "", "RAW"} {
		if _, err := m.Decode(ctx, key, decoders.Input{Bytes: []byte{1}}); !errors.As(err, &e) || e.Kind != errs.NotFound || e.ID != decoders.IDUnknown {
			t.Errorf("unknown decoder %q: %v", key, err)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := m.Decode(cancelled, decoders.Raw, decoders.Input{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	for key, want := range map[string]bool{"raw": true, "elsys": true, "": false, "RAW": false, "custom:1": false} {
		if got, err := m.Has(ctx, 0, key); err != nil || got != want {
			t.Errorf("Has(%q) = %v, %v; want %v", key, got, err, want)
		}
	}
	list, err := m.Catalog(ctx, 0)
	if err != nil || len(list) != 109 || !slices.Contains(list, decoders.Entry{Key: "raw", Name: "Raw payload (hex)"}) {
		t.Errorf("Catalog: %d entries, %v", len(list), err)
	}
}

func TestDecodeOutsideTheSandboxAnswersNotStarted(t *testing.T) {
	t.Parallel()
	k := kerneltest.New(t, kerneltest.Config(t, db.SQLite, nil))
	m := decodersmodule.New(k.Host(), decodersmodule.Deps{}) // never started
	if out, err := m.Decode(context.Background(), decoders.Raw, decoders.Input{Bytes: []byte{1}}); err != nil || out.Data["raw"] != "01" {
		t.Errorf("raw needs no sandbox: %+v, %v", out, err)
	}
	if _, err := m.Decode(context.Background(), "elsys", decoders.Input{Bytes: []byte{1}}); !errs.Is(err, errs.Unavailable) {
		t.Errorf("elsys without the sandbox: %v", err)
	}
}

// TestCodecFailuresAreOutputErrors checks that what a codec does wrong
// never fails Decode: the reason is in Output.Errors and Data is nil.
func TestCodecFailuresAreOutputErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.SQLite)
	ctx := context.Background()
	cases := []struct {
		name, source, want string
	}{
		{"a throw", "function decodeUplink(i) { throw new Error('bad frame') }", "bad frame"},
		{"an endless loop", "function decodeUplink(i) { for (;;) {} }", "time limit of 50 ms exceeded"},
		{"a result of the wrong shape", "function decodeUplink(i) { return 42 }", "bad_result"},
		{"a codec that reports errors", "function decodeUplink(i) { return {errors: ['too short']} }", "too short"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id := e.CreateDecoder(t, "acme", tc.name, tc.source)
			out, err := e.dec.Decode(ctx, decoders.CustomKey(id), decoders.Input{Company: e.ID(t, "{acme}"), FPort: 1, Bytes: []byte{1}})
			if err != nil || out.Data != nil || len(out.Errors) == 0 || !strings.Contains(strings.Join(out.Errors, " "), tc.want) {
				t.Errorf("Decode = %+v, %v; want an error with %q", out, err, tc.want)
			}
			// Another company cannot use it.
			if _, err := e.dec.Decode(ctx, decoders.CustomKey(id), decoders.Input{Company: e.ID(t, "{beta}"), FPort: 1}); !errs.Is(err, errs.NotFound) {
				t.Errorf("beta decoding with acme's decoder: %v", err)
			}
		})
	}
}

// TestCompaniesNeverShareACodecsState: two companies that upload the same
// codec share its loaded copy in the sandbox; what it leaves in a global
// after one company's uplink reaches that company's next uplink (the sandbox
// skips restoring the codec between calls of one company), never the other
// company's.
func TestCompaniesNeverShareACodecsState(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.SQLite)
	ctx := context.Background()
	const src = `function decodeUplink(i) {
		var seen = globalThis.mark === undefined ? "nothing" : globalThis.mark;
		globalThis.mark = i.variables.company;
		return {data: {seen: seen}};
	}`
	ids := map[string]int64{"acme": e.CreateDecoder(t, "acme", "Shared", src), "beta": e.CreateDecoder(t, "beta", "Shared", src)}
	var got []string
	for _, company := range []string{"acme", "acme", "beta", "beta", "acme", "beta"} {
		out, err := e.dec.Decode(ctx, decoders.CustomKey(ids[company]), decoders.Input{
			Company: e.ID(t, "{"+company+"}"), FPort: 1, Bytes: []byte{1}, Variables: map[string]string{"company": company},
		})
		if err != nil || len(out.Errors) > 0 {
			t.Fatalf("%s: %+v %v", company, out, err)
		}
		got = append(got, company+" saw "+out.Data["seen"].(string))
	}
	want := []string{"acme saw nothing", "acme saw acme", "beta saw nothing", "beta saw beta", "acme saw nothing", "beta saw nothing"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestCatalogVectors runs every built-in codec's documentation vectors
// through Decode, the path of the ingest: each key must give its vectors'
// expected output.
func TestCatalogVectors(t *testing.T) {
	t.Parallel()
	m := started(t, sandbox.Limits{})
	codecs, err := loadVectors()
	if err != nil {
		t.Fatal(err)
	}
	if len(codecs) < 100 {
		t.Fatalf("%d codecs in the catalog, want 100", len(codecs))
	}
	for _, c := range codecs {
		t.Run(c.key, func(t *testing.T) {
			if len(c.vectors) == 0 {
				t.Fatal("no vectors")
			}
			for _, v := range c.vectors {
				out, err := m.Decode(context.Background(), c.key, input(v))
				if err != nil {
					t.Errorf("%q: %v", v.Name, err)
					continue
				}
				if msg := check(v, out); msg != "" {
					t.Errorf("%q: %s", v.Name, msg)
				}
			}
		})
	}
}

func TestTestCall(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.SQLite)
	own := e.CreateDecoder(t, "acme", "Acme meter", "function decodeUplink(i) { console.log('port', i.fPort); return {data: {first: i.bytes[0]}} }")
	foreign := e.CreateDecoder(t, "beta", "Beta meter", "function decodeUplink(i) { return {data: {secret: 'beta'}} }")
	wasm := base64.StdEncoding.EncodeToString(wasmDecoder(`{"data":{"wasm":true}}`, false))
	cases := []struct {
		name   string
		who    string
		body   map[string]any
		status int
		check  func(r map[string]any) string
	}{
		{"a built-in key", "acmeAdmin", map[string]any{"key": "elsys", "fPort": 5, "bytes": "0100e2 0229"}, 200, wantData(map[string]any{"temperature": 22.6, "humidity": 41.0})},
		{"raw", "acmeAdmin", map[string]any{"key": "raw", "fPort": 1, "base64": "qg=="}, 200, wantData(map[string]any{"raw": "aa", "length": 1.0})},
		{"the company's own decoder, with its log", "acmeAdmin", map[string]any{"key": decoders.CustomKey(own), "fPort": 9, "bytes": "0x07"}, 200, func(r map[string]any) string {
			if msg := wantData(map[string]any{"first": 7.0})(r); msg != "" {
				return msg
			}
			if !reflect.DeepEqual(r["log"], []any{"port 9"}) {
				return fmt.Sprintf("log %v", r["log"])
			}
			return ""
		}},
		{"a script", "acmeAdmin", map[string]any{"script": "function Decoder(b, p) { return {sum: b[0] + b[1], port: p} }", "fPort": 3, "bytes": "0102"}, 200, wantData(map[string]any{"sum": 3.0, "port": 3.0})},
		{"a WebAssembly module", "acmeAdmin", map[string]any{"wasm": wasm, "fPort": 1, "bytes": "01"}, 200, wantData(map[string]any{"wasm": true})},
		{"a throw answers 200 with errors", "acmeAdmin", map[string]any{"script": "function decodeUplink(i) { throw new TypeError('no') }", "fPort": 1, "bytes": ""}, 200, wantError("TypeError: no")},
		{"an endless loop answers 200 with errors", "acmeAdmin", map[string]any{"script": "function decodeUplink(i) { while (true) {} }", "fPort": 1}, 200, wantError("time limit")},
		{"a memory bomb answers 200 with errors", "acmeAdmin", map[string]any{"script": "function decodeUplink(i) { var a = []; for (;;) a.push(new Array(100000).fill(1)) }", "fPort": 1}, 200, wantError("limit")},
		{"a syntax error answers 200 with errors", "acmeAdmin", map[string]any{"script": "function decodeUplink(i) {", "fPort": 1}, 200, wantError("SyntaxError")},
		{"a module that is not WebAssembly answers 200 with errors", "acmeAdmin", map[string]any{"wasm": "AAAA", "fPort": 1}, 200, wantError("decoder failed")},
		{"another company's decoder is not found", "acmeAdmin", map[string]any{"key": decoders.CustomKey(foreign), "fPort": 1}, 404, nil},
		{"an unknown key is not found", "acmeAdmin", map[string]any{"key": "nope", "fPort": 1}, 404, nil},
		{"no codec", "acmeAdmin", map[string]any{"fPort": 1}, 400, wantField("key")},
		{"two codecs", "acmeAdmin", map[string]any{"key": "raw", "script": "x", "fPort": 1}, 400, wantField("key")},
		{"no port", "acmeAdmin", map[string]any{"key": "raw"}, 400, wantField("fPort")},
		{"a port out of range", "acmeAdmin", map[string]any{"key": "raw", "fPort": 256}, 400, wantField("fPort")},
		{"bytes that are not hex", "acmeAdmin", map[string]any{"key": "raw", "fPort": 1, "bytes": "zz"}, 400, wantField("bytes")},
		{"base64 that is not base64", "acmeAdmin", map[string]any{"key": "raw", "fPort": 1, "base64": "!!"}, 400, wantField("base64")},
		{"both hex and base64", "acmeAdmin", map[string]any{"key": "raw", "fPort": 1, "bytes": "01", "base64": "AQ=="}, 400, wantField("bytes")},
		{"a payload too long", "acmeAdmin", map[string]any{"key": "raw", "fPort": 1, "bytes": strings.Repeat("00", 4097)}, 400, wantField("bytes")},
		{"a module that is not base64", "acmeAdmin", map[string]any{"wasm": "#", "fPort": 1}, 400, wantField("wasm")},
		{"an empty script", "acmeAdmin", map[string]any{"script": " ", "fPort": 1}, 400, wantField("script")},
		{"a User may not", "acmeUser", map[string]any{"key": "raw", "fPort": 1}, 403, nil},
		{"a visitor may not", "", map[string]any{"key": "raw", "fPort": 1}, 401, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.Call(t, tc.who, "POST", "/api/decoder/test", tc.body)
			if r.Status != tc.status {
				t.Fatalf("%d, want %d: %s", r.Status, tc.status, r.Body)
			}
			if tc.check != nil {
				if msg := tc.check(r.Obj()); msg != "" {
					t.Errorf("%s: %s", msg, r.Body)
				}
			}
		})
	}
	if r := e.Call(t, "acmeAdmin", "POST", "/api/decoder/test", `{"key": `); r.Status != http.StatusBadRequest {
		t.Errorf("malformed JSON: %d %s", r.Status, r.Body)
	}
	// A SuperAdmin tests a company's decoder by naming the company.
	r := e.Must(t, "super", "POST", fmt.Sprintf("/api/decoder/test?companyId=%d", e.ID(t, "{beta}")), map[string]any{"key": decoders.CustomKey(foreign), "fPort": 1}, http.StatusOK)
	if msg := wantData(map[string]any{"secret": "beta"})(r.Obj()); msg != "" {
		t.Error(msg)
	}
}

func wantData(want map[string]any) func(map[string]any) string {
	return func(r map[string]any) string {
		if !reflect.DeepEqual(r["data"], want) || len(r["errors"].([]any)) != 0 {
			return fmt.Sprintf("want data %v", want)
		}
		if _, ok := r["micros"].(float64); !ok {
			return "no micros"
		}
		return ""
	}
}

func wantError(part string) func(map[string]any) string {
	return func(r map[string]any) string {
		errs, _ := r["errors"].([]any)
		if r["data"] != nil || len(errs) == 0 || !strings.Contains(fmt.Sprint(errs), part) {
			return fmt.Sprintf("want no data and an error with %q", part)
		}
		return ""
	}
}

func wantField(field string) func(map[string]any) string {
	return func(r map[string]any) string {
		fields, _ := r["errors"].(map[string]any)
		if fields[field] == nil {
			return fmt.Sprintf("want a field error on %q", field)
		}
		return ""
	}
}
