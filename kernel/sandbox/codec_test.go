package sandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/sandbox"
)

var recv = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

func TestDecodeForms(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{})
	cases := []struct {
		name   string
		source string
		form   sandbox.Form
		want   map[string]any
	}{
		{
			name:   "The Things Stack decodeUplink gets bytes, fPort, recvTime and variables",
			source: `function decodeUplink(input) { return {data: {bytes: input.bytes, port: input.fPort, time: input.recvTime, site: input.variables.site}} }`,
			form:   sandbox.FormDecodeUplink,
			want:   map[string]any{"bytes": []any{1.0, 2.0}, "port": 7.0, "time": "2024-05-01T12:00:00.000Z", "site": "north"},
		},
		{
			name:   "ChirpStack v3 Decode gets fPort, bytes and variables",
			source: `function Decode(fPort, bytes, variables) { return {port: fPort, first: bytes[0], site: variables.site} }`,
			form:   sandbox.FormDecode,
			want:   map[string]any{"port": 7.0, "first": 1.0, "site": "north"},
		},
		{
			name:   "The Things Network v2 Decoder gets bytes and port",
			source: `function Decoder(bytes, port) { return {port: port, n: bytes.length} }`,
			form:   sandbox.FormDecoder,
			want:   map[string]any{"port": 7.0, "n": 2.0},
		},
		{
			name:   "decodeUplink is preferred to Decode and Decoder",
			source: `function Decoder() { return {v: 2} } function Decode() { return {v: 3} } function decodeUplink() { return {data: {v: 1}} }`,
			form:   sandbox.FormDecodeUplink,
			want:   map[string]any{"v": 1.0},
		},
		{
			name:   "Decode is preferred to Decoder",
			source: `function Decoder() { return {v: 2} } function Decode() { return {v: 3} }`,
			form:   sandbox.FormDecode,
			want:   map[string]any{"v": 3.0},
		},
		{
			name:   "a decodeUplink declared with const is found",
			source: `const decodeUplink = (input) => ({data: {n: input.bytes.length}});`,
			form:   sandbox.FormDecodeUplink,
			want:   map[string]any{"n": 2.0},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := mustCodec(t, e, tc.source)
			r, err := c.DecodeUplink(context.Background(), sandbox.Input{Bytes: []byte{1, 2}, FPort: 7, RecvTime: recv, Variables: map[string]string{"site": "north"}}, roomy)
			if err != nil {
				t.Fatal(err)
			}
			if r.Form != tc.form || !reflect.DeepEqual(r.Data, tc.want) {
				t.Errorf("got %v %v, want %v %v", r.Form, r.Data, tc.form, tc.want)
			}
		})
	}
}

func TestEncodeForms(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{})
	cases := []struct {
		name   string
		source string
		form   sandbox.Form
		bytes  []byte
		fPort  int
	}{
		{
			name:   "encodeDownlink gets data and variables and picks the port",
			source: `function encodeDownlink(input) { return {bytes: [input.data.level, Number(input.variables.k)], fPort: 15} }`,
			form:   sandbox.FormEncodeDownlink, bytes: []byte{42, 9}, fPort: 15,
		},
		{
			name:   "encodeDownlink without a port keeps the asked one",
			source: `function encodeDownlink(input) { return {bytes: [1]} }`,
			form:   sandbox.FormEncodeDownlink, bytes: []byte{1}, fPort: 3,
		},
		{
			name:   "ChirpStack v3 Encode gets fPort, the object and variables",
			source: `function Encode(fPort, obj, variables) { return [fPort, obj.level, Number(variables.k)] }`,
			form:   sandbox.FormEncode, bytes: []byte{3, 42, 9}, fPort: 3,
		},
		{
			name:   "The Things Network v2 Encoder gets the object and port",
			source: `function Encoder(object, port) { return [object.level, port] }`,
			form:   sandbox.FormEncoder, bytes: []byte{42, 3}, fPort: 3,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := mustCodec(t, e, tc.source)
			r, err := c.EncodeDownlink(context.Background(), sandbox.DownlinkInput{Data: map[string]any{"level": 42}, FPort: 3, Variables: map[string]string{"k": "9"}}, roomy)
			if err != nil {
				t.Fatal(err)
			}
			if r.Form != tc.form || !reflect.DeepEqual(r.Bytes, tc.bytes) || r.FPort != tc.fPort {
				t.Errorf("got %v %v port %d, want %v %v port %d", r.Form, r.Bytes, r.FPort, tc.form, tc.bytes, tc.fPort)
			}
		})
	}
}

func TestDecodeDownlink(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{})
	c := mustCodec(t, e, `function decodeDownlink(input) { return {data: {cmd: input.bytes[0], port: input.fPort, hasTime: "recvTime" in input}, warnings: ["w"]} }`)
	r, err := c.DecodeDownlink(context.Background(), sandbox.Input{Bytes: []byte{9}, FPort: 10, RecvTime: recv}, roomy)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"cmd": 9.0, "port": 10.0, "hasTime": false}
	if !reflect.DeepEqual(r.Data, want) || !reflect.DeepEqual(r.Warnings, []string{"w"}) || r.Form != sandbox.FormDecodeDownlink {
		t.Errorf("got %+v", r)
	}
	if !c.Can(sandbox.OpDecodeDownlink) || c.Can(sandbox.OpDecodeUplink) || c.Can(sandbox.OpEncodeDownlink) {
		t.Errorf("Can: forms %v", c.Forms())
	}
	if _, err := c.DecodeUplink(context.Background(), sandbox.Input{}, roomy); !errors.Is(err, sandbox.ErrNotDefined) {
		t.Errorf("decode uplink with a downlink decoder: %v", err)
	}
}

func TestWarningsAndErrorsAreResultsNotFailures(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{})
	c := mustCodec(t, e, `function decodeUplink(input) { return {data: {n: 1}, warnings: ["low battery"], errors: ["bad frame", 7]} }`)
	r, err := c.DecodeUplink(context.Background(), sandbox.Input{Bytes: []byte{1}}, roomy)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Warnings, []string{"low battery"}) || !reflect.DeepEqual(r.Errors, []string{"bad frame", "7"}) || r.Data["n"] != 1.0 {
		t.Errorf("got %+v", r)
	}
	c = mustCodec(t, e, `function decodeUplink(input) { return {errors: ["unknown frame"]} }`)
	if r, err := c.DecodeUplink(context.Background(), sandbox.Input{}, roomy); err != nil || r.Data != nil || len(r.Errors) != 1 {
		t.Errorf("errors without data: %+v %v", r, err)
	}
}

func TestResultsOfTheWrongShape(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{})
	cases := []struct {
		name, source, message string
		encode                bool
	}{
		{"decodeUplink returns nothing", `function decodeUplink() {}`, "decodeUplink returned null, not an object {data, warnings, errors}", false},
		{"decodeUplink returns an empty object", `function decodeUplink() { return {} }`, "decodeUplink returned no data and no errors", false},
		{"data is an array", `function decodeUplink() { return {data: [1]} }`, "decodeUplink returned data that is an array, not an object", false},
		{"warnings is a string", `function decodeUplink() { return {data: {}, warnings: "w"} }`, "decodeUplink returned warnings that is a string, not an array", false},
		{"Decode returns a number", `function Decode() { return 5 }`, "Decode returned the number 5, not an object", false},
		{"encodeDownlink returns a byte out of range", `function encodeDownlink() { return {bytes: [1, 256]} }`, "encodeDownlink returned bytes[1] = the number 256, not an integer from 0 to 255", true},
		{"encodeDownlink returns a bad port", `function encodeDownlink() { return {bytes: [1], fPort: 0} }`, "encodeDownlink returned fPort 0, not a port from 1 to 255", true},
		{"Encode returns a string", `function Encode() { return "0102" }`, "Encode returned bytes that are a string, not an array", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := mustCodec(t, e, tc.source)
			var err error
			var raw json.RawMessage
			if tc.encode {
				var r sandbox.EncodeResult
				r, err = c.EncodeDownlink(context.Background(), sandbox.DownlinkInput{FPort: 1}, roomy)
				raw = r.Raw
			} else {
				var r sandbox.Result
				r, err = c.DecodeUplink(context.Background(), sandbox.Input{}, roomy)
				raw = r.Raw
			}
			var se *sandbox.Error
			if !errors.As(err, &se) || se.Kind != sandbox.KindResult || se.Message != tc.message {
				t.Errorf("got %v, want %q", err, tc.message)
			}
			if raw == nil {
				t.Error("the raw result is kept beside the error")
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{LoadTimeout: 200 * time.Millisecond, MaxSource: 1000})
	cases := []struct {
		name, source string
		kind         sandbox.Kind
		line         int
		message      string
	}{
		{"a syntax error names its line", "function decodeUplink(input) {\n  return {data: {}}\n  syntax error here\n}", sandbox.KindSyntax, 3, "SyntaxError: expecting ';'"},
		{"top-level code that throws", "var x = 1;\nundefinedFunction();\nfunction decodeUplink() {}", sandbox.KindLoad, 2, "the codec's top-level code threw: ReferenceError: undefinedFunction is not defined"},
		{"top-level code that never ends", "while (true) {}\nfunction decodeUplink() {}", sandbox.KindLoad, 0, "loading the codec took longer than 200 ms"},
		{"a script without codec functions", "function decode(bytes) { return {} }", sandbox.KindMissing, 0, "the script defines none of the codec functions decodeUplink, Decode, Decoder, encodeDownlink, Encode, Encoder, decodeDownlink"},
		{"a module is not a script", "export function decodeUplink() {}", sandbox.KindSyntax, 1, ""},
		{"a source over MaxSource", "function decodeUplink() {}\n//" + strings.Repeat("x", 1000), sandbox.KindLoad, 0, "the codec is larger than 1000 bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := e.Codec(context.Background(), tc.source)
			var se *sandbox.Error
			if !errors.As(err, &se) || se.Kind != tc.kind || se.Line != tc.line || (tc.message != "" && se.Message != tc.message) {
				t.Errorf("got %#v, want kind %s line %d %q", err, tc.kind, tc.line, tc.message)
			}
		})
	}
}

func TestThrownErrors(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{})
	cases := []struct {
		name, source, message string
		line                  int
	}{
		{"an Error with its line", "function decodeUplink(input) {\n  if (input.fPort === 0) {\n    throw new RangeError('port 0');\n  }\n}", "RangeError: port 0", 3},
		{"a TypeError of the engine", "function decodeUplink(input) {\n  var a;\n  return a.b;\n}", "TypeError: cannot read property 'b' of undefined", 3},
		{"a thrown string", "function decodeUplink() { throw 'no' }", `uncaught "no"`, 0},
		{"a thrown object", "function decodeUplink() { throw {code: 7} }", `uncaught {"code":7}`, 0},
		{"a throwing getter on the thrown value", "function decodeUplink() { throw {get message() { throw 1 }, toString() { throw 2 }} }", "uncaught exception", 0},
		{"a thrown value whose getter never ends", "function decodeUplink() { var e = new Error('x'); Object.defineProperty(e, 'message', {get: function () { for (;;) {} }}); throw e }", "uncaught exception", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := mustCodec(t, e, tc.source)
			_, err := c.DecodeUplink(context.Background(), sandbox.Input{}, roomy)
			var se *sandbox.Error
			if !errors.As(err, &se) || !errors.Is(err, sandbox.ErrThrown) || se.Message != tc.message || se.Line != tc.line {
				t.Errorf("got %#v, want %q at line %d", err, tc.message, tc.line)
			}
		})
	}
}

func TestConsoleIsCaptured(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{MaxLog: 200})
	c := mustCodec(t, e, `
		function decodeUplink(input) {
			console.log("bytes", input.bytes, input.fPort, {a: [1, "x"]}, null, undefined, 10n);
			console.info("when", input.recvTime);
			console.warn("careful");
			console.error(new TypeError("bad"));
			if (input.fPort === 2) {
				for (var i = 0; i < 100; i++) console.log("line " + i);
			}
			if (input.fPort === 3) throw new Error("after logging");
			return {data: {}};
		}`)
	r, err := c.DecodeUplink(context.Background(), sandbox.Input{Bytes: []byte{1, 2}, FPort: 1, RecvTime: recv}, roomy)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`bytes [1,2] 1 {"a":[1,"x"]} null undefined 10n`,
		"when 2024-05-01T12:00:00.000Z",
		"warn: careful",
		"error: TypeError: bad\n    at decodeUplink (codec.js:6:22)\n",
	}
	if !reflect.DeepEqual(r.Log, want) {
		t.Errorf("log %q\nwant %q", r.Log, want)
	}
	r, _ = c.DecodeUplink(context.Background(), sandbox.Input{FPort: 2}, roomy)
	if last := r.Log[len(r.Log)-1]; last != "… log cut at 200 bytes" || len(r.Log) > 20 {
		t.Errorf("a long log is cut: %q", r.Log)
	}
	r, err = c.DecodeUplink(context.Background(), sandbox.Input{FPort: 3}, roomy)
	if !errors.Is(err, sandbox.ErrThrown) || len(r.Log) != 4 {
		t.Errorf("the log survives a throw: %v %q", err, r.Log)
	}
}

func TestWhatACodecSees(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{PoolSize: 2})
	c := mustCodec(t, e, `function decodeUplink(input) {
		return {data: {
			plainArray: Array.isArray(input.bytes) && !ArrayBuffer.isView(input.bytes),
			isDate: input.recvTime instanceof Date,
			now: Date.now(),
			newDate: new Date().toISOString(),
			perf: performance.now() === performance.now(),
			utc: new Date(0).getTimezoneOffset(),
			localHour: input.recvTime.getHours(),
			random: Math.random(),
			strict: (function () { return this === undefined })(),
			noVariables: Object.keys(input.variables).length,
		}}
	}`)
	var first map[string]any
	var wg sync.WaitGroup
	results := make([]map[string]any, 4)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := c.DecodeUplink(context.Background(), sandbox.Input{Bytes: []byte{1}, RecvTime: recv}, roomy)
			if err != nil {
				t.Error(err)
			}
			results[i] = r.Data
		}()
	}
	wg.Wait()
	first = results[0]
	want := map[string]any{
		"plainArray": true, "isDate": true, "now": float64(recv.UnixMilli()), "newDate": "2024-05-01T12:00:00.000Z",
		"perf": true, "utc": 0.0, "localHour": 12.0, "strict": false, "noVariables": 0.0,
	}
	for k, v := range want {
		if first[k] != v {
			t.Errorf("%s = %v, want %v", k, first[k], v)
		}
	}
	for i, r := range results {
		if r["random"] != first["random"] {
			t.Errorf("call %d drew %v, call 0 %v: every call starts from the same seed", i, r["random"], first["random"])
		}
	}
	r, err := c.DecodeUplink(context.Background(), sandbox.Input{Bytes: []byte{1}}, roomy)
	if err != nil || time.Since(time.UnixMilli(int64(r.Data["now"].(float64)))) > time.Minute {
		t.Errorf("without a recvTime the clock is the call's time: %v %v", r.Data["now"], err)
	}
}

func TestCallsStartClean(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{PoolSize: 1})
	c := mustCodec(t, e, `
		var table = {a: 1};
		var calls = 0;
		function decodeUplink(input) {
			calls++;
			var seen = {
				calls: calls,
				protoX: ({}).x,
				table: JSON.stringify(table),
				leaked: typeof leaked,
				push: typeof [].push,
				stringify: JSON.stringify({k: 1}),
			};
			Object.prototype.x = "polluted";
			Array.prototype.push = null;
			JSON.stringify = function () { return "hijacked" };
			table.b = 2;
			leaked = new Array(1000).fill("garbage");
			return {data: seen};
		}`)
	want := map[string]any{"calls": 1.0, "table": `{"a":1}`, "leaked": "undefined", "push": "function", "stringify": `{"k":1}`}
	for i := 0; i < 3; i++ {
		r, err := c.DecodeUplink(context.Background(), sandbox.Input{}, roomy)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(r.Data, want) {
			t.Errorf("call %d saw %v, want %v", i, r.Data, want)
		}
	}
}

// A trusted codec's decodeUplink gets the same input object at every call;
// nothing a call does to it may reach the next call.
func TestTrustedCodecsLeaveNothingOnTheirInput(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{PoolSize: 1})
	c, err := e.TrustedCodec(context.Background(), `
		function decodeUplink(input) {
			var seen = {
				keys: Object.keys(input).join(","),
				fPort: input.fPort,
				bytes: input.bytes.join(","),
				variables: JSON.stringify(input.variables),
				time: input.recvTime.getTime(),
			};
			input.extra = "left behind";
			input.fPort = -1;
			input.bytes.push(99);
			input.variables.added = true;
			return {data: seen};
		}`)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		in := sandbox.Input{Bytes: []byte{byte(i), 7}, FPort: 10 + i, RecvTime: recv.Add(time.Duration(i) * time.Second)}
		want := map[string]any{
			"keys": "bytes,fPort,recvTime,variables", "fPort": float64(10 + i), "bytes": fmt.Sprintf("%d,7", i),
			"variables": "{}", "time": float64(in.RecvTime.UnixMilli()),
		}
		if i == 2 {
			in.Variables = map[string]string{"k": "v"}
			want["variables"] = `{"k":"v"}`
		}
		r, err := c.DecodeUplink(context.Background(), in, roomy)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(r.Data, want) {
			t.Errorf("call %d saw %v, want %v", i, r.Data, want)
		}
	}
}

func TestCodecsAreSharedByTheirSource(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{})
	src := `function Decoder(b) { return {n: b.length} }`
	a, b := mustCodec(t, e, src), mustCodec(t, e, src)
	if a != b || a.Hash() != b.Hash() || len(a.Hash()) != 64 {
		t.Errorf("the same source loads one codec: %p %p", a, b)
	}
	if c := mustCodec(t, e, src+"\n"); c == a {
		t.Error("another source is another codec")
	}
}

func TestConcurrentCallsShareThePool(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{PoolSize: 2})
	c := mustCodec(t, e, `function decodeUplink(input) { var s = 0; for (var i = 0; i < 1000; i++) s += input.bytes[0]; return {data: {s: s}} }`)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				b := byte(g*20 + i)
				r, err := c.DecodeUplink(context.Background(), sandbox.Input{Bytes: []byte{b}}, sandbox.Limits{Time: time.Second})
				if err != nil || r.Data["s"] != float64(b)*1000 {
					t.Errorf("goroutine %d call %d: %v %v", g, i, r.Data, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestContextEndsACall(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{})
	c := mustCodec(t, e, `function decodeUplink(input) { if (input.fPort === 1) for (;;) {} return {data: {ok: true}} }`)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	if _, err := c.DecodeUplink(ctx, sandbox.Input{FPort: 1}, sandbox.Limits{Time: 10 * time.Second}); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled call: %v", err)
	}
	if r, err := c.DecodeUplink(context.Background(), sandbox.Input{}, roomy); err != nil || r.Data["ok"] != true {
		t.Errorf("the next call: %v %v", r.Data, err)
	}
}

func TestLimitsDefaultsAndCap(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{MaxMemory: 32 << 20})
	cases := []struct{ in, want sandbox.Limits }{
		{sandbox.Limits{}, sandbox.Limits{Time: 50 * time.Millisecond, Memory: 16 << 20}},
		{sandbox.Limits{Time: time.Second}, sandbox.Limits{Time: time.Second, Memory: 16 << 20}},
		{sandbox.Limits{Memory: 1 << 30}, sandbox.Limits{Time: 50 * time.Millisecond, Memory: 32 << 20}},
	}
	for _, tc := range cases {
		if got := e.Limits(tc.in); got != tc.want {
			t.Errorf("Limits(%+v) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestClosedEngine(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{})
	c := mustCodec(t, e, `function Decoder() { return {} }`)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DecodeUplink(context.Background(), sandbox.Input{}, sandbox.Limits{}); !errors.Is(err, sandbox.ErrClosed) {
		t.Errorf("a call after Close: %v", err)
	}
	if _, err := e.Codec(context.Background(), `function Decoder() { return {} }`); !errors.Is(err, sandbox.ErrClosed) {
		t.Errorf("a load after Close: %v", err)
	}
}

func ExampleCodec_DecodeUplink() {
	ctx := context.Background()
	e, err := sandbox.New(ctx, sandbox.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer e.Close()
	c, err := e.Codec(ctx, `function decodeUplink(input) {
		return {data: {temperature: ((input.bytes[0] << 8) | input.bytes[1]) / 10}};
	}`)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := c.DecodeUplink(ctx, sandbox.Input{Bytes: []byte{0x00, 0xe6}, FPort: 1}, sandbox.Limits{})
	fmt.Println(r.Data, err)
	// Output: map[temperature:23] <nil>
}

func TestStats(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{PoolSize: 2})
	c := mustCodec(t, e, `function Decoder(b) { return {n: b.length} }`)
	if _, err := c.DecodeUplink(context.Background(), sandbox.Input{}, roomy); err != nil {
		t.Fatal(err)
	}
	s := e.Stats()
	if s.Codecs != 1 || s.Busy != 0 || s.Idle != 1 || s.IdleMemory < 1<<20 {
		t.Errorf("stats %+v", s)
	}
}

// TestLargePayloadsReachTheCodec decodes payloads up to the ingest's 4 KiB in
// both runtimes. Making such a payload's array can grow the instance's
// memory, which moves it: the call's arguments must be written to the
// memory as it is after that, not through a view taken before (a fuzzed
// 1,140-byte payload once reached the codec with garbage arguments).
func TestLargePayloadsReachTheCodec(t *testing.T) {
	e := newEngine(t, sandbox.Options{})
	ctx := context.Background()
	src := `function decodeUplink(input) {
  var sum = 0;
  for (var i = 0; i < input.bytes.length; i++) sum += input.bytes[i];
  return {data: {n: input.bytes.length, sum: sum, fPort: input.fPort, t: input.recvTime.getTime(), v: input.variables.k}};
}`
	for _, trusted := range []bool{false, true} {
		load := e.Codec
		if trusted {
			load = e.TrustedCodec
		}
		c, err := load(ctx, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 1140, 2048, 4096} {
			payload := make([]byte, n)
			sum := 0
			for i := range payload {
				payload[i] = byte(i*7 + 3)
				sum += int(payload[i])
			}
			r, err := c.DecodeUplink(ctx, sandbox.Input{Bytes: payload, FPort: 9, RecvTime: recv, Variables: map[string]string{"k": "x"}}, roomy)
			want := fmt.Sprintf(`{"data":{"n":%d,"sum":%d,"fPort":9,"t":%d,"v":"x"}}`, n, sum, recv.UnixMilli())
			if err != nil || string(r.Raw) != want {
				t.Errorf("trusted %v, %d bytes: %s %v, want %s", trusted, n, r.Raw, err, want)
			}
		}
	}
}
