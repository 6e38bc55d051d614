package settings_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/settings"
)

// env is a running portal with a SuperAdmin ("super"), two companies, Acme
// in Sweden and Beta in Norway, with their CompanyAdmins ("acmeAdmin",
// "betaAdmin"), and a User of Acme ("acmeUser"). White-label starts off.
type env struct {
	*kerneltest.Session
	p        *kerneltest.Portal[*app.App]
	settings settings.Service
	// whiteLabel is the license's white-label flag in the portal's
	// configuration, which the application reads at each use.
	whiteLabel *bool
}

func newEnv(t *testing.T, d db.Dialect) *env {
	t.Helper()
	p := kerneltest.Start(t, d, nil, app.Build)
	return &env{p: p, settings: p.App.Settings(), whiteLabel: &p.Host().License.WhiteLabel,
		Session: kerneltest.Companies(t, p.Client, p.App, kerneltest.CompanySpec{Key: "acme", Name: "Acme", User: true},
			kerneltest.CompanySpec{Key: "beta", Name: "Beta", Country: "NO"})}
}

// rawValue reads a stored value straight from the database, "" if absent.
func (e *env) rawValue(t *testing.T, query string, args ...any) string {
	t.Helper()
	var v string
	if err := e.p.Host().DB.NewRaw(query, args...).Scan(context.Background(), &v); err != nil && !errors.Is(err, sql.ErrNoRows) {
		t.Fatal(err)
	}
	return v
}

// step is one call and what its answer must hold.
type step = kerneltest.Step[*env]

// run runs steps on a fresh portal of each database.
func run(t *testing.T, steps []step) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		kerneltest.RunSteps(t, e.Session, e, steps)
	})
}

func TestUserSettings(t *testing.T) {
	t.Parallel()
	run(t, []step{
		{Name: "defaults, Swedish company speaks sv", As: "acmeUser", Method: "GET", Path: "/api/settings", Status: 200,
			Want: map[string]any{"theme": "Colors", "darkMode": false, "toolbarTransparent": false, "stickySideMenu": false, "language": "sv", "defaultRange": "24h"}},
		{Name: "Norwegian company defaults to en", As: "betaAdmin", Method: "GET", Path: "/api/settings", Status: 200,
			Want: map[string]any{"language": "en"}},
		{Name: "SuperAdmin without company defaults to en", As: "super", Method: "GET", Path: "/api/settings", Status: 200,
			Want: map[string]any{"language": "en", "theme": "Colors"}},
		{Name: "booleans from strings and JSON", As: "acmeUser", Method: "POST", Path: "/api/settings",
			Body: `{"darkMode":"true","stickySideMenu":true,"theme":"Scientific","defaultRange":"7d"}`, Status: 200,
			Want: map[string]any{"darkMode": true, "stickySideMenu": true, "toolbarTransparent": false, "theme": "Scientific", "defaultRange": "7d", "language": "sv"},
			Then: func(t *testing.T, e *env, _ any) {
				if v := e.rawValue(t, "SELECT value FROM user_settings WHERE name = 'stickySideMenu'"); v != "true" {
					t.Errorf("stored %q, want the string true", v)
				}
			}},
		{Name: "unknown name", As: "acmeUser", Method: "POST", Path: "/api/settings", Body: `{"darkMode":false,"colour":"red"}`,
			Status: 400, ID: "settings.unknown", Fields: map[string]string{"colour": "settings.unknown"}},
		{Name: "bad theme", As: "acmeUser", Method: "POST", Path: "/api/settings", Body: `{"darkMode":false,"theme":"Neon"}`,
			Status: 400, Fields: map[string]string{"theme": "settings.badValue"}},
		{Name: "bad boolean", As: "acmeUser", Method: "POST", Path: "/api/settings", Body: `{"darkMode":"yes"}`,
			Status: 400, Fields: map[string]string{"darkMode": "settings.badValue"}},
		{Name: "null value", As: "acmeUser", Method: "POST", Path: "/api/settings", Body: `{"darkMode":null}`,
			Status: 400, Fields: map[string]string{"darkMode": "settings.badValue"}},
		{Name: "number for a string", As: "acmeUser", Method: "POST", Path: "/api/settings", Body: `{"defaultRange":24}`,
			Status: 400, Fields: map[string]string{"defaultRange": "settings.badValue"}},
		{Name: "unknown language", As: "acmeUser", Method: "POST", Path: "/api/settings", Body: `{"language":"de"}`,
			Status: 400, Fields: map[string]string{"language": "settings.badValue"}},
		{Name: "too long", As: "acmeUser", Method: "POST", Path: "/api/settings", Body: `{"theme":"` + strings.Repeat("x", 1001) + `"}`,
			Status: 400, Fields: map[string]string{"theme": "validation.tooLong"}},
		{Name: "not an object", As: "acmeUser", Method: "POST", Path: "/api/settings", Body: `["darkMode"]`, Status: 400, ID: "error.badJson"},
		{Name: "no body", As: "acmeUser", Method: "POST", Path: "/api/settings", Status: 400, ID: "error.badJson"},
		{Name: "rejected posts changed nothing", As: "acmeUser", Method: "GET", Path: "/api/settings", Status: 200,
			Want: map[string]any{"darkMode": true, "theme": "Scientific", "defaultRange": "7d", "language": "sv"}},
		{Name: "stored language wins", As: "acmeUser", Method: "POST", Path: "/api/settings", Body: `{"language":"en"}`, Status: 200,
			Want: map[string]any{"language": "en", "darkMode": true}},
		{Name: "settings are per user", As: "acmeAdmin", Method: "GET", Path: "/api/settings", Status: 200,
			Want: map[string]any{"darkMode": false, "theme": "Colors", "language": "sv"}},
		{Name: "signed out", Method: "GET", Path: "/api/settings", Status: 401, ID: "error.unauthorized"},
	})
}

func TestGlobalSettings(t *testing.T) {
	t.Parallel()
	sealed := func(name, plain string) func(t *testing.T, e *env, _ any) {
		return func(t *testing.T, e *env, _ any) {
			raw := e.rawValue(t, "SELECT value FROM global_settings WHERE name = ?", name)
			if strings.Contains(raw, plain) {
				t.Fatalf("%s stored in clear: %q", name, raw)
			}
			if got, err := e.p.Host().Box.Open(raw); err != nil || got != plain {
				t.Errorf("%s opens to %q, %v; want %q", name, got, err, plain)
			}
			all, err := e.settings.Global(context.Background())
			if err != nil || all[name] != plain {
				t.Errorf("Service.Global()[%s] = %q, %v; want %q", name, all[name], err, plain)
			}
		}
	}
	empty := map[string]any{"branding": "", "powered_by": "", "brand_icon": "mdi-access-point-network", "SMS_PROVIDER": "", "ELKS_USERNAME": "", "ELKS_PASSWORD": "",
		"ELKS_SENDER": "", "TWILIO_NUMBER": "", "TWILIO_ACCOUNT_SID": "", "TWILIO_AUTH_TOKEN": "", "SMS_PLUGIN_SENDER": "", "SMS_PLUGIN_CREDENTIALS": ""}
	run(t, []step{
		{Name: "SuperAdmin sees every setting", As: "super", Method: "GET", Path: "/api/settings/global", Status: 200, Want: empty, Exact: true},
		{Name: "store credentials", As: "super", Method: "POST", Path: "/api/settings/global",
			Body:   `{"SMS_PROVIDER":"46elks","ELKS_USERNAME":"u1","ELKS_PASSWORD":"hunter2","ELKS_SENDER":"Fieldhub","TWILIO_NUMBER":"+46 70-123 45 67"}`,
			Status: 200, Want: map[string]any{"SMS_PROVIDER": "46elks", "ELKS_PASSWORD": "********", "TWILIO_AUTH_TOKEN": "", "TWILIO_NUMBER": "46701234567"},
			Then: sealed("ELKS_PASSWORD", "hunter2")},
		{Name: "masked secret keeps the stored one", As: "super", Method: "POST", Path: "/api/settings/global",
			Body: `{"ELKS_PASSWORD":"********","ELKS_USERNAME":"u2"}`, Status: 200,
			Want: map[string]any{"ELKS_PASSWORD": "********", "ELKS_USERNAME": "u2"}, Then: sealed("ELKS_PASSWORD", "hunter2")},
		{Name: "sender too long", As: "super", Method: "POST", Path: "/api/settings/global", Body: `{"ELKS_SENDER":"Fieldhub1234","ELKS_USERNAME":"u3"}`,
			Status: 400, Fields: map[string]string{"ELKS_SENDER": "settings.badValue"}},
		{Name: "sender with a dash", As: "super", Method: "POST", Path: "/api/settings/global", Body: `{"ELKS_SENDER":"Field-hub"}`,
			Status: 400, Fields: map[string]string{"ELKS_SENDER": "settings.badValue"}},
		{Name: "unknown provider", As: "super", Method: "POST", Path: "/api/settings/global", Body: `{"SMS_PROVIDER":"sms"}`,
			Status: 400, Fields: map[string]string{"SMS_PROVIDER": "settings.badValue"}},
		{Name: "unknown name", As: "super", Method: "POST", Path: "/api/settings/global", Body: `{"SMTP":"x"}`,
			Status: 400, Fields: map[string]string{"SMTP": "settings.unknown"}},
		{Name: "branding needs white-label", As: "super", Method: "POST", Path: "/api/settings/global",
			Body: `{"branding":"logo.png","ELKS_USERNAME":"u4"}`, Status: 403, ID: "settings.whiteLabel"},
		{Name: "unchanged branding is no change", As: "super", Method: "POST", Path: "/api/settings/global",
			Body: `{"branding":"","powered_by":"","brand_icon":"mdi-access-point-network"}`, Status: 200},
		{Name: "brand icon needs white-label", As: "super", Method: "POST", Path: "/api/settings/global",
			Body: `{"brand_icon":"mdi-shape-outline"}`, Status: 403, ID: "settings.whiteLabel"},
		{Name: "brand icon must be an mdi name", As: "super", Method: "POST", Path: "/api/settings/global",
			Body: `{"brand_icon":"fa-home"}`, Status: 400, Fields: map[string]string{"brand_icon": "settings.badValue"}},
		{Name: "brand icon without spaces or capitals", As: "super", Method: "POST", Path: "/api/settings/global",
			Body: `{"brand_icon":"mdi-Home page"}`, Status: 400, Fields: map[string]string{"brand_icon": "settings.badValue"}},
		{Name: "rejected posts changed nothing", As: "super", Method: "GET", Path: "/api/settings/global", Status: 200,
			Want: map[string]any{"ELKS_USERNAME": "u2", "ELKS_SENDER": "Fieldhub", "SMS_PROVIDER": "46elks", "branding": "",
				"brand_icon": "mdi-access-point-network"}},
		{Name: "branding under white-label", As: "super", Method: "POST", Path: "/api/settings/global",
			Body: `{"branding":"logo.png","powered_by":"Acme IoT","brand_icon":" mdi-shape-outline "}`, Status: 200,
			Want:   map[string]any{"branding": "logo.png", "brand_icon": "mdi-shape-outline"},
			Before: func(t *testing.T, e *env) { *e.whiteLabel = true }, Then: func(t *testing.T, e *env, _ any) { *e.whiteLabel = false }},
		{Name: "others see only branding", As: "acmeUser", Method: "GET", Path: "/api/settings/global", Status: 200,
			Want: map[string]any{"branding": "logo.png", "powered_by": "Acme IoT", "brand_icon": "mdi-shape-outline"}, Exact: true},
		{Name: "the stored icon is no change without white-label", As: "super", Method: "POST", Path: "/api/settings/global",
			Body: `{"brand_icon":"mdi-shape-outline","ELKS_USERNAME":"u5"}`, Status: 200, Want: map[string]any{"ELKS_USERNAME": "u5"}},
		{Name: "others may not change", As: "acmeAdmin", Method: "POST", Path: "/api/settings/global", Body: `{"ELKS_USERNAME":"x"}`,
			Status: 403, ID: "error.forbidden"},
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
		{Name: "fields in English", As: "acmeAdmin", Method: "GET", Path: "/api/settings/company/fields", Status: 200, Whole: []any{
			field("SMS_PROVIDER", "SMS provider", 3, providers...),
			field("INACTIVITY_EMAIL", "E-mail for inactivity alarms", 0),
			field("ELKS_USERNAME", "46elks username", 0),
			field("ELKS_PASSWORD", "46elks password", 5),
			field("ELKS_SENDER", "46elks sender name", 0),
			field("TWILIO_NUMBER", "Twilio phone number", 0),
			field("TWILIO_ACCOUNT_SID", "Twilio account SID", 0),
			field("TWILIO_AUTH_TOKEN", "Twilio access token", 5),
			field("SMS_PLUGIN_SENDER", "Other plugin: sender", 0),
			field("SMS_PLUGIN_CREDENTIALS", "Other plugin: credentials", 5),
		}},
		{Name: "fields in Swedish", As: "acmeAdmin", Method: "GET", Path: "/api/settings/company/fields", Lang: "sv", Status: 200, Whole: []any{
			field("SMS_PROVIDER", "SMS-leverantör", 3, providers...),
			field("INACTIVITY_EMAIL", "E-post för inaktivitetslarm", 0),
			field("ELKS_USERNAME", "46elks användarnamn", 0),
			field("ELKS_PASSWORD", "46elks lösenord", 5),
			field("ELKS_SENDER", "46elks avsändarnamn", 0),
			field("TWILIO_NUMBER", "Twilio telefonnummer", 0),
			field("TWILIO_ACCOUNT_SID", "Twilio konto-SID", 0),
			field("TWILIO_AUTH_TOKEN", "Twilio åtkomsttoken", 5),
			field("SMS_PLUGIN_SENDER", "Annat tillägg: avsändare", 0),
			field("SMS_PLUGIN_CREDENTIALS", "Annat tillägg: inloggningsuppgifter", 5),
		}},
		{Name: "fields are not for Users", As: "acmeUser", Method: "GET", Path: "/api/settings/company/fields", Status: 403},
		{Name: "empty at first", As: "acmeAdmin", Method: "GET", Path: "/api/settings/company/{acme}", Status: 200, Exact: true,
			Want: map[string]any{"SMS_PROVIDER": "", "INACTIVITY_EMAIL": "", "ELKS_USERNAME": "", "ELKS_PASSWORD": "", "ELKS_SENDER": "",
				"TWILIO_NUMBER": "", "TWILIO_ACCOUNT_SID": "", "TWILIO_AUTH_TOKEN": "", "SMS_PLUGIN_SENDER": "", "SMS_PLUGIN_CREDENTIALS": ""}},
		{Name: "store", As: "acmeAdmin", Method: "PUT", Path: "/api/settings/company/{acme}",
			Body:   `{"SMS_PROVIDER":"twilio","INACTIVITY_EMAIL":" ops@acme.se ","TWILIO_NUMBER":"+46 70 123 45 67","TWILIO_ACCOUNT_SID":"AC1","TWILIO_AUTH_TOKEN":"tok"}`,
			Status: 200, Want: map[string]any{"SMS_PROVIDER": "twilio", "INACTIVITY_EMAIL": "ops@acme.se", "TWILIO_NUMBER": "46701234567",
				"TWILIO_AUTH_TOKEN": "********", "ELKS_PASSWORD": ""},
			Then: func(t *testing.T, e *env, _ any) {
				raw := e.rawValue(t, "SELECT value FROM company_settings WHERE name = 'TWILIO_AUTH_TOKEN'")
				if got, err := e.p.Host().Box.Open(raw); err != nil || got != "tok" || raw == "tok" {
					t.Errorf("stored %q opens to %q, %v; want it sealed", raw, got, err)
				}
			}},
		{Name: "masked secret is unchanged", As: "acmeAdmin", Method: "PUT", Path: "/api/settings/company/{acme}",
			Body: `{"TWILIO_AUTH_TOKEN":"********"}`, Status: 200, Want: map[string]any{"TWILIO_AUTH_TOKEN": "********"},
			Then: func(t *testing.T, e *env, _ any) {
				all, err := e.settings.Company(context.Background(), e.ID(t, "{acme}"))
				beta, _ := e.settings.Company(context.Background(), e.ID(t, "{beta}"))
				if err != nil || all["TWILIO_AUTH_TOKEN"] != "tok" || beta["TWILIO_AUTH_TOKEN"] != "" {
					t.Errorf("Service.Company: %v, %v; want the token opened for Acme only", all, err)
				}
			}},
		{Name: "bad e-mail", As: "acmeAdmin", Method: "PUT", Path: "/api/settings/company/{acme}", Body: `{"INACTIVITY_EMAIL":"ops","SMS_PROVIDER":""}`,
			Status: 400, Fields: map[string]string{"INACTIVITY_EMAIL": "settings.badValue"}},
		{Name: "number without country code", As: "acmeAdmin", Method: "PUT", Path: "/api/settings/company/{acme}", Body: `{"TWILIO_NUMBER":"0701234567"}`,
			Status: 400, Fields: map[string]string{"TWILIO_NUMBER": "settings.badValue"}},
		{Name: "global-only name", As: "acmeAdmin", Method: "PUT", Path: "/api/settings/company/{acme}", Body: `{"branding":"x","SMS_PROVIDER":""}`,
			Status: 400, Fields: map[string]string{"branding": "settings.unknown"}},
		{Name: "boolean for a string", As: "acmeAdmin", Method: "PUT", Path: "/api/settings/company/{acme}", Body: `{"ELKS_USERNAME":true}`,
			Status: 400, Fields: map[string]string{"ELKS_USERNAME": "settings.badValue"}},
		{Name: "NUL character", As: "acmeAdmin", Method: "PUT", Path: "/api/settings/company/{acme}", Body: `{"ELKS_USERNAME":"a\u0000b"}`,
			Status: 400, Fields: map[string]string{"ELKS_USERNAME": "settings.badValue"}},
		{Name: "another company's admin gets 404", As: "betaAdmin", Method: "GET", Path: "/api/settings/company/{acme}", Status: 404, ID: "error.notFound"},
		{Name: "another company's admin cannot write", As: "betaAdmin", Method: "PUT", Path: "/api/settings/company/{acme}",
			Body: `{"SMS_PROVIDER":""}`, Status: 404, ID: "error.notFound"},
		{Name: "Users may not read", As: "acmeUser", Method: "GET", Path: "/api/settings/company/{acme}", Status: 403},
		{Name: "SuperAdmin sees any company, nothing changed", As: "super", Method: "GET", Path: "/api/settings/company/{acme}", Status: 200,
			Want: map[string]any{"SMS_PROVIDER": "twilio", "TWILIO_NUMBER": "46701234567", "INACTIVITY_EMAIL": "ops@acme.se", "ELKS_USERNAME": ""}},
		{Name: "SuperAdmin, no such company", As: "super", Method: "PUT", Path: "/api/settings/company/999999", Body: `{"SMS_PROVIDER":""}`,
			Status: 404, ID: "error.notFound"},
		{Name: "bad id", As: "super", Method: "GET", Path: "/api/settings/company/abc", Status: 400, ID: "error.badId"},
		{Name: "zero id", As: "super", Method: "GET", Path: "/api/settings/company/0", Status: 400, ID: "error.badId"},
	})
}
