package decoders_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/decoders"
)

const (
	codecV1 = "function decodeUplink(input) { return {data: {level: input.bytes[0]}} }"
	codecV2 = "function decodeUplink(input) { return {data: {level: input.bytes[0] * 10, version: 2}} }"
)

// TestCustomDecoderVersions walks a decoder's life: made with its first
// version, picked on a node, a second version that decodes the node's next
// uplink, a roll back, and a delete refused while the node uses it.
func TestCustomDecoderVersions(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		list := fmt.Sprintf("/api/companies/%d/decoders", e.ID(t, "{acme}"))
		r := e.Must(t, "acmeAdmin", "POST", list, map[string]any{"name": "  Tank level ", "source": codecV1}, http.StatusCreated)
		id := r.Num("id")
		key := decoders.CustomKey(id)
		if r.Str("name") != "Tank level" || r.Str("kind") != "js" || r.Str("key") != key || r.Num("activeVersion") != 1 || r.Str("source") != codecV1 {
			t.Fatalf("created: %s", r.Body)
		}
		if v := r.Obj()["versions"].([]any)[0].(map[string]any); v["createdByName"] != "Ada Acme" || v["active"] != true || v["version"] != 1.0 {
			t.Errorf("first version: %v", v)
		}
		e.UseDecoder(t, "acme", key)
		at := time.Now().UTC().Add(-time.Minute).Truncate(time.Millisecond)
		e.Uplink(t, "acme", at, 2, []byte{7})
		if p, ok := e.Latest(t, "acme", "level"); !ok || p.Value != 7 {
			t.Fatalf("version 1 decoded %v, %v", p, ok)
		}

		v2 := e.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/decoders/%d/versions", id), map[string]any{"source": codecV2}, http.StatusCreated)
		if v2.Num("version") != 2 || v2.Obj()["active"] != true {
			t.Fatalf("version 2: %s", v2.Body)
		}
		e.Uplink(t, "acme", at.Add(time.Second), 2, []byte{7})
		if p, _ := e.Latest(t, "acme", "level"); p.Value != 70 {
			t.Errorf("version 2 decoded %v", p)
		}
		// A version saved without activating it waits.
		e.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/decoders/%d/versions", id), map[string]any{"source": codecV1 + " // 3", "activate": false}, http.StatusCreated)
		got := e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/decoders/%d", id), nil, http.StatusOK)
		if got.Num("activeVersion") != 2 || len(got.Obj()["versions"].([]any)) != 3 || got.Str("source") != codecV2 {
			t.Errorf("after version 3: %s", got.Body)
		}
		if nodes := got.Obj()["nodes"].([]any); len(nodes) != 1 || nodes[0].(map[string]any)["deveui"] != e.EUI["acmeNode"] {
			t.Errorf("nodes: %v", nodes)
		}
		// Roll back to version 1.
		back := e.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/decoders/%d/versions/1/activate", id), nil, http.StatusOK)
		if back.Num("activeVersion") != 1 {
			t.Errorf("roll back: %s", back.Body)
		}
		e.Uplink(t, "acme", at.Add(2*time.Second), 2, []byte{8})
		if p, _ := e.Latest(t, "acme", "level"); p.Value != 8 {
			t.Errorf("rolled back decoded %v", p)
		}
		old := e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/decoders/%d/versions/2", id), nil, http.StatusOK)
		if old.Str("source") != codecV2 || old.Obj()["active"] != false {
			t.Errorf("version 2: %s", old.Body)
		}
		e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/decoders/%d/versions/9", id), nil, http.StatusNotFound)
		e.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/decoders/%d/versions/9/activate", id), nil, http.StatusNotFound)

		// In use: the delete is refused, saying by whom.
		refused := e.Must(t, "acmeAdmin", "DELETE", fmt.Sprintf("/api/decoders/%d", id), nil, http.StatusBadRequest)
		if !strings.Contains(refused.Str("message"), "Node acme") || refused.Str("id") != "decoders.inUse" {
			t.Errorf("delete in use: %s", refused.Body)
		}
		e.UseDecoder(t, "acme", "raw")
		e.Must(t, "acmeAdmin", "DELETE", fmt.Sprintf("/api/decoders/%d", id), nil, http.StatusNoContent)
		e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/decoders/%d", id), nil, http.StatusNotFound)
		if r := e.Call(t, "acmeAdmin", "PUT", "/api/tag/"+e.EUI["acmeNode"], map[string]any{"decoder": key}); r.Status != http.StatusBadRequest || r.FieldError("decoder") == "" {
			t.Errorf("picking a deleted decoder: %d %s", r.Status, r.Body)
		}
	})
}

func TestCustomDecoderValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.SQLite)
	list := fmt.Sprintf("/api/companies/%d/decoders", e.ID(t, "{acme}"))
	e.CreateDecoder(t, "acme", "Taken", codecV1)
	wasm := base64.StdEncoding.EncodeToString(wasmDecoder(`{"data":{"w":1}}`, false))
	cases := []struct {
		name  string
		body  any
		field string
	}{
		{"no name", map[string]any{"source": codecV1}, "name"},
		{"a name of another decoder", map[string]any{"name": "taken", "source": codecV1}, "name"},
		{"a name too long", map[string]any{"name": strings.Repeat("n", 256), "source": codecV1}, "name"},
		{"no source", map[string]any{"name": "A"}, "source"},
		{"a source that does not parse", map[string]any{"name": "A", "source": "function decodeUplink( {"}, "source"},
		{"a source without a decode function", map[string]any{"name": "A", "source": "var x = 1"}, "source"},
		{"a source whose top level throws", map[string]any{"name": "A", "source": "throw new Error('at load')"}, "source"},
		{"a source too large", map[string]any{"name": "A", "source": "//" + strings.Repeat("x", 1<<20)}, "source"},
		{"an unknown kind", map[string]any{"name": "A", "kind": "lua", "source": codecV1}, "kind"},
		{"a module that is not base64", map[string]any{"name": "A", "kind": "wasm", "module": "%%"}, "module"},
		{"a module that is not WebAssembly", map[string]any{"name": "A", "kind": "wasm", "module": base64.StdEncoding.EncodeToString([]byte("not wasm"))}, "module"},
		{"a source for a WebAssembly decoder", map[string]any{"name": "A", "kind": "wasm", "source": codecV1}, "source"},
		{"a module for a JavaScript decoder", map[string]any{"name": "A", "kind": "js", "module": wasm}, "module"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.Call(t, "acmeAdmin", "POST", list, tc.body)
			if r.Status != http.StatusBadRequest || r.FieldError(tc.field) == "" {
				t.Errorf("%d %s; want a field error on %s", r.Status, r.Body, tc.field)
			}
		})
	}
	// A WebAssembly decoder: uploaded, tested, its module given back.
	r := e.Must(t, "acmeAdmin", "POST", list, map[string]any{"name": "Wasm", "module": wasm}, http.StatusCreated)
	if r.Str("kind") != "wasm" || r.Obj()["source"] != nil {
		t.Errorf("wasm decoder: %s", r.Body)
	}
	v := e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/decoders/%d/versions/1", r.Num("id")), nil, http.StatusOK)
	if v.Str("module") != wasm {
		t.Errorf("module given back: %.200s", v.Body)
	}
	test := e.Must(t, "acmeAdmin", "POST", "/api/decoder/test", map[string]any{"key": r.Str("key"), "fPort": 1, "bytes": "00"}, http.StatusOK)
	if msg := wantData(map[string]any{"w": 1.0})(test.Obj()); msg != "" {
		t.Error(msg)
	}
	// Renaming keeps names apart too.
	e.Must(t, "acmeAdmin", "PUT", fmt.Sprintf("/api/decoders/%d", r.Num("id")), map[string]any{"name": "TAKEN"}, http.StatusBadRequest)
	if r := e.Must(t, "acmeAdmin", "PUT", fmt.Sprintf("/api/decoders/%d", r.Num("id")), map[string]any{"name": "Wasm meter"}, http.StatusOK); r.Str("name") != "Wasm meter" {
		t.Errorf("rename: %s", r.Body)
	}
}

// TestCustomDecodersAreTheCompanys checks that one company cannot see,
// change, test, pick or use another's decoders, and that a User cannot
// manage them.
func TestCustomDecodersAreTheCompanys(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.SQLite)
	id := e.CreateDecoder(t, "beta", "Beta secret", codecV1)
	key := decoders.CustomKey(id)
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"GET", fmt.Sprintf("/api/companies/%d/decoders", e.ID(t, "{beta}")), nil},
		{"POST", fmt.Sprintf("/api/companies/%d/decoders", e.ID(t, "{beta}")), map[string]any{"name": "Planted", "source": codecV1}},
		{"GET", fmt.Sprintf("/api/decoders/%d", id), nil},
		{"PUT", fmt.Sprintf("/api/decoders/%d", id), map[string]any{"name": "Hijacked"}},
		{"DELETE", fmt.Sprintf("/api/decoders/%d", id), nil},
		{"POST", fmt.Sprintf("/api/decoders/%d/versions", id), map[string]any{"source": codecV2}},
		{"GET", fmt.Sprintf("/api/decoders/%d/versions/1", id), nil},
		{"POST", fmt.Sprintf("/api/decoders/%d/versions/1/activate", id), nil},
		{"POST", "/api/decoder/test", map[string]any{"key": key, "fPort": 1}},
		{"GET", fmt.Sprintf("/api/companies/%d/decoders/limits", e.ID(t, "{beta}")), nil},
		{"POST", fmt.Sprintf("/api/companies/%d/redecode", e.ID(t, "{beta}")), map[string]any{"decoder": key, "from": "2020-01-01T00:00:00Z", "to": "2030-01-01T00:00:00Z"}},
	} {
		r := e.Call(t, "acmeAdmin", c.method, c.path, c.body)
		if r.Status != http.StatusNotFound || strings.Contains(string(r.Body), "Beta secret") {
			t.Errorf("%s %s as acme: %d %s", c.method, c.path, r.Status, r.Body)
		}
		if r := e.Call(t, "acmeUser", c.method, c.path, c.body); r.Status != http.StatusForbidden {
			t.Errorf("%s %s as a User: %d %s", c.method, c.path, r.Status, r.Body)
		}
	}
	if r := e.Call(t, "acmeAdmin", "PUT", "/api/tag/"+e.EUI["acmeNode"], map[string]any{"decoder": key}); r.Status != http.StatusBadRequest || r.FieldError("decoder") == "" {
		t.Errorf("acme picking beta's decoder: %d %s", r.Status, r.Body)
	}
	e.Must(t, "betaAdmin", "GET", fmt.Sprintf("/api/decoders/%d", id), nil, http.StatusOK)
	e.Must(t, "super", "GET", fmt.Sprintf("/api/decoders/%d", id), nil, http.StatusOK)
}

// TestCompanyLimits: a SuperAdmin sets a company's limits, which its
// decoders then run under; a company cannot set its own.
func TestCompanyLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.SQLite)
	path := fmt.Sprintf("/api/companies/%d/decoders/limits", e.ID(t, "{acme}"))
	r := e.Must(t, "acmeAdmin", "GET", path, nil, http.StatusOK)
	if r.Num("timeMs") != 50 || r.Num("memoryMiB") != 16 || r.Obj()["default"] != true {
		t.Errorf("default limits: %s", r.Body)
	}
	e.Must(t, "acmeAdmin", "PUT", path, map[string]any{"timeMs": 500, "memoryMiB": 32}, http.StatusForbidden)
	for _, bad := range []map[string]any{{"timeMs": 0, "memoryMiB": 16}, {"timeMs": 1001, "memoryMiB": 16}, {"timeMs": 50, "memoryMiB": 65}, {}} {
		if r := e.Call(t, "super", "PUT", path, bad); r.Status != http.StatusBadRequest {
			t.Errorf("limits %v: %d %s", bad, r.Status, r.Body)
		}
	}
	// A codec that takes 24 MiB fails under 16 MiB and runs under 48 MiB.
	big := map[string]any{"script": "function decodeUplink(i) { var b = new ArrayBuffer(24 << 20); return {data: {n: b.byteLength}} }", "fPort": 1}
	if r := e.Must(t, "acmeAdmin", "POST", "/api/decoder/test", big, http.StatusOK); wantError("memory limit of 16 MiB")(r.Obj()) != "" {
		t.Fatalf("under the default limit: %s", r.Body)
	}
	e.Must(t, "super", "PUT", path, map[string]any{"timeMs": 1000, "memoryMiB": 48}, http.StatusOK)
	r = e.Must(t, "acmeAdmin", "GET", path, nil, http.StatusOK)
	if r.Num("timeMs") != 1000 || r.Num("memoryMiB") != 48 || r.Obj()["default"] != false {
		t.Errorf("set limits: %s", r.Body)
	}
	if r := e.Must(t, "acmeAdmin", "POST", "/api/decoder/test", big, http.StatusOK); wantData(map[string]any{"n": float64(24 << 20)})(r.Obj()) != "" {
		t.Errorf("under 48 MiB: %s", r.Body)
	}
	if r := e.Must(t, "betaAdmin", "POST", "/api/decoder/test", big, http.StatusOK); wantError("memory limit of 16 MiB")(r.Obj()) != "" {
		t.Errorf("beta keeps the default: %s", r.Body)
	}
	if r := e.Must(t, "super", "DELETE", path, nil, http.StatusOK); r.Obj()["default"] != true {
		t.Errorf("reset: %s", r.Body)
	}
}

// TestVersionActivatedIsPublished checks that a version that becomes the
// active one is announced once committed: the first version of a new
// decoder, a new version saved active (not one saved inactive), and a roll
// back.
func TestVersionActivatedIsPublished(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.SQLite)
	got := make(chan decoders.VersionActivated, 10)
	e.host.Bus.Subscribe(decoders.VersionActivated{}.Topic(), func(_ context.Context, ev events.Event) {
		got <- ev.(decoders.VersionActivated)
	})
	next := func(what string) decoders.VersionActivated {
		t.Helper()
		select {
		case ev := <-got:
			return ev
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no VersionActivated", what)
			return decoders.VersionActivated{}
		}
	}
	id := e.CreateDecoder(t, "acme", "Tank level", codecV1)
	want := decoders.VersionActivated{CompanyID: e.ID(t, "{acme}"), DecoderID: id, Key: decoders.CustomKey(id), Version: 1}
	if ev := next("a new decoder"); ev != want {
		t.Errorf("a new decoder: %+v, want %+v", ev, want)
	}
	// The version is active by the time the event is out.
	if r := e.Must(t, "acmeAdmin", "GET", fmt.Sprintf("/api/decoders/%d", id), nil, http.StatusOK); r.Num("activeVersion") != 1 {
		t.Errorf("active version: %s", r.Body)
	}
	e.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/decoders/%d/versions", id), map[string]any{"source": codecV2}, http.StatusCreated)
	if want.Version = 2; next("a new active version") != want {
		t.Errorf("a new active version: want %+v", want)
	}
	e.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/decoders/%d/versions", id), map[string]any{"source": codecV1 + " // 3", "activate": false}, http.StatusCreated)
	e.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/decoders/%d/versions/1/activate", id), nil, http.StatusOK)
	if want.Version = 1; next("a roll back") != want {
		t.Errorf("a roll back (version 3 was saved inactive, and announced none): want %+v", want)
	}
	e.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/decoders/%d/versions/9/activate", id), nil, http.StatusNotFound)
	select {
	case ev := <-got:
		t.Errorf("announced %+v for no activation", ev)
	case <-time.After(200 * time.Millisecond):
	}
}
