package sandbox

import (
	"errors"
	"fmt"
	"time"
)

// Kind classifies why a codec failed. Kinds are stable strings: callers may
// build message ids from them (for example "decoders.sandbox.time_limit").
type Kind string

// The kinds of codec failure.
const (
	// KindTime: the call ran past its time limit.
	KindTime Kind = "time_limit"
	// KindMemory: the call allocated past its memory limit.
	KindMemory Kind = "memory_limit"
	// KindStack: the call recursed past the stack limit.
	KindStack Kind = "stack_limit"
	// KindOutput: the result's JSON was larger than Options.MaxOutput.
	KindOutput Kind = "output_limit"
	// KindInput: the input did not fit the sandbox's input buffer.
	KindInput Kind = "input_limit"
	// KindThrown: the codec threw.
	KindThrown Kind = "thrown"
	// KindSyntax: the codec's source does not parse.
	KindSyntax Kind = "syntax"
	// KindLoad: the codec's top-level code threw or hit a limit while
	// loading, or a WASM module does not follow the decoder ABI.
	KindLoad Kind = "load"
	// KindMissing: the codec defines no function for the asked operation.
	KindMissing Kind = "not_defined"
	// KindResult: the codec returned something of the wrong shape.
	KindResult Kind = "bad_result"
	// KindCrashed: a WASM module trapped or exited.
	KindCrashed Kind = "crashed"
)

// Error is a codec failure: the codec could not produce a result. What a codec
// reports about a payload (Result.Warnings, Result.Errors) is not an Error.
//
// Compare with errors.Is against the Err* values, which match on Kind:
//
//	if errors.Is(err, sandbox.ErrTimeLimit) { ... }
type Error struct {
	Kind Kind
	// Message says what happened in English, e.g. "time limit of 50 ms
	// exceeded" or "TypeError: cannot read property 'x' of undefined".
	Message string
	// Line and Column locate the error in the codec's source when known
	// (syntax errors, throws); 0 otherwise.
	Line, Column int
	// Limit is the limit that was exceeded (Time or Memory), when one was.
	Limit Limits
}

func (e *Error) Error() string {
	if e.Message == "" {
		return "codec " + string(e.Kind)
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s (line %d)", e.Message, e.Line)
	}
	return e.Message
}

// Is reports whether target is an *Error of the same Kind without a message,
// which is what the Err* values are.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Message == "" && t.Kind == e.Kind
}

// Values to compare errors with errors.Is.
var (
	ErrTimeLimit   = &Error{Kind: KindTime}
	ErrMemoryLimit = &Error{Kind: KindMemory}
	ErrStackLimit  = &Error{Kind: KindStack}
	ErrOutputLimit = &Error{Kind: KindOutput}
	ErrInputLimit  = &Error{Kind: KindInput}
	ErrThrown      = &Error{Kind: KindThrown}
	ErrSyntax      = &Error{Kind: KindSyntax}
	ErrLoad        = &Error{Kind: KindLoad}
	ErrNotDefined  = &Error{Kind: KindMissing}
	ErrBadResult   = &Error{Kind: KindResult}
	ErrCrashed     = &Error{Kind: KindCrashed}
)

// ErrAssetsMissing is returned by New when the binary was built without
// quickjs.wasm.
var ErrAssetsMissing = errors.New("sandbox: quickjs.wasm is missing from kernel/sandbox/wasm: run `just assets` (it copies it from the npm package quickjs-wasi) and build again")

// ErrClosed is returned by calls on a closed Engine.
var ErrClosed = errors.New("sandbox: engine closed")

func timeLimitError(l Limits) *Error {
	return &Error{Kind: KindTime, Message: fmt.Sprintf("time limit of %s exceeded", formatDuration(l.Time)), Limit: Limits{Time: l.Time}}
}

func memoryLimitError(l Limits) *Error {
	return &Error{Kind: KindMemory, Message: fmt.Sprintf("memory limit of %s exceeded", formatBytes(l.Memory)), Limit: Limits{Memory: l.Memory}}
}

func formatDuration(d time.Duration) string {
	if d%time.Millisecond == 0 {
		return fmt.Sprintf("%d ms", d/time.Millisecond)
	}
	return d.String()
}

func formatBytes(n int64) string {
	switch {
	case n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
