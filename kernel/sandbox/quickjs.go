package sandbox

import (
	"context"
	_ "embed"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// This file drives quickjs.wasm (the npm package quickjs-wasi, QuickJS-NG
// built as a WASI reactor) the way the package's own JavaScript host does:
// the same imports (env.host_* and six WASI functions), the same start-up
// (_initialize, qjs_init), the same boxed-value helpers (qjs_*) for set-up,
// and the raw QuickJS C API (JS_Call, JS_NewStringLen, JS_ToCStringLen2),
// which passes JSValues as i64, on the hot path; plus one import of its own,
// the outer guard (instrument.go).
//
// Every instance of one codec starts from the same image: the bytes of linear
// memory above the stack, taken right after the codec was loaded. Copying the
// image back makes an instance as it was then, with nothing of what calls
// left (globals, prototype changes, the heap); Codec.run says when it is
// copied back.

//go:embed bootstrap.js
var bootstrapJS string

const (
	// ioSize is the input buffer (a Uint8Array the bootstrap made) that the
	// host writes each call's input into.
	ioSize = 64 << 10
	// ioHeader is where the payload starts.
	ioHeader = 16
	// The last 128 bytes of the buffer hold what the QuickJS API reads
	// through pointers: the arguments of run (runArgs JSValues) or encode,
	// the argument of describe and install, and two size_t out-parameters.
	ioRunArgv  = ioSize - 128
	ioOneArgv  = ioSize - 32
	ioLen      = ioSize - 16
	ioLogLen   = ioSize - 8
	ioDataEnds = ioRunArgv

	// stackLimit is QuickJS's stack limit: half the 1 MiB stack that
	// quickjs.wasm was linked with (the most quickjs-wasi allows).
	stackLimit = 512 << 10
	// growthSlack is how far an instance's memory may grow past its image
	// before it is closed rather than reset (WebAssembly memory never
	// shrinks, and after a reset the allocator no longer knows the pages
	// a big call added).
	growthSlack = 4 << 20
	// describeTime and describeMemory bound the describing of an
	// exception, which runs the thrower's getters.
	describeTime   = 20 * time.Millisecond
	describeMemory = 1 << 20

	hostLogName = "fieldhub_log"
	codecFile   = "codec.js"
)

// The arguments of the bootstrap's run, in order.
const (
	argForm = iota
	argVariables
	argData
	argFPort
	argBytes
	argRecvTime
	runArgs
)

// JSValue tags of QuickJS-NG on wasm32 (NaN boxing): the upper 32 bits.
// Negative tags are the reference-counted values; tags from tagFloat64 up,
// and below tagFirst, are doubles.
const (
	tagFirst      = -9 // JS_TAG_FIRST
	tagString     = -7
	tagStringRope = -6
	tagObject     = -1
	tagInt        = 0
	tagBool       = 1
	tagNull       = 2
	tagUndef      = 3
	tagException  = 6
	tagFloat64    = 8
	// float64Addend turns a NaN-boxed JSValue back into its double.
	float64Addend = uint64(0x7ff80000-tagFirst+1) << 32
)

const jsUndefined = uint64(3) << 32

func jsInt(v int32) uint64 { return uint64(uint32(v)) }

func jsTag(v uint64) int32 { return int32(v >> 32) }

// probeJS finds the codec's functions, also those declared with let or
// const, which are global bindings but not properties of globalThis.
var probeJS = func() string {
	parts := make([]string, formCount)
	for i, name := range formNames {
		parts[i] = fmt.Sprintf("typeof %[1]s === 'function' ? %[1]s : undefined", name)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}()

type vmKey struct{}

// jsRuntime runs QuickJS instances: quickjs.wasm, instrumented with the
// outer guard (instrument.go) and compiled once, and the base image (QuickJS
// and the bootstrap, no codec) that every codec is loaded on.
//
// The outer guard stops any call a little after its deadline, also inside
// native code that never reaches QuickJS's interrupt handler (JSON.stringify
// of deeply nested data, Array.prototype.reverse over a sparse array of 2^32
// elements): every loop of the compiled code counts down, and the guard's
// host function, called every guardEvery iterations, traps the call once
// its outer deadline has passed.
type jsRuntime struct {
	opts *Options
	eng  *jsEngine
	base *jsImage

	// Where things are in every image: images only ever add to the base.
	stackTop uint32
	rtPtr    uint32
	ctxPtr   uint32
	ioPtr    uint32
	undefBox uint32
	install  uint64
	run      uint64
	describe uint64
	encode   uint64
	// atomToJSON is the atom "toJSON", predefined and so the same in every
	// instance (walk.go).
	atomToJSON uint32
}

// jsEngine is quickjs.wasm compiled in a wazero runtime.
type jsEngine struct {
	rt       wazero.Runtime
	compiled wazero.CompiledModule
}

// jsImage is linear memory above the stack, as it was when the image was
// taken, and the stack pointer then.
type jsImage struct {
	mem   []byte
	sp    uint64
	forms uint32
}

// callState is what the host functions need to know about the call an
// instance is running.
type callState struct {
	deadline    time.Time
	done        <-chan struct{}
	now         int64
	interrupted bool
	memLimit    int64
	log         logBuffer
	// outer is the outer guard's deadline, zero between calls; fired
	// records that the guard stopped the call.
	outer time.Time
	fired bool
}

// errGuard is the panic of the guard's host function, which wazero turns
// into the error of the call it stops.
var errGuard = errors.New("stopped by the sandbox's outer guard")

// guardExpired reports whether the outer guard must stop the call: its
// outer deadline has passed, or its context ended.
func (st *callState) guardExpired() bool {
	if st.outer.IsZero() {
		return false
	}
	if st.done != nil {
		select {
		case <-st.done:
			return true
		default:
		}
	}
	return !time.Now().Before(st.outer)
}

// guard starts the outer guard of a call that must end within d. stop ends
// it and reports whether it stopped the call; the instance's memory must be
// restored or the instance closed then.
func (vm *jsVM) guard(d time.Duration) (stop func() (fired bool)) {
	vm.st.outer, vm.st.fired = time.Now().Add(d), false
	if vm.stopGuard == nil {
		vm.stopGuard = vm.endGuard // made once: a method value allocates
	}
	return vm.stopGuard
}

func (vm *jsVM) endGuard() bool {
	vm.st.outer = time.Time{}
	return vm.st.fired
}

// jsVM is one QuickJS instance.
type jsVM struct {
	js      *jsRuntime
	trusted bool
	img     *jsImage
	mod     api.Module
	mem     api.Memory
	sp      api.MutableGlobal
	rng     *rand.ChaCha8

	jsCall, toCString, newString, setMemLimit, getException, freeCString api.Function
	dupValue, eval, isException, malloc, free, runGC, getPropU32, getU8  api.Function
	freeValue, newArrayFrom, getClassID, getProperty, getLength          api.Function
	getOwnPropertyNames, freePropertyEnum, atomToCString, newDate        api.Function
	dupAtom                                                              api.Function

	// owner is the tenant whose calls left state in the instance since
	// its image was last copied back, "" when none did (Codec.run).
	owner string
	// sinceRestore counts the calls since the image was last copied back.
	sinceRestore int
	// clean is set by a call that freed all it made; shared by one whose
	// result held an object that something else held too, or whose
	// result was not walked.
	clean, shared bool

	stack     [8]uint64
	hstack    [8]uint64
	walkPath  []uint32             // reused by walkJSON
	keys      map[uint32]cachedKey // property names by atom (walk.go)
	st        callState
	stopGuard func() bool // vm.endGuard
}

func newJSRuntime(ctx context.Context, opts *Options, cache wazero.CompilationCache, wasmBytes []byte) (*jsRuntime, error) {
	js := &jsRuntime{opts: opts}
	var err error
	if js.eng, err = newJSEngine(ctx, opts, cache, wasmBytes); err != nil {
		return nil, err
	}
	if err := js.makeBase(ctx); err != nil {
		js.close(ctx)
		return nil, fmt.Errorf("start quickjs: %w", err)
	}
	return js, nil
}

func newJSEngine(ctx context.Context, opts *Options, cache wazero.CompilationCache, wasmBytes []byte) (*jsEngine, error) {
	guarded, err := instrumented(wasmBytes)
	if err != nil {
		return nil, err
	}
	pages := uint32((opts.MaxMemory + growthSlack + 2<<20 + 1<<16 - 1) >> 16)
	cfg := wazero.NewRuntimeConfig().
		WithCompilationCache(cache).
		WithMemoryLimitPages(pages)
	eng := &jsEngine{rt: wazero.NewRuntimeWithConfig(ctx, cfg)}
	if err := instantiateHost(ctx, eng.rt); err != nil {
		eng.rt.Close(ctx)
		return nil, err
	}
	compiled, err := eng.rt.CompileModule(ctx, guarded)
	if err != nil {
		eng.rt.Close(ctx)
		return nil, fmt.Errorf("compile quickjs.wasm: %w", err)
	}
	eng.compiled = compiled
	return eng, nil
}

// instrumented is quickjs.wasm with the outer guard, made once per process.
var instrumented = func() func([]byte) ([]byte, error) {
	var once sync.Once
	var out []byte
	var err error
	return func(wasm []byte) ([]byte, error) {
		once.Do(func() {
			out, err = instrument(wasm)
			if err != nil {
				err = fmt.Errorf("instrument quickjs.wasm: %w", err)
			}
		})
		return out, err
	}
}()

func (js *jsRuntime) close(ctx context.Context) error {
	if js.eng == nil {
		return nil
	}
	return js.eng.rt.Close(ctx)
}

// instantiateHost provides quickjs.wasm's imports: the env.host_* functions
// of quickjs-wasi and the six WASI functions it uses. No filesystem, no
// environment, no network: fd_write goes to the call's log, the clock is
// the call's time and stands still during the call, randomness comes from a
// seeded generator.
func instantiateHost(ctx context.Context, rt wazero.Runtime) error {
	i32, i64 := api.ValueTypeI32, api.ValueTypeI64
	env := rt.NewHostModuleBuilder("env")
	add := func(b wazero.HostModuleBuilder, name string, params, results []api.ValueType, fn api.GoModuleFunc) {
		b.NewFunctionBuilder().WithGoModuleFunction(fn, params, results).Export(name)
	}
	add(env, "host_interrupt", nil, []api.ValueType{i32}, func(ctx context.Context, _ api.Module, s []uint64) {
		s[0] = 0
		if vm, ok := ctx.Value(vmKey{}).(*jsVM); ok && vm.st.expired() {
			vm.st.interrupted = true
			s[0] = 1
		}
	})
	add(env, "host_call", []api.ValueType{i32, i32, i32, i32, i32}, []api.ValueType{i32}, func(ctx context.Context, m api.Module, s []uint64) {
		vm, _ := ctx.Value(vmKey{}).(*jsVM)
		if vm == nil {
			s[0] = 0
			return
		}
		s[0] = uint64(vm.hostCall(ctx, uint32(s[0]), uint32(s[1]), uint32(s[3]), uint32(s[4])))
	})
	// Daylight saving and local time zones would make a codec's output
	// depend on the server: local time is UTC.
	add(env, "host_get_timezone_offset", []api.ValueType{i32, i32}, []api.ValueType{i32}, func(_ context.Context, _ api.Module, s []uint64) { s[0] = 0 })
	// Promise rejections are not tracked (qjs_set_promise_rejection_handler
	// is never called) and there is no module loader: import() fails.
	add(env, "host_promise_rejection", []api.ValueType{i32, i32, i32}, nil, func(context.Context, api.Module, []uint64) {})
	add(env, "host_module_normalize", []api.ValueType{i32, i32}, []api.ValueType{i32}, func(_ context.Context, _ api.Module, s []uint64) { s[0] = 0 })
	add(env, "host_module_load", []api.ValueType{i32, i32}, []api.ValueType{i32}, func(_ context.Context, _ api.Module, s []uint64) { s[0] = 0 })
	if _, err := env.Instantiate(ctx); err != nil {
		return fmt.Errorf("instantiate host module env: %w", err)
	}
	guard := rt.NewHostModuleBuilder(guardModule)
	add(guard, guardName, nil, nil, func(ctx context.Context, _ api.Module, _ []uint64) {
		if vm, ok := ctx.Value(vmKey{}).(*jsVM); ok && vm.st.guardExpired() {
			vm.st.fired = true
			panic(errGuard)
		}
	})
	if _, err := guard.Instantiate(ctx); err != nil {
		return fmt.Errorf("instantiate host module %s: %w", guardModule, err)
	}

	const errnoSuccess, errnoBadf, errnoNosys = 0, 8, 52
	wasi := rt.NewHostModuleBuilder("wasi_snapshot_preview1")
	add(wasi, "clock_time_get", []api.ValueType{i32, i64, i32}, []api.ValueType{i32}, func(ctx context.Context, m api.Module, s []uint64) {
		var now int64
		if vm, ok := ctx.Value(vmKey{}).(*jsVM); ok {
			now = vm.st.now
		}
		m.Memory().WriteUint64Le(uint32(s[2]), uint64(now))
		s[0] = errnoSuccess
	})
	add(wasi, "fd_write", []api.ValueType{i32, i32, i32, i32}, []api.ValueType{i32}, func(ctx context.Context, m api.Module, s []uint64) {
		fd, iovs, n, written := uint32(s[0]), uint32(s[1]), uint32(s[2]), uint32(s[3])
		if fd != 1 && fd != 2 {
			s[0] = errnoBadf
			return
		}
		vm, _ := ctx.Value(vmKey{}).(*jsVM)
		mem := m.Memory()
		var total uint32
		for i := uint32(0); i < n; i++ {
			p, _ := mem.ReadUint32Le(iovs + 8*i)
			l, _ := mem.ReadUint32Le(iovs + 8*i + 4)
			if b, ok := mem.Read(p, l); ok && vm != nil {
				vm.st.log.write(b)
			}
			total += l
		}
		mem.WriteUint32Le(written, total)
		s[0] = errnoSuccess
	})
	add(wasi, "fd_fdstat_get", []api.ValueType{i32, i32}, []api.ValueType{i32}, func(_ context.Context, m api.Module, s []uint64) {
		fd, stat := uint32(s[0]), uint32(s[1])
		if fd != 1 && fd != 2 {
			s[0] = errnoBadf
			return
		}
		var b [24]byte
		b[0] = 2 // character device
		m.Memory().Write(stat, b[:])
		s[0] = errnoSuccess
	})
	add(wasi, "fd_close", []api.ValueType{i32}, []api.ValueType{i32}, func(_ context.Context, _ api.Module, s []uint64) { s[0] = errnoNosys })
	add(wasi, "fd_seek", []api.ValueType{i32, i64, i32, i32}, []api.ValueType{i32}, func(_ context.Context, _ api.Module, s []uint64) { s[0] = errnoNosys })
	add(wasi, "random_get", []api.ValueType{i32, i32}, []api.ValueType{i32}, func(ctx context.Context, m api.Module, s []uint64) {
		if b, ok := m.Memory().Read(uint32(s[0]), uint32(s[1])); ok {
			if vm, ok := ctx.Value(vmKey{}).(*jsVM); ok {
				_, _ = vm.rng.Read(b)
			} else {
				clear(b)
			}
		}
		s[0] = errnoSuccess
	})
	if _, err := wasi.Instantiate(ctx); err != nil {
		return fmt.Errorf("instantiate host module wasi_snapshot_preview1: %w", err)
	}
	return nil
}

func (st *callState) expired() bool {
	if st.done != nil {
		select {
		case <-st.done:
			return true
		default:
		}
	}
	return !time.Now().Before(st.deadline)
}

// newInstance instantiates quickjs.wasm for a trusted codec or another;
// img nil leaves it uninitialised.
func (js *jsRuntime) newInstance(ctx context.Context, img *jsImage, trusted bool) (*jsVM, error) {
	mod, err := js.eng.rt.InstantiateModule(ctx, js.eng.compiled, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil, fmt.Errorf("instantiate quickjs: %w", err)
	}
	vm := &jsVM{js: js, trusted: trusted, mod: mod, mem: mod.Memory(), rng: rand.NewChaCha8([32]byte{'f', 'i', 'e', 'l', 'd', 'h', 'u', 'b'})}
	sp, ok := mod.ExportedGlobal("__stack_pointer").(api.MutableGlobal)
	if !ok {
		mod.Close(ctx)
		return nil, errors.New("quickjs.wasm exports no mutable __stack_pointer")
	}
	vm.sp = sp
	for _, f := range []struct {
		fn   *api.Function
		name string
	}{
		{&vm.jsCall, "JS_Call"}, {&vm.toCString, "JS_ToCStringLen2"}, {&vm.newString, "JS_NewStringLen"},
		{&vm.setMemLimit, "JS_SetMemoryLimit"}, {&vm.getException, "JS_GetException"}, {&vm.freeCString, "JS_FreeCString"},
		{&vm.dupValue, "qjs_dup_value"}, {&vm.eval, "qjs_eval"}, {&vm.isException, "qjs_is_exception"},
		{&vm.malloc, "wasm_malloc"}, {&vm.free, "wasm_free"}, {&vm.runGC, "qjs_run_gc"},
		{&vm.getPropU32, "JS_GetPropertyUint32"}, {&vm.getU8, "JS_GetUint8Array"},
		{&vm.freeValue, "JS_FreeValue"}, {&vm.newArrayFrom, "JS_NewArrayFrom"}, {&vm.getClassID, "JS_GetClassID"},
		{&vm.getProperty, "JS_GetProperty"}, {&vm.getLength, "JS_GetLength"}, {&vm.getOwnPropertyNames, "JS_GetOwnPropertyNames"},
		{&vm.freePropertyEnum, "JS_FreePropertyEnum"}, {&vm.atomToCString, "JS_AtomToCStringLen"},
		{&vm.newDate, "JS_NewDate"}, {&vm.dupAtom, "JS_DupAtom"},
	} {
		if *f.fn = mod.ExportedFunction(f.name); *f.fn == nil {
			mod.Close(ctx)
			return nil, fmt.Errorf("quickjs.wasm exports no %s", f.name)
		}
	}
	if img != nil {
		if err := vm.restore(img, true); err != nil {
			mod.Close(ctx)
			return nil, err
		}
	}
	return vm, nil
}

// restore copies img into linear memory. grow allows growing the memory to
// the image's size (a new instance); without it an instance whose memory
// has grown far past the image reports false, to be closed instead.
func (vm *jsVM) restore(img *jsImage, grow bool) error {
	end := uint64(vm.js.stackTop) + uint64(len(img.mem))
	size := uint64(vm.mem.Size())
	if size < end {
		if !grow {
			return errors.New("memory shrank")
		}
		if _, ok := vm.mem.Grow(uint32((end - size + 1<<16 - 1) >> 16)); !ok {
			return errors.New("grow memory to the image")
		}
	} else if !grow && size > end+growthSlack {
		return errors.New("memory grew past the image")
	}
	buf, ok := vm.mem.Read(vm.js.stackTop, uint32(len(img.mem)))
	if !ok {
		return errors.New("image out of range")
	}
	if grow {
		copy(buf, img.mem)
	} else {
		// The input buffer is written before every read: a reset skips it.
		io := int(vm.js.ioPtr - vm.js.stackTop)
		copy(buf[:io], img.mem[:io])
		copy(buf[io+ioSize:], img.mem[io+ioSize:])
	}
	vm.sp.Set(img.sp)
	vm.img = img
	vm.owner, vm.sinceRestore = "", 0
	// The atoms the walk pinned are gone with the memory they were in.
	clear(vm.keys)
	// Every image was taken with the default limit in force.
	vm.st.memLimit = vm.js.opts.Limits.Memory
	return nil
}

// restoreEvery is how many calls may follow one another in an instance
// without its image being copied back.
const restoreEvery = 1000

// reuse reports whether the instance may take its next call without its
// image being restored as far as the instance goes (Codec.settle decides):
// only after a call that freed what it made, only restoreEvery times in a
// row, and only while its memory stays near the image's size, so that what
// such calls leave (cycles QuickJS's collector has not reached,
// fragmentation, a codec's globals) stays bounded.
func (vm *jsVM) reuse() bool {
	if !vm.clean || vm.sinceRestore >= restoreEvery ||
		uint64(vm.mem.Size()) > uint64(vm.js.stackTop)+uint64(len(vm.img.mem))+growthSlack/2 {
		return false
	}
	vm.sinceRestore++
	return true
}

// snapshot takes the image of the instance as it is now.
func (vm *jsVM) snapshot(forms uint32) (*jsImage, error) {
	size := vm.mem.Size()
	b, ok := vm.mem.Read(vm.js.stackTop, size-vm.js.stackTop)
	if !ok {
		return nil, errors.New("memory below the stack top")
	}
	return &jsImage{mem: append([]byte(nil), b...), sp: vm.sp.Get(), forms: forms}, nil
}

func (vm *jsVM) close() { _ = vm.mod.Close(context.Background()) }

// call calls f with the instance's own stack.
func (vm *jsVM) call(ctx context.Context, f api.Function, args ...uint64) (uint64, error) {
	copy(vm.stack[:], args)
	if err := f.CallWithStack(ctx, vm.stack[:]); err != nil {
		return 0, err
	}
	return vm.stack[0], nil
}

// callNested calls f from inside a host function, which runs while call's
// stack is in use.
func (vm *jsVM) callNested(ctx context.Context, f api.Function, args ...uint64) (uint64, error) {
	copy(vm.hstack[:], args)
	if err := f.CallWithStack(ctx, vm.hstack[:]); err != nil {
		return 0, err
	}
	return vm.hstack[0], nil
}

// hostCall runs a host function called from JavaScript. The one there is,
// hostLog(level, line), appends to the call's log. It returns a box holding
// the result (undefined), which the trampoline frees.
func (vm *jsVM) hostCall(ctx context.Context, namePtr, nameLen, argc, argv uint32) uint32 {
	name, _ := vm.mem.Read(namePtr, nameLen)
	if string(name) == hostLogName && argc == 2 && !vm.st.log.cut {
		levelBox, _ := vm.mem.ReadUint32Le(argv)
		lineBox, _ := vm.mem.ReadUint32Le(argv + 4)
		level, _ := vm.mem.ReadUint64Le(levelBox)
		line, _ := vm.mem.ReadUint64Le(lineBox)
		if jsTag(line) == tagString {
			if p, err := vm.callNested(ctx, vm.toCString, uint64(vm.js.ctxPtr), uint64(vm.js.ioPtr+ioLogLen), line, 0); err == nil && p != 0 {
				n, _ := vm.mem.ReadUint32Le(vm.js.ioPtr + ioLogLen)
				if b, ok := vm.mem.Read(uint32(p), n); ok {
					vm.st.log.line(int32(level), string(b))
				}
				_, _ = vm.callNested(ctx, vm.freeCString, uint64(vm.js.ctxPtr), p)
			}
		}
	}
	box, err := vm.callNested(ctx, vm.dupValue, uint64(vm.js.undefBox))
	if err != nil {
		return 0
	}
	return uint32(box)
}

// begin prepares the instance for a call that must end by deadline.
func (vm *jsVM) begin(ctx context.Context, now time.Time, deadline time.Time) context.Context {
	vm.clean, vm.shared = false, false
	vm.st = callState{deadline: deadline, done: ctx.Done(), now: now.UnixNano(), memLimit: vm.st.memLimit, log: logBuffer{max: vm.js.opts.MaxLog}}
	return context.WithValue(ctx, vmKey{}, vm)
}

// setMemoryLimit sets QuickJS's allocation limit if it is not already n.
func (vm *jsVM) setMemoryLimit(ctx context.Context, n int64) error {
	if vm.st.memLimit == n {
		return nil
	}
	if _, err := vm.call(ctx, vm.setMemLimit, uint64(vm.js.rtPtr), uint64(n)); err != nil {
		return err
	}
	vm.st.memLimit = n
	return nil
}

// writeString copies s into wasm memory (malloc'd; the caller frees or the
// next reset drops it).
func (vm *jsVM) writeString(ctx context.Context, s string) (uint32, error) {
	p, err := vm.call(ctx, vm.malloc, uint64(len(s)+1))
	if err != nil {
		return 0, err
	}
	if p == 0 {
		return 0, errors.New("wasm_malloc failed")
	}
	vm.mem.Write(uint32(p), append([]byte(s), 0))
	return uint32(p), nil
}

// evalScript evaluates src as a classic (sloppy, global) script. It returns
// the script's value, owned by the caller, or the exception.
func (vm *jsVM) evalScript(ctx context.Context, src, filename string) (val uint64, thrown bool, err error) {
	sp, err := vm.writeString(ctx, src)
	if err != nil {
		return 0, false, err
	}
	fp, err := vm.writeString(ctx, filename)
	if err != nil {
		return 0, false, err
	}
	box, err := vm.call(ctx, vm.eval, uint64(sp), uint64(len(src)), uint64(fp), 0)
	if err != nil {
		return 0, false, err
	}
	_, _ = vm.call(ctx, vm.free, uint64(sp))
	_, _ = vm.call(ctx, vm.free, uint64(fp))
	exc, err := vm.call(ctx, vm.isException, box)
	if err != nil {
		return 0, false, err
	}
	if exc != 0 {
		_, _ = vm.call(ctx, vm.free, box)
		v, err := vm.call(ctx, vm.getException, uint64(vm.js.ctxPtr))
		return v, true, err
	}
	// Free the box only: the value's reference passes to the caller.
	val, _ = vm.mem.ReadUint64Le(uint32(box))
	_, err = vm.call(ctx, vm.free, box)
	return val, false, err
}

// readString copies a JavaScript string out of the instance; ok is false when
// v is no string or QuickJS could not convert it (out of memory).
func (vm *jsVM) readString(ctx context.Context, v uint64, lenAt uint32) (s []byte, ok bool, err error) {
	p, err := vm.call(ctx, vm.toCString, uint64(vm.js.ctxPtr), uint64(vm.js.ioPtr+lenAt), v, 0)
	if err != nil || p == 0 {
		return nil, false, err
	}
	n, _ := vm.mem.ReadUint32Le(vm.js.ioPtr + lenAt)
	b, ok := vm.mem.Read(uint32(p), n)
	if !ok {
		return nil, false, errors.New("string out of range")
	}
	s = append([]byte(nil), b...)
	// The C string holds a reference to the string, or a copy of it.
	if _, err := vm.call(ctx, vm.freeCString, uint64(vm.js.ctxPtr), p); err != nil {
		return nil, false, err
	}
	return s, true, nil
}

// makeBase starts QuickJS, runs the bootstrap and takes the base image.
func (js *jsRuntime) makeBase(ctx context.Context) error {
	vm, err := js.newInstance(ctx, nil, true)
	if err != nil {
		return err
	}
	defer vm.close()
	// The epoch as the clock while QuickJS starts: it seeds Math.random
	// from it, so that every instance draws the same numbers.
	cctx := vm.begin(ctx, time.Unix(0, 0), time.Now().Add(js.opts.LoadTimeout))
	if _, err := vm.call(cctx, vm.mod.ExportedFunction("_initialize")); err != nil {
		return fmt.Errorf("_initialize: %w", err)
	}
	if rc, err := vm.call(cctx, vm.mod.ExportedFunction("qjs_init")); err != nil || rc != 0 {
		return fmt.Errorf("qjs_init: %d %v", rc, err)
	}
	sp := vm.sp.Get()
	js.stackTop = uint32(sp)
	for _, f := range []struct {
		out  *uint32
		name string
	}{{&js.rtPtr, "qjs_get_runtime_ptr"}, {&js.ctxPtr, "qjs_get_context_ptr"}, {&js.undefBox, "qjs_get_undefined"}} {
		v, err := vm.call(cctx, vm.mod.ExportedFunction(f.name))
		if err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
		*f.out = uint32(v)
	}
	if _, err := vm.call(cctx, vm.mod.ExportedFunction("qjs_set_max_stack_size"), stackLimit); err != nil {
		return err
	}
	if _, err := vm.call(cctx, vm.mod.ExportedFunction("qjs_set_interrupt_handler"), 1); err != nil {
		return err
	}
	if err := vm.setMemoryLimit(cctx, js.opts.Limits.Memory); err != nil {
		return err
	}
	np, err := vm.writeString(cctx, hostLogName)
	if err != nil {
		return err
	}
	logBox, err := vm.call(cctx, vm.mod.ExportedFunction("qjs_new_host_function"), uint64(np), uint64(len(hostLogName)), 0)
	if err != nil {
		return err
	}
	hostLog, _ := vm.mem.ReadUint64Le(uint32(logBox))
	fn, thrown, err := vm.evalScript(cctx, bootstrapJS, "<sandbox>")
	if err != nil || thrown {
		return fmt.Errorf("bootstrap: thrown %v, %w", thrown, err)
	}
	// The arguments go to memory that stays allocated: the buffer does
	// not exist yet.
	argv, err := vm.call(cctx, vm.malloc, 16)
	if err != nil || argv == 0 {
		return fmt.Errorf("malloc: %w", err)
	}
	vm.mem.WriteUint64Le(uint32(argv), hostLog)
	vm.mem.WriteUint64Le(uint32(argv)+8, jsInt(ioSize))
	arr, err := vm.call(cctx, vm.jsCall, uint64(js.ctxPtr), fn, jsUndefined, 2, argv)
	if err != nil || jsTag(arr) == tagException {
		return fmt.Errorf("bootstrap call: %w", err)
	}
	var parts [5]uint64
	for i := range parts {
		if parts[i], err = vm.call(cctx, vm.getPropU32, uint64(js.ctxPtr), arr, uint64(i)); err != nil {
			return err
		}
	}
	js.install, js.run, js.describe, js.encode = parts[1], parts[2], parts[3], parts[4]
	name, err := vm.writeString(cctx, "toJSON")
	if err != nil {
		return err
	}
	atom, err := vm.call(cctx, vm.mod.ExportedFunction("JS_NewAtomLen"), uint64(js.ctxPtr), uint64(name), uint64(len("toJSON")))
	if err != nil || atom == 0 {
		return fmt.Errorf("atom toJSON: %w", err)
	}
	js.atomToJSON = uint32(atom)
	io, err := vm.call(cctx, vm.getU8, uint64(js.ctxPtr), argv, parts[0])
	if err != nil || io == 0 {
		return fmt.Errorf("io buffer: %w", err)
	}
	js.ioPtr = uint32(io)
	if _, err := vm.call(cctx, vm.runGC); err != nil {
		return err
	}
	js.base, err = vm.snapshot(0)
	return err
}

// loadCodec evaluates a codec's source on the base image and returns the
// instance it was loaded in and the codec's image.
func (js *jsRuntime) loadCodec(ctx context.Context, src string, trusted bool) (*jsVM, *jsImage, error) {
	vm, err := js.newInstance(ctx, js.base, trusted)
	if err != nil {
		return nil, nil, err
	}
	img, err := vm.load(ctx, src)
	if err != nil {
		vm.close()
		return nil, nil, err
	}
	return vm, img, nil
}

func (vm *jsVM) load(ctx context.Context, src string) (*jsImage, error) {
	opts := vm.js.opts
	start := time.Now()
	lim := Limits{Time: opts.LoadTimeout, Memory: opts.Limits.Memory}
	cctx := vm.begin(ctx, start.Truncate(time.Second), start.Add(lim.Time))
	stop := vm.guard(lim.Time + outerGrace(lim.Time))
	defer stop()
	fail := func(err error) (*jsImage, error) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if vm.st.interrupted || stop() {
			return nil, &Error{Kind: KindLoad, Message: fmt.Sprintf("loading the codec took longer than %s", formatDuration(lim.Time)), Limit: Limits{Time: lim.Time}}
		}
		return nil, fmt.Errorf("load codec: %w", err)
	}
	exc, thrown, err := vm.evalScript(cctx, src, codecFile)
	if err != nil {
		return fail(err)
	}
	if thrown {
		if vm.st.interrupted {
			return fail(errors.New("interrupted"))
		}
		e, err := vm.describeThrown(cctx, exc, lim)
		if err != nil {
			return fail(err)
		}
		if e.Kind == KindThrown {
			e.Kind = KindLoad
			e.Message = "the codec's top-level code threw: " + e.Message
		}
		return nil, e
	}
	found, thrown, err := vm.evalScript(cctx, probeJS, "<probe>")
	if err != nil || thrown {
		return fail(fmt.Errorf("probe: thrown %v, %w", thrown, err))
	}
	vm.mem.WriteUint64Le(vm.js.ioPtr+ioOneArgv, found)
	mask, err := vm.call(cctx, vm.jsCall, uint64(vm.js.ctxPtr), vm.js.install, jsUndefined, 1, uint64(vm.js.ioPtr+ioOneArgv))
	if err != nil || jsTag(mask) != tagInt {
		return fail(fmt.Errorf("install: %w", err))
	}
	if uint32(mask) == 0 {
		return nil, &Error{Kind: KindMissing, Message: "the script defines none of the codec functions " + strings.Join(formNames[:], ", ")}
	}
	if _, err := vm.call(cctx, vm.runGC); err != nil {
		return fail(err)
	}
	// The guard stopped the load after the script ended (in the
	// collector, say): the instance's memory is not to be trusted.
	if stop() {
		return fail(errors.New("stopped"))
	}
	img, err := vm.snapshot(uint32(mask))
	if err != nil {
		return nil, err
	}
	vm.img = img
	return img, nil
}

// jsCallInput is one call's input, already laid out for run.
type jsCallInput struct {
	form      Form
	recvTime  time.Time
	fPort     int
	bytes     []byte
	variables []byte // JSON, nil for {}
	data      []byte // JSON, encode forms only
	tenant    string
}

// invoke runs one call. The instance must be reset before its next call,
// whatever invoke returns; keep reports whether it may be (false: close it).
func (vm *jsVM) invoke(ctx context.Context, in jsCallInput, lim Limits) (out output, log []string, dur time.Duration, keep bool, err error) {
	off, keep, err := vm.writePayload(in)
	if err != nil {
		return output{}, nil, 0, keep, err
	}
	start := time.Now()
	clock := in.recvTime
	if clock.IsZero() {
		clock = start.Truncate(time.Second)
	}
	cctx := vm.begin(ctx, clock, start.Add(lim.Time))
	stop := vm.guard(lim.Time + outerGrace(lim.Time))
	defer func() {
		log = vm.st.log.lines()
		if stop() {
			keep = false
			err = timeLimitError(lim)
			if ctx.Err() != nil {
				err = ctx.Err()
			}
		} else if err != nil && !keep {
			if ctx.Err() != nil {
				err = ctx.Err()
			} else if !errors.As(err, new(*Error)) {
				err = &Error{Kind: KindCrashed, Message: "the JavaScript engine failed: " + err.Error()}
			}
		}
	}()
	if err := vm.setMemoryLimit(cctx, lim.Memory); err != nil {
		return output{}, nil, 0, false, err
	}
	argv, err := vm.makeRunArgs(cctx, in, off, lim)
	if err != nil {
		return output{}, nil, 0, errors.As(err, new(*Error)), err
	}
	for i, a := range argv {
		vm.mem.WriteUint64Le(vm.js.ioPtr+ioRunArgv+uint32(8*i), a)
	}
	res, err := vm.call(cctx, vm.jsCall, uint64(vm.js.ctxPtr), vm.js.run, jsUndefined, runArgs, uint64(vm.js.ioPtr+ioRunArgv))
	dur = time.Since(start)
	if err != nil {
		return output{}, nil, dur, false, err
	}
	// What the call made, which the call frees (freeCall).
	owned := [...]uint64{argv[argVariables], argv[argData], argv[argBytes], argv[argRecvTime]}
	out, keep, err = vm.readResult(ctx, cctx, res, owned, lim)
	return out, nil, dur, keep, err
}

// writePayload writes in's payload into the io buffer as JSValues (8 bytes
// each, for JS_NewArrayFrom) and returns the offset after it. An input too
// large for the buffer is the caller's error (keep is true then).
func (vm *jsVM) writePayload(in jsCallInput) (off int, keep bool, err error) {
	// io is a view of the instance's memory, good until the next call into
	// the instance: a call may grow the memory, and so move it.
	io, ok := vm.mem.Read(vm.js.ioPtr, ioSize)
	if !ok {
		return 0, false, errors.New("io buffer out of range")
	}
	if ioHeader+8*len(in.bytes)+len(in.variables)+len(in.data) > ioDataEnds {
		return 0, true, &Error{Kind: KindInput, Message: fmt.Sprintf("the input is larger than the sandbox takes (a payload of at most %d bytes, less with variables)", (ioDataEnds-ioHeader)/8)}
	}
	off = ioHeader
	for _, b := range in.bytes {
		binary.LittleEndian.PutUint64(io[off:], jsInt(int32(b)))
		off += 8
	}
	return off, true, nil
}

// makeRunArgs makes the arguments of run (see bootstrap.js): the payload
// array and the reception time through the API, which is cheaper than
// making them in JavaScript, and the variables' and data's JSON strings,
// written into the io buffer from off. A value QuickJS could not make is a
// memory limit *Error.
func (vm *jsVM) makeRunArgs(ctx context.Context, in jsCallInput, off int, lim Limits) ([runArgs]uint64, error) {
	argv := [runArgs]uint64{jsInt(int32(in.form)), jsUndefined, jsUndefined, jsInt(int32(in.fPort)), jsUndefined, jsUndefined}
	made := func(i int, v uint64, err error) error {
		if err == nil && jsTag(v) == tagException {
			return memoryLimitError(lim)
		}
		argv[i] = v
		return err
	}
	c := uint64(vm.js.ctxPtr)
	if in.form.decodes() {
		v, err := vm.call(ctx, vm.newArrayFrom, c, uint64(len(in.bytes)), uint64(vm.js.ioPtr+ioHeader))
		if err := made(argBytes, v, err); err != nil {
			return argv, err
		}
	}
	if in.form == FormDecodeUplink {
		v, err := vm.call(ctx, vm.newDate, c, api.EncodeF64(float64(in.recvTime.UnixMilli())))
		if err := made(argRecvTime, v, err); err != nil {
			return argv, err
		}
	}
	for i, s := range [][]byte{in.variables, in.data} {
		if s == nil {
			continue
		}
		// Every call above may have grown the memory, which moves it: the
		// memory is written through the API, not through an older view.
		vm.mem.Write(vm.js.ioPtr+uint32(off), s)
		v, err := vm.call(ctx, vm.newString, c, uint64(vm.js.ioPtr)+uint64(off), uint64(len(s)))
		if err := made(argVariables+i, v, err); err != nil {
			return argv, err
		}
		off += len(s)
	}
	return argv, nil
}

// readResult reads what run returned: the codec's result, walked by
// serialise (or, when it is not plain data, encode's JSON string or -1 for
// too long), or an exception. owned are the values the call made, which the
// call frees. keep is as for invoke.
func (vm *jsVM) readResult(ctx, cctx context.Context, res uint64, owned [4]uint64, lim Limits) (out output, keep bool, err error) {
	maxOutput := vm.js.opts.MaxOutput
	if jsTag(res) != tagException {
		var o output
		if o, res, err = vm.serialise(cctx, res, maxOutput); err != nil {
			return output{}, false, err
		}
		if o.parsed {
			if len(o.raw) > maxOutput {
				return output{}, true, outputLimitError(maxOutput)
			}
			return o, true, vm.freeCall(cctx, owned[:]...)
		}
		// res is now what encode gave. Whether the result shared an
		// object with what outlives the call is not known: the instance
		// is restored after the call (Codec.run).
		vm.shared = true
	}
	switch jsTag(res) {
	case tagString:
		b, ok, err := vm.readString(cctx, res, ioLen)
		if err != nil {
			return output{}, false, err
		}
		if !ok {
			return output{}, true, memoryLimitError(lim)
		}
		if len(b) > maxOutput {
			return output{}, true, outputLimitError(maxOutput)
		}
		return output{raw: b}, true, vm.freeCall(cctx, append(owned[:], res)...)
	case tagInt:
		return output{}, true, outputLimitError(maxOutput)
	case tagException:
		if vm.st.interrupted {
			if ctx.Err() != nil {
				return output{}, true, ctx.Err()
			}
			return output{}, true, timeLimitError(lim)
		}
		exc, err := vm.call(cctx, vm.getException, uint64(vm.js.ctxPtr))
		if err != nil {
			return output{}, false, err
		}
		e, err := vm.describeThrown(cctx, exc, lim)
		if err != nil {
			return output{}, false, err
		}
		return output{}, true, e
	}
	return output{}, true, fmt.Errorf("run returned a value of tag %d", jsTag(res))
}

// freeCall frees the values a call made, so that its instance may go on
// without the image being restored (Codec.run), and marks the instance
// clean. Its error ends the instance.
func (vm *jsVM) freeCall(ctx context.Context, vals ...uint64) error {
	if err := vm.freeValues(ctx, vals...); err != nil {
		return err
	}
	vm.clean = true
	return nil
}

// freeValues gives back references to vals; values without a reference
// count (numbers, booleans, undefined) need none.
func (vm *jsVM) freeValues(ctx context.Context, vals ...uint64) error {
	for _, v := range vals {
		if jsTag(v) < 0 {
			if _, err := vm.call(ctx, vm.freeValue, uint64(vm.js.ctxPtr), v); err != nil {
				return err
			}
		}
	}
	return nil
}

// serialise turns a codec's result into JSON and the value it reads
// as by walking it (walk.go), and frees it. When the result is not plain
// data it returns no output but what the bootstrap's encode (that is,
// JSON.stringify) made of it: a string, -1 when too long, or an exception.
func (vm *jsVM) serialise(ctx context.Context, v uint64, maxOutput int) (out output, next uint64, err error) {
	c := uint64(vm.js.ctxPtr)
	raw, x, err := vm.walkJSON(ctx, v, make([]byte, 0, 256), maxOutput)
	switch {
	case err == nil:
		return output{raw: raw, value: x, parsed: true}, 0, vm.freeValues(ctx, v)
	case errors.Is(err, errNotPlain), errors.Is(err, errTooLong):
		// encode decides, and measures, as JSON.stringify does.
	default:
		return output{}, 0, err
	}
	vm.mem.WriteUint64Le(vm.js.ioPtr+ioRunArgv, v)
	vm.mem.WriteUint64Le(vm.js.ioPtr+ioRunArgv+8, jsInt(int32(maxOutput)))
	next, err = vm.call(ctx, vm.jsCall, c, vm.js.encode, jsUndefined, 2, uint64(vm.js.ioPtr+ioRunArgv))
	if err != nil {
		return output{}, 0, err
	}
	return output{}, next, vm.freeValues(ctx, v)
}

// outerGrace is how long after the time limit the outer guard stops a call:
// the interrupt handler, which QuickJS calls every few thousand
// instructions, normally stops it long before.
func outerGrace(limit time.Duration) time.Duration {
	return 25*time.Millisecond + limit/4
}

func outputLimitError(n int) *Error {
	return &Error{Kind: KindOutput, Message: fmt.Sprintf("the result is larger than %s of JSON", formatBytes(int64(n)))}
}

// describeThrown turns a thrown value into an Error, running the bootstrap's
// describe under a short deadline of its own.
func (vm *jsVM) describeThrown(ctx context.Context, exc uint64, lim Limits) (*Error, error) {
	// QuickJS throws null instead of its InternalError when it cannot
	// allocate even that error (JS_ThrowError2): the memory limit. A codec
	// that throws null itself is reported the same; it has no reason to.
	if jsTag(exc) == tagNull {
		return memoryLimitError(lim), nil
	}
	vm.st.deadline = time.Now().Add(describeTime)
	vm.st.interrupted = false
	if err := vm.setMemoryLimit(ctx, lim.Memory+describeMemory); err != nil {
		return nil, err
	}
	vm.mem.WriteUint64Le(vm.js.ioPtr+ioOneArgv, exc)
	res, err := vm.call(ctx, vm.jsCall, uint64(vm.js.ctxPtr), vm.js.describe, jsUndefined, 1, uint64(vm.js.ioPtr+ioOneArgv))
	if err != nil {
		return nil, err
	}
	var d struct{ Name, Message, Stack string }
	if jsTag(res) == tagString {
		if b, ok, err := vm.readString(ctx, res, ioLen); err != nil {
			return nil, err
		} else if ok {
			_ = json.Unmarshal(b, &d)
		}
	}
	return thrownError(d.Name, d.Message, d.Stack, lim), nil
}

var codecPosition = regexp.MustCompile(regexp.QuoteMeta(codecFile) + `:(\d+)(?::(\d+))?`)

// thrownError classifies what QuickJS threw: its own out-of-memory, stack
// overflow and interrupt errors are limits; anything else the codec threw.
func thrownError(name, message, stack string, lim Limits) *Error {
	switch {
	case name == "InternalError" && message == "out of memory":
		return memoryLimitError(lim)
	case name == "InternalError" && message == "interrupted":
		return timeLimitError(lim)
	case name == "RangeError" && message == "Maximum call stack size exceeded":
		return &Error{Kind: KindStack, Message: "stack limit exceeded: the codec recursed too deeply"}
	}
	e := &Error{Kind: KindThrown, Message: message}
	if name != "" {
		e.Message = name + ": " + message
	}
	if e.Message == "" {
		e.Message = "uncaught exception"
	}
	if name == "SyntaxError" {
		e.Kind = KindSyntax
	}
	if m := codecPosition.FindStringSubmatch(stack); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Column, _ = strconv.Atoi(m[2])
	}
	return e
}
