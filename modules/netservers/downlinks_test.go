package netservers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
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

// queueEnv is a running portal with a SuperAdmin ("super"), two companies,
// Acme and Beta, with their CompanyAdmins ("acmeAdmin", "betaAdmin"), a
// User of Acme ("acmeUser") and an Admin without a company ("loneAdmin"),
// for the tests of the downlink queue, run as steps.
type queueEnv struct {
	url    string
	k      *kernel.Kernel
	nodes  nodes.Module
	queue  netservers.Downlinks
	tokens map[string]string
	ids    map[string]string // placeholders such as "{acme}" to ids

	mu     sync.Mutex
	events []events.Event
}

func newQueueEnv(t *testing.T, d db.Dialect) *queueEnv {
	t.Helper()
	p := kerneltest.Start(t, d, nil, app.Build)
	e := &queueEnv{url: p.URL, k: p.App.Kernel(), nodes: p.App.Nodes(), queue: p.App.NetServers(), tokens: map[string]string{}, ids: map[string]string{}}
	for _, topic := range []string{nodes.TagCreated{}.Topic(), nodes.TagDeleted{}.Topic(), netservers.DownlinkCreated{}.Topic()} {
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

func (e *queueEnv) login(t *testing.T, email string) string {
	t.Helper()
	var out struct {
		Token string `json:"token"`
	}
	e.mustDo(t, "", "POST", "/api/users/authenticate", fmt.Sprintf(`{"email":%q,"password":"secret123"}`, email), http.StatusOK, &out)
	return out.Token
}

func (e *queueEnv) fill(s string) string {
	var pairs []string
	for k, v := range e.ids {
		pairs = append(pairs, k, v)
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

// send calls the API as who with a raw body and content type.
func (e *queueEnv) send(t *testing.T, who, method, path string, body []byte, contentType, lang string) (int, http.Header, []byte) {
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

func (e *queueEnv) do(t *testing.T, who, method, path, body, lang string) (int, []byte) {
	t.Helper()
	status, _, raw := e.send(t, who, method, path, []byte(e.fill(body)), "application/json", lang)
	return status, raw
}

func (e *queueEnv) mustDo(t *testing.T, who, method, path, body string, status int, out any) {
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

func (e *queueEnv) id(t *testing.T, placeholder string) int64 {
	t.Helper()
	id, err := strconv.ParseInt(e.ids[placeholder], 10, 64)
	if err != nil {
		t.Fatalf("no id for %s", placeholder)
	}
	return id
}

func (e *queueEnv) published() []events.Event {
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
	before func(t *testing.T, e *queueEnv)
	then   func(t *testing.T, e *queueEnv, got any)
}

func run(t *testing.T, steps []step) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newQueueEnv(t, d)
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

const (
	devEUI     = "70B3D57ED005A1B2"
	betaDevEUI = "0004A30B001C0530"
)

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

func TestDownlinks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	post := func(name, body string, status int, field, id, text string) step {
		s := step{name: name, as: "acmeAdmin", method: "POST", path: "/api/downlink/{tag}", body: body, status: status}
		if field != "" {
			s.fields = map[string]string{field: id}
		}
		if text != "" {
			s.texts = map[string]string{field: text}
		}
		return s
	}
	steps := append(tagSteps[:len(tagSteps):len(tagSteps)], []step{
		{name: "queue hex", as: "acmeAdmin", method: "POST", path: "/api/downlink/{tag}", body: `{"port":10,"payload":"01 02 ff","payloadType":"hex","confirmed":true}`,
			status: 201, want: map[string]any{"port": 10.0, "payload": "0102FF", "payloadType": "hex", "confirmed": true, "status": "queued", "deveui": devEUI},
			save: map[string]string{"{first}": "id"}},
		post("queue base64", `{"port":2,"payload":"AQID","payloadType":"base64"}`, 201, "", "", ""),
		post("queue a JSON text", `{"port":3,"payload":"{\"valve\": \"open\"}","payloadType":"json"}`, 201, "", "", ""),
		{name: "queue a JSON object", as: "acmeAdmin", method: "POST", path: "/api/downlink/{tag}", body: `{"port":223,"payload":{"valve":"closed"},"payloadType":"json"}`,
			status: 201, want: map[string]any{"payload": `{"valve":"closed"}`}, save: map[string]string{"{last}": "id"}},
		post("port 0", `{"port":0,"payload":"01","payloadType":"hex"}`, 400, "port", "nodes.downlink.port.min", "Port must be greater than 0"),
		post("no port", `{"payload":"01","payloadType":"hex"}`, 400, "port", "nodes.downlink.port.min", ""),
		post("negative port", `{"port":-5,"payload":"01","payloadType":"hex"}`, 400, "port", "nodes.downlink.port.min", ""),
		post("port 224", `{"port":224,"payload":"01","payloadType":"hex"}`, 400, "port", "nodes.downlink.port.max", "Port must be at most 223"),
		post("fractional port", `{"port":1.5,"payload":"01","payloadType":"hex"}`, 400, "port", "error.badJsonType", ""),
		post("unknown type", `{"port":1,"payload":"01","payloadType":"bin"}`, 400, "payloadType", "nodes.downlink.payloadType", ""),
		post("no type", `{"port":1,"payload":"01"}`, 400, "payloadType", "nodes.downlink.payloadType", ""),
		post("odd hex", `{"port":1,"payload":"123","payloadType":"hex"}`, 400, "payload", "nodes.downlink.payload.hex", ""),
		post("not hex", `{"port":1,"payload":"0x12","payloadType":"hex"}`, 400, "payload", "nodes.downlink.payload.hex", ""),
		post("hex too long", `{"port":1,"payload":"`+strings.Repeat("ab", 243)+`","payloadType":"hex"}`, 400, "payload", "nodes.downlink.payload.tooLong",
			"The payload must be at most 242 bytes"),
		post("bad base64", `{"port":1,"payload":"***","payloadType":"base64"}`, 400, "payload", "nodes.downlink.payload.base64", ""),
		post("JSON array", `{"port":1,"payload":"[1,2]","payloadType":"json"}`, 400, "payload", "nodes.downlink.payload.json", ""),
		post("broken JSON", `{"port":1,"payload":"{\"a\":","payloadType":"json"}`, 400, "payload", "nodes.downlink.payload.json", ""),
		post("a number for hex", `{"port":1,"payload":12,"payloadType":"hex"}`, 400, "payload", "nodes.downlink.payload.hex", ""),
		post("no payload", `{"port":1,"payloadType":"hex"}`, 400, "payload", "validation.required", ""),
		{name: "Users may not queue", as: "acmeUser", method: "POST", path: "/api/downlink/{tag}", body: `{"port":1,"payload":"01","payloadType":"hex"}`, status: 403},
		{name: "another company's tag", as: "betaAdmin", method: "POST", path: "/api/downlink/{tag}", body: `{"port":1,"payload":"01","payloadType":"hex"}`, status: 404},
		{name: "rejected ones were not queued", as: "acmeUser", method: "GET", path: "/api/downlink/tag/{tag}", status: 200, list: true, items: 4,
			then: func(t *testing.T, e *queueEnv, got any) {
				if first := got.([]any)[0].(map[string]any); first["id"] != float64(e.id(t, "{last}")) {
					t.Errorf("not newest first: %v", got)
				}
				queue, err := e.queue.Queued(ctx, 10)
				if err != nil || len(queue) != 4 || queue[0].ID != e.id(t, "{first}") || queue[0].DevEUI != devEUI ||
					!bytes.Equal(queue[0].Bytes(), []byte{1, 2, 0xff}) || queue[3].Object()["valve"] != "closed" {
					t.Errorf("Queued: %+v, %v", queue, err)
				}
				if err := e.queue.SetDownlinkStatus(ctx, e.id(t, "{first}"), netservers.DownlinkSent, ""); err != nil {
					t.Fatal(err)
				}
				if err := e.queue.SetDownlinkStatus(ctx, e.id(t, "{first}"), "lost", ""); kindOf(err) != errs.Invalid {
					t.Errorf("unknown status: %v", err)
				}
				if queue, _ := e.queue.Queued(ctx, 10); len(queue) != 3 {
					t.Errorf("%d queued after one was sent", len(queue))
				}
			}},
		{name: "another company's list", as: "betaAdmin", method: "GET", path: "/api/downlink/tag/{tag}", status: 404},
		{name: "a sent downlink stays", as: "acmeAdmin", method: "DELETE", path: "/api/downlink/{first}", status: 409, id: "nodes.downlink.notQueued",
			texts: map[string]string{"": "Only a queued downlink can be removed"}},
		{name: "Users may not remove", as: "acmeUser", method: "DELETE", path: "/api/downlink/{last}", status: 403},
		{name: "another company's admin may not remove", as: "betaAdmin", method: "DELETE", path: "/api/downlink/{last}", status: 404},
		{name: "remove a queued one", as: "acmeAdmin", method: "DELETE", path: "/api/downlink/{last}", status: 204},
		{name: "removed", as: "acmeAdmin", method: "DELETE", path: "/api/downlink/{last}", status: 404},
		{name: "three left", as: "acmeAdmin", method: "GET", path: "/api/downlink/tag/{tag}", status: 200, list: true, items: 3},
	}...)
	run(t, steps)
}
