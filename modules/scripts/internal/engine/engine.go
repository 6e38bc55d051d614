// Package engine runs a script in the sandbox (kernel/sandbox, QuickJS in
// wazero) with the host API of host.js. QuickJS in the sandbox cannot call
// back into Go for a value, so a run is a series of passes: each pass runs
// the script from the start with the reads answered so far; a read not yet
// answered stops the pass with the list of what it needs, which the host
// fetches (scoped to the script's company) before the next pass. Writes and
// sends are only collected; the caller does them after the last pass, or,
// for a test, answers them. The sandbox's clock stands still at the run's
// start and Math.random is seeded alike in every instance, so each pass
// sees the same world as the one before.
package engine

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/modules/scripts"
)

//go:embed host.js
var hostJS string

// header is the first line of every script's codec: the user's first line
// follows it on the same line, so that the engine's line numbers are the
// script's.
const header = `function decodeUplink(input) { var __h = __host(input); try { return __h.done(__script(__h.trigger, __h.latest, __h.range, __h.write, __h.downlink, __h.notify, __h.mail, __h.sms, __h.log)); } catch (e) { return __h.failed(e); } } function __script(trigger, latest, range, write, downlink, notify, mail, sms, log) {`

// ErrNotStarted is the error of a run while the sandbox is not running.
var ErrNotStarted = errs.New(errs.Unavailable, errs.IDUnavailable)

// Reader answers a run's reads, for the run's company only: an error that
// is not errs.Internal (a node of another company is errs.NotFound) is
// handed to the script as a thrown error.
type Reader interface {
	// Latest is the newest point of a key of a node: [time (Unix ms),
	// value], nil for none.
	Latest(ctx context.Context, company, tagID int64, key string) ([]any, error)
	// Range is the points of a key in [from, to), at most points of them
	// (downsampled), each [time (Unix ms), value].
	Range(ctx context.Context, company, tagID int64, key string, from, to time.Time, points int) ([][]any, error)
}

// Trigger is the uplink that triggered a run, as the script's trigger.
type Trigger struct {
	TagID  int64          `json:"tagId"`
	DevEUI string         `json:"deveui"`
	Name   string         `json:"name"`
	Time   time.Time      `json:"time"`
	Values map[string]any `json:"values"`
}

// Request is a run to make.
type Request struct {
	Company int64
	Content string
	Trigger *Trigger
}

// Result is what a run made: the script's return value and the actions it
// asked for, or the engine's message (and line) when it failed.
type Result struct {
	Value    any
	Actions  []scripts.Action
	Log      []string
	Error    string
	Line     int
	Duration time.Duration
	// Limit is set when the run broke a sandbox limit (time, memory,
	// output, input).
	Limit bool
}

// Failed reports whether the run failed.
func (r Result) Failed() bool { return r.Error != "" }

// Engine runs scripts.
type Engine struct {
	sb     atomic.Pointer[sandbox.Engine]
	reader Reader
	log    *slog.Logger
}

// New returns an engine that reads through reader; Start starts its
// sandbox.
func New(reader Reader, log *slog.Logger) *Engine { return &Engine{reader: reader, log: log} }

// Start starts the sandbox. A sandbox that does not start (a binary built
// without quickjs.wasm) leaves the scripts failing with ErrNotStarted; the
// portal runs on.
func (e *Engine) Start(ctx context.Context) {
	sb, err := sandbox.New(context.WithoutCancel(ctx), sandbox.Options{
		Limits: sandbox.Limits{Time: scripts.RunTime, Memory: scripts.RunMemory}, MaxOutput: 256 << 10, MaxLog: 8 << 10,
		MaxSource: scripts.MaxContent + len(hostJS) + len(header) + 16, Logger: e.log})
	if err != nil {
		e.log.Error("scripts run without the sandbox", "err", err)
		return
	}
	e.sb.Store(sb)
}

// Stop closes the sandbox.
func (e *Engine) Stop() error {
	if sb := e.sb.Swap(nil); sb != nil {
		return sb.Close()
	}
	return nil
}

// Source is the codec the sandbox loads for a script's content.
func Source(content string) string { return header + content + "\n}\n" + hostJS }

// Run runs a script. A script that fails is a Result with Error; the error
// is the engine's own (no sandbox, a read the database could not answer).
func (e *Engine) Run(ctx context.Context, req Request) (Result, error) {
	sb := e.sb.Load()
	if sb == nil {
		return Result{}, ErrNotStarted
	}
	start := time.Now()
	lines := strings.Count(req.Content, "\n") + 1
	codec, err := sb.Codec(ctx, Source(req.Content))
	if err != nil {
		return failed(err, lines, start)
	}
	reads := map[string]any{}
	for pass := 1; ; pass++ {
		raw, err := json.Marshal(map[string]any{"trigger": req.Trigger, "reads": reads, "answered": len(reads),
			"maxReads": scripts.MaxReads, "maxWrites": scripts.MaxWritesPerRun, "maxSends": scripts.MaxSendsPerRun})
		if err != nil {
			return Result{}, fmt.Errorf("encode the run's context: %w", err)
		}
		out, err := codec.DecodeUplink(ctx, sandbox.Input{Variables: map[string]string{"ctx": string(raw)}, RecvTime: start}, sandbox.Limits{})
		if err != nil {
			r, ferr := failed(err, lines, start)
			r.Log = tail(out.Log)
			return r, ferr
		}
		needs, _ := out.Data["needs"].([]any)
		if len(needs) == 0 {
			r := Result{Value: out.Data["result"], Log: tail(out.Log), Duration: time.Since(start)}
			r.Actions, err = actions(out.Data["actions"])
			if err != nil {
				return Result{}, err
			}
			return r, nil
		}
		if pass == scripts.MaxPasses {
			return Result{Error: fmt.Sprintf("the script's reads depend on each other more than %d levels deep", scripts.MaxPasses-1),
				Log: tail(out.Log), Duration: time.Since(start)}, nil
		}
		for _, n := range needs {
			k, _ := n.(string)
			v, err := e.answer(ctx, req.Company, k)
			if err != nil {
				return Result{}, err
			}
			reads[k] = v
		}
	}
}

// answer fetches one read, as host.js names it: ["latest", tag, key] or
// ["range", tag, key, from, to, points].
func (e *Engine) answer(ctx context.Context, company int64, k string) (any, error) {
	var q []any
	if err := json.Unmarshal([]byte(k), &q); err != nil || len(q) < 3 {
		return map[string]any{"$error": "unreadable read"}, nil
	}
	tag, _ := q[1].(float64)
	key, _ := q[2].(string)
	var v any
	var err error
	switch {
	case q[0] == "latest":
		var p []any
		p, err = e.reader.Latest(ctx, company, int64(tag), key)
		if p != nil {
			v = p
		}
	case q[0] == "range" && len(q) == 6:
		from, to := parseTime(q[3]), parseTime(q[4])
		if to.IsZero() {
			to = time.Now()
		}
		if from.IsZero() {
			from = to.Add(-24 * time.Hour)
		}
		points, _ := q[5].(float64)
		if points <= 0 || points > scripts.MaxRangePoints {
			points = scripts.MaxRangePoints
		}
		var pts [][]any
		pts, err = e.reader.Range(ctx, company, int64(tag), key, from, to, int(points))
		if pts == nil {
			pts = [][]any{}
		}
		v = pts
	default:
		return map[string]any{"$error": "unknown read"}, nil
	}
	switch {
	case err == nil:
		return v, nil
	case errs.Is(err, errs.NotFound):
		return map[string]any{"$error": fmt.Sprintf("node %d is not found", int64(tag))}, nil
	case errs.KindOf(err) != errs.Internal:
		return map[string]any{"$error": err.Error()}, nil
	}
	return nil, fmt.Errorf("read for a script: %w", err)
}

func parseTime(x any) time.Time {
	s, _ := x.(string)
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

// failed turns the sandbox's error into a failed run; a context's end or
// a closed engine is the caller's error.
func failed(err error, lines int, start time.Time) (Result, error) {
	var se *sandbox.Error
	if !errors.As(err, &se) {
		return Result{}, err
	}
	r := Result{Error: se.Message, Duration: time.Since(start)}
	if r.Error == "" {
		r.Error = se.Error()
	}
	if se.Line > 0 && se.Line <= lines {
		r.Line = se.Line
	}
	switch se.Kind {
	case sandbox.KindTime, sandbox.KindMemory, sandbox.KindOutput, sandbox.KindInput, sandbox.KindStack:
		r.Limit = true
	}
	return r, nil
}

// actions reads the actions host.js collected.
func actions(x any) ([]scripts.Action, error) {
	out := []scripts.Action{}
	if x == nil {
		return out, nil
	}
	raw, err := json.Marshal(x)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("read a script's actions: %w", err)
	}
	return out, nil
}

// tail keeps the last MaxLog lines of a run's console output.
func tail(log []string) []string {
	if log == nil {
		return []string{}
	}
	if len(log) > scripts.MaxLog {
		return log[len(log)-scripts.MaxLog:]
	}
	return log
}
