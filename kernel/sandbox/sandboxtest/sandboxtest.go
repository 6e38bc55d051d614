// Package sandboxtest checks JavaScript codecs in the sandbox against Node,
// for tests: Differential runs a folder of codecs, each with a sidecar file of
// cases, under kernel/sandbox and under Node (node must be on PATH), and fails
// the test for every case whose outputs differ or that misses its expected
// output.
//
// A codec is <name>.js; its cases are <name>.test.json, an array of
//
//	{
//	  "name": "what the case shows",
//	  "op": "decodeUplink",            // or "encodeDownlink", "decodeDownlink"; default decodeUplink
//	  "fPort": 5,
//	  "bytes": "01ff",                 // hex; decodeUplink and decodeDownlink
//	  "recvTime": "2026-01-01T00:00:00Z", // optional; this is the default
//	  "variables": {"k": "v"},         // optional; values become strings
//	  "data": {...},                   // encodeDownlink's input.data
//	  "expected": {"data": {...}, "warnings": [...], "errors": [...]} // optional
//	}
//
// which is the format of the built-in catalog's documentation vectors
// (modules/decoders/catalog/*.test.json). For decodes, expected is compared
// with the result as modules/decoders/catalog/check-vectors.mjs compares it
// (empty warnings or errors match absent ones); for encodes, expected holds
// {"bytes": "<hex>", "fPort": n}.
package sandboxtest

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/sandbox"
)

// limits are roomy: the differential test compares results, and the shared
// machines tests run on are sometimes slow.
var limits = sandbox.Limits{Time: 2 * time.Second}

// LoadTimeout is as roomy, for the engines the differential tests run
// (sandbox.Options.LoadTimeout): the default second to load a codec is the
// portal's limit, and on a loaded test machine the largest codecs of the
// catalog took longer to load, which failed a comparison of results.
const LoadTimeout = 10 * time.Second

// DefaultRecvTime is a case's reception time when it names none.
const DefaultRecvTime = "2026-01-01T00:00:00Z"

// Case is one input of a codec, as the sidecar file holds it.
type Case struct {
	Name      string         `json:"name"`
	Op        string         `json:"op,omitempty"`
	FPort     int            `json:"fPort"`
	Bytes     string         `json:"bytes,omitempty"`
	RecvTime  string         `json:"recvTime,omitempty"`
	Variables map[string]any `json:"variables,omitempty"`
	Data      map[string]any `json:"data,omitempty"`
	Expected  *Expected      `json:"expected,omitempty"`
}

// Expected is a case's expected output.
type Expected struct {
	Data     any      `json:"data,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	Errors   []string `json:"errors,omitempty"`
	// Bytes (hex) and FPort are an encode's expected output.
	Bytes *string `json:"bytes,omitempty"`
	FPort int     `json:"fPort,omitempty"`
}

// Codec is a codec and its cases.
type Codec struct {
	Name   string
	Source string
	Cases  []Case
}

// Load reads the codecs of dir: every <name>.js with its <name>.test.json.
// Source is the file's text as it is; a caller whose codecs include other
// files (the decoders catalog's @include) resolves Source itself and runs
// DifferentialCodecs.
func Load(dir string) ([]Codec, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.js"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var codecs []Codec
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(filepath.Base(f), ".js")
		side, err := os.ReadFile(filepath.Join(dir, name+".test.json"))
		if err != nil {
			return nil, fmt.Errorf("codec %s has no cases: %w", name, err)
		}
		var cases []Case
		if err := json.Unmarshal(side, &cases); err != nil {
			return nil, fmt.Errorf("read %s.test.json: %w", name, err)
		}
		if len(cases) == 0 {
			return nil, fmt.Errorf("%s.test.json has no cases", name)
		}
		codecs = append(codecs, Codec{Name: name, Source: string(src), Cases: cases})
	}
	return codecs, nil
}

// Differential loads the codecs of dir (see Load) and runs DifferentialCodecs.
// It fails t when the folder holds no codec.
func Differential(t *testing.T, e *sandbox.Engine, dir string) {
	t.Helper()
	codecs, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(codecs) == 0 {
		t.Fatalf("no codecs in %s", dir)
	}
	DifferentialCodecs(t, e, codecs)
}

// DifferentialCodecs runs each case of each codec under the sandbox and under
// Node, in one Node process, and reports a subtest per codec.
func DifferentialCodecs(t *testing.T, e *sandbox.Engine, codecs []Codec) {
	t.Helper()
	inputs := make([][]nodeCase, len(codecs))
	for i, c := range codecs {
		for _, cs := range c.Cases {
			in, err := cs.nodeCase()
			if err != nil {
				t.Fatalf("%s: %q: %v", c.Name, cs.Name, err)
			}
			inputs[i] = append(inputs[i], in)
		}
	}
	node, err := runNode(codecs, inputs)
	if err != nil {
		t.Fatal(err)
	}
	// Both kinds of codec: an uploaded one, called without a tenant so
	// that every call starts from the codec as loaded, and a trusted one,
	// as the built-in codecs run, whose instances go on from one call to
	// the next without a reset, so that each case gets a codec of its own
	// there (a comment makes the source another): some of these codecs
	// check that no call sees another's globals, which only the first
	// promises.
	runtimes := []struct {
		name    string
		load    func(context.Context, string) (*sandbox.Codec, error)
		perCase bool
	}{{"guarded", e.Codec, false}, {"trusted", e.TrustedCodec, true}}
	for i, c := range codecs {
		t.Run(c.Name, func(t *testing.T) {
			ctx := context.Background()
			for _, rt := range runtimes {
				codec, loadErr := rt.load(ctx, c.Source)
				for j, cs := range c.Cases {
					if rt.perCase && j > 0 {
						codec, loadErr = rt.load(ctx, fmt.Sprintf("%s\n// case %d\n", c.Source, j))
					}
					got := runSandbox(ctx, codec, loadErr, cs, inputs[i][j])
					want := node[i][j]
					if !got.same(want) {
						t.Errorf("%q, %s: the sandbox and Node differ\n  sandbox %s\n  node    %s", cs.Name, rt.name, got, want)
					}
					if cs.Expected != nil {
						if msg := got.check(cs); msg != "" {
							t.Errorf("%q, %s: %s", cs.Name, rt.name, msg)
						}
					}
				}
			}
		})
	}
}

// nodeCase is a case as both sides take it.
type nodeCase struct {
	Op        string            `json:"op"`
	FPort     int               `json:"fPort"`
	Bytes     []int             `json:"bytes"`
	RecvTime  int64             `json:"recvTime"`
	Now       int64             `json:"now"`
	Variables map[string]string `json:"variables"`
	Data      map[string]any    `json:"data,omitempty"`

	payload []byte
	recv    time.Time
}

func (c Case) nodeCase() (nodeCase, error) {
	n := nodeCase{Op: c.Op, FPort: c.FPort, Data: c.Data, Variables: map[string]string{}, Bytes: []int{}}
	if n.Op == "" {
		n.Op = "decodeUplink"
	}
	switch n.Op {
	case "decodeUplink", "decodeDownlink", "encodeDownlink":
	default:
		return n, fmt.Errorf("unknown op %q", n.Op)
	}
	b, err := hex.DecodeString(c.Bytes)
	if err != nil {
		return n, fmt.Errorf("bytes: %w", err)
	}
	n.payload = b
	for _, x := range b {
		n.Bytes = append(n.Bytes, int(x))
	}
	rt := c.RecvTime
	if rt == "" {
		rt = DefaultRecvTime
	}
	if n.recv, err = time.Parse(time.RFC3339Nano, rt); err != nil {
		return n, fmt.Errorf("recvTime: %w", err)
	}
	n.RecvTime = n.recv.UnixMilli()
	for k, v := range c.Variables {
		if s, ok := v.(string); ok {
			n.Variables[k] = s
		} else {
			n.Variables[k] = fmt.Sprint(v)
		}
	}
	return n, nil
}

// outcome is what one side made of a case.
type outcome struct {
	OK      *string `json:"ok,omitempty"`
	Thrown  string  `json:"thrown,omitempty"`
	Missing bool    `json:"missing,omitempty"`
	// Failed is a sandbox failure that is not a throw (a limit, a crash).
	Failed string `json:"-"`
}

func (o outcome) String() string {
	switch {
	case o.OK != nil:
		return *o.OK
	case o.Missing:
		return "(no function for the operation)"
	case o.Failed != "":
		return "failed: " + o.Failed
	}
	return "threw: " + o.Thrown
}

// same compares the sides: the same JSON text, or both threw (messages of
// the two engines differ), or neither defines the function.
func (o outcome) same(p outcome) bool {
	switch {
	case o.OK != nil || p.OK != nil:
		return o.OK != nil && p.OK != nil && *o.OK == *p.OK
	case o.Missing || p.Missing:
		return o.Missing == p.Missing
	case o.Failed != "":
		return false
	}
	return o.Thrown != "" && p.Thrown != ""
}

func runSandbox(ctx context.Context, codec *sandbox.Codec, loadErr error, c Case, in nodeCase) outcome {
	if loadErr != nil {
		return outcomeOf(nil, loadErr)
	}
	switch in.Op {
	case "encodeDownlink":
		r, err := codec.EncodeDownlink(ctx, sandbox.DownlinkInput{Data: in.Data, FPort: in.FPort, Variables: in.Variables}, limits)
		return outcomeOf(r.Raw, err)
	case "decodeDownlink":
		r, err := codec.DecodeDownlink(ctx, sandbox.Input{Bytes: in.payload, FPort: in.FPort, Variables: in.Variables}, limits)
		return outcomeOf(r.Raw, err)
	}
	r, err := codec.DecodeUplink(ctx, sandbox.Input{Bytes: in.payload, FPort: in.FPort, RecvTime: in.recv, Variables: in.Variables}, limits)
	return outcomeOf(r.Raw, err)
}

// outcomeOf reads a sandbox call: a result of the wrong shape still has its
// raw JSON, which is what Node is compared with.
func outcomeOf(raw json.RawMessage, err error) outcome {
	if raw != nil {
		s := string(raw)
		return outcome{OK: &s}
	}
	var se *sandbox.Error
	switch {
	case errors.As(err, &se) && (se.Kind == sandbox.KindThrown || se.Kind == sandbox.KindSyntax || se.Kind == sandbox.KindLoad):
		return outcome{Thrown: se.Error()}
	case errors.As(err, &se) && se.Kind == sandbox.KindMissing:
		return outcome{Missing: true}
	case err != nil:
		return outcome{Failed: err.Error()}
	}
	return outcome{Failed: "no result and no error"}
}

// check compares a sandbox outcome with the case's expected output.
func (o outcome) check(c Case) string {
	if o.OK == nil {
		return fmt.Sprintf("expected %s, got %s", mustJSON(c.Expected), o)
	}
	var v any
	if err := json.Unmarshal([]byte(*o.OK), &v); err != nil {
		return fmt.Sprintf("result %s is not JSON", *o.OK)
	}
	got, ok := v.(map[string]any)
	if l, isList := v.([]any); isList && c.Op == "encodeDownlink" {
		// Encode and Encoder return the bytes themselves.
		got, ok = map[string]any{"bytes": l}, true
		if c.Expected.FPort != 0 {
			got["fPort"] = float64(c.FPort)
		}
	}
	if !ok {
		return fmt.Sprintf("result %s is not an object", *o.OK)
	}
	if c.Op == "encodeDownlink" {
		want := map[string]any{}
		if c.Expected.Bytes != nil {
			b, err := hex.DecodeString(*c.Expected.Bytes)
			if err != nil {
				return "expected.bytes: " + err.Error()
			}
			l := make([]any, len(b))
			for i, x := range b {
				l[i] = float64(x)
			}
			want["bytes"] = l
		}
		if c.Expected.FPort != 0 {
			want["fPort"] = float64(c.Expected.FPort)
		}
		addLists(want, c.Expected)
		dropEmpty(got, want)
		if !reflect.DeepEqual(got, want) {
			return fmt.Sprintf("expected %s, got %s", mustJSON(want), mustJSON(got))
		}
		return ""
	}
	want := map[string]any{}
	if c.Expected.Data != nil {
		want["data"] = normalise(c.Expected.Data)
	}
	addLists(want, c.Expected)
	dropEmpty(got, want)
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("expected %s, got %s", mustJSON(want), mustJSON(got))
	}
	return ""
}

func addLists(want map[string]any, e *Expected) {
	for k, l := range map[string][]string{"warnings": e.Warnings, "errors": e.Errors} {
		if l == nil {
			continue
		}
		a := make([]any, len(l))
		for i, s := range l {
			a[i] = s
		}
		want[k] = a
	}
}

// dropEmpty removes empty warnings and errors the expectation leaves out.
func dropEmpty(got, want map[string]any) {
	for _, k := range []string{"warnings", "errors"} {
		if l, ok := got[k].([]any); ok && len(l) == 0 {
			if _, named := want[k]; !named {
				delete(got, k)
			}
		}
	}
}

func normalise(v any) any {
	var out any
	_ = json.Unmarshal(mustJSON(v), &out)
	return out
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// runnerPath is testdata/node-runner.mjs of package sandbox.
func runnerPath() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errors.New("cannot find the source of sandboxtest")
	}
	return filepath.Join(filepath.Dir(file), "..", "testdata", "node-runner.mjs"), nil
}

func runNode(codecs []Codec, inputs [][]nodeCase) ([][]outcome, error) {
	type jobCodec struct {
		Source string     `json:"source"`
		Cases  []nodeCase `json:"cases"`
	}
	job := struct {
		Codecs []jobCodec `json:"codecs"`
	}{}
	for i, c := range codecs {
		job.Codecs = append(job.Codecs, jobCodec{Source: c.Source, Cases: inputs[i]})
	}
	body, err := json.Marshal(job)
	if err != nil {
		return nil, err
	}
	runner, err := runnerPath()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("node", runner)
	cmd.Env = append(os.Environ(), "TZ=UTC")
	cmd.Stdin = bytes.NewReader(body)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("node %s (node must be installed): %w: %s", runner, err, stderr.String())
	}
	var res struct {
		Results [][]outcome `json:"results"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("read node's results: %w", err)
	}
	if len(res.Results) != len(codecs) {
		return nil, fmt.Errorf("node gave results for %d codecs, not %d", len(res.Results), len(codecs))
	}
	return res.Results, nil
}

// Fuzz fuzzes the uplink decoders of codecs with arbitrary payloads and
// ports: the fuzzer's first argument picks the codec, the cases' payloads are
// the seeds. A call may fail only with an *sandbox.Error of a kind in allow
// (none: a codec must return errors rather than throw); every result must be
// JSON of the right shape. Payloads longer than 4096 bytes, more than any
// uplink the portal takes, are skipped. Calls get a second each, so that a
// slow machine does not pass for a slow codec.
func Fuzz(f *testing.F, e *sandbox.Engine, codecs []Codec, allow ...sandbox.Kind) {
	ctx := context.Background()
	var loaded []*sandbox.Codec
	var names []string
	for _, c := range codecs {
		codec, err := e.Codec(ctx, c.Source)
		if err != nil {
			f.Fatalf("load %s: %v", c.Name, err)
		}
		if !codec.Can(sandbox.OpDecodeUplink) {
			continue
		}
		for _, cs := range c.Cases {
			if b, err := hex.DecodeString(cs.Bytes); err == nil && (cs.Op == "" || cs.Op == "decodeUplink") {
				f.Add(uint16(len(loaded)), uint8(cs.FPort), b)
			}
		}
		loaded = append(loaded, codec)
		names = append(names, c.Name)
	}
	if len(loaded) == 0 {
		f.Fatal("no codec decodes uplinks")
	}
	recv := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, which uint16, fPort uint8, payload []byte) {
		if len(payload) > 4096 {
			return
		}
		i := int(which) % len(loaded)
		r, err := loaded[i].DecodeUplink(ctx, sandbox.Input{Bytes: payload, FPort: int(fPort), RecvTime: recv}, sandbox.Limits{Time: time.Second})
		if err != nil {
			var se *sandbox.Error
			if errors.As(err, &se) && slices.Contains(allow, se.Kind) {
				return
			}
			t.Fatalf("%s, fPort %d, payload %x: %v", names[i], fPort, payload, err)
		}
		if !json.Valid(r.Raw) || (r.Data == nil && len(r.Errors) == 0) {
			t.Fatalf("%s, fPort %d, payload %x: result %s", names[i], fPort, payload, r.Raw)
		}
	})
}
