package sandbox

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
)

// The Justfile's assets recipe copies quickjs.wasm here from the npm package
// quickjs-wasi; the directory's README keeps the embed valid without it.
//
//go:embed wasm
var assets embed.FS

// Defaults of Options.
const (
	DefaultTime        = 50 * time.Millisecond
	DefaultMemory      = 16 << 20
	DefaultMaxMemory   = 64 << 20
	DefaultMaxOutput   = 1 << 20
	DefaultMaxLog      = 16 << 10
	DefaultMaxSource   = 1 << 20
	DefaultIdleTimeout = time.Minute
	DefaultLoadTimeout = time.Second
)

// processCache holds wazero's compiled machine code for the life of the
// process when Options.CacheDir is not set, so that a second Engine (tests
// make many) compiles quickjs.wasm in milliseconds instead of a second.
var processCache = sync.OnceValue(wazero.NewCompilationCache)

// Engine runs codecs. It is safe for concurrent use. Make one per process
// with New and Close it at shutdown, after the last call returned.
type Engine struct {
	opts     Options
	log      *slog.Logger
	cache    wazero.CompilationCache
	ownCache bool
	js       *jsRuntime
	closed   atomic.Bool

	mu     sync.Mutex
	codecs map[string]*codecEntry
	wasmRT map[uint32]*wasmRuntime

	stop chan struct{}
	done chan struct{}
}

type codecEntry struct {
	ready chan struct{}
	codec *Codec
	err   error
}

// New starts an engine: it compiles quickjs.wasm (once per process, or from
// Options.CacheDir) and starts QuickJS once to take the image every codec
// is loaded on. It returns ErrAssetsMissing when the binary was built before
// `just assets` put quickjs.wasm in place.
func New(ctx context.Context, opts Options) (*Engine, error) {
	opts = withDefaults(opts)
	wasmBytes, err := assets.ReadFile("wasm/quickjs.wasm")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrAssetsMissing
	}
	if err != nil {
		return nil, fmt.Errorf("read quickjs.wasm: %w", err)
	}
	e := &Engine{
		opts:   opts,
		log:    opts.Logger,
		codecs: map[string]*codecEntry{},
		wasmRT: map[uint32]*wasmRuntime{},
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
	}
	if opts.CacheDir != "" {
		if e.cache, err = wazero.NewCompilationCacheWithDir(opts.CacheDir); err != nil {
			return nil, fmt.Errorf("open wazero cache %q: %w", opts.CacheDir, err)
		}
		e.ownCache = true
	} else {
		e.cache = processCache()
	}
	if e.js, err = newJSRuntime(ctx, &e.opts, e.cache, wasmBytes); err != nil {
		e.closeCache(ctx)
		return nil, err
	}
	go e.janitor()
	return e, nil
}

func withDefaults(o Options) Options {
	if o.MaxMemory <= 0 {
		o.MaxMemory = DefaultMaxMemory
	}
	if o.Limits.Time <= 0 {
		o.Limits.Time = DefaultTime
	}
	if o.Limits.Memory <= 0 {
		o.Limits.Memory = DefaultMemory
	}
	o.Limits.Memory = min(o.Limits.Memory, o.MaxMemory)
	if o.MaxOutput <= 0 {
		o.MaxOutput = DefaultMaxOutput
	}
	if o.MaxLog <= 0 {
		o.MaxLog = DefaultMaxLog
	}
	if o.MaxSource <= 0 {
		o.MaxSource = DefaultMaxSource
	}
	if o.PoolSize <= 0 {
		o.PoolSize = runtime.GOMAXPROCS(0)
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.LoadTimeout <= 0 {
		o.LoadTimeout = DefaultLoadTimeout
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// Limits returns l with its zero fields set to the engine's defaults and its
// memory capped at Options.MaxMemory.
func (e *Engine) Limits(l Limits) Limits {
	if l.Time <= 0 {
		l.Time = e.opts.Limits.Time
	}
	if l.Memory <= 0 {
		l.Memory = e.opts.Limits.Memory
	}
	l.Memory = min(l.Memory, e.opts.MaxMemory)
	return l
}

// Codec loads a JavaScript codec: it evaluates source once as a classic
// script (not strict mode, not a module), under Options.LoadTimeout, and
// finds which codec functions it defines. Codecs are shared by the hash of
// their source: loading the same source again returns the same Codec.
//
// Use Codec for what users upload: no state of one tenant's calls reaches
// another's, and a call that failed leaves nothing behind (see Codec).
//
// A source that does not parse returns an *Error of KindSyntax with its
// line; top-level code that throws or runs too long, KindLoad; a script
// that defines no codec function, KindMissing.
func (e *Engine) Codec(ctx context.Context, source string) (*Codec, error) {
	return e.loadJS(ctx, source, false)
}

// TrustedCodec loads a JavaScript codec as Codec does, for a codec that
// keeps no state: its instances go on from one call to the next whoever
// calls, without the copies of the image that keep tenants apart (see
// Codec). Use it for the codecs that ship with the portal, which are
// reviewed and fuzzed in the repository.
func (e *Engine) TrustedCodec(ctx context.Context, source string) (*Codec, error) {
	return e.loadJS(ctx, source, true)
}

func (e *Engine) loadJS(ctx context.Context, source string, trusted bool) (*Codec, error) {
	if len(source) > e.opts.MaxSource {
		return nil, &Error{Kind: KindLoad, Message: fmt.Sprintf("the codec is larger than %s", formatBytes(int64(e.opts.MaxSource)))}
	}
	kind := "js"
	if trusted {
		kind = "js-trusted"
	}
	return e.codec(ctx, kind, []byte(source), func(hash string) (*Codec, error) {
		vm, img, err := e.js.loadCodec(ctx, source, trusted)
		if err != nil {
			return nil, err
		}
		c := &Codec{e: e, hash: hash, forms: img.forms, img: img, kind: kind}
		c.pool = newPool(e.opts.PoolSize, func(ctx context.Context) (*jsVM, error) { return e.js.newInstance(ctx, img, trusted) })
		c.pool.add(vm)
		return c, nil
	})
}

// WASMCodec loads a WebAssembly decoder that follows the ABI of package
// github.com/fieldhub/fieldhub/sdk/decoder. A module that does not returns an
// *Error of KindLoad saying what is wrong.
func (e *Engine) WASMCodec(ctx context.Context, module []byte) (*Codec, error) {
	return e.codec(ctx, "wasm", module, func(hash string) (*Codec, error) {
		m, err := e.loadWASM(ctx, module)
		if err != nil {
			return nil, err
		}
		return &Codec{e: e, hash: hash, forms: m.forms, wasm: m, kind: "wasm"}, nil
	})
}

// codec returns the codec of that kind and content, loading it once.
func (e *Engine) codec(ctx context.Context, kind string, content []byte, load func(hash string) (*Codec, error)) (*Codec, error) {
	if e.closed.Load() {
		return nil, ErrClosed
	}
	sum := sha256.Sum256(content)
	hash := hex.EncodeToString(sum[:])
	key := kind + ":" + hash
	e.mu.Lock()
	if ent, ok := e.codecs[key]; ok {
		e.mu.Unlock()
		select {
		case <-ent.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if ent.err == nil {
			return ent.codec, nil
		}
		// The other load failed: perhaps only its context ended.
		return e.codec(ctx, kind, content, load)
	}
	ent := &codecEntry{ready: make(chan struct{})}
	e.codecs[key] = ent
	e.mu.Unlock()
	ent.codec, ent.err = load(hash)
	if ent.err != nil {
		e.mu.Lock()
		delete(e.codecs, key)
		e.mu.Unlock()
	} else {
		ent.codec.touch()
	}
	close(ent.ready)
	return ent.codec, ent.err
}

// janitor closes instances that sat idle for IdleTimeout, and forgets codecs
// nobody called for ten times as long (whoever holds such a Codec may still
// use it).
func (e *Engine) janitor() {
	defer close(e.done)
	t := time.NewTicker(e.opts.IdleTimeout / 2)
	defer t.Stop()
	for {
		select {
		case <-e.stop:
			return
		case now := <-t.C:
			e.trim(now)
		}
	}
}

func (e *Engine) trim(now time.Time) {
	e.mu.Lock()
	var codecs []*Codec
	for _, ent := range e.codecs {
		select {
		case <-ent.ready:
			if ent.codec != nil {
				codecs = append(codecs, ent.codec)
			}
		default:
		}
	}
	e.mu.Unlock()
	forget := now.Add(-10 * e.opts.IdleTimeout)
	for _, c := range codecs {
		if c.trim(now.Add(-e.opts.IdleTimeout)) == 0 && time.Unix(0, c.lastUsed.Load()).Before(forget) {
			e.mu.Lock()
			delete(e.codecs, c.key())
			e.mu.Unlock()
		}
	}
}

// Stats is a snapshot of what an engine holds.
type Stats struct {
	// Codecs is the number of codecs loaded and not yet forgotten.
	Codecs int
	// Busy and Idle count the instances out on a call and the warm ones.
	Busy, Idle int
	// IdleMemory is the linear memory of the idle instances, in bytes.
	IdleMemory int64
}

// Stats tells how many codecs and instances the engine holds.
func (e *Engine) Stats() Stats {
	e.mu.Lock()
	var codecs []*Codec
	for _, ent := range e.codecs {
		select {
		case <-ent.ready:
			if ent.codec != nil {
				codecs = append(codecs, ent.codec)
			}
		default:
		}
	}
	e.mu.Unlock()
	s := Stats{Codecs: len(codecs)}
	for _, c := range codecs {
		c.count(&s)
	}
	return s
}

// Close closes every instance and frees the compiled code. Calls still
// running fail; later calls return ErrClosed.
func (e *Engine) Close() error {
	if e.closed.Swap(true) {
		return nil
	}
	close(e.stop)
	<-e.done
	ctx := context.Background()
	e.mu.Lock()
	for _, ent := range e.codecs {
		select {
		case <-ent.ready:
			if ent.codec != nil {
				ent.codec.close()
			}
		default:
		}
	}
	e.codecs = map[string]*codecEntry{}
	wasmRT := e.wasmRT
	e.wasmRT = map[uint32]*wasmRuntime{}
	e.mu.Unlock()
	err := e.js.close(ctx)
	for _, r := range wasmRT {
		err = errors.Join(err, r.rt.Close(ctx))
	}
	e.closeCache(ctx)
	return err
}

func (e *Engine) closeCache(ctx context.Context) {
	if e.ownCache {
		_ = e.cache.Close(ctx)
	}
}
