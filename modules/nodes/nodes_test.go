package nodes_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// env is a running portal with a SuperAdmin ("super"), two companies, Acme
// and Beta, with their CompanyAdmins ("acmeAdmin", "betaAdmin"), a User of
// Acme ("acmeUser") and an Admin without a company ("loneAdmin").
type env struct {
	url    string
	k      *kernel.Kernel
	nodes  nodes.Module
	queue  netservers.Downlinks // the downlinks of TestState's nodes
	tokens map[string]string
	ids    map[string]string // placeholders such as "{acme}" to ids

	mu     sync.Mutex
	events []events.Event
}

func newEnv(t *testing.T, d db.Dialect) *env {
	t.Helper()
	p := kerneltest.Start(t, d, nil, app.Build)
	e := &env{url: p.URL, k: p.App.Kernel(), nodes: p.App.Nodes(), queue: p.App.NetServers(), tokens: map[string]string{}, ids: map[string]string{}}
	for _, topic := range []string{nodes.TagCreated{}.Topic(), nodes.TagDeleted{}.Topic()} {
		e.k.Host().Bus.Subscribe(topic, func(_ context.Context, ev events.Event) {
			e.mu.Lock()
			e.events = append(e.events, ev)
			e.mu.Unlock()
		})
	}
	if err := p.App.CreateSuperAdmin(context.Background(), "super@fieldhub.test", "secret123"); err != nil {
		t.Fatalf("create superadmin: %v", err)
	}
	e.tokens["super"] = e.login(t, "super@fieldhub.test")
	for _, key := range []string{"acme", "beta"} {
		body := fmt.Sprintf(`{"company":{"name":%q,"orgNumber":"556677-8899","invoiceAdress":"a@%s.se","country":"SE"},
			"user":{"firstName":"A","lastName":"B","email":"admin@%s.se","phoneNumber":"46701234567","password":"secret123"}}`,
			strings.ToUpper(key[:1])+key[1:], key, key)
		var out struct {
			Company struct {
				ID int64 `json:"companyId"`
			} `json:"company"`
		}
		e.mustDo(t, "super", "POST", "/api/users/create/company", body, http.StatusCreated, &out)
		e.ids["{"+key+"}"] = fmt.Sprint(out.Company.ID)
		e.tokens[key+"Admin"] = e.login(t, "admin@"+key+".se")
	}
	e.mustDo(t, "acmeAdmin", "POST", "/api/users",
		`{"firstName":"U","lastName":"S","email":"user@acme.se","phoneNumber":"46701234568","password":"secret123"}`, http.StatusCreated, nil)
	e.tokens["acmeUser"] = e.login(t, "user@acme.se")
	e.mustDo(t, "super", "POST", "/api/users",
		`{"firstName":"L","lastName":"A","email":"lone@free.se","phoneNumber":"46701234569","password":"secret123","role":"Admin"}`, http.StatusCreated, nil)
	e.tokens["loneAdmin"] = e.login(t, "lone@free.se")
	return e
}

func (e *env) login(t *testing.T, email string) string {
	t.Helper()
	var out struct {
		Token string `json:"token"`
	}
	e.mustDo(t, "", "POST", "/api/users/authenticate", fmt.Sprintf(`{"email":%q,"password":"secret123"}`, email), http.StatusOK, &out)
	return out.Token
}

func (e *env) fill(s string) string {
	var pairs []string
	for k, v := range e.ids {
		pairs = append(pairs, k, v)
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

// send calls the API as who with a raw body and content type.
func (e *env) send(t *testing.T, who, method, path string, body []byte, contentType, lang string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, e.url+e.fill(path), bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if who != "" {
		req.Header.Set("Authorization", "Bearer "+e.tokens[who])
	}
	if lang != "" {
		req.Header.Set("Accept-Language", lang)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Header, raw
}

func (e *env) do(t *testing.T, who, method, path, body, lang string) (int, []byte) {
	t.Helper()
	status, _, raw := e.send(t, who, method, path, []byte(e.fill(body)), "application/json", lang)
	return status, raw
}

func (e *env) mustDo(t *testing.T, who, method, path, body string, status int, out any) {
	t.Helper()
	got, raw := e.do(t, who, method, path, body, "")
	if got != status {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, got, status, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: decode %s: %v", method, path, raw, err)
		}
	}
}

// value reads one stored value straight from the database, "" if absent.
func (e *env) value(t *testing.T, query string, args ...any) string {
	t.Helper()
	var v sql.NullString
	if err := e.k.Host().DB.NewRaw(query, args...).Scan(context.Background(), &v); err != nil && !errors.Is(err, sql.ErrNoRows) {
		t.Fatal(err)
	}
	return v.String
}

func (e *env) exec(t *testing.T, query string, args ...any) {
	t.Helper()
	if _, err := e.k.Host().DB.NewRaw(query, args...).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func (e *env) id(t *testing.T, placeholder string) int64 {
	t.Helper()
	id, err := strconv.ParseInt(e.ids[placeholder], 10, 64)
	if err != nil {
		t.Fatalf("no id for %s", placeholder)
	}
	return id
}

func (e *env) published() []events.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]events.Event(nil), e.events...)
}

// step is one call and what its answer must hold. Steps of a test run in
// order on one portal, each seeing what the ones before stored.
type step struct {
	name   string
	as     string
	method string
	path   string
	body   string
	lang   string
	status int
	id     string            // the error answer's id
	fields map[string]string // field name to error id
	texts  map[string]string // field name ("" for the answer's message) to its text
	want   map[string]any    // entries the answer must hold
	absent []string          // entries the answer must not hold
	items  int               // with list, the answer's length
	list   bool
	save   map[string]string // placeholder to the answer's entry holding its id
	before func(t *testing.T, e *env)
	then   func(t *testing.T, e *env, got any)
}

func run(t *testing.T, steps []step) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		for _, tc := range steps {
			t.Run(tc.name, func(t *testing.T) {
				if tc.before != nil {
					tc.before(t, e)
				}
				status, raw := e.do(t, tc.as, tc.method, tc.path, tc.body, tc.lang)
				if status != tc.status {
					t.Fatalf("status %d, want %d: %s", status, tc.status, raw)
				}
				var got any
				if len(raw) > 0 {
					if err := json.Unmarshal(raw, &got); err != nil {
						t.Fatalf("decode %s: %v", raw, err)
					}
				}
				check(t, tc, got)
				obj, _ := got.(map[string]any)
				for placeholder, key := range tc.save {
					n, ok := obj[key].(float64)
					if !ok {
						t.Fatalf("answer has no %s to save: %s", key, raw)
					}
					e.ids[placeholder] = strconv.FormatInt(int64(n), 10)
				}
				if tc.then != nil {
					tc.then(t, e, got)
				}
			})
		}
	})
}

func check(t *testing.T, tc step, got any) {
	t.Helper()
	obj, _ := got.(map[string]any)
	if tc.id != "" && obj["id"] != tc.id {
		t.Errorf("id %v, want %s (answer %v)", obj["id"], tc.id, obj)
	}
	for f, id := range tc.fields {
		ids, _ := obj["errorIds"].(map[string]any)
		if !reflect.DeepEqual(ids[f], []any{id}) {
			t.Errorf("errorIds[%s] = %v, want [%s] (answer %v)", f, ids[f], id, obj)
		}
	}
	for f, text := range tc.texts {
		var got any = obj["message"]
		if f != "" {
			msgs, _ := obj["errors"].(map[string]any)
			list, _ := msgs[f].([]any)
			if len(list) > 0 {
				got = list[0]
			} else {
				got = nil
			}
		}
		if got != text {
			t.Errorf("message of %q = %v, want %q", f, got, text)
		}
	}
	for k, v := range tc.want {
		if !reflect.DeepEqual(obj[k], v) {
			t.Errorf("%s = %#v, want %#v", k, obj[k], v)
		}
	}
	for _, k := range tc.absent {
		if _, ok := obj[k]; ok {
			t.Errorf("answer holds %s: %v", k, obj)
		}
	}
	if tc.list {
		list, ok := got.([]any)
		if !ok || len(list) != tc.items {
			t.Errorf("answer %v, want a list of %d", got, tc.items)
		}
	}
}

// entry returns the list item whose key holds value.
func entry(t *testing.T, got any, key string, value any) map[string]any {
	t.Helper()
	list, _ := got.([]any)
	for _, item := range list {
		if m, ok := item.(map[string]any); ok && reflect.DeepEqual(m[key], value) {
			return m
		}
	}
	t.Fatalf("no item with %s = %v in %v", key, value, got)
	return nil
}

func kindOf(err error) errs.Kind { return errs.KindOf(err) }

// waitFor waits for ok, which an asynchronous delivery (the event bus) makes
// true, and fails with msg after a generous deadline.
func waitFor(t *testing.T, ok func() bool, msg func() string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal(msg())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func nowUTC() time.Time { return time.Now().UTC() }

const (
	devEUI     = "70B3D57ED005A1B2"
	betaDevEUI = "0004A30B001C0530"
)

func TestApplications(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("å", 254)
	ttsURL := "https://eu1.cloud.thethings.network/api/v3/as/applications/acme/webhooks/fh/devices/{devId}/down/push"
	run(t, []step{
		{name: "create", as: "acmeAdmin", method: "POST", path: "/api/applications/{acme}", body: `{"name":" Fields "}`, status: 201,
			want:   map[string]any{"name": "Fields", "networkServer": "generic", "chirpstackApplicationId": "", "ttsDownlinkUrl": "", "ttsApiKeySet": false},
			absent: []string{"ttsApiKey"}, save: map[string]string{"{app}": "id"},
			then: func(t *testing.T, e *env, got any) {
				if got.(map[string]any)["companyId"] != float64(e.id(t, "{acme}")) || got.(map[string]any)["createdAt"] == nil {
					t.Errorf("answer %v", got)
				}
			}},
		{name: "name required", as: "acmeAdmin", method: "POST", path: "/api/applications/{acme}", body: `{"name":"  "}`, status: 400,
			fields: map[string]string{"name": "nodes.application.name.required"}, texts: map[string]string{"name": "Your application must have a name"}},
		{name: "name absent", as: "acmeAdmin", method: "POST", path: "/api/applications/{acme}", body: `{}`, status: 400,
			fields: map[string]string{"name": "nodes.application.name.required"}},
		{name: "name required in Swedish", as: "acmeAdmin", method: "POST", path: "/api/applications/{acme}", body: `{}`, lang: "sv", status: 400,
			texts: map[string]string{"name": "Din applikation måste ha ett namn"}},
		{name: "254 characters is fine", as: "acmeAdmin", method: "POST", path: "/api/applications/{acme}", body: `{"name":"` + long + `"}`, status: 201,
			want: map[string]any{"name": long}, save: map[string]string{"{long}": "id"}},
		{name: "255 characters is too long", as: "acmeAdmin", method: "POST", path: "/api/applications/{acme}", body: `{"name":"` + long + `x"}`, status: 400,
			fields: map[string]string{"name": "nodes.application.name.tooLong"}, texts: map[string]string{"name": "Name must be fewer than 255 characters"}},
		{name: "control character", as: "acmeAdmin", method: "POST", path: "/api/applications/{acme}", body: `{"name":"a\u0000b"}`, status: 400,
			fields: map[string]string{"name": "nodes.text.invalid"}},
		{name: "name of the wrong type", as: "acmeAdmin", method: "POST", path: "/api/applications/{acme}", body: `{"name":5}`, status: 400,
			fields: map[string]string{"name": "error.badJsonType"}},
		{name: "not JSON", as: "acmeAdmin", method: "POST", path: "/api/applications/{acme}", body: `{"name":`, status: 400, id: "error.badJson"},
		{name: "caller without a company", as: "loneAdmin", method: "POST", path: "/api/applications/{acme}", body: `{"name":"Mine"}`, status: 400,
			id: "nodes.application.noCompany", texts: map[string]string{"": "You must register a company first to create applications"}},
		{name: "unknown network server", as: "acmeAdmin", method: "POST", path: "/api/applications/{acme}", body: `{"name":"X","networkServer":"loriot"}`,
			status: 400, fields: map[string]string{"networkServer": "nodes.application.networkServer"}},
		{name: "ChirpStack id must be a UUID", as: "acmeAdmin", method: "POST", path: "/api/applications/{acme}",
			body: `{"name":"X","networkServer":"chirpstack","chirpstackApplicationId":"42"}`, status: 400,
			fields: map[string]string{"chirpstackApplicationId": "nodes.application.chirpstackId"}},
		{name: "TTS URL must be http(s)", as: "acmeAdmin", method: "POST", path: "/api/applications/{acme}",
			body: `{"name":"X","networkServer":"tts","ttsDownlinkUrl":"ftp://x"}`, status: 400,
			fields: map[string]string{"ttsDownlinkUrl": "nodes.application.ttsUrl"}},
		{name: "TTS URL on the portal's own network", as: "acmeAdmin", method: "POST", path: "/api/applications/{acme}",
			body: `{"name":"X","networkServer":"tts","ttsDownlinkUrl":"http://10.1.2.3:1885/api/v3/as/applications/a/webhooks/w/devices/{devId}/down/push"}`, status: 400,
			fields: map[string]string{"ttsDownlinkUrl": "nodes.application.ttsUrlPrivate"}},
		{name: "ChirpStack application", as: "acmeAdmin", method: "POST", path: "/api/applications/{acme}",
			body: `{"name":"Barn","networkServer":"ChirpStack","chirpstackApplicationId":"5C1E0F3A-8D6B-4C1F-9A2E-0B7D3E4F5A6B"}`, status: 201,
			want: map[string]any{"networkServer": "chirpstack", "chirpstackApplicationId": "5c1e0f3a-8d6b-4c1f-9a2e-0b7d3e4f5a6b"}},
		{name: "TTS application with a sealed key", as: "acmeAdmin", method: "POST", path: "/api/applications/{acme}",
			body: `{"name":"Stable","networkServer":"tts","ttsDownlinkUrl":"` + ttsURL + `","ttsApiKey":"NNSXS.SECRETKEY"}`, status: 201,
			want:   map[string]any{"networkServer": "tts", "ttsDownlinkUrl": ttsURL, "ttsApiKeySet": true},
			absent: []string{"ttsApiKey"}, save: map[string]string{"{tts}": "id"},
			then: func(t *testing.T, e *env, got any) {
				raw := e.value(t, "SELECT tts_api_key FROM applications WHERE id = ?", e.id(t, "{tts}"))
				if raw == "" || strings.Contains(raw, "SECRETKEY") {
					t.Errorf("key stored as %q", raw)
				}
				if key, err := e.nodes.TTSAPIKey(context.Background(), e.id(t, "{tts}")); err != nil || key != "NNSXS.SECRETKEY" {
					t.Errorf("TTSAPIKey = %q, %v", key, err)
				}
			}},
		{name: "rejected creates stored nothing", as: "acmeUser", method: "GET", path: "/api/companies/{acme}/applications", status: 200, list: true, items: 4},
		{name: "Users may not create", as: "acmeUser", method: "POST", path: "/api/applications/{acme}", body: `{"name":"X"}`, status: 403},
		{name: "another company's admin gets 404", as: "betaAdmin", method: "POST", path: "/api/applications/{acme}", body: `{"name":"X"}`, status: 404, id: "error.notFound"},
		{name: "SuperAdmin, no such company", as: "super", method: "POST", path: "/api/applications/999999", body: `{"name":"X"}`, status: 404},
		{name: "SuperAdmin creates for any company", as: "super", method: "POST", path: "/api/applications/{beta}", body: `{"name":"Beta fields"}`, status: 201,
			save: map[string]string{"{betaApp}": "id"}},
		{name: "read", as: "acmeUser", method: "GET", path: "/api/applications/{app}", status: 200, want: map[string]any{"name": "Fields"}},
		{name: "read another company's", as: "betaAdmin", method: "GET", path: "/api/applications/{app}", status: 404, id: "error.notFound"},
		{name: "bad id", as: "acmeAdmin", method: "GET", path: "/api/applications/abc", status: 400, id: "error.badId"},
		{name: "rename keeps the rest", as: "acmeAdmin", method: "PUT", path: "/api/applications/{tts}", body: `{"name":"Stable 2"}`, status: 200,
			want: map[string]any{"name": "Stable 2", "networkServer": "tts", "ttsDownlinkUrl": ttsURL, "ttsApiKeySet": true}},
		{name: "bad update changes nothing", as: "acmeAdmin", method: "PUT", path: "/api/applications/{tts}", body: `{"name":"","ttsApiKey":""}`, status: 400,
			fields: map[string]string{"name": "nodes.application.name.required"},
			then: func(t *testing.T, e *env, _ any) {
				if key, _ := e.nodes.TTSAPIKey(context.Background(), e.id(t, "{tts}")); key != "NNSXS.SECRETKEY" {
					t.Errorf("key %q after a rejected update", key)
				}
			}},
		{name: "an empty key removes it", as: "acmeAdmin", method: "PUT", path: "/api/applications/{tts}", body: `{"ttsApiKey":""}`, status: 200,
			want: map[string]any{"ttsApiKeySet": false, "name": "Stable 2"}},
		{name: "Users may not update", as: "acmeUser", method: "PUT", path: "/api/applications/{app}", body: `{"name":"X"}`, status: 403},
		{name: "another company's admin cannot update", as: "betaAdmin", method: "PUT", path: "/api/applications/{app}", body: `{"name":"X"}`, status: 404},
		{name: "another company's admin cannot delete", as: "betaAdmin", method: "DELETE", path: "/api/applications/{app}", status: 404},
		{name: "list of another company", as: "betaAdmin", method: "GET", path: "/api/companies/{acme}/applications", status: 404},
		{name: "own list", as: "betaAdmin", method: "GET", path: "/api/companies/{beta}/applications", status: 200, list: true, items: 1},
		{name: "delete", as: "acmeAdmin", method: "DELETE", path: "/api/applications/{long}", status: 204},
		{name: "deleted", as: "acmeAdmin", method: "GET", path: "/api/applications/{long}", status: 404},
		{name: "list after delete", as: "acmeAdmin", method: "GET", path: "/api/companies/{acme}/applications", status: 200, list: true, items: 3,
			then: func(t *testing.T, e *env, got any) {
				if entry(t, got, "name", "Barn")["networkServer"] != "chirpstack" {
					t.Errorf("list %v", got)
				}
			}},
	})
}

// appSteps create applications {app} and {app2} in Acme and {betaApp} in
// Beta.
var appSteps = []step{
	{name: "application", as: "acmeAdmin", method: "POST", path: "/api/applications/{acme}", body: `{"name":"Fields"}`, status: 201,
		save: map[string]string{"{app}": "id"}},
	{name: "second application", as: "acmeAdmin", method: "POST", path: "/api/applications/{acme}", body: `{"name":"Barns"}`, status: 201,
		save: map[string]string{"{app2}": "id"}},
	{name: "Beta's application", as: "betaAdmin", method: "POST", path: "/api/applications/{beta}", body: `{"name":"Beta fields"}`, status: 201,
		save: map[string]string{"{betaApp}": "id"}},
}

// tagSteps add to appSteps a tag {tag} in {app} and {betaTag} in Beta.
var tagSteps = append(appSteps[:len(appSteps):len(appSteps)],
	step{name: "tag", as: "acmeAdmin", method: "POST", path: "/api/applications/{app}/tag", body: `{"name":"Door","deveui":"` + devEUI + `"}`,
		status: 201, save: map[string]string{"{tag}": "id"}},
	step{name: "Beta's tag", as: "betaAdmin", method: "POST", path: "/api/applications/{betaApp}/tag", body: `{"name":"Gate","deveui":"` + betaDevEUI + `"}`,
		status: 201, save: map[string]string{"{betaTag}": "id"}},
)

func TestTags(t *testing.T) {
	t.Parallel()
	full := `{"name":"Door","deveui":"70-b3-d5-7e-d0-05-a1-b2","appKey":"00112233445566778899aabbccddeeff","appEui":"70:b3:d5:7e:d0:00:00:01",
		"lat":59.33,"long":18.07,"decoder":"raw","profile":"Class A","location":"Entrance","type":"door"}`
	bad := func(name, body, field, id, text string) step {
		s := step{name: name, as: "acmeAdmin", method: "POST", path: "/api/applications/{app}/tag", body: body, status: 400,
			fields: map[string]string{field: id}}
		if text != "" {
			s.texts = map[string]string{field: text}
		}
		return s
	}
	steps := append(appSteps[:len(appSteps):len(appSteps)], []step{
		{name: "create", as: "acmeAdmin", method: "POST", path: "/api/applications/{app}/tag", body: full, status: 201,
			want: map[string]any{"name": "Door", "deveui": devEUI, "appKey": "00112233445566778899AABBCCDDEEFF", "appEui": "70B3D57ED0000001",
				"lat": 59.33, "long": 18.07, "decoder": "raw", "profile": "Class A", "location": "Entrance", "type": "door",
				"nameWithDeveui": "Door (" + devEUI + ")", "keys": []any{}, "data": map[string]any{}, "dataPoints24h": 0.0,
				"activeData": false, "activeAlarm": false, "latestValue": nil, "image": nil, "battery": nil, "rssi": nil, "vdd": nil, "latestTime": nil},
			save: map[string]string{"{tag}": "id"},
			then: func(t *testing.T, e *env, got any) {
				obj := got.(map[string]any)
				if obj["applicationId"] != float64(e.id(t, "{app}")) || obj["companyId"] != float64(e.id(t, "{acme}")) {
					t.Errorf("owner %v", obj)
				}
				raw := e.value(t, "SELECT app_key FROM tags WHERE deveui = ?", devEUI)
				if raw == "" || strings.Contains(strings.ToUpper(raw), "00112233445566778899AABBCCDDEEFF") {
					t.Errorf("app key stored as %q", raw)
				}
				tag, err := e.nodes.TagByDevEUI(context.Background(), "70b3d57ed005a1b2")
				if err != nil || tag.AppKey != "00112233445566778899AABBCCDDEEFF" || tag.ID != e.id(t, "{tag}") {
					t.Errorf("TagByDevEUI: %+v, %v", tag, err)
				}
			}},
		{name: "decoder defaults to raw", as: "acmeAdmin", method: "POST", path: "/api/applications/{app}/tag", body: `{"name":"Sensor","deveui":"0011223344556677"}`,
			status: 201, want: map[string]any{"decoder": "raw", "appKey": "", "appEui": "", "lat": nil}, save: map[string]string{"{tag2}": "id"}},
		bad("DevEUI too short", `{"name":"X","deveui":"70B3D57E"}`, "deveui", "nodes.deveui.format", "A DevEUI is 16 hexadecimal digits"),
		bad("DevEUI too long", `{"name":"X","deveui":"70B3D57ED005A1B2FF"}`, "deveui", "nodes.deveui.format", ""),
		bad("DevEUI not hex", `{"name":"X","deveui":"70B3D57ED005A1BG"}`, "deveui", "nodes.deveui.format", ""),
		bad("DevEUI required", `{"name":"X","deveui":" "}`, "deveui", "validation.required", "This field must be filled in"),
		bad("DevEUI taken, other spelling", `{"name":"X","deveui":"70:b3:d5:7e:d0:05:a1:b2"}`, "Deveui", "nodes.deveui.taken",
			"Node with this DevEUI already exists on this server"),
		bad("name required", `{"deveui":"1111111111111111"}`, "name", "validation.required", "This field must be filled in"),
		bad("name too long", `{"name":"`+strings.Repeat("n", 256)+`","deveui":"1111111111111111"}`, "name", "validation.max255", "Max characters is 255"),
		bad("AppKey format", `{"name":"X","deveui":"1111111111111111","appKey":"0011"}`, "appKey", "nodes.appKey.format", "An AppKey is 32 hexadecimal digits"),
		bad("AppEUI format", `{"name":"X","deveui":"1111111111111111","appEui":"zz"}`, "appEui", "nodes.appEui.format", "An AppEUI is 16 hexadecimal digits"),
		bad("latitude range", `{"name":"X","deveui":"1111111111111111","lat":90.5}`, "lat", "nodes.lat.range", "Latitude must be between -90 and 90"),
		bad("longitude range", `{"name":"X","deveui":"1111111111111111","long":-180.01}`, "long", "nodes.long.range", "Longitude must be between -180 and 180"),
		bad("latitude not a number", `{"name":"X","deveui":"1111111111111111","lat":"north"}`, "lat", "error.badJsonType", ""),
		bad("unknown decoder", `{"name":"X","deveui":"1111111111111111","decoder":"no_such_decoder"}`, "decoder", "nodes.decoder.unknown", "Choose a decoder from the list"),
		bad("location too long", `{"name":"X","deveui":"1111111111111111","location":"`+strings.Repeat("l", 256)+`"}`, "location", "validation.max255", ""),
		bad("type too long", `{"name":"X","deveui":"1111111111111111","type":"`+strings.Repeat("t", 65)+`"}`, "type", "validation.tooLong", ""),
		bad("control character", `{"name":"X\u0007","deveui":"1111111111111111"}`, "name", "nodes.text.invalid", ""),
		{name: "DevEUI is unique across companies", as: "betaAdmin", method: "POST", path: "/api/applications/{betaApp}/tag",
			body: `{"name":"Copy","deveui":"` + devEUI + `"}`, status: 400, fields: map[string]string{"Deveui": "nodes.deveui.taken"}},
		{name: "Beta's own tag", as: "betaAdmin", method: "POST", path: "/api/applications/{betaApp}/tag", body: `{"name":"Gate","deveui":"` + betaDevEUI + `"}`,
			status: 201, save: map[string]string{"{betaTag}": "id"}},
		{name: "another company's application gets 404", as: "betaAdmin", method: "POST", path: "/api/applications/{app}/tag",
			body: `{"name":"X","deveui":"2222222222222222"}`, status: 404, id: "error.notFound"},
		{name: "Users may not create", as: "acmeUser", method: "POST", path: "/api/applications/{app}/tag", body: `{"name":"X","deveui":"2222222222222222"}`, status: 403},
		{name: "rejected creates stored nothing", as: "acmeAdmin", method: "GET", path: "/api/tag", status: 200, list: true, items: 2,
			then: func(t *testing.T, e *env, got any) {
				if n := e.value(t, "SELECT COUNT(*) FROM tags"); n != "3" {
					t.Errorf("%s tags stored, want 3", n)
				}
			}},
		{name: "Users see their company's tags without AppKeys", as: "acmeUser", method: "GET", path: "/api/tag", status: 200, list: true, items: 2,
			then: func(t *testing.T, e *env, got any) {
				if door := entry(t, got, "deveui", devEUI); door["appKey"] != "" || door["appEui"] != "70B3D57ED0000001" {
					t.Errorf("door %v", door)
				}
			}},
		{name: "Beta sees its own", as: "betaAdmin", method: "GET", path: "/api/tag", status: 200, list: true, items: 1},
		{name: "Beta may not ask for Acme's", as: "betaAdmin", method: "GET", path: "/api/tag?companyId={acme}", status: 404},
		{name: "SuperAdmin sees all", as: "super", method: "GET", path: "/api/tag", status: 200, list: true, items: 3},
		{name: "SuperAdmin picks a company", as: "super", method: "GET", path: "/api/tag?companyId={beta}", status: 200, list: true, items: 1},
		{name: "bad companyId", as: "super", method: "GET", path: "/api/tag?companyId=x", status: 400, id: "error.badId"},
		{name: "a user without a company has none", as: "loneAdmin", method: "GET", path: "/api/tag", status: 200, list: true, items: 0},
		{name: "by company", as: "acmeUser", method: "GET", path: "/api/tag/company/{acme}", status: 200, list: true, items: 2},
		{name: "by company, another company", as: "betaAdmin", method: "GET", path: "/api/tag/company/{acme}", status: 404},
		{name: "by company, the old companies path", as: "acmeUser", method: "GET", path: "/api/companies/{acme}/tags", status: 200, list: true, items: 2},
		{name: "no such listing", as: "acmeUser", method: "GET", path: "/api/tag/firm/{acme}", status: 404},
		{name: "read", as: "acmeUser", method: "GET", path: "/api/tag/{tag}", status: 200, want: map[string]any{"name": "Door", "appKey": ""}},
		{name: "read as admin shows the AppKey", as: "acmeAdmin", method: "GET", path: "/api/tag/{tag}", status: 200,
			want: map[string]any{"appKey": "00112233445566778899AABBCCDDEEFF"}},
		{name: "read another company's", as: "betaAdmin", method: "GET", path: "/api/tag/{tag}", status: 404},
		{name: "update by DevEUI in any spelling", as: "acmeAdmin", method: "PUT", path: "/api/tag/70-b3-d5-7e-d0-05-a1-b2",
			body: `{"name":"Front door","lat":null}`, status: 200,
			want: map[string]any{"name": "Front door", "lat": nil, "long": 18.07, "location": "Entrance", "appKey": "00112233445566778899AABBCCDDEEFF"}},
		{name: "update, bad DevEUI in the path", as: "acmeAdmin", method: "PUT", path: "/api/tag/nothex", body: `{"name":"X"}`, status: 400,
			fields: map[string]string{"deveui": "nodes.deveui.format"}},
		{name: "update, unknown DevEUI", as: "acmeAdmin", method: "PUT", path: "/api/tag/FFFFFFFFFFFFFFFF", body: `{"name":"X"}`, status: 404},
		{name: "update another company's", as: "betaAdmin", method: "PUT", path: "/api/tag/" + devEUI, body: `{"name":"X"}`, status: 404},
		{name: "Users may not update", as: "acmeUser", method: "PUT", path: "/api/tag/" + devEUI, body: `{"name":"X"}`, status: 403},
		{name: "new DevEUI taken by another company", as: "acmeAdmin", method: "PUT", path: "/api/tag/" + devEUI,
			body: `{"deveui":"` + strings.ToLower(betaDevEUI) + `"}`, status: 400, fields: map[string]string{"Deveui": "nodes.deveui.taken"}},
		{name: "move to another company's application", as: "acmeAdmin", method: "PUT", path: "/api/tag/" + devEUI,
			body: `{"applicationId":{betaApp},"lat":-91}`, status: 400,
			fields: map[string]string{"applicationId": "nodes.application.unknown", "lat": "nodes.lat.range"}},
		{name: "rejected updates changed nothing", as: "acmeAdmin", method: "GET", path: "/api/tag/{tag}", status: 200,
			want: map[string]any{"name": "Front door", "deveui": devEUI, "lat": nil},
			then: func(t *testing.T, e *env, got any) {
				if got.(map[string]any)["applicationId"] != float64(e.id(t, "{app}")) {
					t.Errorf("application changed: %v", got)
				}
			}},
		{name: "move to another application and change the DevEUI", as: "acmeAdmin", method: "PUT", path: "/api/tag/" + devEUI,
			body: `{"applicationId":{app2},"deveui":"70B3D57ED005A1B3"}`, status: 200, want: map[string]any{"deveui": "70B3D57ED005A1B3"},
			then: func(t *testing.T, e *env, got any) {
				if got.(map[string]any)["applicationId"] != float64(e.id(t, "{app2}")) {
					t.Errorf("not moved: %v", got)
				}
			}},
		{name: "the old DevEUI is free again", as: "acmeAdmin", method: "PUT", path: "/api/tag/70B3D57ED005A1B3", body: `{"deveui":"` + devEUI + `"}`,
			status: 200, want: map[string]any{"deveui": devEUI}},
		{name: "an application with tags stays", as: "acmeAdmin", method: "DELETE", path: "/api/applications/{app2}", status: 409,
			id: "nodes.application.hasTags"},
		{name: "Users may not delete", as: "acmeUser", method: "DELETE", path: "/api/tag/{tag}", status: 403},
		{name: "another company's admin cannot delete", as: "betaAdmin", method: "DELETE", path: "/api/tag/{tag}", status: 404},
		{name: "delete", as: "acmeAdmin", method: "DELETE", path: "/api/tag/{tag}", status: 204,
			then: func(t *testing.T, e *env, _ any) {
				want := []events.Event{
					nodes.TagCreated{TagID: e.id(t, "{tag}"), CompanyID: e.id(t, "{acme}"), ApplicationID: e.id(t, "{app}"), DevEUI: devEUI},
					nodes.TagDeleted{TagID: e.id(t, "{tag}"), CompanyID: e.id(t, "{acme}"), ApplicationID: e.id(t, "{app2}"), DevEUI: devEUI},
				}
				waitFor(t, func() bool {
					seen := 0
					for _, ev := range e.published() {
						for _, w := range want {
							if ev == w {
								seen++
							}
						}
					}
					return seen == len(want)
				}, func() string { return fmt.Sprintf("events %+v, want %+v among them", e.published(), want) })
			}},
		{name: "deleted", as: "acmeAdmin", method: "GET", path: "/api/tag/{tag}", status: 404},
		{name: "now the application may go", as: "acmeAdmin", method: "DELETE", path: "/api/applications/{app2}", status: 204},
		{name: "a deleted company's nodes go with it", as: "super", method: "DELETE", path: "/api/companies/{beta}", status: 204,
			before: func(t *testing.T, e *env) {
				e.mustDo(t, "betaAdmin", "POST", "/api/tag/key/add", `{"tagId":{betaTag},"key":"level"}`, 201, nil)
				e.mustDo(t, "betaAdmin", "POST", "/api/downlink/{betaTag}", `{"port":1,"payload":"01","payloadType":"hex"}`, 201, nil)
				e.mustDo(t, "betaAdmin", "POST", "/api/integration/tokens/{beta}", `{"label":"x","isCompany":true}`, 201, nil)
			},
			then: func(t *testing.T, e *env, _ any) {
				// Acme keeps its first application and the tag "Sensor".
				left := map[string]string{"applications": "1", "tags": "1", "tag_keys": "0", "downlinks": "0", "integration_tokens": "0"}
				for table, want := range left {
					if n := e.value(t, "SELECT COUNT(*) FROM "+table); n != want {
						t.Errorf("%s rows in %s, want %s", n, table, want)
					}
				}
			}},
	}...)
	run(t, steps)
}

func TestTagImages(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		for _, s := range tagSteps {
			if status, raw := e.do(t, s.as, s.method, s.path, s.body, ""); status != s.status {
				t.Fatalf("%s: %d %s", s.name, status, raw)
			} else {
				var obj map[string]any
				_ = json.Unmarshal(raw, &obj)
				for p, k := range s.save {
					e.ids[p] = fmt.Sprint(int64(obj[k].(float64)))
				}
			}
		}
		png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), make([]byte, 32)...)
		cases := []struct {
			name        string
			as, method  string
			body        []byte
			contentType string
			status      int
			id          string
		}{
			{"SVG is refused", "acmeAdmin", "POST", []byte(`<svg xmlns="http://www.w3.org/2000/svg"></svg>`), "image/svg+xml", 400, "image.type"},
			{"empty", "acmeAdmin", "POST", nil, "image/png", 400, "image.missing"},
			{"too large", "acmeAdmin", "POST", append(png, make([]byte, 2<<20)...), "image/png", 413, "image.tooLarge"},
			{"Users may not upload", "acmeUser", "POST", png, "image/png", 403, "error.forbidden"},
			{"another company's admin", "betaAdmin", "POST", png, "image/png", 404, "error.notFound"},
			{"no image yet", "acmeUser", "GET", nil, "", 404, "error.notFound"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				status, _, raw := e.send(t, tc.as, tc.method, "/api/tag/{tag}/image", tc.body, tc.contentType, "")
				var obj map[string]any
				_ = json.Unmarshal(raw, &obj)
				if status != tc.status || obj["id"] != tc.id {
					t.Errorf("%d %s, want %d %s", status, raw, tc.status, tc.id)
				}
			})
		}
		t.Run("upload, serve, delete", func(t *testing.T) {
			status, _, raw := e.send(t, "acmeAdmin", "POST", "/api/tag/{tag}/image", png, "image/png", "")
			var tag map[string]any
			_ = json.Unmarshal(raw, &tag)
			url, _ := tag["image"].(string)
			if status != 200 || !strings.HasPrefix(url, e.fill("/api/tag/{tag}/image?v=")) {
				t.Fatalf("upload: %d %s", status, raw)
			}
			status, h, body := e.send(t, "acmeUser", "GET", url, nil, "", "")
			if status != 200 || h.Get("Content-Type") != "image/png" || !bytes.Equal(body, png) {
				t.Errorf("serve: %d %s", status, h.Get("Content-Type"))
			}
			if status, _, _ := e.send(t, "betaAdmin", "GET", url, nil, "", ""); status != 404 {
				t.Errorf("another company's admin read the picture: %d", status)
			}
			if status, _, raw := e.send(t, "betaAdmin", "DELETE", "/api/tag/{tag}/image", nil, "", ""); status != 404 {
				t.Errorf("another company's admin deleted: %d %s", status, raw)
			}
			if status, _, raw := e.send(t, "acmeAdmin", "DELETE", "/api/tag/{tag}/image", nil, "", ""); status != 204 {
				t.Errorf("delete: %d %s", status, raw)
			}
			status, raw = e.do(t, "acmeAdmin", "GET", "/api/tag/{tag}", "", "")
			if err := json.Unmarshal(raw, &tag); err != nil || status != 200 || tag["image"] != nil {
				t.Errorf("after delete: %d %s", status, raw)
			}
		})
	})
}

func TestKeys(t *testing.T) {
	t.Parallel()
	add := func(name, body string, status int, field, id string) step {
		s := step{name: name, as: "acmeAdmin", method: "POST", path: "/api/tag/key/add", body: body, status: status}
		if field != "" {
			s.fields = map[string]string{field: id}
		} else if id != "" {
			s.id = id
		}
		return s
	}
	steps := append(tagSteps[:len(tagSteps):len(tagSteps)], []step{
		{name: "add", as: "acmeAdmin", method: "POST", path: "/api/tag/key/add",
			body: `{"tagId":{tag},"key":"temperature","label":"Temperature","unit":"°C","decimals":1,"defaultKey":true}`, status: 201,
			want: map[string]any{"key": "temperature", "label": "Temperature", "unit": "°C", "decimals": 1.0, "defaultKey": true,
				"tagDeveui": devEUI, "name": "Door"}},
		{name: "add a second default", as: "acmeAdmin", method: "POST", path: "/api/tag/key/add",
			body: `{"tagId":{tag},"key":"humidity","label":"Humidity","unit":"%","defaultKey":true}`, status: 201,
			want: map[string]any{"key": "humidity", "decimals": nil, "defaultKey": true}},
		{name: "only one default", as: "acmeUser", method: "GET", path: "/api/tag/key/label/{tag}/temperature", status: 200,
			want: map[string]any{"label": "Temperature", "defaultKey": false}},
		add("key taken", `{"tagId":{tag},"key":"humidity"}`, 400, "key", "nodes.key.taken"),
		add("key with a space", `{"tagId":{tag},"key":"air temp"}`, 400, "key", "nodes.key.format"),
		add("key too long", `{"tagId":{tag},"key":"`+strings.Repeat("k", 65)+`"}`, 400, "key", "nodes.key.format"),
		add("decimals out of range", `{"tagId":{tag},"key":"co2","decimals":11}`, 400, "decimals", "nodes.key.decimals"),
		add("unit too long", `{"tagId":{tag},"key":"co2","unit":"`+strings.Repeat("u", 33)+`"}`, 400, "unit", "validation.tooLong"),
		add("no tag", `{"key":"co2"}`, 400, "tagId", "validation.required"),
		add("unknown tag", `{"tagId":999999,"key":"co2"}`, 404, "", "error.notFound"),
		{name: "another company's tag", as: "betaAdmin", method: "POST", path: "/api/tag/key/add", body: `{"tagId":{tag},"key":"co2"}`, status: 404},
		{name: "Users may not add", as: "acmeUser", method: "POST", path: "/api/tag/key/add", body: `{"tagId":{tag},"key":"co2"}`, status: 403},
		{name: "update", as: "acmeAdmin", method: "POST", path: "/api/tag/key/update", body: `{"tagId":{tag},"key":"temperature","label":"Air","decimals":null}`,
			status: 200, want: map[string]any{"label": "Air", "decimals": nil, "unit": "°C", "defaultKey": false}},
		{name: "update an unknown key", as: "acmeAdmin", method: "POST", path: "/api/tag/key/update", body: `{"tagId":{tag},"key":"co2","label":"CO2"}`, status: 404},
		{name: "update with bad decimals", as: "acmeAdmin", method: "POST", path: "/api/tag/key/update", body: `{"tagId":{tag},"key":"temperature","decimals":-1}`,
			status: 400, fields: map[string]string{"decimals": "nodes.key.decimals"}},
		{name: "update another company's", as: "betaAdmin", method: "POST", path: "/api/tag/key/update", body: `{"tagId":{tag},"key":"temperature","label":"X"}`,
			status: 404},
		{name: "make temperature the default", as: "acmeAdmin", method: "POST", path: "/api/tag/{tag}/default/temperature", status: 200,
			want: map[string]any{"key": "temperature", "defaultKey": true, "label": "Air"}},
		{name: "default of an unknown key", as: "acmeAdmin", method: "POST", path: "/api/tag/{tag}/default/co2", status: 404},
		{name: "default of another company's tag", as: "betaAdmin", method: "POST", path: "/api/tag/{tag}/default/humidity", status: 404},
		{name: "latest values", as: "acmeUser", method: "GET", path: "/api/tag/{tag}", status: 200,
			before: func(t *testing.T, e *env) {
				e.exec(t, "UPDATE tags SET latest_data = ?, latest_time = ?, battery = 3.6 WHERE id = ?",
					`{"temperature":21.5,"humidity":40}`, nowUTC(), e.id(t, "{tag}"))
			},
			want: map[string]any{"keys": []any{"humidity", "temperature"}, "latestValue": 21.5, "activeData": true, "battery": 3.6,
				"data": map[string]any{"temperature": 21.5, "humidity": 40.0}}},
		{name: "the tag's keys", as: "acmeUser", method: "GET", path: "/api/tag/{tag}/keys", status: 200, list: true, items: 2},
		{name: "the tag's keys, another company", as: "betaAdmin", method: "GET", path: "/api/tag/{tag}/keys", status: 404},
		{name: "tag data of the tag", as: "acmeUser", method: "GET", path: "/api/tag/meta/{tag}/tagdata", status: 200, list: true, items: 2,
			then: func(t *testing.T, e *env, got any) {
				temp := entry(t, got, "key", "temperature")
				if temp["value"] != 21.5 || temp["time"] == nil || temp["tagDeveui"] != devEUI || temp["defaultKey"] != true {
					t.Errorf("temperature %v", temp)
				}
			}},
		{name: "tag data, another company", as: "betaAdmin", method: "GET", path: "/api/tag/meta/{tag}/tagdata", status: 404},
		{name: "keys of the company", as: "acmeUser", method: "GET", path: "/api/tag/tagdata/keys/{acme}", status: 200, list: true, items: 2,
			before: func(t *testing.T, e *env) {
				if err := e.nodes.EnsureKeys(context.Background(), e.id(t, "{betaTag}"), []string{"pressure", "bad key", "pressure"}); err != nil {
					t.Fatal(err)
				}
			}},
		{name: "keys of Beta, registered by the ingest", as: "betaAdmin", method: "GET", path: "/api/tag/tagdata/keys/{beta}", status: 200, list: true, items: 1,
			then: func(t *testing.T, e *env, got any) {
				if p := entry(t, got, "key", "pressure"); p["tagDeveui"] != betaDevEUI || p["label"] != "" {
					t.Errorf("pressure %v", p)
				}
			}},
		{name: "keys of another company", as: "betaAdmin", method: "GET", path: "/api/tag/tagdata/keys/{acme}", status: 404},
		{name: "label, bad key", as: "acmeUser", method: "GET", path: "/api/tag/key/label/{tag}/a%20b", status: 400,
			fields: map[string]string{"key": "nodes.key.format"}},
		{name: "label, another company", as: "betaAdmin", method: "GET", path: "/api/tag/key/label/{tag}/humidity", status: 404},
		{name: "Users may not delete", as: "acmeUser", method: "DELETE", path: "/api/tag/key/delete/{tag}/humidity", status: 403},
		{name: "another company's admin cannot delete", as: "betaAdmin", method: "DELETE", path: "/api/tag/key/delete/{tag}/humidity", status: 404},
		{name: "delete", as: "acmeAdmin", method: "DELETE", path: "/api/tag/key/delete/{tag}/humidity", status: 204},
		{name: "deleted", as: "acmeAdmin", method: "GET", path: "/api/tag/key/label/{tag}/humidity", status: 404},
		{name: "delete again", as: "acmeAdmin", method: "DELETE", path: "/api/tag/key/delete/{tag}/humidity", status: 404},
	}...)
	run(t, steps)
}

func TestPool(t *testing.T) {
	t.Parallel()
	pooled := "AABBCCDDEEFF0011"
	ctx := context.Background()
	steps := append(appSteps[:len(appSteps):len(appSteps)], []step{
		{name: "the ingest adds unknown DevEUIs", as: "super", method: "GET", path: "/api/tag/pool", status: 200, list: true, items: 2,
			before: func(t *testing.T, e *env) {
				for _, add := range []struct{ deveui, source string }{{"aa-bb-cc-dd-ee-ff-00-11", "chirpstack"}, {"0102030405060708", "tts"}, {pooled, "tts"}} {
					if err := e.nodes.AddToPool(ctx, add.deveui, add.source); err != nil {
						t.Fatal(err)
					}
				}
				if err := e.nodes.AddToPool(ctx, "12345", "tts"); kindOf(err) != errs.Invalid {
					t.Errorf("a bad DevEUI: %v", err)
				}
			},
			then: func(t *testing.T, e *env, got any) {
				p := entry(t, got, "deveui", pooled)
				if p["status"] != "shown" || p["source"] != "tts" {
					t.Errorf("entry %v", p)
				}
				e.ids["{pooled}"] = fmt.Sprint(int64(p["id"].(float64)))
				e.ids["{other}"] = fmt.Sprint(int64(entry(t, got, "deveui", "0102030405060708")["id"].(float64)))
			}},
		{name: "only for the SuperAdmin", as: "acmeAdmin", method: "GET", path: "/api/tag/pool", status: 403},
		{name: "hide", as: "super", method: "PUT", path: "/api/tag/pool/{other}", body: `{"status":"hidden"}`, status: 200,
			want: map[string]any{"status": "hidden", "deveui": "0102030405060708"}},
		{name: "hidden ones leave the default list", as: "super", method: "GET", path: "/api/tag/pool", status: 200, list: true, items: 1},
		{name: "the hidden list", as: "super", method: "GET", path: "/api/tag/pool?status=hidden", status: 200, list: true, items: 1},
		{name: "all", as: "super", method: "GET", path: "/api/tag/pool?status=all", status: 200, list: true, items: 2},
		{name: "bad filter", as: "super", method: "GET", path: "/api/tag/pool?status=gone", status: 400, fields: map[string]string{"status": "nodes.pool.status"}},
		{name: "bad status", as: "super", method: "PUT", path: "/api/tag/pool/{other}", body: `{"status":"deleted"}`, status: 400,
			fields: map[string]string{"status": "nodes.pool.status"}, texts: map[string]string{"status": "The status must be hidden, shown or taken"}},
		{name: "no status", as: "super", method: "PUT", path: "/api/tag/pool/{other}", body: `{}`, status: 400, fields: map[string]string{"status": "nodes.pool.status"}},
		{name: "unknown entry", as: "super", method: "PUT", path: "/api/tag/pool/999999", body: `{"status":"shown"}`, status: 404},
		{name: "others may not change", as: "acmeAdmin", method: "PUT", path: "/api/tag/pool/{other}", body: `{"status":"shown"}`, status: 403},
		{name: "show again", as: "super", method: "PUT", path: "/api/tag/pool/{other}", body: `{"status":"shown"}`, status: 200,
			want: map[string]any{"status": "shown"}},
		{name: "a tag takes its DevEUI from the pool", as: "acmeAdmin", method: "POST", path: "/api/applications/{app}/tag",
			body: `{"name":"From the pool","deveui":"` + pooled + `"}`, status: 201, save: map[string]string{"{tag}": "id"}},
		{name: "taken", as: "super", method: "GET", path: "/api/tag/pool?status=taken", status: 200, list: true, items: 1,
			then: func(t *testing.T, e *env, got any) {
				entry(t, got, "deveui", pooled)
				if err := e.nodes.AddToPool(ctx, pooled, "chirpstack"); err != nil {
					t.Fatal(err)
				}
				if s := e.value(t, "SELECT status FROM node_pool WHERE deveui = ?", pooled); s != "taken" {
					t.Errorf("a DevEUI with a tag went back to %q", s)
				}
				if err := e.nodes.AddToPool(ctx, devEUI, "chirpstack"); err != nil {
					t.Fatal(err)
				}
			}},
		{name: "a heard DevEUI whose tag is gone is shown again", as: "super", method: "GET", path: "/api/tag/pool", status: 200, list: true, items: 3,
			before: func(t *testing.T, e *env) {
				e.mustDo(t, "acmeAdmin", "DELETE", "/api/tag/{tag}", "", 204, nil)
				if err := e.nodes.AddToPool(ctx, pooled, "chirpstack"); err != nil {
					t.Fatal(err)
				}
			},
			then: func(t *testing.T, e *env, got any) {
				if p := entry(t, got, "deveui", pooled); p["source"] != "chirpstack" {
					t.Errorf("entry %v", p)
				}
			}},
	}...)
	run(t, steps)
}

func TestIntegrationTokens(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var secret string
	run(t, []step{
		{name: "create", as: "acmeAdmin", method: "POST", path: "/api/integration/tokens/{acme}", body: `{"label":"ChirpStack","isCompany":true}`, status: 201,
			want: map[string]any{"label": "ChirpStack", "isCompany": true, "userId": nil}, save: map[string]string{"{token}": "id"},
			then: func(t *testing.T, e *env, got any) {
				obj := got.(map[string]any)
				secret, _ = obj["token"].(string)
				if !strings.HasPrefix(secret, "fh_") || len(secret) < 40 || obj["hint"] != secret[:7] {
					t.Fatalf("token %q, hint %v", secret, obj["hint"])
				}
				sum := sha256.Sum256([]byte(secret))
				if h := e.value(t, "SELECT token_hash FROM integration_tokens WHERE id = ?", e.id(t, "{token}")); h != hex.EncodeToString(sum[:]) {
					t.Errorf("stored hash %q", h)
				}
				if n := e.value(t, "SELECT COUNT(*) FROM integration_tokens WHERE token_hash = ? OR label = ? OR hint = ?", secret, secret, secret); n != "0" {
					t.Errorf("the token is stored in clear")
				}
				company, err := e.nodes.TokenCompany(ctx, secret)
				if err != nil || company != e.id(t, "{acme}") {
					t.Errorf("TokenCompany = %d, %v", company, err)
				}
				for _, bad := range []string{"fh_wrong", secret[3:], secret + "x", ""} {
					var de *errs.Error
					if _, err := e.nodes.TokenCompany(ctx, bad); !errors.As(err, &de) || de.Kind != errs.Unauthorized || de.ID != "nodes.token.invalid" {
						t.Errorf("TokenCompany(%q): %v", bad, err)
					}
				}
				if e.value(t, "SELECT last_used_at FROM integration_tokens WHERE id = ?", e.id(t, "{token}")) == "" {
					t.Errorf("use not noted")
				}
			}},
		{name: "personal token", as: "acmeAdmin", method: "POST", path: "/api/integration/tokens/{acme}", body: `{"label":"Mine"}`, status: 201,
			want: map[string]any{"isCompany": false},
			then: func(t *testing.T, e *env, got any) {
				if got.(map[string]any)["userId"] == nil {
					t.Errorf("personal token without its user: %v", got)
				}
			}},
		{name: "label required", as: "acmeAdmin", method: "POST", path: "/api/integration/tokens/{acme}", body: `{"isCompany":true}`, status: 400,
			fields: map[string]string{"label": "validation.required"}},
		{name: "label too long", as: "acmeAdmin", method: "POST", path: "/api/integration/tokens/{acme}", body: `{"label":"` + strings.Repeat("l", 256) + `"}`,
			status: 400, fields: map[string]string{"label": "validation.max255"}},
		{name: "isCompany must be a boolean", as: "acmeAdmin", method: "POST", path: "/api/integration/tokens/{acme}", body: `{"label":"x","isCompany":"yes"}`,
			status: 400, fields: map[string]string{"isCompany": "error.badJsonType"}},
		{name: "shown once: the list has hints only", as: "acmeAdmin", method: "GET", path: "/api/integration/tokens/{acme}", status: 200, list: true, items: 2,
			then: func(t *testing.T, e *env, got any) {
				for _, item := range got.([]any) {
					tok := item.(map[string]any)
					if _, ok := tok["token"]; ok || !strings.HasPrefix(tok["hint"].(string), "fh_") {
						t.Errorf("listed %v", tok)
					}
				}
			}},
		{name: "Users may not list", as: "acmeUser", method: "GET", path: "/api/integration/tokens/{acme}", status: 403},
		{name: "another company's admin may not list", as: "betaAdmin", method: "GET", path: "/api/integration/tokens/{acme}", status: 404},
		{name: "another company's admin may not create", as: "betaAdmin", method: "POST", path: "/api/integration/tokens/{acme}", body: `{"label":"x"}`, status: 404},
		{name: "another company's admin may not delete", as: "betaAdmin", method: "DELETE", path: "/api/integration/tokens/{token}", status: 404},
		{name: "SuperAdmin, no such company", as: "super", method: "POST", path: "/api/integration/tokens/999999", body: `{"label":"x"}`, status: 404},
		{name: "delete", as: "acmeAdmin", method: "DELETE", path: "/api/integration/tokens/{token}", status: 204,
			then: func(t *testing.T, e *env, _ any) {
				if _, err := e.nodes.TokenCompany(ctx, secret); kindOf(err) != errs.Unauthorized {
					t.Errorf("a deleted token still works: %v", err)
				}
			}},
		{name: "delete again", as: "acmeAdmin", method: "DELETE", path: "/api/integration/tokens/{token}", status: 404},
		{name: "one left", as: "acmeAdmin", method: "GET", path: "/api/integration/tokens/{acme}", status: 200, list: true, items: 1},
	})
}

func TestState(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := func(v float64) *float64 { return &v }
	at := time.Date(2024, 5, 1, 12, 0, 0, 123456789, time.UTC)
	steps := append(tagSteps[:len(tagSteps):len(tagSteps)], []step{
		{name: "an uplink's state", as: "acmeUser", method: "GET", path: "/api/tag/{tag}", status: 200,
			before: func(t *testing.T, e *env) {
				if err := e.nodes.EnsureKeys(ctx, e.id(t, "{tag}"), []string{"temperature", "rssi"}); err != nil {
					t.Fatal(err)
				}
				e.mustDo(t, "acmeAdmin", "POST", "/api/tag/{tag}/default/temperature", "", 200, nil)
				err := e.nodes.UpdateState(ctx, e.id(t, "{tag}"), nodes.State{Time: &at,
					Data: map[string]any{"temperature": 21.5, "rssi": -80.0, "state": "ok"}, Battery: f(3.6), RSSI: f(-80), VDD: f(3.3)})
				if err != nil {
					t.Fatal(err)
				}
			},
			want: map[string]any{"battery": 3.6, "rssi": -80.0, "vdd": 3.3, "latestTime": "2024-05-01T12:00:00.123456Z",
				"latestValue": 21.5, "activeData": false}},
		{name: "an older uplink leaves it", as: "acmeUser", method: "GET", path: "/api/tag/meta/{tag}/tagdata", status: 200, list: true, items: 2,
			before: func(t *testing.T, e *env) {
				old := at.Add(-time.Minute)
				if err := e.nodes.UpdateState(ctx, e.id(t, "{tag}"), nodes.State{Time: &old, Data: map[string]any{"temperature": 1.0}}); err != nil {
					t.Fatal(err)
				}
			},
			then: func(t *testing.T, e *env, got any) {
				if k := entry(t, got, "key", "temperature"); k["value"] != 21.5 || k["time"] != "2024-05-01T12:00:00.123456Z" {
					t.Errorf("temperature %v", k)
				}
			}},
		{name: "a battery alone, and a newer uplink", as: "acmeUser", method: "GET", path: "/api/tag/{tag}", status: 200,
			before: func(t *testing.T, e *env) {
				if err := e.nodes.UpdateState(ctx, e.id(t, "{tag}"), nodes.State{Battery: f(88)}); err != nil {
					t.Fatal(err)
				}
				now := time.Now().UTC()
				if err := e.nodes.UpdateState(ctx, e.id(t, "{tag}"), nodes.State{Time: &now, Data: map[string]any{"temperature": 22.0}}); err != nil {
					t.Fatal(err)
				}
				if err := e.nodes.UpdateState(ctx, 999999, nodes.State{Battery: f(1)}); err != nil {
					t.Errorf("an unknown tag: %v", err)
				}
			},
			want: map[string]any{"battery": 88.0, "rssi": -80.0, "latestValue": 22.0, "activeData": true}},
		{name: "downlink outcomes", as: "acmeAdmin", method: "POST", path: "/api/downlink/{tag}", body: `{"port":1,"payload":"01","payloadType":"hex","confirmed":true}`,
			status: 201, save: map[string]string{"{dl}": "id"},
			then: func(t *testing.T, e *env, _ any) {
				id := e.id(t, "{dl}")
				d, err := e.queue.Downlink(ctx, id)
				if err != nil || d.TagID != e.id(t, "{tag}") || d.CompanyID != e.id(t, "{acme}") || d.DevEUI != devEUI || d.Status != netservers.DownlinkQueued {
					t.Fatalf("Downlink = %+v, %v", d, err)
				}
				if err := e.queue.SetDownlinkStatus(ctx, id, netservers.DownlinkAcknowledged, ""); err != nil {
					t.Fatal(err)
				}
				if d, _ := e.queue.Downlink(ctx, id); d.Status != "acknowledged" {
					t.Errorf("status %q", d.Status)
				}
				if _, err := e.queue.Downlink(ctx, 999999); kindOf(err) != errs.NotFound {
					t.Errorf("an unknown downlink: %v", err)
				}
			}},
	}...)
	run(t, steps)
}

// TestBatchForms: the batch forms the ingest uses for a whole group commit
// answer as the single forms do, tag by tag.
func TestBatchForms(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := func(v float64) *float64 { return &v }
	at := time.Date(2024, 5, 1, 12, 0, 0, 123456789, time.UTC)
	steps := append(tagSteps[:len(tagSteps):len(tagSteps)], []step{
		{name: "keys of many tags", as: "acmeAdmin", method: "POST", path: "/api/tag/{tag}/default/temperature", status: 200,
			before: func(t *testing.T, e *env) {
				err := e.nodes.EnsureKeysOfTags(ctx, map[int64][]string{
					e.id(t, "{tag}"):     {"temperature", "rssi", "not a key!", "temperature"},
					e.id(t, "{betaTag}"): {"level"},
					999999:               {"gone"}, // a tag deleted meanwhile
				})
				if err != nil {
					t.Fatal(err)
				}
				// Again: known keys are left alone.
				if err := e.nodes.EnsureKeysOfTags(ctx, map[int64][]string{e.id(t, "{tag}"): {"rssi", "snr"}}); err != nil {
					t.Fatal(err)
				}
			},
			then: func(t *testing.T, e *env, _ any) {
				for tag, want := range map[string][]string{"{tag}": {"rssi", "snr", "temperature"}, "{betaTag}": {"level"}} {
					got, err := e.nodes.Tag(ctx, e.id(t, tag))
					if err != nil || !reflect.DeepEqual(got.Keys, want) {
						t.Errorf("keys of %s: %v, %v; want %v", tag, got.Keys, err, want)
					}
				}
				if n := e.value(t, "SELECT COUNT(*) FROM tag_keys WHERE tag_id = 999999"); n != "0" {
					t.Errorf("%s keys of a missing tag", n)
				}
			}},
		{name: "states of many tags", as: "acmeUser", method: "GET", path: "/api/tag/{tag}", status: 200,
			before: func(t *testing.T, e *env) {
				tag, beta := e.id(t, "{tag}"), e.id(t, "{betaTag}")
				older, newer := at.Add(-time.Minute), at.Add(time.Minute)
				err := e.nodes.UpdateStates(ctx, []nodes.TagState{
					{TagID: tag, State: nodes.State{Time: &at, Data: map[string]any{"temperature": 21.5, "state": "ok"}, Battery: f(3.6), RSSI: f(-80), VDD: f(3.3)}},
					{TagID: beta, State: nodes.State{Battery: f(88)}},
					// The same tag again: an older uplink changes nothing, its
					// battery included; a newer one wins.
					{TagID: tag, State: nodes.State{Time: &older, Data: map[string]any{"temperature": 1.0}, Battery: f(1)}},
					{TagID: beta, State: nodes.State{Time: &newer, Data: map[string]any{"level": 7.0}, RSSI: f(-100)}},
					{TagID: 999999, State: nodes.State{Battery: f(1)}}, // an unknown tag is not an error
					{TagID: beta, State: nodes.State{RSSI: f(math.NaN())}},
					{TagID: tag, State: nodes.State{}}, // nothing to set
				})
				if err != nil {
					t.Fatal(err)
				}
			},
			want: map[string]any{"battery": 3.6, "rssi": -80.0, "vdd": 3.3, "latestTime": "2024-05-01T12:00:00.123456Z",
				"latestValue": 21.5, "data": map[string]any{"temperature": 21.5, "state": "ok"}},
			then: func(t *testing.T, e *env, _ any) {
				beta, err := e.nodes.Tag(ctx, e.id(t, "{betaTag}"))
				if err != nil || *beta.Battery != 88 || *beta.RSSI != -100 || !beta.LatestTime.Equal(at.Add(time.Minute).Truncate(time.Microsecond)) || beta.Data["level"] != 7.0 {
					t.Errorf("Beta's tag %+v, %v", beta, err)
				}
				// As the single form leaves it: an older state changes nothing.
				old := at.Add(-time.Hour)
				if err := e.nodes.UpdateStates(ctx, []nodes.TagState{{TagID: e.id(t, "{tag}"), State: nodes.State{Time: &old, Battery: f(2)}}}); err != nil {
					t.Fatal(err)
				}
				if tag, _ := e.nodes.Tag(ctx, e.id(t, "{tag}")); *tag.Battery != 3.6 {
					t.Errorf("an older state set the battery to %v", *tag.Battery)
				}
			}},
		{name: "tags of many DevEUIs", as: "acmeUser", method: "GET", path: "/api/tag/{tag}", status: 200,
			then: func(t *testing.T, e *env, _ any) {
				got, err := e.nodes.TagsByDevEUI(ctx, []string{strings.ToLower(devEUI), "00-04-A3-0B-00-1C-05-30", devEUI,
					"FFFFFFFFFFFFFFFF", "not a DevEUI", ""})
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != 2 {
					t.Fatalf("got %d tags: %v", len(got), got)
				}
				for _, eui := range []string{devEUI, betaDevEUI} {
					one, err := e.nodes.TagByDevEUI(ctx, eui)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(got[eui], one) {
						t.Errorf("%s in a batch:\n%+v\nalone:\n%+v", eui, got[eui], one)
					}
				}
				if got[devEUI].LatestValue != 21.5 || len(got[devEUI].Keys) != 3 {
					t.Errorf("derived fields %+v", got[devEUI])
				}
				if none, err := e.nodes.TagsByDevEUI(ctx, nil); err != nil || len(none) != 0 {
					t.Errorf("no DevEUIs: %v, %v", none, err)
				}
			}},
	}...)
	run(t, steps)
}

// TestTokenUseNotedOnce: a token's use is written when it is first
// presented, not again on every request.
func TestTokenUseNotedOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var secret string
	run(t, []step{
		{name: "create", as: "acmeAdmin", method: "POST", path: "/api/integration/tokens/{acme}", body: `{"label":"ChirpStack","isCompany":true}`, status: 201,
			save: map[string]string{"{token}": "id"},
			then: func(t *testing.T, e *env, got any) {
				secret = got.(map[string]any)["token"].(string)
				var noted string
				for i := range 5 {
					if company, err := e.nodes.TokenCompany(ctx, secret); err != nil || company != e.id(t, "{acme}") {
						t.Fatalf("TokenCompany = %d, %v", company, err)
					}
					at := e.value(t, "SELECT last_used_at FROM integration_tokens WHERE id = ?", e.id(t, "{token}"))
					if i == 0 {
						noted = at
					}
					if at == "" || at != noted {
						t.Errorf("use %d: last use %q, first noted %q", i, at, noted)
					}
				}
			}},
		{name: "delete", as: "acmeAdmin", method: "DELETE", path: "/api/integration/tokens/{token}", status: 204,
			then: func(t *testing.T, e *env, _ any) {
				// Deleted on this instance: refused at once, cached or not.
				if _, err := e.nodes.TokenCompany(ctx, secret); kindOf(err) != errs.Unauthorized {
					t.Errorf("a deleted token still works: %v", err)
				}
			}},
	})
}
