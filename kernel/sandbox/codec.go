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
// Every call of a JavaScript codec starts from the state the codec was in
// right after it was loaded: globals it set, prototypes it changed and
// memory it took in one call are gone in the next. A trusted codec
// (TrustedCodec) is the exception: after a call that ended well its
// instance frees what the call made and goes on without the copy, for up to
// a thousand calls, so that a built-in codec must not keep state in
// globals (none does; they are reviewed). A WASM module's instance
// is reused as it is; a module should keep no state between calls. An
// instance that broke a limit, trapped or grew its memory far is closed.
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

// Trusted reports whether the codec runs in the fast runtime (TrustedCodec).
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
	out, log, dur, err := c.run(ctx, op, jsCallInput{form: form, recvTime: in.RecvTime, fPort: in.FPort, bytes: in.Bytes, variables: vars}, c.e.Limits(lim))
	res := Result{Log: log, Duration: dur, Form: form}
	if err != nil {
		return res, err
	}
	res.Raw = out.raw
	return res, res.fill(form, out)
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
	out, log, dur, err := c.run(ctx, OpEncodeDownlink, jsCallInput{form: form, fPort: in.FPort, variables: vars, data: dataJSON}, c.e.Limits(lim))
	res := EncodeResult{Log: log, Duration: dur, Form: form, FPort: in.FPort}
	if err != nil {
		return res, err
	}
	res.Raw = out.raw
	return res, res.fill(form, out)
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

func (c *Codec) run(ctx context.Context, op Operation, in jsCallInput, lim Limits) (output, []string, time.Duration, error) {
	if c.e.closed.Load() {
		return output{}, nil, 0, ErrClosed
	}
	defer c.touch()
	if c.wasm != nil {
		raw, log, dur, err := c.wasm.call(ctx, op, in, lim)
		return output{raw: raw}, log, dur, err
	}
	vm, err := c.pool.get(ctx)
	if err != nil {
		return output{}, nil, 0, err
	}
	out, log, dur, keep, err := vm.invoke(ctx, in, lim)
	if keep && !vm.reuse() {
		if rerr := vm.restore(c.img, false); rerr != nil {
			keep = false
		}
	}
	if keep {
		c.pool.put(vm)
	} else {
		c.pool.discard(vm)
		c.e.log.Debug("closed a codec instance after a failed call", "codec", c.hash[:12], "error", err)
	}
	return out, log, dur, err
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
