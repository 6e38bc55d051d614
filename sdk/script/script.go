// Package script is the ABI of Fieldhub's compiled (WebAssembly) scripts,
// and a helper that serves it from Go built with GOOS=wasip1 GOARCH=wasm.
//
// A script in Go is a reactor with an init function:
//
//	package main
//
//	import "github.com/fieldhub/fieldhub/sdk/script"
//
//	func init() {
//		script.Run(func(h *script.Host) (any, error) {
//			t := h.Trigger()
//			if t == nil {
//				return nil, nil
//			}
//			h.Write(t.TagID, map[string]any{"double": t.Values["temperature"].(float64) * 2}, t.Time)
//			return "ok", nil
//		})
//	}
//
//	func main() {}
//
// built with
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o script.wasm .
//
// and given to POST /api/script/{companyId} (or PUT /api/script/{id}) as
// "module", base64, beside a "content" that may be empty.
//
// # The ABI
//
// A compiled script is a module of the decoder ABI, version 1 (package
// github.com/fieldhub/fieldhub/sdk/decoder documents it), that implements
// fieldhub_decode_uplink. The script engine calls it with variables.ctx, the
// JSON of the run's context:
//
//	{"trigger": {"tagId": 3, "deveui": "70B3D57ED0000001", "name": "Node",
//	             "time": "2026-11-27T12:00:00Z", "values": {"temperature": 20}} or null,
//	 "reads": {"<read>": <answer>, ...}, "answered": 1,
//	 "maxReads": 50, "maxWrites": 20, "maxSends": 5}
//
// and expects {"data": {"result": <any>, "actions": [<action>, ...]}} when the
// run is done, or {"data": {"needs": ["<read>", ...]}} when it needs values
// the host has not answered yet: the host fetches them and calls the module
// again, from the start, with them in "reads" (at most 4 calls a run). A
// read is the JSON of ["latest", node, key] (answered [unix ms, value] or
// null) or ["range", node, key, from, to, points] (from and to RFC 3339 with
// milliseconds, "" for the default; answered [[unix ms, value], ...]); an
// answer {"$error": "..."} is a read the host refused (a node of another
// company). An action is {"kind": "write", "tagId", "values", "time"},
// {"kind": "downlink", "tagId", "port", "payload" (hex), "confirmed"},
// {"kind": "notify", "text", "subject"}, {"kind": "mail", "to", "subject",
// "text"}, {"kind": "sms", "to", "text"} or {"kind": "log", "text"}. The
// limits are those of JavaScript scripts (docs/decisions.md, "Scripts").
package script

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/fieldhub/fieldhub/sdk/decoder"
)

// Trigger is the uplink that triggered a run.
type Trigger struct {
	TagID  int64          `json:"tagId"`
	DevEUI string         `json:"deveui"`
	Name   string         `json:"name"`
	Time   time.Time      `json:"time"`
	Values map[string]any `json:"values"`
}

// Point is a value of a key at a time: a float64 or a string.
type Point struct {
	Time  time.Time
	Value any
}

// Downlink is a downlink to queue.
type Downlink struct {
	Port      int
	Payload   string // hex
	Confirmed bool
}

// context is the run's context, as the engine sends it.
type context struct {
	Trigger   *Trigger                   `json:"trigger"`
	Reads     map[string]json.RawMessage `json:"reads"`
	Answered  int                        `json:"answered"`
	MaxReads  int                        `json:"maxReads"`
	MaxWrites int                        `json:"maxWrites"`
	MaxSends  int                        `json:"maxSends"`
}

// Host is the run's view of the portal. Its reads stop the run when the
// value is not known yet (the engine calls again with it); its writes and
// sends are collected and done by the engine after the run.
type Host struct {
	ctx           context
	needs         []string
	actions       []map[string]any
	writes, sends int
}

// need stops a run that reads what the host has not answered yet.
type need struct{}

// Trigger is the uplink that triggered the run, nil for none.
func (h *Host) Trigger() *Trigger { return h.ctx.Trigger }

func (h *Host) read(q []any) json.RawMessage {
	raw, _ := json.Marshal(q)
	k := string(raw)
	if v, ok := h.ctx.Reads[k]; ok {
		var refused struct {
			Error *string `json:"$error"`
		}
		if json.Unmarshal(v, &refused) == nil && refused.Error != nil {
			panic(fmt.Errorf("%s", *refused.Error))
		}
		return v
	}
	if len(h.needs)+h.ctx.Answered >= h.ctx.MaxReads {
		panic(fmt.Errorf("too many reads in one run (limit %d)", h.ctx.MaxReads))
	}
	h.needs = append(h.needs, k)
	panic(need{})
}

// Latest is the newest value of a key of a node; ok is false for none.
func (h *Host) Latest(tagID int64, key string) (p Point, ok bool) {
	var pt []any
	if err := json.Unmarshal(h.read([]any{"latest", tagID, key}), &pt); err != nil || len(pt) != 2 {
		return Point{}, false
	}
	return pointOf(pt), true
}

// Range is up to points values of a key of a node in [from, to),
// downsampled; zero times take the last 24 hours, points 0 the most (500).
func (h *Host) Range(tagID int64, key string, from, to time.Time, points int) []Point {
	var list [][]any
	_ = json.Unmarshal(h.read([]any{"range", tagID, key, iso(from), iso(to), max(points, 0)}), &list)
	out := make([]Point, 0, len(list))
	for _, pt := range list {
		if len(pt) == 2 {
			out = append(out, pointOf(pt))
		}
	}
	return out
}

// iso formats a time as JavaScript's toISOString does, "" for zero.
func iso(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

func pointOf(pt []any) Point {
	ms, _ := pt[0].(float64)
	return Point{Time: time.UnixMilli(int64(ms)).UTC(), Value: pt[1]}
}

func (h *Host) act(a map[string]any, send bool) {
	if send {
		if h.sends++; h.sends > h.ctx.MaxSends {
			panic(fmt.Errorf("too many sends in one run (limit %d)", h.ctx.MaxSends))
		}
	} else if h.writes++; h.writes > h.ctx.MaxWrites {
		panic(fmt.Errorf("too many writes in one run (limit %d)", h.ctx.MaxWrites))
	}
	h.actions = append(h.actions, a)
}

// Write writes values to a node's keys at a time (zero: now).
func (h *Host) Write(tagID int64, values map[string]any, at time.Time) {
	h.act(map[string]any{"kind": "write", "tagId": tagID, "values": values, "time": iso(at)}, false)
}

// QueueDownlink queues a downlink for a node.
func (h *Host) QueueDownlink(tagID int64, d Downlink) {
	h.act(map[string]any{"kind": "downlink", "tagId": tagID, "port": d.Port, "payload": d.Payload, "confirmed": d.Confirmed}, true)
}

// Notify notifies the company's users; label may be empty.
func (h *Host) Notify(message, label string) {
	h.act(map[string]any{"kind": "notify", "text": message, "subject": label}, true)
}

// Mail sends an e-mail through the outbox.
func (h *Host) Mail(to []string, subject, text string) {
	h.act(map[string]any{"kind": "mail", "to": to, "subject": subject, "text": text}, true)
}

// SMS sends a text message through the outbox (numbers with country code).
func (h *Host) SMS(to []string, text string) {
	h.act(map[string]any{"kind": "sms", "to": to, "text": text}, true)
}

// Log writes a log entry of the company.
func (h *Host) Log(text string) { h.act(map[string]any{"kind": "log", "text": text}, false) }

// Run serves fn as the script: call it from init.
func Run(fn func(h *Host) (any, error)) {
	decoder.Run(func(in decoder.Input) (decoder.Output, error) { return Call(fn, in.Variables["ctx"]) })
}

// Call runs fn once with the run's context (the JSON of variables.ctx) and
// answers the decoder output the engine expects; Run serves it, and tests
// call it directly.
func Call(fn func(h *Host) (any, error), ctxJSON string) (out decoder.Output, err error) {
	h := &Host{}
	if err := json.Unmarshal([]byte(ctxJSON), &h.ctx); err != nil {
		return decoder.Output{}, fmt.Errorf("read the run's context: %w", err)
	}
	defer func() {
		r := recover()
		switch x := r.(type) {
		case nil:
		case need:
			out, err = decoder.Output{Data: map[string]any{"needs": h.needs}}, nil
		case error:
			err = x
		default:
			err = fmt.Errorf("%v", x)
		}
	}()
	result, err := fn(h)
	if err != nil {
		return decoder.Output{}, err
	}
	if len(h.needs) > 0 { // a read the script recovered from
		return decoder.Output{Data: map[string]any{"needs": h.needs}}, nil
	}
	actions := h.actions
	if actions == nil {
		actions = []map[string]any{}
	}
	return decoder.Output{Data: map[string]any{"result": result, "actions": actions}}, nil
}

// ErrNoTrigger is what a triggered script may return when it runs without a
// trigger (a test without a node).
var ErrNoTrigger = errors.New("the script runs without a trigger")
