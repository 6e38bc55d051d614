package sandbox_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/sandbox"
)

var (
	exampleOnce sync.Once
	exampleWASM []byte
	exampleErr  error
)

// exampleDecoder builds examples/decoder-wasm with GOOS=wasip1 into a
// temporary folder, once per test binary.
func exampleDecoder(t testing.TB) []byte {
	t.Helper()
	exampleOnce.Do(func() {
		dir, err := os.MkdirTemp("", "decoder-example")
		if err != nil {
			exampleErr = err
			return
		}
		defer os.RemoveAll(dir)
		out := filepath.Join(dir, "decoder.wasm")
		cmd := exec.Command("go", "build", "-buildmode=c-shared", "-o", out, "./examples/decoder-wasm")
		cmd.Dir = filepath.Join("..", "..")
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
		if msg, err := cmd.CombinedOutput(); err != nil {
			exampleErr = errors.New(string(msg) + err.Error())
			return
		}
		exampleWASM, exampleErr = os.ReadFile(out)
	})
	if exampleErr != nil {
		t.Fatalf("build examples/decoder-wasm: %v", exampleErr)
	}
	return exampleWASM
}

func TestWASMExampleDecoder(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{})
	ctx := context.Background()
	c, err := e.WASMCodec(ctx, exampleDecoder(t))
	if err != nil {
		t.Fatal(err)
	}
	if !c.WASM() || !reflect.DeepEqual(c.Forms(), []sandbox.Form{sandbox.FormDecodeUplink, sandbox.FormEncodeDownlink, sandbox.FormDecodeDownlink}) {
		t.Errorf("forms %v", c.Forms())
	}
	decodes := []struct {
		name  string
		in    sandbox.Input
		data  map[string]any
		warns []string
		errs  []string
	}{
		{"a measurement", sandbox.Input{FPort: 1, Bytes: []byte{0x08, 0xfc, 0x50, 0x0e, 0x10}, RecvTime: recv},
			map[string]any{"temperature": 23.0, "humidity": 40.0, "battery_voltage": 3.6}, nil, nil},
		{"humidity above 100 %", sandbox.Input{FPort: 1, Bytes: []byte{0xff, 0x38, 0xd2, 0x0b, 0xb8}},
			map[string]any{"temperature": -2.0, "humidity": 105.0, "battery_voltage": 3.0}, []string{"humidity above 100 %"}, nil},
		{"alarms", sandbox.Input{FPort: 2, Bytes: []byte{0x03}},
			map[string]any{"door_open": true, "leak": true}, nil, nil},
		{"too short", sandbox.Input{FPort: 1, Bytes: []byte{1}},
			map[string]any{}, nil, []string{"a measurement has 5 bytes, this one 1"}},
		{"an unknown port", sandbox.Input{FPort: 9},
			map[string]any{}, nil, []string{"unknown fPort 9"}},
	}
	for _, tc := range decodes {
		r, err := c.DecodeUplink(ctx, tc.in, roomy)
		if err != nil || !reflect.DeepEqual(r.Data, tc.data) || !reflect.DeepEqual(r.Warnings, tc.warns) || !reflect.DeepEqual(r.Errors, tc.errs) {
			t.Errorf("%s: %+v %v", tc.name, r, err)
		}
	}
	d, err := c.EncodeDownlink(ctx, sandbox.DownlinkInput{Data: map[string]any{"interval": 90}, FPort: 3}, roomy)
	if err != nil || !bytes.Equal(d.Bytes, []byte{1, 0, 90}) || d.FPort != 10 {
		t.Errorf("encode: %+v %v", d, err)
	}
	d, err = c.EncodeDownlink(ctx, sandbox.DownlinkInput{Data: map[string]any{"interval": -1}}, roomy)
	if err != nil || len(d.Errors) != 1 || len(d.Bytes) != 0 {
		t.Errorf("encode an invalid interval: %+v %v", d, err)
	}
	r, err := c.DecodeDownlink(ctx, sandbox.Input{FPort: 10, Bytes: []byte{1, 0, 90}}, roomy)
	if err != nil || r.Data["interval"] != 90.0 {
		t.Errorf("decode downlink: %+v %v", r, err)
	}
	again, err := e.WASMCodec(ctx, exampleDecoder(t))
	if err != nil || again != c {
		t.Errorf("the same module loads one codec: %v", err)
	}
}

// wasmModule assembles a small WebAssembly module by hand, for the cases no
// toolchain would build: one memory, the ABI marker and fieldhub_alloc, and
// fieldhub_decode_uplink with the given body; a data segment at 2048.
func wasmModule(decodeBody []byte, data string, extra ...func(*wasmBuilder)) []byte {
	b := &wasmBuilder{}
	b.fn("fieldhub_abi_v1", nil, nil, []byte{0x0b})
	b.fn("fieldhub_alloc", []byte{0x7f}, []byte{0x7f}, []byte{0x41, 0x80, 0x08, 0x0b}) // i32.const 1024
	if decodeBody != nil {
		b.fn("fieldhub_decode_uplink", []byte{0x7f, 0x7f}, []byte{0x7e}, decodeBody)
	}
	b.data = data
	for _, f := range extra {
		f(b)
	}
	return b.bytes()
}

type wasmBuilder struct {
	names   []string
	types   [][2][]byte
	bodies  [][]byte
	data    string
	more    map[uint32]string // more data segments by address
	imports []wasmImport
	noMem   bool
}

type wasmImport struct {
	module, name    string
	params, results []byte
}

func (b *wasmBuilder) fn(name string, params, results, body []byte) {
	b.names = append(b.names, name)
	b.types = append(b.types, [2][]byte{params, results})
	b.bodies = append(b.bodies, body)
}

func uleb(n uint64) []byte { return binary.AppendUvarint(nil, n) }

func vec(items ...[]byte) []byte {
	out := uleb(uint64(len(items)))
	for _, it := range items {
		out = append(out, it...)
	}
	return out
}

func str(s string) []byte { return append(uleb(uint64(len(s))), s...) }

func section(id byte, body []byte) []byte {
	return append(append([]byte{id}, uleb(uint64(len(body)))...), body...)
}

func (b *wasmBuilder) bytes() []byte {
	out := []byte{0, 'a', 's', 'm', 1, 0, 0, 0}
	var types, funcs, exports, code, imports [][]byte
	for i, t := range b.types {
		types = append(types, append(append([]byte{0x60}, append(uleb(uint64(len(t[0]))), t[0]...)...), append(uleb(uint64(len(t[1]))), t[1]...)...))
		funcs = append(funcs, uleb(uint64(i+len(b.imports))))
		body := append([]byte{0}, b.bodies[i]...) // no locals
		code = append(code, append(uleb(uint64(len(body))), body...))
	}
	for _, imp := range b.imports {
		types = append(types, append(append([]byte{0x60}, append(uleb(uint64(len(imp.params))), imp.params...)...), append(uleb(uint64(len(imp.results))), imp.results...)...))
		imports = append(imports, append(append(str(imp.module), str(imp.name)...), 0x00, byte(len(types)-1)))
	}
	for i, n := range b.names {
		exports = append(exports, append(str(n), 0x00, byte(i+len(b.imports))))
	}
	if !b.noMem {
		exports = append(exports, append(str("memory"), 0x02, 0))
	}
	// Imported functions take the first indices: renumber the types of the
	// defined ones after the imports' types.
	if len(b.imports) > 0 {
		types = append(types[len(b.types):], types[:len(b.types)]...)
		for i := range imports {
			imports[i][len(imports[i])-1] = byte(i)
		}
		for i := range funcs {
			funcs[i] = uleb(uint64(i + len(b.imports)))
		}
	}
	out = append(out, section(1, vec(types...))...)
	if len(imports) > 0 {
		out = append(out, section(2, vec(imports...))...)
	}
	out = append(out, section(3, vec(funcs...))...)
	if !b.noMem {
		out = append(out, section(5, vec([]byte{0x00, 1}))...) // memory: min 1 page
	}
	out = append(out, section(7, vec(exports...))...)
	out = append(out, section(10, vec(code...))...)
	var segs [][]byte
	if b.data != "" {
		segs = append(segs, append([]byte{0x00, 0x41, 0x80, 0x10, 0x0b}, str(b.data)...)) // i32.const 2048
	}
	for at, d := range b.more {
		seg := append(append([]byte{0x00, 0x41}, sleb(int64(at))...), 0x0b)
		segs = append(segs, append(seg, str(d)...))
	}
	if len(segs) > 0 {
		out = append(out, section(11, vec(segs...))...)
	}
	return out
}

// i64Result is a body that returns (ptr << 32 | len).
func i64Result(ptr, n uint32) []byte {
	v := int64(uint64(ptr)<<32 | uint64(n))
	return append(append([]byte{0x42}, sleb(v)...), 0x0b)
}

func sleb(v int64) []byte {
	var out []byte
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(out, c)
		}
		out = append(out, c|0x80)
	}
}

func TestWASMWithoutWASI(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{})
	out := `{"data":{"ok":true},"warnings":["w"]}`
	c, err := e.WASMCodec(context.Background(), wasmModule(i64Result(2048, uint32(len(out))), out))
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.DecodeUplink(context.Background(), sandbox.Input{Bytes: []byte{1}}, sandbox.Limits{})
	if err != nil || r.Data["ok"] != true || !reflect.DeepEqual(r.Warnings, []string{"w"}) || string(r.Raw) != out {
		t.Errorf("%+v %v", r, err)
	}
	if _, err := c.EncodeDownlink(context.Background(), sandbox.DownlinkInput{}, sandbox.Limits{}); !errors.Is(err, sandbox.ErrNotDefined) {
		t.Errorf("an operation the module lacks: %v", err)
	}
}

func TestWASMModulesOutsideTheABI(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{})
	ok := i64Result(2048, 2)
	cases := []struct {
		name, message string
		module        []byte
	}{
		{"not WebAssembly", "the module is not valid WebAssembly", []byte("\x00asm garbage")},
		{"no operation", "it exports none of fieldhub_decode_uplink", wasmModule(nil, "")},
		{"no memory", `it exports no memory named "memory"`, wasmModule(ok, "", func(b *wasmBuilder) { b.noMem = true })},
		{"no ABI marker", "it exports no fieldhub_abi_v1 function", func() []byte {
			b := &wasmBuilder{}
			b.fn("fieldhub_alloc", []byte{0x7f}, []byte{0x7f}, []byte{0x41, 0, 0x0b})
			b.fn("fieldhub_decode_uplink", []byte{0x7f, 0x7f}, []byte{0x7e}, ok)
			return b.bytes()
		}()},
		{"an import beside WASI", "it imports env.host_secret; only WASI preview 1", wasmModule(ok, "", func(b *wasmBuilder) {
			b.imports = append(b.imports, wasmImport{module: "env", name: "host_secret"})
		})},
		{"a WASI command", "it is a WASI command (it exports _start)", wasmModule(ok, "", func(b *wasmBuilder) {
			b.fn("_start", nil, nil, []byte{0x0b})
		})},
		{"an operation of the wrong type", "fieldhub_decode_downlink must take (ptr i32, len i32) and return i64", wasmModule(ok, "", func(b *wasmBuilder) {
			b.fn("fieldhub_decode_downlink", nil, nil, []byte{0x0b})
		})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.WASMCodec(context.Background(), tc.module)
			var se *sandbox.Error
			if !errors.As(err, &se) || se.Kind != sandbox.KindLoad || !strings.Contains(se.Message, tc.message) {
				t.Errorf("got %v, want %q", err, tc.message)
			}
		})
	}
}

func TestWASMLimits(t *testing.T) {
	e := newEngine(t, sandbox.Options{})
	s := startStream(t, e, 1)
	defer s.end(t)
	cases := []struct {
		name   string
		body   []byte
		data   string
		limits sandbox.Limits
		want   error
	}{
		// loop; br 0; end; unreachable
		{"an infinite loop", []byte{0x03, 0x40, 0x0c, 0x00, 0x0b, 0x00, 0x0b}, "", sandbox.Limits{}, sandbox.ErrTimeLimit},
		// loop; i32.const 1; memory.grow; i32.const -1; i32.ne; br_if 0; end; unreachable
		{"memory grown until it fails", []byte{0x03, 0x40, 0x41, 0x01, 0x40, 0x00, 0x41, 0x7f, 0x47, 0x0d, 0x00, 0x0b, 0x00, 0x0b}, "", sandbox.Limits{Memory: 4 << 20, Time: hang}, sandbox.ErrMemoryLimit},
		{"a trap", []byte{0x00, 0x0b}, "", sandbox.Limits{}, sandbox.ErrCrashed},
		{"output outside memory", i64Result(0xffff0000, 16), "", sandbox.Limits{}, sandbox.ErrCrashed},
		{"output over the limit", i64Result(2048, 2<<20), "", sandbox.Limits{}, sandbox.ErrOutputLimit},
		{"output that is not JSON", i64Result(2048, 8), "not json", sandbox.Limits{}, sandbox.ErrBadResult},
		{"output of the wrong shape", i64Result(2048, 7), `{"a":1}`, sandbox.Limits{}, sandbox.ErrBadResult},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := e.WASMCodec(context.Background(), wasmModule(tc.body, tc.data))
			if err != nil {
				t.Fatal(err)
			}
			for call := 0; call < 2; call++ {
				start := time.Now()
				_, err := c.DecodeUplink(context.Background(), sandbox.Input{}, tc.limits)
				if !errors.Is(err, tc.want) {
					t.Errorf("call %d: got %v, want %v", call, err, tc.want)
				}
				if took := time.Since(start); took > hang {
					t.Errorf("call %d hung for %v", call, took)
				}
			}
		})
	}
}

func TestWASMGoDecoderLimits(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{})
	c, err := e.WASMCodec(context.Background(), exampleDecoder(t))
	if err != nil {
		t.Fatal(err)
	}
	// A Go module needs a few MiB to start: under a tiny limit it cannot.
	_, err = c.DecodeUplink(context.Background(), sandbox.Input{FPort: 1, Bytes: []byte{1, 2, 3, 4, 5}}, sandbox.Limits{Memory: 1 << 20})
	var se *sandbox.Error
	if !errors.As(err, &se) || se.Kind != sandbox.KindMemory || !strings.Contains(se.Message, "more than the memory limit of 1 MiB") {
		t.Errorf("a 1 MiB limit: %v", err)
	}
	r, err := c.DecodeUplink(context.Background(), sandbox.Input{FPort: 2, Bytes: []byte{1}}, sandbox.Limits{Memory: 32 << 20, Time: roomy.Time})
	if err != nil || r.Data["door_open"] != true {
		t.Errorf("another company's limit: %v %v", r.Data, err)
	}
}

// TestWASMOutputIsTheLog has a module write to stdout and stderr through
// WASI's fd_write: the lines are the call's log, not the server's output.
func TestWASMOutputIsTheLog(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{})
	out := `{"data":{}}`
	// fd_write(fd, iovs 3000, 1 iovec, nwritten at 3100), for stdout then stderr.
	write := func(fd byte) []byte {
		return []byte{0x41, fd, 0x41, 0xb8, 0x17, 0x41, 0x01, 0x41, 0x9c, 0x18, 0x10, 0x00, 0x1a}
	}
	body := append(append(write(1), write(2)...), i64Result(2048, uint32(len(out)))...)
	module := wasmModule(body, out, func(b *wasmBuilder) {
		b.imports = append(b.imports, wasmImport{module: "wasi_snapshot_preview1", name: "fd_write",
			params: []byte{0x7f, 0x7f, 0x7f, 0x7f}, results: []byte{0x7f}})
		// The iovec at 3000 points at 3008, six bytes.
		b.more = map[uint32]string{3000: "\xc0\x0b\x00\x00\x06\x00\x00\x00", 3008: "hello\n"}
	})
	c, err := e.WASMCodec(context.Background(), module)
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.DecodeUplink(context.Background(), sandbox.Input{}, roomy)
	if err != nil || !reflect.DeepEqual(r.Log, []string{"hello", "hello"}) {
		t.Errorf("log %q, %v", r.Log, err)
	}
}
