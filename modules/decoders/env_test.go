package decoders_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/decoders"
)

// env is a running portal (app.Build) with two companies, acme and beta,
// each with a CompanyAdmin, an application with a node, and an integration
// token; acme also has a User.
type env struct {
	c     *kerneltest.Client
	host  *kernel.Host
	dec   decoders.Module
	store tsdb.Store
	tok   map[string]string // super, acmeAdmin, acmeUser, betaAdmin, acmeIngest, betaIngest
	id    map[string]int64  // acme, beta (companies), acmeApp, betaApp, acmeNode, betaNode (tags)
	eui   map[string]string // acmeNode, betaNode
}

func newEnv(t *testing.T, d db.Dialect) *env {
	t.Helper()
	p := kerneltest.Start(t, d, nil, app.Build)
	e := &env{c: p.Client, host: p.Host(), dec: p.App.Decoders(), store: p.App.Series(),
		tok: map[string]string{}, id: map[string]int64{}, eui: map[string]string{}}
	if err := p.App.CreateSuperAdmin(context.Background(), "super@fieldhub.test", "secret123"); err != nil {
		t.Fatal(err)
	}
	e.tok["super"] = e.c.Login(t, "super@fieldhub.test", "secret123")
	for i, key := range []string{"acme", "beta"} {
		r := e.must(t, "super", "POST", "/api/users/create/company", map[string]any{
			"company": map[string]any{"name": key, "orgNumber": "556677-8899", "invoiceAdress": "a@" + key + ".se", "country": "SE"},
			"user": map[string]any{"firstName": "Ada", "lastName": strings.ToUpper(key[:1]) + key[1:], "email": "admin@" + key + ".se",
				"phoneNumber": "46701234567", "password": "secret123"},
		}, http.StatusCreated)
		e.id[key] = int64(r.Obj()["company"].(map[string]any)["companyId"].(float64))
		e.tok[key+"Admin"] = e.c.Login(t, "admin@"+key+".se", "secret123")
		e.tok[key+"Ingest"] = e.must(t, key+"Admin", "POST", fmt.Sprintf("/api/integration/tokens/%d", e.id[key]),
			map[string]any{"label": "network server", "isCompany": true}, http.StatusCreated).Str("token")
		e.id[key+"App"] = e.must(t, key+"Admin", "POST", fmt.Sprintf("/api/applications/%d", e.id[key]),
			map[string]any{"name": "Field " + key}, http.StatusCreated).Num("id")
		e.eui[key+"Node"] = fmt.Sprintf("70B3D57ED00000%02X", i+1)
		e.id[key+"Node"] = e.must(t, key+"Admin", "POST", fmt.Sprintf("/api/applications/%d/tag", e.id[key+"App"]),
			map[string]any{"name": "Node " + key, "deveui": e.eui[key+"Node"]}, http.StatusCreated).Num("id")
	}
	e.must(t, "acmeAdmin", "POST", "/api/users", map[string]any{"firstName": "U", "lastName": "S",
		"email": "user@acme.se", "phoneNumber": "46701234568", "password": "secret123"}, http.StatusCreated)
	e.tok["acmeUser"] = e.c.Login(t, "user@acme.se", "secret123")
	return e
}

// call sends a request as who (a key of tok, or "" for a visitor).
func (e *env) call(t *testing.T, who, method, path string, body any) kerneltest.Response {
	t.Helper()
	return e.c.Call(t, method, path, e.tok[who], body)
}

// must sends a request as who and wants status.
func (e *env) must(t *testing.T, who, method, path string, body any, status int) kerneltest.Response {
	t.Helper()
	r := e.call(t, who, method, path, body)
	if r.Status != status {
		t.Fatalf("%s %s as %s: %d, want %d: %s", method, path, who, r.Status, status, r.Body)
	}
	return r
}

// createDecoder makes a JavaScript decoder of company as its admin and
// returns its id.
func (e *env) createDecoder(t *testing.T, company, name, source string) int64 {
	t.Helper()
	return e.must(t, company+"Admin", "POST", fmt.Sprintf("/api/companies/%d/decoders", e.id[company]),
		map[string]any{"name": name, "source": source}, http.StatusCreated).Num("id")
}

// useDecoder sets the decoder of company's node.
func (e *env) useDecoder(t *testing.T, company, key string) {
	t.Helper()
	e.must(t, company+"Admin", "PUT", "/api/tag/"+e.eui[company+"Node"], map[string]any{"decoder": key}, http.StatusOK)
}

// uplink posts a ChirpStack uplink of company's node with payload and
// wants 200; it returns the answer.
func (e *env) uplink(t *testing.T, company string, at time.Time, fPort int, payload []byte) kerneltest.Response {
	t.Helper()
	r := e.postUplink(t, company, at, fPort, payload)
	if r.Status != http.StatusOK {
		t.Fatalf("uplink of %s: %d %s", company, r.Status, r.Body)
	}
	return r
}

func (e *env) postUplink(t *testing.T, company string, at time.Time, fPort int, payload []byte) kerneltest.Response {
	t.Helper()
	return e.c.Call(t, "POST", "/api/ingest/chirpstack?event=up", e.tok[company+"Ingest"], map[string]any{
		"time":       at.UTC().Format(time.RFC3339Nano),
		"deviceInfo": map[string]any{"devEui": strings.ToLower(e.eui[company+"Node"])},
		"fPort":      fPort,
		"data":       payload,
		"rxInfo":     []any{map[string]any{"gatewayId": "0016c001f153a14c", "rssi": -80, "snr": 7.25}},
	})
}

// latest returns the newest stored point of a key of company's node.
func (e *env) latest(t *testing.T, company, key string) (tsdb.Point, bool) {
	t.Helper()
	p, ok, err := e.store.Latest(context.Background(), e.series(company, key))
	if err != nil {
		t.Fatal(err)
	}
	return p, ok
}

func (e *env) series(company, key string) tsdb.Series {
	return tsdb.Series{Company: e.id[company], DevEUI: strings.ToLower(e.eui[company+"Node"]), Key: key}
}

// points returns the stored points of a key of company's node in [from, to).
func (e *env) points(t *testing.T, company, key string, from, to time.Time) []tsdb.Point {
	t.Helper()
	pts, err := e.store.Range(context.Background(), e.series(company, key), from, to, 10_000)
	if err != nil {
		t.Fatal(err)
	}
	return pts
}

// wasmDecoder builds a WebAssembly module that follows sdk/decoder's ABI
// and answers every decode with output (JSON), or, with spin, loops
// forever. Tests build it byte by byte so that they need no WASM toolchain.
func wasmDecoder(output string, spin bool) []byte {
	const dataAt, allocAt = 1024, 4096
	section := func(id byte, body []byte) []byte {
		return append(append([]byte{id}, uleb(uint64(len(body)))...), body...)
	}
	vec := func(items ...[]byte) []byte {
		out := uleb(uint64(len(items)))
		for _, it := range items {
			out = append(out, it...)
		}
		return out
	}
	name := func(s string) []byte { return append(uleb(uint64(len(s))), s...) }
	types := vec(
		[]byte{0x60, 0x00, 0x00},                   // () -> ()
		[]byte{0x60, 0x01, 0x7f, 0x01, 0x7f},       // (i32) -> i32
		[]byte{0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7e}, // (i32, i32) -> i64
	)
	funcs := vec([]byte{0}, []byte{1}, []byte{2})
	memory := vec([]byte{0x00, 0x01}) // one page, no maximum
	exports := vec(
		append(name("memory"), 0x02, 0x00),
		append(name("fieldhub_abi_v1"), 0x00, 0x00),
		append(name("fieldhub_alloc"), 0x00, 0x01),
		append(name("fieldhub_decode_uplink"), 0x00, 0x02),
	)
	body := func(code ...byte) []byte {
		b := append([]byte{0x00}, code...) // no locals
		return append(uleb(uint64(len(b))), b...)
	}
	alloc := append(append([]byte{0x41}, sleb(allocAt)...), 0x0b)
	decode := append(append([]byte{0x42}, sleb(int64(dataAt)<<32|int64(len(output)))...), 0x0b)
	if spin {
		decode = []byte{0x03, 0x40, 0x0c, 0x00, 0x0b, 0x00, 0x0b} // loop br 0 end; unreachable; end
	}
	code := vec(body(0x0b), body(alloc...), body(decode...))
	data := vec(append(append(append([]byte{0x00, 0x41}, sleb(dataAt)...), 0x0b), name(output)...))
	out := []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00}
	for _, s := range []struct {
		id   byte
		body []byte
	}{{1, types}, {3, funcs}, {5, memory}, {7, exports}, {10, code}, {11, data}} {
		out = append(out, section(s.id, s.body)...)
	}
	return out
}

func uleb(v uint64) []byte { return binary.AppendUvarint(nil, v) }

func sleb(v int64) []byte {
	var out []byte
	for {
		b := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && b&0x40 == 0) || (v == -1 && b&0x40 != 0) {
			return append(out, b)
		}
		out = append(out, b|0x80)
	}
}
