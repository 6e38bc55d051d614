package settings_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/license"
)

// The /superadmin/settings page of the settings module: the installation's
// global settings (the branding and the SMS provider) as a form, white-label
// branding only when the license allows it, and the brand the frame shows.

// brandOf returns the side menu's brand link of a page: its icon and name.
func brandOf(t *testing.T, r kerneltest.Response) string {
	t.Helper()
	body := string(r.Body)
	i := strings.Index(body, `<a class="brand"`)
	if i < 0 {
		t.Fatalf("no brand in %d %.300s", r.Status, body)
	}
	return body[i : i+strings.Index(body[i:], "</a>")]
}

func wantBrand(t *testing.T, what string, r kerneltest.Response, icon, name string) {
	t.Helper()
	brand := brandOf(t, r)
	if !strings.Contains(brand, `<span class="mdi `+icon+`" aria-hidden="true"></span>`) || !strings.Contains(brand, name) {
		t.Errorf("%s: brand %q, want the icon %s and the name %q", what, brand, icon, name)
	}
	if !strings.Contains(string(r.Body), " · "+html.EscapeString(name)+"</title>") {
		t.Errorf("%s: the title does not end in %q", what, name)
	}
}

// globalValues is the form as the page sends it under white-label.
func globalValues(extra ...string) url.Values {
	v := url.Values{
		"branding": {""}, "powered_by": {""}, "brand_icon": {"mdi-access-point-network"},
		"SMS_PROVIDER": {""}, "ELKS_USERNAME": {""}, "ELKS_PASSWORD": {""}, "ELKS_SENDER": {""},
		"TWILIO_NUMBER": {""}, "TWILIO_ACCOUNT_SID": {""}, "TWILIO_AUTH_TOKEN": {""},
	}
	for i := 0; i+1 < len(extra); i += 2 {
		v.Set(extra[i], extra[i+1])
	}
	return v
}

// storedGlobal reads a global setting as stored (secrets sealed).
func storedGlobal(t *testing.T, ta *kerneltest.Portal[*app.App], name string) string {
	t.Helper()
	var value string
	err := ta.Host().DB.NewRaw("SELECT value FROM global_settings WHERE name = ?", name).Scan(context.Background(), &value)
	if err != nil && !strings.Contains(err.Error(), "no rows") {
		t.Fatalf("read %s: %v", name, err)
	}
	return value
}

func TestGlobalSettingsPage(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		ta := kerneltest.Start(t, d, kerneltest.License(t, license.Terms{Name: "Test", WhiteLabel: true}), app.Build).NoRedirects()
		root := ta.SuperAdmin(t)
		acme := ta.Company(t, root, "Acme AB", "acme.example")
		if r := ta.Call(t, "POST", "/api/settings", acme.UserToken, map[string]any{"language": "en"}); r.Status != http.StatusOK {
			t.Fatalf("choose English: %d %s", r.Status, r.Body)
		}

		// The guard: SuperAdmin only.
		kerneltest.WantRedirect(t, "visitor", ta.Call(t, "GET", "/superadmin/settings", "", nil),
			"/login", url.Values{"next": {"/superadmin/settings"}})
		for role, token := range map[string]string{"CompanyAdmin": acme.CompanyAdminToken, "Admin": acme.AdminToken, "User": acme.UserToken} {
			kerneltest.WantRedirect(t, "GET as "+role, ta.Call(t, "GET", "/superadmin/settings", token, nil), "/", url.Values{})
			kerneltest.WantRedirect(t, "POST as "+role, ta.Post(t, "/superadmin/settings", token, globalValues("branding", "Hijacked")), "/", url.Values{})
		}
		if got := storedGlobal(t, ta, "branding"); got != "" {
			t.Fatalf("a refused role stored branding %q", got)
		}

		// Never saved: the defaults, the icon selector with the default icon.
		page := ta.Call(t, "GET", "/superadmin/settings", root, nil, "Accept-Language", "en")
		if page.Status != http.StatusOK {
			t.Fatalf("GET /superadmin/settings: %d %s", page.Status, page.Body)
		}
		props := html.EscapeString(`{"label":"Brand icon","name":"brand_icon","value":"mdi-access-point-network"}`)
		kerneltest.WantContains(t, "settings page", page, "<h1>Installation settings</h1>", `name="branding"`, `name="powered_by"`,
			`data-island="icon-selector" data-props="`+props+`"`, `src="/assets/islands-`,
			`name="SMS_PROVIDER"`, `<option value="46elks"`, `<option value="twilio"`,
			`name="ELKS_USERNAME"`, `name="ELKS_PASSWORD" type="password" value=""`, `name="ELKS_SENDER"`,
			`name="TWILIO_NUMBER"`, `name="TWILIO_ACCOUNT_SID"`, `name="TWILIO_AUTH_TOKEN" type="password" value=""`,
			"Nothing is stored.", `href="/superadmin" aria-current="page"`)
		kerneltest.WantAbsent(t, "settings page", page, "disabled aria-describedby", "The license does not allow", `name="clear_ELKS_PASSWORD"`)
		// White-label without branding: the company's name, as before.
		wantBrand(t, "before saving", ta.Call(t, "GET", "/", acme.UserToken, nil), "mdi-access-point-network", "Acme AB")

		// Save everything.
		saved := ta.Post(t, "/superadmin/settings", root, globalValues("branding", "Acme IoT", "powered_by", "Powered by Acme",
			"brand_icon", "mdi-shape-outline", "SMS_PROVIDER", "46elks", "ELKS_USERNAME", "u1", "ELKS_PASSWORD", "hunter2",
			"ELKS_SENDER", "Acme", "TWILIO_NUMBER", "+46 70-123 45 67"), "Accept-Language", "en")
		kerneltest.WantRedirect(t, "save", saved, "/superadmin/settings", url.Values{})
		if got := saved.ToastText(t); got != "Installation settings saved" {
			t.Errorf("toast after saving: %q", got)
		}
		api := ta.Call(t, "GET", "/api/settings/global", root, nil)
		for name, want := range map[string]string{"branding": "Acme IoT", "powered_by": "Powered by Acme", "brand_icon": "mdi-shape-outline",
			"SMS_PROVIDER": "46elks", "ELKS_USERNAME": "u1", "ELKS_PASSWORD": "********", "ELKS_SENDER": "Acme",
			"TWILIO_NUMBER": "46701234567", "TWILIO_AUTH_TOKEN": ""} {
			if got := api.Str(name); got != want {
				t.Errorf("after saving, %s = %q, want %q", name, got, want)
			}
		}
		sealed := storedGlobal(t, ta, "ELKS_PASSWORD")
		if sealed == "" || strings.Contains(sealed, "hunter2") {
			t.Errorf("ELKS_PASSWORD stored as %q, want it sealed", sealed)
		}

		// The brand icon and the branding are in every page's frame, a
		// visitor's too; the page shows what is stored, never the secret.
		home := ta.Call(t, "GET", "/", acme.UserToken, nil)
		wantBrand(t, "User's home", home, "mdi-shape-outline", "Acme IoT")
		kerneltest.WantContains(t, "User's home", home, "What would you like to do in Acme IoT today?")
		wantBrand(t, "visitor's login", ta.Call(t, "GET", "/login", "", nil, "Accept-Language", "en"), "mdi-shape-outline", "Acme IoT")
		page = ta.Call(t, "GET", "/superadmin/settings", root, nil, "Accept-Language", "en")
		wantBrand(t, "settings page", page, "mdi-shape-outline", "Acme IoT")
		props = html.EscapeString(`{"label":"Brand icon","name":"brand_icon","value":"mdi-shape-outline"}`)
		kerneltest.WantContains(t, "settings page after saving", page, `data-props="`+props+`"`, `value="Acme IoT"`, `value="Powered by Acme"`,
			`<option value="46elks" selected>`, `value="u1"`, `value="46701234567"`, "A value is stored.",
			`name="clear_ELKS_PASSWORD"`, "Remove the stored 46elks password")
		kerneltest.WantAbsent(t, "settings page after saving", page, "hunter2", "********", `name="clear_TWILIO_AUTH_TOKEN"`)

		// An empty password keeps the stored one.
		saved = ta.Post(t, "/superadmin/settings", root, globalValues("branding", "Acme IoT", "brand_icon", "mdi-shape-outline",
			"SMS_PROVIDER", "46elks", "ELKS_USERNAME", "u2"))
		kerneltest.WantRedirect(t, "save without a password", saved, "/superadmin/settings", url.Values{})
		if got := storedGlobal(t, ta, "ELKS_PASSWORD"); got != sealed {
			t.Errorf("an empty password changed the stored one: %q, was %q", got, sealed)
		}
		if got := storedGlobal(t, ta, "ELKS_USERNAME"); got != "u2" {
			t.Errorf("ELKS_USERNAME = %q, want u2", got)
		}

		// An invalid icon name: the form again with the message, nothing
		// stored (not the new branding either).
		bad := ta.Post(t, "/superadmin/settings", root, globalValues("branding", "Other", "brand_icon", "mdi-Bad Icon"),
			"HX-Request", "true", "Accept-Language", "en")
		if bad.Status != http.StatusOK {
			t.Fatalf("bad icon: %d %.300s", bad.Status, bad.Body)
		}
		kerneltest.WantContains(t, "bad icon", bad, `<span class="error" id="e-brand_icon" role="alert">The value of brand_icon is not valid</span>`,
			`value="Other"`, `data-island="icon-selector"`)
		kerneltest.WantAbsent(t, "bad icon (a fragment)", bad, "<html")
		// Without htmx, the whole page, with the islands script.
		bad = ta.Post(t, "/superadmin/settings", root, globalValues("brand_icon", "fa-home"), "Accept-Language", "en")
		if bad.Status != http.StatusBadRequest {
			t.Fatalf("bad icon without htmx: %d %.300s", bad.Status, bad.Body)
		}
		kerneltest.WantContains(t, "bad icon without htmx", bad, "<html", "The value of brand_icon is not valid", `src="/assets/islands-`)
		for name, want := range map[string]string{"branding": "Acme IoT", "brand_icon": "mdi-shape-outline"} {
			if got := storedGlobal(t, ta, name); got != want {
				t.Errorf("a refused form changed %s to %q", name, got)
			}
		}

		// The remove box clears a stored password; an htmx save redirects.
		saved = ta.Post(t, "/superadmin/settings", root, globalValues("brand_icon", "mdi-shape-outline", "clear_ELKS_PASSWORD", "true"),
			"HX-Request", "true")
		if saved.Status != http.StatusNoContent || saved.Header.Get("HX-Redirect") != "/superadmin/settings" {
			t.Fatalf("htmx save: %d %q %s", saved.Status, saved.Header.Get("HX-Redirect"), saved.Body)
		}
		if got := storedGlobal(t, ta, "ELKS_PASSWORD"); got != "" {
			t.Errorf("the remove box left ELKS_PASSWORD %q", got)
		}
		// Branding cleared: the company's name again, the icon stays.
		wantBrand(t, "User's home without branding", ta.Call(t, "GET", "/", acme.UserToken, nil), "mdi-shape-outline", "Acme AB")
	})
}

// TestGlobalSettingsPageWithoutWhiteLabel: the branding fields are disabled
// and say why; the SMS settings still save, and a forged branding change is
// refused by the same rule as the API.
func TestGlobalSettingsPageWithoutWhiteLabel(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build).NoRedirects()
	root := ta.SuperAdmin(t)
	acme := ta.Company(t, root, "Acme AB", "acme.example")

	page := ta.Call(t, "GET", "/superadmin/settings", root, nil, "Accept-Language", "en")
	if page.Status != http.StatusOK {
		t.Fatalf("GET /superadmin/settings: %d %s", page.Status, page.Body)
	}
	kerneltest.WantContains(t, "settings page", page, `<fieldset class="fieldset" disabled aria-describedby="branding-note">`,
		`id="branding-note"`, "The license does not allow white-label branding", `name="branding"`, `name="powered_by"`,
		`<span class="mdi mdi-access-point-network" aria-hidden="true"></span> mdi-access-point-network`, `name="SMS_PROVIDER"`)
	kerneltest.WantAbsent(t, "settings page", page, `data-island="icon-selector"`)

	// A browser does not send disabled fields.
	form := url.Values{"SMS_PROVIDER": {"twilio"}, "TWILIO_NUMBER": {"46701234567"}, "TWILIO_ACCOUNT_SID": {"AC1"}, "TWILIO_AUTH_TOKEN": {"tok"}}
	kerneltest.WantRedirect(t, "save SMS", ta.Post(t, "/superadmin/settings", root, form), "/superadmin/settings", url.Values{})
	if got := storedGlobal(t, ta, "TWILIO_ACCOUNT_SID"); got != "AC1" {
		t.Errorf("TWILIO_ACCOUNT_SID = %q, want AC1", got)
	}
	// Sending the values in use is no change.
	unchanged := globalValues("SMS_PROVIDER", "twilio", "TWILIO_ACCOUNT_SID", "AC2")
	kerneltest.WantRedirect(t, "unchanged branding", ta.Post(t, "/superadmin/settings", root, unchanged), "/superadmin/settings", url.Values{})

	// A forged change: 403 as from the API; htmx gets the form with the message as 200.
	for _, forged := range []url.Values{
		globalValues("branding", "Hijacked", "TWILIO_ACCOUNT_SID", "AC3"),
		globalValues("brand_icon", "mdi-rocket", "TWILIO_ACCOUNT_SID", "AC3"),
		globalValues("powered_by", "Someone", "TWILIO_ACCOUNT_SID", "AC3"),
	} {
		r := ta.Post(t, "/superadmin/settings", root, forged, "Accept-Language", "en")
		if r.Status != http.StatusForbidden {
			t.Fatalf("forged branding: %d %.300s", r.Status, r.Body)
		}
		kerneltest.WantContains(t, "forged branding", r, `<div class="form-error" role="alert">Branding can be changed only when the license allows white-label</div>`)
		if r := ta.Post(t, "/superadmin/settings", root, forged, "HX-Request", "true"); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "Branding can be changed only when the license allows white-label") {
			t.Errorf("forged branding through htmx: %d, want 200 with the message", r.Status)
		}
	}
	if got := storedGlobal(t, ta, "TWILIO_ACCOUNT_SID"); got != "AC2" {
		t.Errorf("a refused form stored TWILIO_ACCOUNT_SID %q", got)
	}

	// Branding stored while the license allowed it is not shown once it no
	// longer does; the brand icon always is.
	for name, value := range map[string]string{"branding": "Old Brand", "brand_icon": "mdi-rocket"} {
		if _, err := ta.Host().DB.NewRaw("INSERT INTO global_settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value", name, value).Exec(context.Background()); err != nil {
			t.Fatalf("store %s: %v", name, err)
		}
	}
	home := ta.Call(t, "GET", "/", acme.UserToken, nil)
	wantBrand(t, "home without white-label", home, "mdi-rocket", "Fieldhub")
	kerneltest.WantAbsent(t, "home without white-label", home, "Old Brand")
}
