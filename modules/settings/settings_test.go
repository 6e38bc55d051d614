package settings_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	accountsmodule "github.com/fieldhub/fieldhub/modules/accounts/module"
	"github.com/fieldhub/fieldhub/modules/settings"
)

// env is a running portal with a SuperAdmin ("super"), two companies, Acme
// in Sweden and Beta in Norway, with their CompanyAdmins ("acmeAdmin",
// "betaAdmin"), and a User of Acme ("acmeUser"). White-label starts off.
type env struct {
	url        string
	k          *kernel.Kernel
	settings   settings.Module
	whiteLabel *atomic.Bool
	tokens     map[string]string
	ids        map[string]string // "{acme}", "{beta}" to company ids
}

func newEnv(t *testing.T, d db.Dialect) *env {
	t.Helper()
	k := kerneltest.New(t, kerneltest.Config(t, d, nil))
	acc := accountsmodule.New(k.Host(), accountsmodule.Deps{})
	k.Add(acc)
	e := &env{k: k, whiteLabel: &atomic.Bool{}, tokens: map[string]string{}, ids: map[string]string{}}
	e.settings = settings.New(k.Host(), settings.Deps{WhiteLabel: e.whiteLabel.Load, Accounts: acc})
	k.Add(e.settings)
	e.url = kerneltest.Serve(t, k)
	if err := acc.CreateSuperAdmin(context.Background(), "super@fieldhub.test", "secret123"); err != nil {
		t.Fatalf("create superadmin: %v", err)
	}
	e.tokens["super"] = e.login(t, "super@fieldhub.test")
	for _, c := range []struct{ key, name, country string }{{"acme", "Acme", "SE"}, {"beta", "Beta", "NO"}} {
		body := fmt.Sprintf(`{"company":{"name":%q,"orgNumber":"556677-8899","invoiceAdress":"a@%s.se","country":%q},
			"user":{"firstName":"A","lastName":"B","email":"admin@%s.se","phoneNumber":"46701234567","password":"secret123"}}`,
			c.name, c.key, c.country, c.key)
		var out struct {
			Company struct {
				ID int64 `json:"companyId"`
			} `json:"company"`
		}
		e.mustDo(t, "super", "POST", "/api/users/create/company", body, http.StatusCreated, &out)
		e.ids["{"+c.key+"}"] = fmt.Sprint(out.Company.ID)
		e.tokens[c.key+"Admin"] = e.login(t, "admin@"+c.key+".se")
	}
	e.mustDo(t, "acmeAdmin", "POST", "/api/users",
		`{"firstName":"U","lastName":"S","email":"user@acme.se","phoneNumber":"46701234568","password":"secret123"}`, http.StatusCreated, nil)
	e.tokens["acmeUser"] = e.login(t, "user@acme.se")
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

// do calls the API as who and returns the status and the raw answer.
func (e *env) do(t *testing.T, who, method, path, body, lang string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, e.url+strings.NewReplacer(mapPairs(e.ids)...).Replace(path), strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
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
	return res.StatusCode, raw
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

// rawValue reads a stored value straight from the database, "" if absent.
func (e *env) rawValue(t *testing.T, query string, args ...any) string {
	t.Helper()
	var v string
	if err := e.k.Host().DB.NewRaw(query, args...).Scan(context.Background(), &v); err != nil && !errors.Is(err, sql.ErrNoRows) {
		t.Fatal(err)
	}
	return v
}

func (e *env) companyID(t *testing.T, key string) int64 {
	t.Helper()
	id, err := strconv.ParseInt(e.ids["{"+key+"}"], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func mapPairs(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, k, v)
	}
	return out
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
	want   map[string]any    // entries the answer must hold
	exact  bool              // the answer must hold nothing but want
	whole  any               // the whole answer, when it is not an object
	before func(e *env)
	then   func(t *testing.T, e *env)
}

func run(t *testing.T, steps []step) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		for _, tc := range steps {
			t.Run(tc.name, func(t *testing.T) {
				if tc.before != nil {
					tc.before(e)
				}
				status, raw := e.do(t, tc.as, tc.method, tc.path, tc.body, tc.lang)
				if status != tc.status {
					t.Fatalf("status %d, want %d: %s", status, tc.status, raw)
				}
				var got any
				if err := json.Unmarshal(raw, &got); err != nil {
					t.Fatalf("decode %s: %v", raw, err)
				}
				check(t, tc, got)
				if tc.then != nil {
					tc.then(t, e)
				}
			})
		}
	})
}

func check(t *testing.T, tc step, got any) {
	t.Helper()
	obj, _ := got.(map[string]any)
	if tc.id != "" && obj["id"] != tc.id {
		t.Errorf("id %v, want %s", obj["id"], tc.id)
	}
	for f, id := range tc.fields {
		ids, _ := obj["errorIds"].(map[string]any)
		if !reflect.DeepEqual(ids[f], []any{id}) {
			t.Errorf("errorIds[%s] = %v, want [%s] (answer %v)", f, ids[f], id, obj)
		}
	}
	for k, v := range tc.want {
		if !reflect.DeepEqual(obj[k], v) {
			t.Errorf("%s = %#v, want %#v", k, obj[k], v)
		}
	}
	if tc.exact && len(obj) != len(tc.want) {
		t.Errorf("answer %v has other entries than %v", obj, tc.want)
	}
	if tc.whole != nil && !reflect.DeepEqual(got, tc.whole) {
		t.Errorf("answer %#v\nwant %#v", got, tc.whole)
	}
}

func TestUserSettings(t *testing.T) {
	t.Parallel()
	run(t, []step{
		{name: "defaults, Swedish company speaks sv", as: "acmeUser", method: "GET", path: "/api/settings", status: 200,
			want: map[string]any{"theme": "Colors", "darkMode": false, "toolbarTransparent": false, "stickySideMenu": false, "language": "sv", "defaultRange": "24h"}},
		{name: "Norwegian company defaults to en", as: "betaAdmin", method: "GET", path: "/api/settings", status: 200,
			want: map[string]any{"language": "en"}},
		{name: "SuperAdmin without company defaults to en", as: "super", method: "GET", path: "/api/settings", status: 200,
			want: map[string]any{"language": "en", "theme": "Colors"}},
		{name: "booleans from strings and JSON", as: "acmeUser", method: "POST", path: "/api/settings",
			body: `{"darkMode":"true","stickySideMenu":true,"theme":"Scientific","defaultRange":"7d"}`, status: 200,
			want: map[string]any{"darkMode": true, "stickySideMenu": true, "toolbarTransparent": false, "theme": "Scientific", "defaultRange": "7d", "language": "sv"},
			then: func(t *testing.T, e *env) {
				if v := e.rawValue(t, "SELECT value FROM user_settings WHERE name = 'stickySideMenu'"); v != "true" {
					t.Errorf("stored %q, want the string true", v)
				}
			}},
		{name: "unknown name", as: "acmeUser", method: "POST", path: "/api/settings", body: `{"darkMode":false,"colour":"red"}`,
			status: 400, id: "settings.unknown", fields: map[string]string{"colour": "settings.unknown"}},
		{name: "bad theme", as: "acmeUser", method: "POST", path: "/api/settings", body: `{"darkMode":false,"theme":"Neon"}`,
			status: 400, fields: map[string]string{"theme": "settings.badValue"}},
		{name: "bad boolean", as: "acmeUser", method: "POST", path: "/api/settings", body: `{"darkMode":"yes"}`,
			status: 400, fields: map[string]string{"darkMode": "settings.badValue"}},
		{name: "null value", as: "acmeUser", method: "POST", path: "/api/settings", body: `{"darkMode":null}`,
			status: 400, fields: map[string]string{"darkMode": "settings.badValue"}},
		{name: "number for a string", as: "acmeUser", method: "POST", path: "/api/settings", body: `{"defaultRange":24}`,
			status: 400, fields: map[string]string{"defaultRange": "settings.badValue"}},
		{name: "unknown language", as: "acmeUser", method: "POST", path: "/api/settings", body: `{"language":"de"}`,
			status: 400, fields: map[string]string{"language": "settings.badValue"}},
		{name: "too long", as: "acmeUser", method: "POST", path: "/api/settings", body: `{"theme":"` + strings.Repeat("x", 1001) + `"}`,
			status: 400, fields: map[string]string{"theme": "validation.tooLong"}},
		{name: "not an object", as: "acmeUser", method: "POST", path: "/api/settings", body: `["darkMode"]`, status: 400, id: "error.badJson"},
		{name: "no body", as: "acmeUser", method: "POST", path: "/api/settings", status: 400, id: "error.badJson"},
		{name: "rejected posts changed nothing", as: "acmeUser", method: "GET", path: "/api/settings", status: 200,
			want: map[string]any{"darkMode": true, "theme": "Scientific", "defaultRange": "7d", "language": "sv"}},
		{name: "stored language wins", as: "acmeUser", method: "POST", path: "/api/settings", body: `{"language":"en"}`, status: 200,
			want: map[string]any{"language": "en", "darkMode": true}},
		{name: "settings are per user", as: "acmeAdmin", method: "GET", path: "/api/settings", status: 200,
			want: map[string]any{"darkMode": false, "theme": "Colors", "language": "sv"}},
		{name: "signed out", method: "GET", path: "/api/settings", status: 401, id: "error.unauthorized"},
	})
}

func TestGlobalSettings(t *testing.T) {
	t.Parallel()
	sealed := func(name, plain string) func(t *testing.T, e *env) {
		return func(t *testing.T, e *env) {
			raw := e.rawValue(t, "SELECT value FROM global_settings WHERE name = ?", name)
			if strings.Contains(raw, plain) {
				t.Fatalf("%s stored in clear: %q", name, raw)
			}
			if got, err := e.k.Host().Box.Open(raw); err != nil || got != plain {
				t.Errorf("%s opens to %q, %v; want %q", name, got, err, plain)
			}
			all, err := e.settings.Global(context.Background())
			if err != nil || all[name] != plain {
				t.Errorf("Service.Global()[%s] = %q, %v; want %q", name, all[name], err, plain)
			}
		}
	}
	empty := map[string]any{"branding": "", "powered_by": "", "brand_icon": "mdi-access-point-network", "SMS_PROVIDER": "", "ELKS_USERNAME": "", "ELKS_PASSWORD": "",
		"ELKS_SENDER": "", "TWILIO_NUMBER": "", "TWILIO_ACCOUNT_SID": "", "TWILIO_AUTH_TOKEN": ""}
	run(t, []step{
		{name: "SuperAdmin sees every setting", as: "super", method: "GET", path: "/api/settings/global", status: 200, want: empty, exact: true},
		{name: "store credentials", as: "super", method: "POST", path: "/api/settings/global",
			body:   `{"SMS_PROVIDER":"46elks","ELKS_USERNAME":"u1","ELKS_PASSWORD":"hunter2","ELKS_SENDER":"Fieldhub","TWILIO_NUMBER":"+46 70-123 45 67"}`,
			status: 200, want: map[string]any{"SMS_PROVIDER": "46elks", "ELKS_PASSWORD": "********", "TWILIO_AUTH_TOKEN": "", "TWILIO_NUMBER": "46701234567"},
			then: sealed("ELKS_PASSWORD", "hunter2")},
		{name: "masked secret keeps the stored one", as: "super", method: "POST", path: "/api/settings/global",
			body: `{"ELKS_PASSWORD":"********","ELKS_USERNAME":"u2"}`, status: 200,
			want: map[string]any{"ELKS_PASSWORD": "********", "ELKS_USERNAME": "u2"}, then: sealed("ELKS_PASSWORD", "hunter2")},
		{name: "sender too long", as: "super", method: "POST", path: "/api/settings/global", body: `{"ELKS_SENDER":"Fieldhub1234","ELKS_USERNAME":"u3"}`,
			status: 400, fields: map[string]string{"ELKS_SENDER": "settings.badValue"}},
		{name: "sender with a dash", as: "super", method: "POST", path: "/api/settings/global", body: `{"ELKS_SENDER":"Field-hub"}`,
			status: 400, fields: map[string]string{"ELKS_SENDER": "settings.badValue"}},
		{name: "unknown provider", as: "super", method: "POST", path: "/api/settings/global", body: `{"SMS_PROVIDER":"sms"}`,
			status: 400, fields: map[string]string{"SMS_PROVIDER": "settings.badValue"}},
		{name: "unknown name", as: "super", method: "POST", path: "/api/settings/global", body: `{"SMTP":"x"}`,
			status: 400, fields: map[string]string{"SMTP": "settings.unknown"}},
		{name: "branding needs white-label", as: "super", method: "POST", path: "/api/settings/global",
			body: `{"branding":"logo.png","ELKS_USERNAME":"u4"}`, status: 403, id: "settings.whiteLabel"},
		{name: "unchanged branding is no change", as: "super", method: "POST", path: "/api/settings/global",
			body: `{"branding":"","powered_by":"","brand_icon":"mdi-access-point-network"}`, status: 200},
		{name: "brand icon needs white-label", as: "super", method: "POST", path: "/api/settings/global",
			body: `{"brand_icon":"mdi-shape-outline"}`, status: 403, id: "settings.whiteLabel"},
		{name: "brand icon must be an mdi name", as: "super", method: "POST", path: "/api/settings/global",
			body: `{"brand_icon":"fa-home"}`, status: 400, fields: map[string]string{"brand_icon": "settings.badValue"}},
		{name: "brand icon without spaces or capitals", as: "super", method: "POST", path: "/api/settings/global",
			body: `{"brand_icon":"mdi-Home page"}`, status: 400, fields: map[string]string{"brand_icon": "settings.badValue"}},
		{name: "rejected posts changed nothing", as: "super", method: "GET", path: "/api/settings/global", status: 200,
			want: map[string]any{"ELKS_USERNAME": "u2", "ELKS_SENDER": "Fieldhub", "SMS_PROVIDER": "46elks", "branding": "",
				"brand_icon": "mdi-access-point-network"}},
		{name: "branding under white-label", as: "super", method: "POST", path: "/api/settings/global",
			body: `{"branding":"logo.png","powered_by":"Acme IoT","brand_icon":" mdi-shape-outline "}`, status: 200,
			want:   map[string]any{"branding": "logo.png", "brand_icon": "mdi-shape-outline"},
			before: func(e *env) { e.whiteLabel.Store(true) }, then: func(t *testing.T, e *env) { e.whiteLabel.Store(false) }},
		{name: "others see only branding", as: "acmeUser", method: "GET", path: "/api/settings/global", status: 200,
			want: map[string]any{"branding": "logo.png", "powered_by": "Acme IoT", "brand_icon": "mdi-shape-outline"}, exact: true},
		{name: "the stored icon is no change without white-label", as: "super", method: "POST", path: "/api/settings/global",
			body: `{"brand_icon":"mdi-shape-outline","ELKS_USERNAME":"u5"}`, status: 200, want: map[string]any{"ELKS_USERNAME": "u5"}},
		{name: "others may not change", as: "acmeAdmin", method: "POST", path: "/api/settings/global", body: `{"ELKS_USERNAME":"x"}`,
			status: 403, id: "error.forbidden"},
	})
}

func TestCompanySettings(t *testing.T) {
	t.Parallel()
	field := func(key, label string, typ float64, options ...any) any {
		if options == nil {
			options = []any{}
		}
		return map[string]any{"key": key, "label": label, "type": typ, "options": options}
	}
	providers := []any{"", "46elks", "twilio"}
	run(t, []step{
		{name: "fields in English", as: "acmeAdmin", method: "GET", path: "/api/settings/company/fields", status: 200, whole: []any{
			field("SMS_PROVIDER", "SMS provider", 3, providers...),
			field("INACTIVITY_EMAIL", "E-mail for inactivity alarms", 0),
			field("ELKS_USERNAME", "46elks username", 0),
			field("ELKS_PASSWORD", "46elks password", 5),
			field("ELKS_SENDER", "46elks sender name", 0),
			field("TWILIO_NUMBER", "Twilio phone number", 0),
			field("TWILIO_ACCOUNT_SID", "Twilio account SID", 0),
			field("TWILIO_AUTH_TOKEN", "Twilio access token", 5),
		}},
		{name: "fields in Swedish", as: "acmeAdmin", method: "GET", path: "/api/settings/company/fields", lang: "sv", status: 200, whole: []any{
			field("SMS_PROVIDER", "SMS-leverantör", 3, providers...),
			field("INACTIVITY_EMAIL", "E-post för inaktivitetslarm", 0),
			field("ELKS_USERNAME", "46elks användarnamn", 0),
			field("ELKS_PASSWORD", "46elks lösenord", 5),
			field("ELKS_SENDER", "46elks avsändarnamn", 0),
			field("TWILIO_NUMBER", "Twilio telefonnummer", 0),
			field("TWILIO_ACCOUNT_SID", "Twilio konto-SID", 0),
			field("TWILIO_AUTH_TOKEN", "Twilio åtkomsttoken", 5),
		}},
		{name: "fields are not for Users", as: "acmeUser", method: "GET", path: "/api/settings/company/fields", status: 403},
		{name: "empty at first", as: "acmeAdmin", method: "GET", path: "/api/settings/company/{acme}", status: 200, exact: true,
			want: map[string]any{"SMS_PROVIDER": "", "INACTIVITY_EMAIL": "", "ELKS_USERNAME": "", "ELKS_PASSWORD": "", "ELKS_SENDER": "",
				"TWILIO_NUMBER": "", "TWILIO_ACCOUNT_SID": "", "TWILIO_AUTH_TOKEN": ""}},
		{name: "store", as: "acmeAdmin", method: "PUT", path: "/api/settings/company/{acme}",
			body:   `{"SMS_PROVIDER":"twilio","INACTIVITY_EMAIL":" ops@acme.se ","TWILIO_NUMBER":"+46 70 123 45 67","TWILIO_ACCOUNT_SID":"AC1","TWILIO_AUTH_TOKEN":"tok"}`,
			status: 200, want: map[string]any{"SMS_PROVIDER": "twilio", "INACTIVITY_EMAIL": "ops@acme.se", "TWILIO_NUMBER": "46701234567",
				"TWILIO_AUTH_TOKEN": "********", "ELKS_PASSWORD": ""},
			then: func(t *testing.T, e *env) {
				raw := e.rawValue(t, "SELECT value FROM company_settings WHERE name = 'TWILIO_AUTH_TOKEN'")
				if got, err := e.k.Host().Box.Open(raw); err != nil || got != "tok" || raw == "tok" {
					t.Errorf("stored %q opens to %q, %v; want it sealed", raw, got, err)
				}
			}},
		{name: "masked secret is unchanged", as: "acmeAdmin", method: "PUT", path: "/api/settings/company/{acme}",
			body: `{"TWILIO_AUTH_TOKEN":"********"}`, status: 200, want: map[string]any{"TWILIO_AUTH_TOKEN": "********"},
			then: func(t *testing.T, e *env) {
				all, err := e.settings.Company(context.Background(), e.companyID(t, "acme"))
				beta, _ := e.settings.Company(context.Background(), e.companyID(t, "beta"))
				if err != nil || all["TWILIO_AUTH_TOKEN"] != "tok" || beta["TWILIO_AUTH_TOKEN"] != "" {
					t.Errorf("Service.Company: %v, %v; want the token opened for Acme only", all, err)
				}
			}},
		{name: "bad e-mail", as: "acmeAdmin", method: "PUT", path: "/api/settings/company/{acme}", body: `{"INACTIVITY_EMAIL":"ops","SMS_PROVIDER":""}`,
			status: 400, fields: map[string]string{"INACTIVITY_EMAIL": "settings.badValue"}},
		{name: "number without country code", as: "acmeAdmin", method: "PUT", path: "/api/settings/company/{acme}", body: `{"TWILIO_NUMBER":"0701234567"}`,
			status: 400, fields: map[string]string{"TWILIO_NUMBER": "settings.badValue"}},
		{name: "global-only name", as: "acmeAdmin", method: "PUT", path: "/api/settings/company/{acme}", body: `{"branding":"x","SMS_PROVIDER":""}`,
			status: 400, fields: map[string]string{"branding": "settings.unknown"}},
		{name: "boolean for a string", as: "acmeAdmin", method: "PUT", path: "/api/settings/company/{acme}", body: `{"ELKS_USERNAME":true}`,
			status: 400, fields: map[string]string{"ELKS_USERNAME": "settings.badValue"}},
		{name: "NUL character", as: "acmeAdmin", method: "PUT", path: "/api/settings/company/{acme}", body: `{"ELKS_USERNAME":"a\u0000b"}`,
			status: 400, fields: map[string]string{"ELKS_USERNAME": "settings.badValue"}},
		{name: "another company's admin gets 404", as: "betaAdmin", method: "GET", path: "/api/settings/company/{acme}", status: 404, id: "error.notFound"},
		{name: "another company's admin cannot write", as: "betaAdmin", method: "PUT", path: "/api/settings/company/{acme}",
			body: `{"SMS_PROVIDER":""}`, status: 404, id: "error.notFound"},
		{name: "Users may not read", as: "acmeUser", method: "GET", path: "/api/settings/company/{acme}", status: 403},
		{name: "SuperAdmin sees any company, nothing changed", as: "super", method: "GET", path: "/api/settings/company/{acme}", status: 200,
			want: map[string]any{"SMS_PROVIDER": "twilio", "TWILIO_NUMBER": "46701234567", "INACTIVITY_EMAIL": "ops@acme.se", "ELKS_USERNAME": ""}},
		{name: "SuperAdmin, no such company", as: "super", method: "PUT", path: "/api/settings/company/999999", body: `{"SMS_PROVIDER":""}`,
			status: 404, id: "error.notFound"},
		{name: "bad id", as: "super", method: "GET", path: "/api/settings/company/abc", status: 400, id: "error.badId"},
		{name: "zero id", as: "super", method: "GET", path: "/api/settings/company/0", status: 400, id: "error.badId"},
	})
}
