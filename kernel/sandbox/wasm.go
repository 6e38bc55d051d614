package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"
)

// This file runs WebAssembly decoders through the ABI that
// sdk/decoder documents: fieldhub_alloc, then fieldhub_<operation>(ptr, len)
// returning (ptr << 32 | len) of the JSON result, WASI preview 1 with no
// files, no environment and no arguments.

// ABI export names.
const (
	abiMarker = "fieldhub_abi_v1"
	abiAlloc  = "fieldhub_alloc"
	// abiOperations, optional, returns the bit mask of the operations the
	// module implements, bit i for Operation i.
	abiOperations = "fieldhub_operations"
)

var abiOps = [...]string{
	OpDecodeUplink:   "fieldhub_decode_uplink",
	OpEncodeDownlink: "fieldhub_encode_downlink",
	OpDecodeDownlink: "fieldhub_decode_downlink",
}

var opForm = [...]Form{
	OpDecodeUplink:   FormDecodeUplink,
	OpEncodeDownlink: FormEncodeDownlink,
	OpDecodeDownlink: FormDecodeDownlink,
}

// wasmRuntime is a wazero runtime whose memory limit is one page count:
// wazero sets the limit per runtime, so each memory limit in use has one.
type wasmRuntime struct {
	rt    wazero.Runtime
	pages uint32
}

func (e *Engine) wasmRuntime(ctx context.Context, pages uint32) (*wasmRuntime, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed.Load() {
		return nil, ErrClosed
	}
	if r, ok := e.wasmRT[pages]; ok {
		return r, nil
	}
	cfg := wazero.NewRuntimeConfig().
		WithCompilationCache(e.cache).
		WithCloseOnContextDone(true).
		WithMemoryLimitPages(pages)
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		rt.Close(ctx)
		return nil, fmt.Errorf("instantiate WASI: %w", err)
	}
	r := &wasmRuntime{rt: rt, pages: pages}
	e.wasmRT[pages] = r
	return r, nil
}

func memoryPages(n int64) uint32 { return uint32((n + 1<<16 - 1) >> 16) }

// wasmModule is a WASM decoder: its bytes, compiled once per runtime, and a
// pool of instances per memory limit.
type wasmModule struct {
	e      *Engine
	module []byte
	forms  uint32
	ops    [3]bool
	// minPages is the memory the module declares it needs to start.
	minPages uint32

	mu    sync.Mutex
	pools map[uint32]*pool[*wasmVM]
}

// loadWASM checks a module against the ABI and starts one instance.
func (e *Engine) loadWASM(ctx context.Context, module []byte) (*wasmModule, error) {
	invalid := abiError
	r, err := e.wasmRuntime(ctx, memoryPages(e.opts.Limits.Memory))
	if err != nil {
		return nil, err
	}
	compiled, err := r.rt.CompileModule(ctx, module)
	if err != nil {
		return nil, &Error{Kind: KindLoad, Message: "the module is not valid WebAssembly: " + err.Error()}
	}
	defer compiled.Close(ctx)
	for _, f := range compiled.ImportedFunctions() {
		if mod, name, _ := f.Import(); mod != wasi_snapshot_preview1.ModuleName {
			return nil, invalid("it imports %s.%s; only WASI preview 1 (%s) is provided", mod, name, wasi_snapshot_preview1.ModuleName)
		}
	}
	exports := compiled.ExportedFunctions()
	if _, ok := compiled.ExportedMemories()["memory"]; !ok {
		return nil, invalid("it exports no memory named \"memory\"")
	}
	if _, ok := exports[abiMarker]; !ok {
		return nil, invalid("it exports no %s function", abiMarker)
	}
	_, reactor := exports["_initialize"]
	if _, command := exports["_start"]; command && !reactor {
		return nil, invalid("it is a WASI command (it exports _start): build it as a reactor, e.g. go build -buildmode=c-shared")
	}
	if !signature(exports[abiAlloc], []api.ValueType{api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}) {
		return nil, invalid("it exports no %s(size i32) i32", abiAlloc)
	}
	m := &wasmModule{e: e, module: module, pools: map[uint32]*pool[*wasmVM]{}, minPages: compiled.ExportedMemories()["memory"].Min()}
	for op, name := range abiOps {
		f, ok := exports[name]
		if !ok {
			continue
		}
		if !signature(f, []api.ValueType{api.ValueTypeI32, api.ValueTypeI32}, []api.ValueType{api.ValueTypeI64}) {
			return nil, invalid("%s must take (ptr i32, len i32) and return i64", name)
		}
		m.ops[op] = true
		m.forms |= 1 << opForm[op]
	}
	if m.forms == 0 {
		return nil, invalid("it exports none of %s", strings.Join(abiOps[:], ", "))
	}
	p, err := m.pool(ctx, memoryPages(e.opts.Limits.Memory))
	if err != nil {
		return nil, err
	}
	vm, err := p.get(ctx)
	if err != nil {
		return nil, err
	}
	p.put(vm)
	if err := m.readOperations(ctx, vm); err != nil {
		m.close()
		return nil, err
	}
	return m, nil
}

// readOperations narrows the module's operations to those it says it
// implements: a module may export all of them but implement fewer.
func (m *wasmModule) readOperations(ctx context.Context, vm *wasmVM) error {
	invalid := abiError
	if f := vm.mod.ExportedFunction(abiOperations); f != nil {
		if !signature(f.Definition(), nil, []api.ValueType{api.ValueTypeI32}) {
			return invalid("%s must take nothing and return i32", abiOperations)
		}
		cctx, cancel := context.WithTimeout(ctx, m.e.opts.LoadTimeout)
		defer cancel()
		res, err := f.Call(cctx)
		if err != nil {
			return invalid("%s failed: %v", abiOperations, err)
		}
		m.forms = 0
		for op := range abiOps {
			if m.ops[op] = m.ops[op] && res[0]&(1<<op) != 0; m.ops[op] {
				m.forms |= 1 << opForm[op]
			}
		}
		if m.forms == 0 {
			return invalid("%s reports no operation that it exports", abiOperations)
		}
	}
	return nil
}

func abiError(format string, args ...any) error {
	return &Error{Kind: KindLoad, Message: "the module does not follow the decoder ABI: " + fmt.Sprintf(format, args...)}
}

func signature(f api.FunctionDefinition, params, results []api.ValueType) bool {
	if f == nil {
		return false
	}
	return slicesEqual(f.ParamTypes(), params) && slicesEqual(f.ResultTypes(), results)
}

func slicesEqual(a, b []api.ValueType) bool {
	return string(a) == string(b)
}

// pool returns the instances of the module under a memory limit.
func (m *wasmModule) pool(ctx context.Context, pages uint32) (*pool[*wasmVM], error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if p, ok := m.pools[pages]; ok {
		return p, nil
	}
	if m.minPages > pages {
		return nil, &Error{Kind: KindMemory, Limit: Limits{Memory: int64(pages) << 16},
			Message: fmt.Sprintf("the module needs %s of memory to start, more than the memory limit of %s", formatBytes(int64(m.minPages)<<16), formatBytes(int64(pages)<<16))}
	}
	r, err := m.e.wasmRuntime(ctx, pages)
	if err != nil {
		return nil, err
	}
	compiled, err := r.rt.CompileModule(ctx, m.module)
	if err != nil {
		return nil, fmt.Errorf("compile WASM decoder: %w", err)
	}
	p := newPool(m.e.opts.PoolSize, func(ctx context.Context) (*wasmVM, error) {
		return m.instantiate(ctx, r, compiled)
	})
	m.pools[pages] = p
	return p, nil
}

func (m *wasmModule) trim(cutoff time.Time) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, p := range m.pools {
		n += p.trim(cutoff)
	}
	return n
}

func (m *wasmModule) close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range m.pools {
		p.close()
	}
}

// wasmVM is one instance of a WASM decoder.
type wasmVM struct {
	// owner is the tenant whose calls the instance served, "" for a new
	// instance (wasmModule.instance).
	owner string
	mod   api.Module
	alloc api.Function
	ops   [3]api.Function
	pages uint32
	stack [2]uint64

	now      int64
	deadline time.Time
	log      logBuffer
}

type wasmOutput struct{ vm *wasmVM }

func (w wasmOutput) Write(p []byte) (int, error) {
	w.vm.log.write(p)
	return len(p), nil
}

// monotonic is the start of the sandbox's monotonic clock.
var monotonic = time.Now()

func (m *wasmModule) instantiate(ctx context.Context, r *wasmRuntime, compiled wazero.CompiledModule) (*wasmVM, error) {
	vm := &wasmVM{pages: r.pages, log: logBuffer{max: m.e.opts.MaxLog}}
	cfg := wazero.NewModuleConfig().
		WithName("").
		WithStartFunctions().
		WithStdout(wasmOutput{vm}).
		WithStderr(wasmOutput{vm}).
		// The wall clock is the call's time and stands still; the
		// monotonic clock moves in whole milliseconds.
		WithWalltime(func() (int64, int32) { return vm.now / 1e9, int32(vm.now % 1e9) }, sys.ClockResolution(time.Millisecond)).
		WithNanotime(func() int64 { return int64(time.Since(monotonic).Truncate(time.Millisecond)) }, sys.ClockResolution(time.Millisecond)).
		WithNanosleep(func(ns int64) { time.Sleep(min(time.Duration(ns), time.Until(vm.deadline))) }).
		WithOsyield(func() {}).
		WithRandSource(rand.NewChaCha8([32]byte{'f', 'i', 'e', 'l', 'd', 'h', 'u', 'b'}))
	vm.now = time.Now().Truncate(time.Second).UnixNano()
	vm.deadline = time.Now().Add(m.e.opts.LoadTimeout)
	mod, err := r.rt.InstantiateModule(ctx, compiled, cfg)
	if err != nil {
		return nil, &Error{Kind: KindLoad, Message: "the module does not start: " + err.Error()}
	}
	vm.mod = mod
	vm.alloc = mod.ExportedFunction(abiAlloc)
	for op, name := range abiOps {
		vm.ops[op] = mod.ExportedFunction(name)
	}
	if init := mod.ExportedFunction("_initialize"); init != nil {
		ictx, cancel := context.WithDeadline(ctx, vm.deadline)
		defer cancel()
		if _, err := init.Call(ictx); err != nil {
			mod.Close(ctx)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if ictx.Err() != nil {
				return nil, &Error{Kind: KindLoad, Message: fmt.Sprintf("the module's initialisation took longer than %s", formatDuration(m.e.opts.LoadTimeout))}
			}
			return nil, &Error{Kind: KindLoad, Message: "the module's initialisation failed: " + firstLine(err.Error()) + logTail(vm.log.lines())}
		}
	}
	return vm, nil
}

func (vm *wasmVM) close() { _ = vm.mod.Close(context.Background()) }

func (vm *wasmVM) call(ctx context.Context, f api.Function, a, b uint64) (uint64, error) {
	vm.stack[0], vm.stack[1] = a, b
	if err := f.CallWithStack(ctx, vm.stack[:]); err != nil {
		return 0, err
	}
	return vm.stack[0], nil
}

// call runs one operation on an instance from the pool of lim.Memory.
func (m *wasmModule) call(ctx context.Context, op Operation, in jsCallInput, lim Limits) (raw []byte, log []string, dur time.Duration, err error) {
	input := wasmInput(op, in)
	p, err := m.pool(ctx, memoryPages(lim.Memory))
	if err != nil {
		return nil, nil, 0, err
	}
	vm, err := m.instance(ctx, p, in.tenant)
	if err != nil {
		return nil, nil, 0, err
	}
	start := time.Now()
	clock := in.recvTime
	if clock.IsZero() {
		clock = start.Truncate(time.Second)
	}
	vm.now, vm.deadline, vm.log = clock.UnixNano(), start.Add(lim.Time), logBuffer{max: m.e.opts.MaxLog}
	cctx, cancel := context.WithDeadline(ctx, vm.deadline)
	defer cancel()
	raw, err = vm.invoke(cctx, op, input, m.e.opts.MaxOutput)
	dur = time.Since(start)
	log = vm.log.lines()
	var limit *Error
	if err != nil && !errors.As(err, &limit) {
		switch {
		case ctx.Err() != nil:
			err = ctx.Err()
		case cctx.Err() != nil:
			err = timeLimitError(lim)
		case vm.outOfMemory(log):
			err = memoryLimitError(lim)
		default:
			var exit *sys.ExitError
			if errors.As(err, &exit) {
				err = &Error{Kind: KindCrashed, Message: fmt.Sprintf("the module exited with code %d", exit.ExitCode()) + logTail(log)}
			} else {
				err = &Error{Kind: KindCrashed, Message: "the module failed: " + firstLine(err.Error()) + logTail(log)}
			}
		}
		p.discard(vm)
		return nil, log, dur, err
	}
	if in.tenant == "" {
		// No call's state reaches another call: the instance served one.
		p.discard(vm)
	} else {
		vm.owner = in.tenant
		p.put(vm)
	}
	return raw, log, dur, err
}

// instance takes an instance for a call of tenant: one that served only
// that tenant's calls, or a new one. A module's memory and globals are its
// own to keep between calls (Go's runtime keeps its heap there), so an
// instance of another tenant is closed rather than reset.
func (m *wasmModule) instance(ctx context.Context, p *pool[*wasmVM], tenant string) (*wasmVM, error) {
	rank := func(vm *wasmVM) int {
		if vm.owner == tenant && tenant != "" {
			return 2
		}
		if vm.owner == "" {
			return 1
		}
		return 0
	}
	for {
		vm, err := p.getRanked(ctx, rank)
		if err != nil || vm.owner == "" || (vm.owner == tenant && tenant != "") {
			return vm, err
		}
		p.discard(vm)
	}
}

func (vm *wasmVM) invoke(ctx context.Context, op Operation, input []byte, maxOutput int) ([]byte, error) {
	ptr, err := vm.call(ctx, vm.alloc, uint64(len(input)), 0)
	if err != nil {
		return nil, err
	}
	if !vm.mod.Memory().Write(uint32(ptr), input) {
		return nil, fmt.Errorf("%s returned %#x, outside memory", abiAlloc, ptr)
	}
	res, err := vm.call(ctx, vm.ops[op], ptr, uint64(len(input)))
	if err != nil {
		return nil, err
	}
	outPtr, outLen := uint32(res>>32), uint32(res)
	if int64(outLen) > int64(maxOutput) {
		return nil, outputLimitError(maxOutput)
	}
	b, ok := vm.mod.Memory().Read(outPtr, outLen)
	if !ok {
		return nil, fmt.Errorf("%s returned %d bytes at %#x, outside memory", abiOps[op], outLen, outPtr)
	}
	return append([]byte(nil), b...), nil
}

// outOfMemory tells a module that failed for want of memory: it printed so
// (Go's runtime does), or its memory is within an eighth of the limit (a
// failed memory.grow asked for more than was left).
func (vm *wasmVM) outOfMemory(log []string) bool {
	for _, l := range log {
		if strings.Contains(l, "out of memory") {
			return true
		}
	}
	limit := uint64(vm.pages) << 16
	return uint64(vm.mod.Memory().Size()) >= limit-max(limit/8, 1<<16)
}

// wasmInput is the call's input as the ABI's JSON, the same object a
// JavaScript codec gets.
func wasmInput(op Operation, in jsCallInput) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	if op == OpEncodeDownlink {
		b.WriteString(`"data":`)
		b.Write(in.data)
	} else {
		b.WriteString(`"bytes":[`)
		for i, x := range in.bytes {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(int(x)))
		}
		b.WriteByte(']')
	}
	b.WriteString(`,"fPort":`)
	b.WriteString(strconv.Itoa(in.fPort))
	if op == OpDecodeUplink {
		b.WriteString(`,"recvTime":"`)
		b.WriteString(in.recvTime.UTC().Format("2006-01-02T15:04:05.000Z07:00"))
		b.WriteByte('"')
	}
	b.WriteString(`,"variables":`)
	if in.variables == nil {
		b.WriteString("{}")
	} else {
		b.Write(in.variables)
	}
	b.WriteByte('}')
	return b.Bytes()
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// logTail adds the last lines the module printed to an error message: a Go
// panic's message is there.
func logTail(log []string) string {
	if len(log) == 0 {
		return ""
	}
	tail := log[max(0, len(log)-3):]
	return " (" + strings.Join(tail, " / ") + ")"
}
