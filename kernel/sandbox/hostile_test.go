package sandbox_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/sandbox"
)

// hang is far beyond any limit of these tests: a call that takes longer
// hung, whatever the machine's load.
const hang = 5 * time.Second

// stream decodes normal uplinks on its own goroutines until stopped, to show
// that hostile codecs do not disturb the others.
type stream struct {
	ok, failed atomic.Int64
	firstErr   atomic.Value
	stop       chan struct{}
	done       sync.WaitGroup
}

func startStream(t *testing.T, e *sandbox.Engine, workers int) *stream {
	t.Helper()
	c := mustCodec(t, e, `function decodeUplink(input) {
		var b = input.bytes;
		return {data: {temperature: ((b[0] << 8) | b[1]) / 10, humidity: b[2] / 2}};
	}`)
	s := &stream{stop: make(chan struct{})}
	for w := 0; w < workers; w++ {
		s.done.Add(1)
		go func() {
			defer s.done.Done()
			for i := 0; ; i++ {
				select {
				case <-s.stop:
					return
				default:
				}
				b := []byte{byte(i >> 8), byte(i), byte(i % 200)}
				r, err := c.DecodeUplink(context.Background(), sandbox.Input{Bytes: b, FPort: 1}, sandbox.Limits{Time: time.Second})
				want := map[string]any{"temperature": float64(int(b[0])<<8|int(b[1])) / 10, "humidity": float64(b[2]) / 2}
				if err != nil || !reflect.DeepEqual(r.Data, want) {
					s.failed.Add(1)
					s.firstErr.CompareAndSwap(nil, fmt.Sprintf("%v %v", r.Data, err))
					continue
				}
				s.ok.Add(1)
			}
		}()
	}
	return s
}

func (s *stream) end(t *testing.T) {
	t.Helper()
	close(s.stop)
	s.done.Wait()
	if s.failed.Load() > 0 || s.ok.Load() == 0 {
		t.Errorf("normal decodes beside the hostile ones: %d ok, %d failed (first: %v)", s.ok.Load(), s.failed.Load(), s.firstErr.Load())
	}
}

func TestHostileCodecs(t *testing.T) {
	e := newEngine(t, sandbox.Options{})
	s := startStream(t, e, 1)
	defer s.end(t)

	cases := []struct {
		name   string
		source string
		limits sandbox.Limits
		want   []error // the call fails with one of these
	}{
		{"an infinite loop", `function decodeUplink() { while (true) {} }`, sandbox.Limits{}, []error{sandbox.ErrTimeLimit}},
		{"an infinite loop in a catch-all try", `function decodeUplink() { for (;;) { try { for (;;) {} } catch (e) {} } }`, sandbox.Limits{}, []error{sandbox.ErrTimeLimit}},
		{"a loop waiting for the clock to move", `function decodeUplink() { var t = Date.now(); while (Date.now() === t) {} return {data: {}} }`, sandbox.Limits{}, []error{sandbox.ErrTimeLimit}},
		// Under the default 50 ms the bomb may run out of time before it
		// runs out of memory; with time to spare it runs out of memory.
		{"a memory bomb", `function decodeUplink() { var a = []; while (1) { a.push(new Array(1e6)) } }`, sandbox.Limits{}, []error{sandbox.ErrMemoryLimit, sandbox.ErrTimeLimit}},
		{"a memory bomb with time to spare", `function decodeUplink() { var a = []; while (1) { a.push(new Array(1e6).fill(1)) } }`, sandbox.Limits{Time: hang}, []error{sandbox.ErrMemoryLimit}},
		// QuickJS throws null, not its InternalError, when it cannot even
		// allocate the error: still the memory limit.
		{"a memory bomb of small arrays", `function decodeUplink(i) { var a = []; for (;;) a.push(new Array(1e5).fill(i.fPort)) }`, sandbox.Limits{Time: hang}, []error{sandbox.ErrMemoryLimit}},
		{"a memory bomb that catches the error", `function decodeUplink() { var a = []; for (;;) { try { a.push(new Array(1e5).fill(a.length)) } catch (e) {} } }`, sandbox.Limits{Time: 200 * time.Millisecond}, []error{sandbox.ErrTimeLimit, sandbox.ErrMemoryLimit}},
		{"a 100 MB string", `function decodeUplink() { var s = "x".repeat(100 * 1024 * 1024); return {data: {n: s.length}} }`, sandbox.Limits{}, []error{sandbox.ErrMemoryLimit}},
		// QuickJS concatenates into ropes: the string reaches the engine's
		// length limit (a RangeError in Node) before it fills memory.
		{"a string doubled until it breaks", `function decodeUplink() { var s = "x"; for (;;) s += s; }`, sandbox.Limits{}, []error{sandbox.ErrThrown, sandbox.ErrMemoryLimit}},
		{"deep recursion", `function r(n) { return r(n + 1) + 1 } function decodeUplink() { return r(0) }`, sandbox.Limits{Time: hang}, []error{sandbox.ErrStackLimit}},
		// QuickJS's JSON.stringify takes time quadratic in the nesting depth
		// and never reaches the interrupt handler: wazero's outer guard
		// stops it.
		{"a result nested ten thousand deep", `function decodeUplink() { var o = {}; for (var i = 0; i < 1e4; i++) o = {o: o}; return {data: o} }`, sandbox.Limits{}, []error{sandbox.ErrTimeLimit, sandbox.ErrStackLimit}},
		{"a huge output", `function decodeUplink() { return {data: {s: "x".repeat(2 << 20)}} }`, sandbox.Limits{Time: hang}, []error{sandbox.ErrOutputLimit}},
		{"a throw", `function decodeUplink() { throw new Error("boom") }`, sandbox.Limits{}, []error{sandbox.ErrThrown}},
		{"a regular expression that backtracks forever", `function decodeUplink() { return {data: {m: /(a+)+b/.test("a".repeat(40))}} }`, sandbox.Limits{}, []error{sandbox.ErrTimeLimit}},
		{"a sort whose comparator never ends", `function decodeUplink() { [3, 1, 2].sort(function () { for (;;) {} }) }`, sandbox.Limits{}, []error{sandbox.ErrTimeLimit}},
		{"an infinite loop in toJSON", `function decodeUplink() { return {data: {toJSON: function () { for (;;) {} }}} }`, sandbox.Limits{}, []error{sandbox.ErrTimeLimit}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := mustCodec(t, e, tc.source)
			for call := 0; call < 2; call++ {
				start := time.Now()
				r, err := c.DecodeUplink(context.Background(), sandbox.Input{Bytes: []byte{1}}, tc.limits)
				if !slices.ContainsFunc(tc.want, func(w error) bool { return errors.Is(err, w) }) {
					t.Errorf("call %d: got %v (%v), want one of %v", call, err, r.Data, tc.want)
				}
				if took := time.Since(start); took > hang+time.Second {
					t.Errorf("call %d hung for %v", call, took)
				}
			}
		})
	}
}

func TestLimitErrorsSayWhichLimit(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{})
	loop := mustCodec(t, e, `function decodeUplink() { for (;;) {} }`)
	_, err := loop.DecodeUplink(context.Background(), sandbox.Input{}, sandbox.Limits{Time: 30 * time.Millisecond})
	var se *sandbox.Error
	if !errors.As(err, &se) || se.Message != "time limit of 30 ms exceeded" || se.Limit.Time != 30*time.Millisecond {
		t.Errorf("time: %#v", err)
	}
	bomb := mustCodec(t, e, `function decodeUplink() { return {data: {n: "y".repeat(10 << 20).length}} }`)
	_, err = bomb.DecodeUplink(context.Background(), sandbox.Input{}, sandbox.Limits{Memory: 8 << 20})
	if !errors.As(err, &se) || se.Message != "memory limit of 8 MiB exceeded" || se.Limit.Memory != 8<<20 {
		t.Errorf("memory: %#v", err)
	}
	// The same codec runs within a larger limit of another company.
	if r, err := bomb.DecodeUplink(context.Background(), sandbox.Input{}, sandbox.Limits{Memory: 32 << 20, Time: hang}); err != nil || r.Data["n"] != float64(10<<20) {
		t.Errorf("a larger limit: %v %v", r.Data, err)
	}
}

func TestNoWayOutOfTheSandbox(t *testing.T) {
	e := newEngine(t, sandbox.Options{})
	s := startStream(t, e, 1)
	defer s.end(t)

	// Every global a codec can see: the ECMAScript built-ins, QuickJS's few
	// extras (InternalError, performance, atob, btoa, DOMException,
	// queueMicrotask) and console. Nothing of the host.
	c := mustCodec(t, e, `function decodeUplink() { return {data: {globals: Object.getOwnPropertyNames(globalThis).sort()}} }`)
	r, err := c.DecodeUplink(context.Background(), sandbox.Input{}, roomy)
	if err != nil {
		t.Fatal(err)
	}
	var globals []string
	for _, g := range r.Data["globals"].([]any) {
		globals = append(globals, g.(string))
	}
	allowed := strings.Fields(`AggregateError Array ArrayBuffer AsyncDisposableStack BigInt BigInt64Array BigUint64Array Boolean
		DOMException DataView Date DisposableStack Error EvalError FinalizationRegistry Float16Array Float32Array
		Float64Array Function Infinity InternalError Int16Array Int32Array Int8Array Iterator JSON Map Math NaN Number
		Object Promise Proxy RangeError ReferenceError Reflect RegExp Set SharedArrayBuffer String SuppressedError Symbol
		SyntaxError TypeError URIError Uint16Array Uint32Array Uint8Array Uint8ClampedArray WeakMap WeakRef WeakSet atob
		btoa console decodeURI decodeURIComponent decodeUplink encodeURI encodeURIComponent escape eval globalThis
		isFinite isNaN parseFloat parseInt performance queueMicrotask undefined unescape`)
	for _, g := range globals {
		if !slices.Contains(allowed, g) {
			t.Errorf("a codec sees the global %q", g)
		}
	}

	probes := []struct{ name, expr string }{
		{"require", `typeof require`},
		{"process", `typeof process`},
		{"std and os (quickjs-libc)", `typeof std + typeof os`},
		{"scriptArgs and print", `typeof scriptArgs + typeof print`},
		{"fetch and XMLHttpRequest", `typeof fetch + typeof XMLHttpRequest`},
		{"timers", `typeof setTimeout + typeof setInterval`},
		{"WebAssembly", `typeof WebAssembly`},
		{"Deno and Bun", `typeof Deno + typeof Bun`},
		{"the Function constructor reaches the same globals", `Function("return typeof process + typeof require")()`},
		{"the constructor of a function", `(function () {}).constructor("return this === globalThis")()`},
		{"the console's functions are plain functions", `console.log.constructor("return typeof require")()`},
		{"eval", `eval("typeof process")`},
		{"a dynamic import fails", `(function () { var p = import("os"); return p instanceof Promise })()`},
	}
	for _, p := range probes {
		t.Run(p.name, func(t *testing.T) {
			c := mustCodec(t, e, `function decodeUplink() { return {data: {v: String(`+p.expr+`)}} }`)
			r, err := c.DecodeUplink(context.Background(), sandbox.Input{}, roomy)
			if err != nil {
				t.Fatal(err)
			}
			if v := r.Data["v"].(string); strings.Contains(strings.ReplaceAll(v, "undefined", ""), "object") ||
				strings.Contains(strings.ReplaceAll(v, "undefined", ""), "function") {
				t.Errorf("%s = %q", p.expr, v)
			}
		})
	}
	// A module loader is not there: import() gives a rejected promise and
	// never loads anything, even when its jobs could run.
	c = mustCodec(t, e, `var out = "none"; import("os").then(function () { out = "loaded" }, function (e) { out = "rejected" });
		function decodeUplink() { return {data: {out: out}} }`)
	if r, err := c.DecodeUplink(context.Background(), sandbox.Input{}, roomy); err != nil || r.Data["out"] == "loaded" {
		t.Errorf("import: %v %v", r.Data, err)
	}
}

// TestNoGoroutineLeaks runs every kind of call and failure on an engine and
// finds, after Close, no goroutine that was not there before.
func TestNoGoroutineLeaks(t *testing.T) {
	before := runtime.NumGoroutine()
	e, err := sandbox.New(context.Background(), sandbox.Options{PoolSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sources := []string{
		`function decodeUplink(i) { return {data: {n: i.bytes.length}} }`,
		`function decodeUplink() { for (;;) {} }`,
		`function decodeUplink() { return "x".repeat(1 << 30) }`,
		`function decodeUplink() { throw new Error("x") }`,
		`function r() { return r() } function decodeUplink() { r() }`,
	}
	var wg sync.WaitGroup
	for _, src := range sources {
		c, err := e.Codec(ctx, src)
		if err != nil {
			t.Fatal(err)
		}
		for g := 0; g < 3; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cctx, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
				defer cancel()
				_, _ = c.DecodeUplink(cctx, sandbox.Input{Bytes: []byte{1}}, sandbox.Limits{})
				_, _ = c.DecodeUplink(ctx, sandbox.Input{Bytes: []byte{1}}, sandbox.Limits{})
			}()
		}
	}
	wg.Wait()
	if _, err := e.Codec(ctx, "syntax error"); err == nil {
		t.Error("a syntax error loads")
	}
	// The fast runtime's watchdog, and WASM modules' contexts.
	trusted, err := e.TrustedCodec(ctx, `function decodeUplink() { var o = {}; for (var i = 0; i < 1e4; i++) o = {o: o}; return {data: {n: JSON.stringify(o).length}} }`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := trusted.DecodeUplink(ctx, sandbox.Input{}, sandbox.Limits{}); !errors.Is(err, sandbox.ErrTimeLimit) {
		t.Errorf("trusted: %v", err)
	}
	loop, err := e.WASMCodec(ctx, wasmModule([]byte{0x03, 0x40, 0x0c, 0x00, 0x0b, 0x00, 0x0b}, ""))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := loop.DecodeUplink(ctx, sandbox.Input{}, sandbox.Limits{}); !errors.Is(err, sandbox.ErrTimeLimit) {
		t.Errorf("wasm: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(hang)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines before the engine, %d after Close:\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}

// TestNativeCodeStopsAtTheOuterGuard: QuickJS's native code that never
// reaches its interrupt handler is stopped by the outer guard (the countdown
// in every loop of quickjs.wasm), in a codec and in a trusted codec alike;
// the codec's next call works.
func TestNativeCodeStopsAtTheOuterGuard(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{})
	ctx := context.Background()
	loops := map[string]string{
		"JSON.stringify of a result nested ten thousand deep": `var o = {}; for (var i = 0; i < 1e4; i++) o = {o: o}; return {data: {n: JSON.stringify(o).length}}`,
		"indexOf over an array-like of 2^53 - 1":              `return {data: {i: Array.prototype.indexOf.call({length: Math.pow(2, 53) - 1}, 1)}}`,
		"lastIndexOf over an array-like of 2^53 - 1":          `return {data: {i: Array.prototype.lastIndexOf.call({length: Math.pow(2, 53) - 1}, 1)}}`,
		"includes over an array-like of 2^53 - 1":             `return {data: {i: Array.prototype.includes.call({length: Math.pow(2, 53) - 1}, 1)}}`,
	}
	for name, body := range loops {
		src := `function decodeUplink(input) { if (input.bytes[0]) { ` + body + ` } return {data: {ok: true}} }`
		for _, trusted := range []bool{false, true} {
			load := e.Codec
			if trusted {
				load = e.TrustedCodec
			}
			c, err := load(ctx, src)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			_, err = c.DecodeUplink(ctx, sandbox.Input{Bytes: []byte{1}, Tenant: "acme"}, sandbox.Limits{Time: 20 * time.Millisecond})
			if !errors.Is(err, sandbox.ErrTimeLimit) && !errors.Is(err, sandbox.ErrStackLimit) {
				t.Errorf("%s (trusted %v): %v", name, trusted, err)
			}
			if took := time.Since(start); took > hang {
				t.Errorf("%s (trusted %v) took %v", name, trusted, took)
			}
			if r, err := c.DecodeUplink(ctx, sandbox.Input{Bytes: []byte{0}, Tenant: "acme"}, roomy); err != nil || r.Data["ok"] != true {
				t.Errorf("%s (trusted %v), the next call: %v %v", name, trusted, r.Data, err)
			}
		}
	}
}

// TestTrustedCodecs runs codecs as the built-in catalog runs: the same
// results as other codecs, and the interrupt handler, the memory limit and
// the outer guard hold there too.
func TestTrustedCodecs(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{})
	ctx := context.Background()
	src := `function decodeUplink(input) { return {data: {sum: input.bytes.reduce(function (a, b) { return a + b }, 0), at: input.recvTime}} }`
	guarded := mustCodec(t, e, src)
	trusted, err := e.TrustedCodec(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	if trusted == guarded || !trusted.Trusted() || guarded.Trusted() || trusted.Hash() != guarded.Hash() {
		t.Errorf("a trusted codec is another codec of the same hash")
	}
	in := sandbox.Input{Bytes: []byte{1, 2, 3}, RecvTime: recv}
	a, errA := guarded.DecodeUplink(ctx, in, roomy)
	b, errB := trusted.DecodeUplink(ctx, in, roomy)
	if errA != nil || errB != nil || string(a.Raw) != string(b.Raw) {
		t.Errorf("guarded %s %v, trusted %s %v", a.Raw, errA, b.Raw, errB)
	}
	cases := []struct {
		name, source string
		limits       sandbox.Limits
		want         []error
	}{
		{"an infinite loop", `function decodeUplink() { for (;;) {} }`, sandbox.Limits{}, []error{sandbox.ErrTimeLimit}},
		{"a 100 MB string", `function decodeUplink() { return {data: {n: "x".repeat(100 << 20).length}} }`, sandbox.Limits{}, []error{sandbox.ErrMemoryLimit}},
		{"deep recursion", `function r() { return r() + 1 } function decodeUplink() { r() }`, sandbox.Limits{Time: hang}, []error{sandbox.ErrStackLimit}},
		{"native code past the deadline", `function decodeUplink() { var o = {}; for (var i = 0; i < 1e4; i++) o = {o: o}; return {data: {n: JSON.stringify(o).length}} }`, sandbox.Limits{}, []error{sandbox.ErrTimeLimit}},
	}
	for _, tc := range cases {
		c, err := e.TrustedCodec(ctx, tc.source)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if _, err := c.DecodeUplink(ctx, sandbox.Input{}, tc.limits); !slices.ContainsFunc(tc.want, func(w error) bool { return errors.Is(err, w) }) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
		if took := time.Since(start); took > hang {
			t.Errorf("%s took %v", tc.name, took)
		}
		if r, err := trusted.DecodeUplink(ctx, in, roomy); err != nil || string(r.Raw) != string(a.Raw) {
			t.Errorf("after %s: %s %v", tc.name, r.Raw, err)
		}
	}
}

// TestTrustedInstancesDoNotGrow calls a trusted codec, whose instance goes
// on without its image being restored after a call that ended well, many
// times: what each call made must be freed, or its memory would grow (the C
// string of each result was once left holding the result).
func TestTrustedInstancesDoNotGrow(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{PoolSize: 1})
	ctx := context.Background()
	c, err := e.TrustedCodec(ctx, `function decodeUplink(input) {
		var data = {text: "reading " + input.bytes.join(","), list: input.bytes.slice(), nested: {at: input.recvTime, f: input.fPort / 3}};
		return {data: data, warnings: ["w" + input.bytes.length]};
	}`)
	if err != nil {
		t.Fatal(err)
	}
	in := sandbox.Input{Bytes: bytes.Repeat([]byte{7, 8, 9}, 100), FPort: 2, RecvTime: recv}
	decode := func() {
		if _, err := c.DecodeUplink(ctx, in, roomy); err != nil {
			t.Fatal(err)
		}
	}
	decode()
	before := e.Stats().IdleMemory
	for i := 0; i < 3000; i++ {
		decode()
	}
	if after := e.Stats().IdleMemory; after != before {
		t.Errorf("the instance grew from %d to %d bytes in 3,000 calls", before, after)
	}
}
