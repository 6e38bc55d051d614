package sandbox_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/sandbox"
)

// stateful is a codec that reports what it finds of earlier calls (a
// global, a prototype it patched, a closure's variable, an implicit global)
// and then leaves the caller's mark in each; bytes[0] makes it throw
// half-way, loop past its time limit, run out of memory, or loop in native
// code until the outer guard stops it, after leaving them.
const stateful = `
var kept = (function () { var secret; return {get: function () { return secret }, set: function (v) { secret = v } } })();
function decodeUplink(input) {
	var mark = input.variables.mark;
	var seen = {
		global: globalThis.stash === undefined ? null : globalThis.stash,
		proto: ({}).patched === undefined ? null : ({}).patched,
		closure: kept.get() === undefined ? null : kept.get(),
		implicit: typeof leaked === "undefined" ? null : leaked,
	};
	globalThis.stash = mark;
	Object.prototype.patched = mark;
	kept.set(mark);
	leaked = mark;
	switch (input.bytes[0]) {
	case 1: throw new Error("half-way");
	case 2: for (;;) {}
	case 3: var a = []; for (;;) a.push(new Array(1e5).fill(mark));
	case 4: Array.prototype.indexOf.call({length: Math.pow(2, 53) - 1}, 1);
	}
	return {data: seen};
}`

// call decodes with stateful as tenant, leaving mark; it returns what the
// call saw of earlier calls ("" for nothing), or the call's error.
func call(t *testing.T, c *sandbox.Codec, tenant, mark string, what byte, lim sandbox.Limits) (string, error) {
	t.Helper()
	r, err := c.DecodeUplink(context.Background(), sandbox.Input{Bytes: []byte{what}, Tenant: tenant, Variables: map[string]string{"mark": mark}}, lim)
	if err != nil {
		return "", err
	}
	var saw []string
	for _, k := range []string{"global", "proto", "closure", "implicit"} {
		if v, ok := r.Data[k].(string); ok {
			saw = append(saw, k+"="+v)
		} else if r.Data[k] != nil {
			t.Fatalf("%s = %v", k, r.Data[k])
		}
	}
	return fmt.Sprint(saw), nil
}

const nothing = "[]"

// TestStateStaysWithItsTenant: what a codec leaves after a call that ended
// well reaches the next call of the same tenant on that instance (the
// sandbox copies the image back only when it must), never a call of
// another tenant, and never a call without a tenant.
func TestStateStaysWithItsTenant(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{PoolSize: 1})
	c := mustCodec(t, e, stateful)
	steps := []struct {
		tenant, mark, want string
	}{
		{"acme", "a1", nothing},
		// Deliberately allowed: the same tenant's next call goes on from
		// where its last call left the instance.
		{"acme", "a2", "[global=a1 proto=a1 closure=a1 implicit=a1]"},
		{"beta", "b1", nothing},
		{"beta", "b2", "[global=b1 proto=b1 closure=b1 implicit=b1]"},
		{"acme", "a3", nothing},
		{"", "n1", nothing},
		{"", "n2", nothing},
		{"acme", "a4", nothing},
	}
	for i, s := range steps {
		got, err := call(t, c, s.tenant, s.mark, 0, roomy)
		if err != nil || got != s.want {
			t.Errorf("step %d (%q): saw %s %v, want %s", i, s.tenant, got, err, s.want)
		}
	}
}

// TestFailedCallsLeaveNothing: a call that throws half-way or breaks its
// time or memory limit, in the codec's code or in native code, leaves
// nothing for the next call, also of the same tenant.
func TestFailedCallsLeaveNothing(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{PoolSize: 1})
	c := mustCodec(t, e, stateful)
	failures := []struct {
		name string
		what byte
		lim  sandbox.Limits
		want error
	}{
		{"a throw", 1, roomy, sandbox.ErrThrown},
		{"the time limit", 2, sandbox.Limits{Time: 30 * time.Millisecond}, sandbox.ErrTimeLimit},
		{"the memory limit", 3, sandbox.Limits{Time: hang, Memory: 8 << 20}, sandbox.ErrMemoryLimit},
		{"the outer guard", 4, sandbox.Limits{Time: 20 * time.Millisecond}, sandbox.ErrTimeLimit},
	}
	for _, f := range failures {
		if got, err := call(t, c, "acme", "before", 0, roomy); err != nil {
			t.Fatalf("%s: %s %v", f.name, got, err)
		}
		if _, err := call(t, c, "acme", "failed", f.what, f.lim); !errors.Is(err, f.want) {
			t.Errorf("%s: %v, want %v", f.name, err, f.want)
		}
		if got, err := call(t, c, "acme", "after", 0, roomy); err != nil || got != nothing {
			t.Errorf("after %s the next call saw %s %v", f.name, got, err)
		}
	}
}

// TestResultsKeptByTheCodecAreNotCarriedOver: a codec that fills an object
// of its top level and returns it would carry the fields of one uplink into
// the next; the sandbox sees the object outlive the call and copies the
// image back.
func TestResultsKeptByTheCodecAreNotCarriedOver(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{PoolSize: 1})
	sources := map[string]string{
		"an object":        `var out = {}; function decodeUplink(i) { if (i.bytes[0]) out.alarm = true; out.n = i.bytes.length; return {data: out} }`,
		"an object inside": `var out = {v: {}}; function decodeUplink(i) { if (i.bytes[0]) out.v.alarm = true; out.n = i.bytes.length; return {data: {deep: out}} }`,
		"an array":         `var list = []; function decodeUplink(i) { list.push(i.bytes.length); return {data: {list: list}} }`,
		"the result":       `var res = {data: {}}; function decodeUplink(i) { if (i.bytes[0]) res.data.alarm = true; res.data.n = i.bytes.length; return res }`,
		"Decoder's result": `var d = {}; function Decoder(b) { if (b[0]) d.alarm = true; d.n = b.length; return d }`,
	}
	for name, src := range sources {
		c := mustCodec(t, e, src)
		if _, err := c.DecodeUplink(context.Background(), sandbox.Input{Bytes: []byte{1}, Tenant: "acme"}, roomy); err != nil {
			t.Fatal(err)
		}
		second, err := c.DecodeUplink(context.Background(), sandbox.Input{Bytes: []byte{0, 0}, Tenant: "acme"}, roomy)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{
			"an object": `{"data":{"n":2}}`, "an object inside": `{"data":{"deep":{"v":{},"n":2}}}`,
			"an array": `{"data":{"list":[2]}}`, "the result": `{"data":{"n":2}}`, "Decoder's result": `{"n":2}`,
		}[name]
		if string(second.Raw) != want {
			t.Errorf("%s: the second call gave %s, want %s", name, second.Raw, want)
		}
	}
}

// TestTenantsNeverMeet decodes for several tenants at once on a shared
// codec: no call ever sees another tenant's mark.
func TestTenantsNeverMeet(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{PoolSize: 2})
	c := mustCodec(t, e, stateful)
	tenants := []string{"acme", "beta", "gamma"}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var calls, carried int
	for w := 0; w < 6; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 150; i++ {
				tenant := tenants[(w+i)%len(tenants)]
				what := byte(0)
				if i%25 == 7 {
					what = 1 // a throw now and then
				}
				r, err := c.DecodeUplink(context.Background(), sandbox.Input{Bytes: []byte{what}, Tenant: tenant, Variables: map[string]string{"mark": tenant}}, roomy)
				if what == 1 {
					if !errors.Is(err, sandbox.ErrThrown) {
						t.Errorf("a throw: %v", err)
					}
					continue
				}
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				calls++
				for _, v := range r.Data {
					if v != nil && v != tenant {
						t.Errorf("a call of %s saw %v: %v", tenant, v, r.Data)
					}
					if v == tenant {
						carried++
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	t.Logf("%d calls; the same tenant's state reached %d of their %d readings", calls, carried, 4*calls)
}

// TestWASMInstancesStayWithTheirTenant: a WebAssembly module keeps its
// memory between calls; an instance that served one tenant never serves
// another, and without a tenant every call has a new instance.
func TestWASMInstancesStayWithTheirTenant(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{PoolSize: 1})
	// Each call adds one to the digit of {"data":{"n":0}} in its memory.
	const digit = 2048 + 13
	body := append([]byte{0x41}, sleb(digit)...)
	body = append(append(body, 0x41), sleb(digit)...)
	body = append(body, 0x2d, 0, 0, 0x41, 1, 0x6a, 0x3a, 0, 0)
	body = append(body, i64Result(2048, 16)...)
	c, err := e.WASMCodec(context.Background(), wasmModule(body, `{"data":{"n":0}}`))
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		tenant string
		want   float64
	}{{"acme", 1}, {"acme", 2}, {"beta", 1}, {"acme", 1}, {"", 1}, {"", 1}, {"acme", 1}, {"acme", 2}}
	var got []float64
	for _, s := range steps {
		r, err := c.DecodeUplink(context.Background(), sandbox.Input{Tenant: s.tenant}, roomy)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.Data["n"].(float64))
	}
	var want []float64
	for _, s := range steps {
		want = append(want, s.want)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("counts %v, want %v", got, want)
	}
}
