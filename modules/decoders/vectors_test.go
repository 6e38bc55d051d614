package decoders_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/kernel/sandbox/sandboxtest"
	"github.com/fieldhub/fieldhub/modules/decoders"
)

// vector is one documentation vector of a built-in codec
// (catalog/<key>.test.json), in sandboxtest's case format.
type vector = sandboxtest.Case

type vectorCodec struct {
	key     string
	vectors []vector
}

// loadCatalog reads every codec of catalog/ with its vectors, each Source
// resolved by decoders.CatalogSource (its @include libraries first).
func loadCatalog() ([]sandboxtest.Codec, error) {
	codecs, err := sandboxtest.Load("catalog")
	if err != nil {
		return nil, err
	}
	for i, c := range codecs {
		if codecs[i].Source, err = decoders.CatalogSource(c.Name); err != nil {
			return nil, err
		}
	}
	return codecs, nil
}

// catalogEngine starts a sandbox engine for the test and reads the catalog.
func catalogEngine(t *testing.T, opts sandbox.Options) (*sandbox.Engine, []sandboxtest.Codec) {
	t.Helper()
	e, err := sandbox.New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	codecs, err := loadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	return e, codecs
}

// loadVectors reads the vectors of every codec of catalog/.
func loadVectors() ([]vectorCodec, error) {
	codecs, err := loadCatalog()
	if err != nil {
		return nil, err
	}
	out := make([]vectorCodec, len(codecs))
	for i, c := range codecs {
		out[i] = vectorCodec{key: c.Name, vectors: c.Cases}
	}
	return out, nil
}

// input is a vector as Decode takes it.
func input(v vector) decoders.Input {
	b, _ := hex.DecodeString(v.Bytes)
	rt := v.RecvTime
	if rt == "" {
		rt = sandboxtest.DefaultRecvTime
	}
	at, _ := time.Parse(time.RFC3339Nano, rt)
	vars := map[string]string{}
	for k, x := range v.Variables {
		vars[k] = fmt.Sprint(x)
	}
	return decoders.Input{FPort: v.FPort, Bytes: b, RecvTime: at, Variables: vars}
}

// check compares Decode's output with the vector's expected one, as
// check-vectors.mjs does: empty warnings or errors match absent ones.
func check(v vector, out decoders.Output) string {
	if v.Expected == nil {
		return "the vector has no expected output"
	}
	want := normalise(map[string]any{"data": v.Expected.Data, "warnings": v.Expected.Warnings, "errors": v.Expected.Errors})
	got := normalise(map[string]any{"data": out.Data, "warnings": out.Warnings, "errors": out.Errors})
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("\n  want %s\n  got  %s", mustJSON(want), mustJSON(got))
	}
	return ""
}

// normalise gives what JSON carries, empty lists as absent ones.
func normalise(m map[string]any) map[string]any {
	var out map[string]any
	_ = json.Unmarshal(mustJSON(m), &out)
	for k, v := range out {
		if l, ok := v.([]any); (ok && len(l) == 0) || v == nil {
			delete(out, k)
		}
	}
	return out
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// TestCatalogFiles checks the catalog's files: a header whose @key is the
// file's name, and vectors beside every codec, named as docs/decoders.md
// says.
func TestCatalogFiles(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("catalog/*.js")
	if err != nil || len(files) == 0 {
		t.Fatalf("catalog: %v", err)
	}
	for _, f := range files {
		key := strings.TrimSuffix(filepath.Base(f), ".js")
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(src), "// @key "+key+"\n") {
			t.Errorf("%s does not start with // @key %s", f, key)
		}
		for _, h := range []string{"@name", "@devices", "@source"} {
			if !strings.Contains(string(src), "// "+h+" ") {
				t.Errorf("%s has no %s line", f, h)
			}
		}
		if _, err := os.Stat(filepath.Join("catalog", key+".test.json")); err != nil {
			t.Errorf("%s has no vectors: %v", f, err)
		}
	}
}

// TestCatalogDifferentialWithNode runs every built-in codec's vectors under
// the sandbox and under Node (sandboxtest.Differential) and passes only when
// both give the same JSON, and that JSON is the vector's expected output.
func TestCatalogDifferentialWithNode(t *testing.T) {
	t.Parallel()
	e, codecs := catalogEngine(t, sandbox.Options{LoadTimeout: sandboxtest.LoadTimeout})
	sandboxtest.DifferentialCodecs(t, e, codecs)
}

// TestCatalogLibraries checks the family libraries of catalog/lib: helper
// scripts that codecs name with "// @include <family>", each used, none a
// decoder of its own; the module lists exactly the codecs of catalog/*.js
// (and raw), with their includes resolved.
func TestCatalogLibraries(t *testing.T) {
	t.Parallel()
	libs, err := filepath.Glob("catalog/lib/*.js")
	if err != nil || len(libs) == 0 {
		t.Fatalf("catalog/lib: %v", err)
	}
	codecs, err := filepath.Glob("catalog/*.js")
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, f := range codecs {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(src)
	}
	for _, f := range libs {
		name := strings.TrimSuffix(filepath.Base(f), ".js")
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(src), "function decodeUplink") || strings.Contains(string(src), "// @key ") {
			t.Errorf("%s defines decodeUplink or has an @key line: a library is not a codec", f)
		}
		if !strings.Contains(all.String(), "\n// @include "+name+"\n") {
			t.Errorf("%s is included by no codec", f)
		}
	}
	m := started(t, sandbox.Limits{})
	list, err := m.Catalog(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != len(codecs)+1 {
		t.Errorf("Catalog lists %d decoders, want the %d codecs of catalog/*.js and raw", len(list), len(codecs))
	}
	src, err := decoders.CatalogSource("milesight_em300_th")
	if err != nil || !strings.Contains(src, "function msDecode") || !strings.HasSuffix(src, "return msDecode(input);\n}\n") {
		t.Errorf("CatalogSource(milesight_em300_th) does not hold lib/milesight.js then the codec: %v", err)
	}
	if _, err := decoders.CatalogSource("../decoders"); err == nil {
		t.Error("CatalogSource took a path")
	}
}

// TestCatalogCodecsKeepNoState runs each built-in codec's uplink vectors
// forwards, backwards and forwards again through one instance of the fast
// runtime, which goes on from call to call without restoring the codec's
// image (sandbox.Codec): every vector must give what it gave the first time,
// whatever ran before it.
func TestCatalogCodecsKeepNoState(t *testing.T) {
	t.Parallel()
	e, codecs := catalogEngine(t, sandbox.Options{PoolSize: 1})
	ctx := context.Background()
	for _, c := range codecs {
		codec, err := e.TrustedCodec(ctx, c.Source)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		var cases []vector
		for _, v := range c.Cases {
			if v.Op == "" || v.Op == "decodeUplink" {
				cases = append(cases, v)
			}
		}
		first := make([]string, len(cases))
		for pass := 0; pass < 3; pass++ {
			for j := range cases {
				i := j
				if pass == 1 {
					i = len(cases) - 1 - j
				}
				in := input(cases[i])
				r, err := codec.DecodeUplink(ctx, sandbox.Input{Bytes: in.Bytes, FPort: in.FPort, RecvTime: in.RecvTime, Variables: in.Variables}, sandbox.Limits{Time: time.Second})
				got := string(r.Raw) + fmt.Sprint(err)
				if pass == 0 {
					first[i] = got
				} else if got != first[i] {
					t.Errorf("%s, %s, pass %d: %s, first %s", c.Name, cases[i].Name, pass, got, first[i])
				}
			}
		}
	}
}

// TestDecentlabCompiledConversions: the Decentlab library computes a
// conversion's returned expression in place only where that gives what
// calling it gives; a conversion that reads a global named like a variable
// of the compiled code, or this, or takes other parameters, is called.
func TestDecentlabCompiledConversions(t *testing.T) {
	t.Parallel()
	lib, err := os.ReadFile("catalog/lib/decentlab.js")
	if err != nil {
		t.Fatal(err)
	}
	e, err := sandbox.New(context.Background(), sandbox.Options{PoolSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	src := string(lib) + `
var n = 3, p = 5, data = 7, C = 11;
var DL_PARAMETERS = { k: 2 };
var DL_SENSORS = [{
  length: 1,
  values: [
    ["plain", function (x, p) { return x[0] * p.k; }],
    ["global_n", function (x) { return n * x[0]; }],
    ["global_p", function (x) { return p * x[0]; }],
    ["global_data", function (x) { return data + C; }],
    ["this", function (x) { return this === undefined ? -1 : 1; }],
    ["other_name", function (w) { return w[0] + 1; }],
    ["two_statements", function (x) { var y = x[0]; return y - 1; }],
    ["not_finite", function (x) { return x[0] / 0; }]
  ]
}];
var dlSensors = dlCompile(DL_PARAMETERS, DL_SENSORS);
function decodeUplink(input) { return dlDecode(input, dlSensors); }`
	c, err := e.TrustedCodec(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.DecodeUplink(context.Background(), sandbox.Input{Bytes: []byte{2, 0, 1, 0, 1, 0, 10}}, sandbox.Limits{Time: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"data":{"protocol_version":2,"device_id":1,"plain":20,"global_n":30,"global_p":50,"global_data":18,"this":1,"other_name":11,"two_statements":9,"not_finite":null}}`
	if string(r.Raw) != want {
		t.Errorf("got  %s\nwant %s", r.Raw, want)
	}
}
