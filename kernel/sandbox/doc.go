// Package sandbox runs device codecs, JavaScript or WebAssembly, inside
// wazero, with a time and a memory limit on every call. JavaScript runs in
// QuickJS-NG compiled to WebAssembly (quickjs.wasm of the npm package
// quickjs-wasi), never in a Go-native engine.
//
// # Use
//
//	e, err := sandbox.New(ctx, sandbox.Options{})      // once per process; e.Close() at shutdown
//	c, err := e.Codec(ctx, source)                     // a JS codec a user uploaded (shared by hash)
//	c, err := e.TrustedCodec(ctx, source)              // a JS codec that ships with the portal
//	c, err := e.WASMCodec(ctx, module)                 // a WASM decoder (sdk/decoder ABI)
//	r, err := c.DecodeUplink(ctx, sandbox.Input{Bytes: payload, FPort: 5, RecvTime: t, Variables: vars}, sandbox.Limits{})
//	// r.Data, r.Warnings, r.Errors, r.Log, r.Duration
//	d, err := c.EncodeDownlink(ctx, sandbox.DownlinkInput{Data: obj, FPort: 10}, limits)
//	r, err := c.DecodeDownlink(ctx, sandbox.Input{Bytes: b, FPort: 10}, limits)
//
// A zero Limits takes the engine's defaults (50 ms, 16 MiB); pass a company's
// own limits per call. A call's error is an *Error (errors.Is against
// ErrTimeLimit, ErrMemoryLimit, ErrThrown, ...) when the codec failed, whose
// Message is fit to store with the uplink ("time limit of 50 ms exceeded");
// it is the context's error when ctx ended first. The codec's own warnings
// and errors about a payload are in the Result, not in the error.
//
// # JavaScript codecs
//
// A codec is evaluated once, as a classic script (sloppy mode, not a
// module), like The Things Stack runs codecs: published codecs that assign
// undeclared variables work. It may define, in order of preference,
// decodeUplink(input) (The Things Stack, ChirpStack v4), Decode(fPort,
// bytes, variables) (ChirpStack v3) or Decoder(bytes, port) (The Things
// Network v2) for uplinks; encodeDownlink(input), Encode(fPort, obj,
// variables) or Encoder(object, port) for downlinks; and
// decodeDownlink(input). input.bytes is a plain array of numbers,
// input.recvTime a Date. The result is read as JSON.stringify gives it, so it
// is what Node would give: undefined dropped, NaN null, a Date its ISO text.
// (A plain result is walked through the QuickJS API instead, which gives
// the same JSON faster; see walk.go.) decodeUplink gets the same sealed input
// object at every call, with the call's values (bootstrap.js).
//
// A codec's instance starts from the state the codec was in right after
// loading (its image: the linear memory above the stack, about 0.4 MB), and
// the image is copied back (a few microseconds) whenever a call must not see
// what earlier calls left: before a call of another tenant (Input.Tenant)
// than the one whose calls the instance served, after a call without a
// tenant, after any call that failed or broke a limit, after a call whose
// result shares an object with what outlives it, and every 1,000 calls. So
// no state of one tenant's calls ever reaches another tenant's, and a call
// that failed leaves nothing behind; between calls of one tenant that ended
// well, globals and the like may carry over (Codec says more). A trusted
// codec ignores tenants (TrustedCodec). Memory: QuickJS's allocation limit,
// and wazero's page limit (Options.MaxMemory) beneath it. Recursion:
// QuickJS's stack limit (512 KiB of the 1 MiB stack). Time: QuickJS's
// interrupt handler stops the codec's own code at the deadline. Some of
// QuickJS's native code never reaches the handler (JSON.stringify of data
// nested ten thousand deep, a method of Array.prototype over an array-like of
// length 2^32); the outer guard stops it: quickjs.wasm is instrumented so
// that every loop of its compiled code counts down and calls the host every
// 20,000 iterations, and the host traps the call once it is past its limit
// + 25 ms + limit/4 (the instance is then closed). This costs a few per
// cent of QuickJS's speed at most, where wazero's own guard
// (WithCloseOnContextDone, which leaves the compiled code for Go at every
// loop header) cost two thirds of it.
//
// What a codec can reach: the ECMAScript built-ins, console (log, info,
// debug, trace, warn, error; captured into Result.Log, not printed), and
// nothing else: no require, process, std, os, fetch, import() or timers.
// Date.now() and new Date() read the uplink's reception time (the call's
// start, to the second, for downlinks) and the clock stands still during a
// call, so the output of a codec that keeps no state depends on its input
// alone and re-decoding a stored payload gives the same result; performance.now() reads the same
// frozen clock; local time is UTC; Math.random is seeded the same in every
// instance.
//
// # WebAssembly decoders
//
// Modules follow the ABI that package github.com/fieldhub/fieldhub/sdk/decoder
// documents and serves for Go (GOOS=wasip1, -buildmode=c-shared). They get
// WASI preview 1 without files, environment or arguments; the same limits
// apply (time through the context and WithCloseOnContextDone, memory through
// the page limit of a wazero runtime per memory limit). An instance serves
// the calls of one tenant and keeps its memory between them; a call without
// a tenant gets a new instance.
//
// # Pools and caching
//
// quickjs.wasm is instrumented and compiled once per process (or cached on
// disk with Options.CacheDir). Each codec keeps up to Options.PoolSize warm
// instances (default GOMAXPROCS), so throughput grows with cores; a call of
// a tenant takes an idle instance that tenant's calls left, else one that
// none did, else any (restored first); a new instance of a
// loaded codec is a fresh quickjs.wasm instance with the codec's image copied
// in, well under a millisecond. Instances idle for Options.IdleTimeout are
// closed.
//
// Tests that need the engine fail when quickjs.wasm is missing (run `just
// assets`); package sandboxtest compares codecs with Node.
package sandbox
