package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"time"
)

// Codec is a loaded codec, JavaScript or WebAssembly. It is safe for
// concurrent use: each call takes a warm instance from the codec's pool (at
// most Options.PoolSize exist; a call waits while all are busy).
//
// A JavaScript codec's instance starts from the state the codec was in right
// after it was loaded (its image), and is put back in that state (the image
// copied back) whenever a call must not see what earlier calls left:
//
//   - before a call of a tenant (Input.Tenant) other than the one whose
//     calls the instance served since;
//   - after a call without a tenant, so that each such call starts clean;
//   - after any call that failed (a throw, a limit, a result of the wrong
//     shape), so that it leaves nothing behind;
//   - after a call whose result held an object that outlives the call (a
//     top-level object the codec fills anew for every uplink would carry
//     the fields of one uplink into the next);
//   - after 1,000 calls in a row, and when the instance's memory grew.
//
// So between calls of one tenant that end well, what a codec left (globals
// it set, prototypes it changed, a closure's variables) may reach the next
// call on the same instance; a codec must not count on it, since which
// instance serves a call, and when it is restored, is the sandbox's choice.
// It never reaches a call of another tenant.
//
// A trusted codec (TrustedCodec) ignores tenants: after a call that ended
// well its instance goes on, up to 1,000 calls, so that a built-in codec must
// keep no state (none does; they are reviewed, and a test runs every vector
// in three orders through one instance). A WASM module's instance serves
// one tenant's calls, and is closed rather than reset: a module's memory is
// its own between calls of that tenant; without a tenant each call has a new
// instance. An instance that broke a limit, trapped or grew its memory far
// is closed.
type Codec struct {
	e        *Engine
	kind     string // js, js-trusted or wasm
	hash     string
	forms    uint32
	lastUsed atomic.Int64

	// JavaScript codecs
	img  *jsImage
	pool *pool[*jsVM]

	// WASM decoders
	wasm *wasmModule
}

// Hash is the SHA-256 of the codec's source or module, in hex.
func (c *Codec) Hash() string { return c.hash }

// WASM reports whether the codec is a WebAssembly module.
func (c *Codec) WASM() bool { return c.wasm != nil }

// Forms lists the codec functions the codec defines, in Form order.
func (c *Codec) Forms() []Form {
	var fs []Form
	for f := Form(0); f < formCount; f++ {
		if c.forms&(1<<f) != 0 {
			fs = append(fs, f)
		}
	}
	return fs
}

// Can reports whether the codec defines a function for op.
func (c *Codec) Can(op Operation) bool {
	_, err := c.form(op)
	return err == nil
}

func (c *Codec) form(op Operation) (Form, error) {
	names := make([]string, 0, 3)
	for _, f := range op.forms() {
		if c.forms&(1<<f) != 0 {
			return f, nil
		}
		names = append(names, f.String())
	}
	return 0, &Error{Kind: KindMissing, Message: fmt.Sprintf("the codec cannot %s: it defines no %s function", op, strings.Join(names, ", "))}
}

func (c *Codec) key() string { return c.kind + ":" + c.hash }

// Trusted reports whether the codec was loaded with TrustedCodec.
func (c *Codec) Trusted() bool { return c.kind == "js-trusted" }

// touch records a use. It writes only when the last record is a second
// old: calls on other cores would otherwise bounce the line on every call.
func (c *Codec) touch() {
	now := time.Now().UnixNano()
	if now-c.lastUsed.Load() > int64(time.Second) {
		c.lastUsed.Store(now)
	}
}

func (c *Codec) trim(cutoff time.Time) int {
	if c.wasm != nil {
		return c.wasm.trim(cutoff)
	}
	return c.pool.trim(cutoff)
}

func (c *Codec) count(s *Stats) {
	add := func(busy, idle int) {
		s.Busy += busy
		s.Idle += idle
	}
	if c.wasm != nil {
		c.wasm.mu.Lock()
		defer c.wasm.mu.Unlock()
		for _, p := range c.wasm.pools {
			add(p.count(func(vm *wasmVM) { s.IdleMemory += int64(vm.mod.Memory().Size()) }))
		}
		return
	}
	add(c.pool.count(func(vm *jsVM) { s.IdleMemory += int64(vm.mem.Size()) }))
}

func (c *Codec) close() {
	if c.wasm != nil {
		c.wasm.close()
		return
	}
	c.pool.close()
}

// DecodeUplink decodes an uplink with decodeUplink, Decode or Decoder,
// whichever the codec defines first. The error is an *Error when the codec
// failed (a limit, a throw, a result of the wrong shape) and the context's
// error when ctx ended first; the Result's Log and Duration are set even
// then. What the codec reports about the payload is in Result.Warnings and
// Result.Errors, not in the error.
func (c *Codec) DecodeUplink(ctx context.Context, in Input, lim Limits) (Result, error) {
	if in.RecvTime.IsZero() {
		in.RecvTime = time.Now()
	}
	return c.decode(ctx, OpDecodeUplink, in, lim)
}

// DecodeDownlink decodes a downlink's payload with decodeDownlink, as
// DecodeUplink does. The function gets no recvTime.
func (c *Codec) DecodeDownlink(ctx context.Context, in Input, lim Limits) (Result, error) {
	in.RecvTime = time.Time{}
	return c.decode(ctx, OpDecodeDownlink, in, lim)
}

func (c *Codec) decode(ctx context.Context, op Operation, in Input, lim Limits) (Result, error) {
	form, err := c.form(op)
	if err != nil {
		return Result{}, err
	}
	vars, err := variablesJSON(in.Variables)
	if err != nil {
		return Result{}, err
	}
	res := Result{Form: form}
	res.Log, res.Duration, err = c.run(ctx, op, jsCallInput{form: form, recvTime: in.RecvTime, fPort: in.FPort, bytes: in.Bytes, variables: vars, tenant: in.Tenant}, c.e.Limits(lim),
		func(out output) error {
			res.Raw = out.raw
			return res.fill(form, out)
		})
	return res, err
}

// EncodeDownlink encodes a downlink with encodeDownlink, Encode or Encoder,
// whichever the codec defines first; errors as DecodeUplink.
func (c *Codec) EncodeDownlink(ctx context.Context, in DownlinkInput, lim Limits) (EncodeResult, error) {
	form, err := c.form(OpEncodeDownlink)
	if err != nil {
		return EncodeResult{}, err
	}
	vars, err := variablesJSON(in.Variables)
	if err != nil {
		return EncodeResult{}, err
	}
	data := in.Data
	if data == nil {
		data = map[string]any{}
	}
	dataJSON, err := json.Marshal(data)
	if err != nil {
		return EncodeResult{}, fmt.Errorf("encode downlink data: %w", err)
	}
	res := EncodeResult{Form: form, FPort: in.FPort}
	res.Log, res.Duration, err = c.run(ctx, OpEncodeDownlink, jsCallInput{form: form, fPort: in.FPort, variables: vars, data: dataJSON, tenant: in.Tenant}, c.e.Limits(lim),
		func(out output) error {
			res.Raw = out.raw
			return res.fill(form, out)
		})
	return res, err
}

// output is a call's result: its JSON, and the value that JSON reads as
// when the call already made it (parsed).
type output struct {
	raw    []byte
	value  any
	parsed bool
}

// read gives the value of the result's JSON.
func (o output) read() (any, error) {
	if o.parsed {
		return o.value, nil
	}
	var v any
	err := json.Unmarshal(o.raw, &v)
	return v, err
}

// run runs one call and reads its output with fill, whose error is the
// call's: a result of the wrong shape is a failed call.
func (c *Codec) run(ctx context.Context, op Operation, in jsCallInput, lim Limits, fill func(output) error) ([]string, time.Duration, error) {
	if c.e.closed.Load() {
		return nil, 0, ErrClosed
	}
	defer c.touch()
	if c.wasm != nil {
		raw, log, dur, err := c.wasm.call(ctx, op, in, lim)
		if err == nil {
			err = fill(output{raw: raw})
		}
		return log, dur, err
	}
	vm, err := c.instance(ctx, in.tenant)
	if err != nil {
		return nil, 0, err
	}
	out, log, dur, keep, err := vm.invoke(ctx, in, lim)
	if err == nil {
		err = fill(out)
	}
	if keep && !c.settle(vm, in.tenant, err) {
		keep = false
	}
	if keep {
		c.pool.put(vm)
	} else {
		c.pool.discard(vm)
		c.e.log.Debug("closed a codec instance after a failed call", "codec", c.hash[:12], "error", err)
	}
	return log, dur, err
}

// instance takes an instance for a call of tenant: one that tenant's calls
// left state in, or one without any, or else one whose image is copied
// back first, so that no state of another tenant's calls reaches the call.
func (c *Codec) instance(ctx context.Context, tenant string) (*jsVM, error) {
	rank := func(vm *jsVM) int {
		switch vm.owner {
		case tenant:
			return 2
		case "":
			return 1
		}
		return 0
	}
	for {
		vm, err := c.pool.getRanked(ctx, rank)
		if err != nil {
			return nil, err
		}
		if vm.owner == "" || vm.owner == tenant {
			return vm, nil
		}
		if err := vm.restore(c.img, false); err == nil {
			return vm, nil
		}
		c.pool.discard(vm)
	}
}

// settle decides what becomes of an instance after a call that left it
// usable (err is the call's): it goes on as it is, or has its image copied
// back now. It reports false when the instance must be closed instead.
//
// A trusted codec's instance goes on after a call that freed what it made,
// up to restoreEvery calls in a row. Another codec's instance goes on only
// after a call of a tenant that ended well, freed what it made and returned
// nothing that outlives it (vm.shared), and then only for calls of that
// tenant (Codec.instance): any failure, a call without a tenant, and a
// result that shares an object with the codec's globals restore the image.
func (c *Codec) settle(vm *jsVM, tenant string, err error) bool {
	if vm.reuse() && (vm.trusted || (err == nil && tenant != "" && !vm.shared)) {
		if !vm.trusted {
			vm.owner = tenant
		}
		return true
	}
	return vm.restore(c.img, false) == nil
}

func variablesJSON(v map[string]string) ([]byte, error) {
	if len(v) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode variables: %w", err)
	}
	return b, nil
}

func badResult(form Form, format string, args ...any) *Error {
	return &Error{Kind: KindResult, Message: form.String() + " " + fmt.Sprintf(format, args...)}
}

// fill reads a decode result: {data, warnings, errors} from decodeUplink and
// decodeDownlink, the data object itself from Decode and Decoder.
func (r *Result) fill(form Form, out output) error {
	v, err := out.read()
	if err != nil {
		return badResult(form, "returned JSON that does not parse: %v", err)
	}
	if form == FormDecode || form == FormDecoder {
		obj, ok := v.(map[string]any)
		if !ok {
			return badResult(form, "returned %s, not an object", describeJSON(v))
		}
		r.Data = obj
		return nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return badResult(form, "returned %s, not an object {data, warnings, errors}", describeJSON(v))
	}
	if r.Warnings, err = stringList(form, "warnings", obj["warnings"]); err != nil {
		return err
	}
	if r.Errors, err = stringList(form, "errors", obj["errors"]); err != nil {
		return err
	}
	switch d := obj["data"].(type) {
	case nil:
		if len(r.Errors) == 0 {
			return badResult(form, "returned no data and no errors")
		}
	case map[string]any:
		r.Data = d
	default:
		return badResult(form, "returned data that is %s, not an object", describeJSON(d))
	}
	return nil
}

// fill reads an encode result: {bytes, fPort, warnings, errors} from
// encodeDownlink, the bytes themselves from Encode and Encoder.
func (r *EncodeResult) fill(form Form, out output) error {
	v, err := out.read()
	if err != nil {
		return badResult(form, "returned JSON that does not parse: %v", err)
	}
	if form == FormEncode || form == FormEncoder {
		b, err := byteList(form, v)
		r.Bytes = b
		return err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return badResult(form, "returned %s, not an object {bytes, fPort, warnings, errors}", describeJSON(v))
	}
	if r.Warnings, err = stringList(form, "warnings", obj["warnings"]); err != nil {
		return err
	}
	if r.Errors, err = stringList(form, "errors", obj["errors"]); err != nil {
		return err
	}
	if obj["bytes"] == nil && len(r.Errors) > 0 {
		return nil
	}
	if r.Bytes, err = byteList(form, obj["bytes"]); err != nil {
		return err
	}
	switch p := obj["fPort"].(type) {
	case nil:
	case float64:
		if p != math.Trunc(p) || p < 1 || p > 255 {
			return badResult(form, "returned fPort %v, not a port from 1 to 255", p)
		}
		r.FPort = int(p)
	default:
		return badResult(form, "returned fPort that is %s, not a number", describeJSON(p))
	}
	return nil
}

func stringList(form Form, field string, v any) ([]string, error) {
	switch l := v.(type) {
	case nil:
		return nil, nil
	case []any:
		out := make([]string, 0, len(l))
		for _, x := range l {
			if s, ok := x.(string); ok {
				out = append(out, s)
				continue
			}
			b, _ := json.Marshal(x)
			out = append(out, string(b))
		}
		return out, nil
	}
	return nil, badResult(form, "returned %s that is %s, not an array", field, describeJSON(v))
}

func byteList(form Form, v any) ([]byte, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, badResult(form, "returned bytes that are %s, not an array", describeJSON(v))
	}
	out := make([]byte, len(l))
	for i, x := range l {
		n, ok := x.(float64)
		if !ok || n != math.Trunc(n) || n < 0 || n > 255 {
			return nil, badResult(form, "returned bytes[%d] = %s, not an integer from 0 to 255", i, describeJSON(x))
		}
		out[i] = byte(n)
	}
	return out, nil
}

func describeJSON(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64:
		return fmt.Sprintf("the number %v", x)
	}
	return fmt.Sprintf("%T", v)
}
