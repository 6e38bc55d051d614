package dashboards_test

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
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/tsdb/sqlts"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	decodersmodule "github.com/fieldhub/fieldhub/modules/decoders/module"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// env is a running portal with the accounts, decoders, nodes and dashboards modules
// on one database: a SuperAdmin ("super"), two companies, Acme and Beta,
// with their CompanyAdmins ("acmeAdmin", "betaAdmin"), a User of Acme
// ("acmeUser"), and in each company an application with nodes (Acme:
// acmeNode with temperature and humidity, acmeNode2; Beta: betaNode).
type env struct {
	url    string
	k      *kernel.Kernel
	dash   dashboards.Module
	series tsdb.Store
	tokens map[string]string
	ids    map[string]string // placeholders such as "{acme}" to ids
}

const (
	acmeNode  = "70B3D57ED005A1B2"
	acmeNode2 = "70B3D57ED005A1B3"
	betaNode  = "0004A30B001C0530"
)

// newEnv starts the portal; config holds extra options (the weather
// services' addresses).
func newEnv(t *testing.T, d db.Dialect, config map[string]string) *env {
	t.Helper()
	k := kerneltest.New(t, kerneltest.Config(t, d, config))
	acc := accounts.New(k.Host(), accounts.Deps{})
	k.Add(acc)
	series := sqlts.New(k.Host().DB, sqlts.Options{})
	dec := decodersmodule.New(k.Host(), decodersmodule.Deps{})
	k.Add(dec)
	nod := nodes.New(k.Host(), nodes.Deps{Accounts: acc, Decoders: dec, Series: series})
	k.Add(nod)
	e := &env{k: k, series: series, tokens: map[string]string{}, ids: map[string]string{}}
	e.dash = dashboards.New(k.Host(), dashboards.Deps{Accounts: acc, Nodes: nod, Series: series})
	k.Add(e.dash)
	e.url = kerneltest.Serve(t, k)
	if err := acc.CreateSuperAdmin(context.Background(), "super@fieldhub.test", "secret123"); err != nil {
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
		var app struct {
			ID int64 `json:"id"`
		}
		e.mustDo(t, key+"Admin", "POST", "/api/applications/{"+key+"}", `{"name":"Field"}`, http.StatusCreated, &app)
		e.ids["{"+key+"App}"] = fmt.Sprint(app.ID)
	}
	e.mustDo(t, "acmeAdmin", "POST", "/api/users",
		`{"firstName":"U","lastName":"S","email":"user@acme.se","phoneNumber":"46701234568","password":"secret123"}`, http.StatusCreated, nil)
	e.tokens["acmeUser"] = e.login(t, "user@acme.se")
	for _, n := range []struct{ who, app, name, eui string }{
		{"acmeAdmin", "{acmeApp}", "Greenhouse", acmeNode},
		{"acmeAdmin", "{acmeApp}", "Cellar", acmeNode2},
		{"betaAdmin", "{betaApp}", "Beta secret node", betaNode},
	} {
		e.mustDo(t, n.who, "POST", "/api/applications/"+n.app+"/tag",
			fmt.Sprintf(`{"name":%q,"deveui":%q,"lat":59.33,"long":18.06}`, n.name, n.eui), http.StatusCreated, nil)
	}
	e.mustDo(t, "acmeAdmin", "POST", "/api/tag/key/add", fmt.Sprintf(`{"tagId":%d,"key":"temperature","label":"Air temperature","unit":"°C","defaultKey":true}`,
		e.tagID(t, "acmeAdmin", acmeNode)), http.StatusCreated, nil)
	return e
}

// tagID finds a node's id through the API.
func (e *env) tagID(t *testing.T, who, eui string) int64 {
	t.Helper()
	var tags []struct {
		ID     int64  `json:"id"`
		DevEUI string `json:"deveui"`
	}
	e.mustDo(t, who, "GET", "/api/tag", "", http.StatusOK, &tags)
	for _, tg := range tags {
		if tg.DevEUI == eui {
			return tg.ID
		}
	}
	t.Fatalf("no tag %s", eui)
	return 0
}

// write stores values of a node of a company: one point per minute back
// from now, newest last.
func (e *env) write(t *testing.T, company, eui, key string, values ...float64) {
	t.Helper()
	s := tsdb.Series{Company: e.id(t, company), DevEUI: strings.ToLower(eui), Key: key}
	now := time.Now().UTC().Truncate(time.Second)
	pts := make([]tsdb.Point, len(values))
	for i, v := range values {
		pts[i] = tsdb.Number(s, now.Add(-time.Duration(len(values)-1-i)*time.Minute), v)
	}
	if err := e.series.Write(context.Background(), pts); err != nil {
		t.Fatal(err)
	}
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

func (e *env) id(t *testing.T, placeholder string) int64 {
	t.Helper()
	id, err := strconv.ParseInt(e.ids[placeholder], 10, 64)
	if err != nil {
		t.Fatalf("no id for %s", placeholder)
	}
	return id
}

// send calls the portal as who with a raw body and content type.
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
	var b []byte
	if body != "" {
		b = []byte(e.fill(body))
	}
	status, _, raw := e.send(t, who, method, path, b, "application/json", lang)
	return status, raw
}

func (e *env) mustDo(t *testing.T, who, method, path, body string, status int, out any) {
	t.Helper()
	got, raw := e.do(t, who, method, path, body, "")
	if got != status {
		t.Fatalf("%s %s: status %d, want %d: %s", method, e.fill(path), got, status, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: decode %s: %v", method, path, raw, err)
		}
	}
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
	want   map[string]any    // entries (dotted paths) the answer must hold
	items  int               // with list, the answer's length
	list   bool
	save   map[string]string // placeholder to the answer's entry (dotted path) holding its value
	before func(t *testing.T, e *env)
	then   func(t *testing.T, e *env, got any)
}

// run runs steps on a fresh portal of each database.
func run(t *testing.T, config map[string]string, steps []step) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d, config)
		runOn(t, e, steps)
	})
}

func runOn(t *testing.T, e *env, steps []step) {
	for _, tc := range steps {
		ok := t.Run(tc.name, func(t *testing.T) {
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
			check(t, e, tc, got)
			for placeholder, path := range tc.save {
				v := at(got, path)
				switch n := v.(type) {
				case float64:
					e.ids[placeholder] = strconv.FormatInt(int64(n), 10)
				case string:
					e.ids[placeholder] = n
				default:
					t.Fatalf("answer has no %s to save: %s", path, raw)
				}
			}
			if tc.then != nil {
				tc.then(t, e, got)
			}
		})
		if !ok {
			return // later steps build on this one
		}
	}
}

// at returns the value at a dotted path ("modules.0.title") of a decoded
// answer, nil when there is none.
func at(v any, path string) any {
	if path == "" {
		return v
	}
	for _, part := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[part]
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

func check(t *testing.T, e *env, tc step, got any) {
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
		var msg any = obj["message"]
		if f != "" {
			msgs, _ := obj["errors"].(map[string]any)
			list, _ := msgs[f].([]any)
			msg = nil
			if len(list) > 0 {
				msg = list[0]
			}
		}
		if msg != text {
			t.Errorf("message of %q = %v, want %q", f, msg, text)
		}
	}
	for k, v := range tc.want {
		if s, ok := v.(string); ok {
			v = e.fill(s)
			// A lone placeholder of a numeric id stands for the number.
			if n, err := strconv.ParseFloat(v.(string), 64); err == nil && strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
				v = n
			}
		}
		if g := at(got, k); !reflect.DeepEqual(g, v) {
			t.Errorf("%s = %#v, want %#v", k, g, v)
		}
	}
	if tc.list {
		list, ok := got.([]any)
		if !ok || len(list) != tc.items {
			t.Errorf("answer %v, want a list of %d", got, tc.items)
		}
	}
}

func jsonText(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}
