package license_test

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	klicense "github.com/fieldhub/fieldhub/kernel/license"
)

// The license module and what the license decides: GET /api/license/terms,
// the /superadmin section, the company limit of the accounts module and
// white-label (the Contact menu entry, the branding settings).

func TestTermsAndCompanyLimit(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		terms := klicense.Terms{Email: "ops@acme.example", Name: "Acme AB", MaxCompanies: 2, DecoderIncluded: true, WhiteLabel: true}
		ta := kerneltest.Start(t, d, kerneltest.License(t, terms), app.Build)
		root := ta.SuperAdmin(t)
		acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")

		for _, token := range []string{root, acme.UserToken} {
			r := ta.Must(t, "GET", "/api/license/terms", token, nil, http.StatusOK)
			o := r.Obj()
			if o["email"] != "ops@acme.example" || o["name"] != "Acme AB" || o["maxCompanies"] != 2.0 ||
				o["decoderIncluded"] != true || o["whiteLabel"] != true || o["free"] != false {
				t.Errorf("terms: %s", r.Body)
			}
		}
		ta.Must(t, "GET", "/api/license/terms", "", nil, http.StatusUnauthorized)

		// The second company is allowed, the third is not, by any route.
		ta.Company(t, root, "Beta AB", "beta.example")
		company := map[string]any{"name": "Gamma AB", "orgNumber": "556677-8899", "invoiceAdress": "billing@gamma.example", "country": "SE"}
		refusals := []struct {
			name string
			r    kerneltest.Response
		}{
			{"POST /api/users/create/company", ta.Call(t, "POST", "/api/users/create/company", root,
				map[string]any{"company": company, "user": kerneltest.UserBody("boss@gamma.example")}, "Accept-Language", "en")},
			{"POST /api/companies", ta.Call(t, "POST", "/api/companies", root, company, "Accept-Language", "en")},
		}
		for _, tc := range refusals {
			if tc.r.Status != http.StatusForbidden || tc.r.Str("id") != "accounts.company.limit" ||
				tc.r.Str("message") != "The license allows at most 2 companies; this installation has reached that limit." {
				t.Errorf("%s at the limit: %d %s", tc.name, tc.r.Status, tc.r.Body)
			}
		}
		form := url.Values{"company.name": {"Gamma AB"}, "company.orgNumber": {"556677-8899"}, "company.invoiceAdress": {"billing@gamma.example"},
			"company.country": {"SE"}, "user.firstName": {"Ada"}, "user.lastName": {"Lovelace"}, "user.email": {"boss@gamma.example"},
			"user.phoneNumber": {"+46701234567"}, "user.password": {kerneltest.Password}, "user.confirmPassword": {kerneltest.Password}}
		page := ta.Post(t, "/register", root, form, "Accept-Language", "sv")
		kerneltest.WantContains(t, "POST /register at the limit", page, "Licensen tillåter högst 2 företag")
		if page.Status != http.StatusForbidden {
			t.Errorf("POST /register at the limit: %d", page.Status)
		}
		if r := ta.Must(t, "GET", "/api/companies/all", root, nil, http.StatusOK); len(r.List()) != 2 {
			t.Errorf("companies after the refusals: %s", r.Body)
		}

		// The /superadmin page shows the terms and the companies used.
		sa := ta.Call(t, "GET", "/superadmin", root, nil, "Accept-Language", "en")
		kerneltest.WantContains(t, "/superadmin", sa, `id="license-terms"`, "The license file is signed and verified.",
			`<dd data-term="name">Acme AB</dd>`, `<dd data-term="email">ops@acme.example</dd>`,
			`<dd data-term="maxCompanies">2</dd>`, `<dd data-term="companies">2</dd>`, `<dd data-term="whiteLabel">Yes</dd>`)
	})
}

// TestFreeLicense: without a license file the installation may have three
// companies and no white-label branding.
func TestFreeLicense(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, map[string]string{"FIELDHUB_LICENSE_FILE": ""}, app.Build)
	root := ta.SuperAdmin(t)
	r := ta.Must(t, "GET", "/api/license/terms", root, nil, http.StatusOK)
	if o := r.Obj(); o["free"] != true || o["maxCompanies"] != 3.0 || o["whiteLabel"] != false || o["decoderIncluded"] != true {
		t.Errorf("free terms: %s", r.Body)
	}
	for _, name := range []string{"one", "two", "three"} {
		ta.Company(t, root, name, name+".example")
	}
	body := map[string]any{"name": "four", "orgNumber": "556677-8899", "invoiceAdress": "billing@four.example", "country": "SE"}
	if r := ta.Call(t, "POST", "/api/companies", root, body); r.Status != http.StatusForbidden || r.Str("id") != "accounts.company.limit" {
		t.Errorf("a fourth company: %d %s", r.Status, r.Body)
	}
	sa := ta.Call(t, "GET", "/superadmin", root, nil, "Accept-Language", "en")
	kerneltest.WantContains(t, "/superadmin", sa, "the installation runs under the free license", `<dd data-term="maxCompanies">3</dd>`,
		`<dd data-term="whiteLabel">No</dd>`)
}

// TestChangedLicenseStopsStart: a license file with one changed byte, or
// one signed by another key, stops the portal before it serves.
func TestChangedLicenseStopsStart(t *testing.T) {
	env := kerneltest.License(t, klicense.Terms{Name: "Acme AB", MaxCompanies: 100, WhiteLabel: true})
	data, err := os.ReadFile(env["FIELDHUB_LICENSE_FILE"])
	if err != nil {
		t.Fatal(err)
	}
	tampered := bytes.Replace(data, []byte(`"maxCompanies":100`), []byte(`"maxCompanies":900`), 1)
	if err := os.WriteFile(env["FIELDHUB_LICENSE_FILE"], tampered, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := kerneltest.Config(t, db.SQLite, env)
	a, err := app.Build(context.Background(), cfg, kerneltest.Logger(t))
	if err == nil {
		a.Close()
		t.Fatal("a changed license file was accepted")
	}
	if !strings.Contains(err.Error(), "license file "+env["FIELDHUB_LICENSE_FILE"]+" is refused: its signature does not match its terms") {
		t.Errorf("error: %v", err)
	}

	// The good file, checked with the built-in key instead of the tests'.
	env = kerneltest.License(t, klicense.Terms{Name: "Acme AB"})
	env["FIELDHUB_LICENSE_PUBLIC_KEY"] = ""
	if a, err := app.Build(context.Background(), kerneltest.Config(t, db.SQLite, env), kerneltest.Logger(t)); err == nil {
		a.Close()
		t.Fatal("a license signed by another key was accepted")
	}
}

// TestWhiteLabel: a license with white-label hides the Contact menu entry
// and lets the SuperAdmin change the branding; one without keeps both.
func TestWhiteLabel(t *testing.T) {
	for _, wl := range []bool{false, true} {
		ta := kerneltest.Start(t, db.SQLite, kerneltest.License(t, klicense.Terms{Name: "Acme AB", WhiteLabel: wl}), app.Build)
		root := ta.SuperAdmin(t)
		acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")
		home := ta.Call(t, "GET", "/", acme.UserToken, nil)
		if got := strings.Contains(string(home.Body), `href="/contact"`); got == wl {
			t.Errorf("white-label %t: the Contact entry shown: %t", wl, got)
		}
		status := http.StatusForbidden
		if wl {
			status = http.StatusOK
		}
		ta.Must(t, "POST", "/api/settings/global", root, map[string]any{"branding": "Acme Sense", "powered_by": "Acme"}, status)
		page := ta.Call(t, "GET", "/superadmin/settings", root, nil, "Accept-Language", "en")
		if locked := strings.Contains(string(page.Body), "The license does not allow white-label branding"); locked == wl {
			t.Errorf("white-label %t: the branding fields locked: %t", wl, locked)
		}
		if wl {
			kerneltest.WantContains(t, "frame under white-label", ta.Call(t, "GET", "/", acme.UserToken, nil), "Acme Sense")
		}

		// The installation's logo: set only under white-label, then shown
		// in every page's brand, a visitor's too, instead of the icon.
		png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), make([]byte, 32)...)
		r := ta.Call(t, "POST", "/api/settings/global/logo", root, png)
		if !wl {
			if r.Status != http.StatusForbidden || r.Str("id") != "settings.whiteLabel" {
				t.Errorf("logo without white-label: %d %s", r.Status, r.Body)
			}
			kerneltest.WantAbsent(t, "frame without white-label", ta.Call(t, "GET", "/login", "", nil), "data-brand-logo")
			continue
		}
		if r.Status != http.StatusOK || !strings.HasPrefix(r.Str("url"), "/api/settings/global/logo?v=") {
			t.Fatalf("logo under white-label: %d %s", r.Status, r.Body)
		}
		img := ta.Call(t, "GET", r.Str("url"), "", nil)
		if img.Status != http.StatusOK || !bytes.Equal(img.Body, png) {
			t.Errorf("GET the logo as a visitor: %d", img.Status)
		}
		kerneltest.WantContains(t, "a visitor's frame with the logo", ta.Call(t, "GET", "/login", "", nil),
			`<img src="`+r.Str("url")+`" alt="" height="28" data-brand-logo>`)
		settings := ta.Call(t, "GET", "/superadmin/settings", root, nil, "Accept-Language", "en")
		kerneltest.WantContains(t, "settings page with a logo", settings, `id="brand-logo"`, `action="/superadmin/settings/logo"`,
			`href="/superadmin/settings/logo/delete"`)
		ta.Must(t, "DELETE", "/api/settings/global/logo", acme.AdminToken, nil, http.StatusForbidden)
		ta.Must(t, "DELETE", "/api/settings/global/logo", root, nil, http.StatusNoContent)
		ta.Must(t, "GET", r.Str("url"), "", nil, http.StatusNotFound)
		kerneltest.WantAbsent(t, "frame after the logo is removed", ta.Call(t, "GET", "/login", "", nil), "data-brand-logo")
	}
}
