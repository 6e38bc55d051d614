package site_test

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// The server pages of the site module: the home landing, the contact form
// and the API documentation page, with the language every page is drawn in.

func TestHomePage(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build).NoRedirects()
	root := ta.SuperAdmin(t)
	acme := ta.Company(t, root, "Acme AB", "acme.example")

	visitor := ta.Call(t, "GET", "/", "", nil, "Accept-Language", "en")
	if visitor.Status != http.StatusOK || !strings.HasPrefix(visitor.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET / as a visitor: %d %s", visitor.Status, visitor.Header.Get("Content-Type"))
	}
	kerneltest.WantContains(t, "visitor's home", visitor, `class="hero"`, "Fieldhub collects the data", `href="/login"`, "Log in",
		`data-menu-toggle`, `aria-controls="side-menu"`, `href="/"`)
	// The home route hides the top bar; the hero's own
	// toggle keeps the side menu reachable.
	kerneltest.WantAbsent(t, "visitor's home", visitor, `class="topbar`, "Shortcuts", `href="/contact"`, `href="/settings"`)

	// A page takes the API's bearer token as well as the session cookie.
	// Acme is in Sweden, so its users' pages are Swedish until they choose.
	user := ta.Call(t, "GET", "/", acme.UserToken, nil, "Accept-Language", "en")
	if user.Status != http.StatusOK {
		t.Fatalf("GET / as a User: %d %s", user.Status, user.Body)
	}
	kerneltest.WantContains(t, "User's home", user, "Välkommen, Ada Lovelace", "Genvägar", `href="/settings"`, `href="/contact"`, `data-menu-toggle`)
	kerneltest.WantAbsent(t, "User's home", user, `href="/login"`, `href="/superadmin"`, `class="topbar`)

	super := ta.Call(t, "GET", "/", root, nil, "Accept-Language", "en")
	kerneltest.WantContains(t, "SuperAdmin's home", super, "Welcome", `href="/settings"`)
	for _, rt := range ta.Host().Router.Routes() {
		if rt.Page && rt.Method == "GET" && rt.Path == "/superadmin" {
			kerneltest.WantContains(t, "SuperAdmin's home", super, `href="/superadmin"`)
		}
	}

	// The landing is the root alone, not a catch-all.
	if r := ta.Call(t, "GET", "/no-such-page", "", nil); r.Status != http.StatusNotFound || !strings.Contains(string(r.Body), "This page does not exist") {
		t.Errorf("GET /no-such-page: %d, want the 404 page: %.200s", r.Status, r.Body)
	}
}

func TestContactPage(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		smtpURL, inbox := kerneltest.StartSMTP(t)
		ta := kerneltest.Start(t, d, map[string]string{"SMTP_URL": smtpURL, "FIELDHUB_CONTACT_EMAIL": "Operations <ops@fieldhub.example>"}, app.Build).NoRedirects()
		root := ta.SuperAdmin(t)
		acme := ta.Company(t, root, "Acme AB", "acme.example")
		if r := ta.Call(t, "POST", "/api/settings", acme.UserToken, map[string]any{"language": "en"}); r.Status != http.StatusOK {
			t.Fatalf("choose English: %d %s", r.Status, r.Body)
		}

		// The route is open: a visitor gives a name and an address.
		visitorPage := ta.Call(t, "GET", "/contact", "", nil)
		kerneltest.WantContains(t, "visitor's contact page", visitorPage, `name="name"`, `name="email"`, `name="subject"`)
		refused := ta.Post(t, "/contact", "", url.Values{"name": {""}, "email": {"not-an-address"}, "subject": {"Hi"}, "message": {"Hello"}}, "HX-Request", "true")
		kerneltest.WantContains(t, "visitor without name and address", refused, "This field must be filled in", "Add valid email adress")
		if r := ta.Post(t, "/contact", "", url.Values{"name": {"Vera Visitor"}, "email": {"vera@example.com"}, "subject": {"Pricing"}, "message": {"What does it cost?"}}, "HX-Request", "true"); r.Status != http.StatusOK {
			t.Fatalf("visitor's message: %d %s", r.Status, r.Body)
		}
		if m := inbox.WaitSubject(t, "Pricing"); !strings.Contains(m.Body, "vera@example.com") || !strings.Contains(m.Body, "Vera Visitor") {
			t.Errorf("visitor's mail lacks the sender:\n%s", m.Body)
		}

		page := ta.Call(t, "GET", "/contact", acme.UserToken, nil)
		if page.Status != http.StatusOK {
			t.Fatalf("GET /contact: %d %s", page.Status, page.Body)
		}
		kerneltest.WantContains(t, "contact page", page, `name="subject"`, `name="message"`, "worker@acme.example", "Ada Lovelace", `hx-post="/contact"`)

		cases := []struct {
			name             string
			subject, message string
			field, want      string
		}{
			{"subject required", "  ", "Hello", "subject", "This field must be filled in"},
			{"message required", "Hello", "\n ", "message", "This field must be filled in"},
			{"subject too long", strings.Repeat("ä", 256), "Hello", "subject", "Max characters is 255"},
			{"message too long", "Hello", strings.Repeat("ä", 5001), "message", "This field contains too many characters"},
		}
		for _, c := range cases {
			r := ta.Post(t, "/contact", acme.UserToken, url.Values{"subject": {c.subject}, "message": {c.message}}, "HX-Request", "true")
			if r.Status != http.StatusOK {
				t.Errorf("%s: status %d, want 200 (the form with its messages, to htmx): %.500s", c.name, r.Status, r.Body)
				continue
			}
			kerneltest.WantContains(t, c.name, r, `id="e-`+c.field+`">`+c.want+`</span>`)
			if strings.Contains(string(r.Body), "<html") {
				t.Errorf("%s: an htmx answer should be the form alone", c.name)
			}
		}
		// At the limits the message goes.
		if r := ta.Post(t, "/contact", acme.UserToken, url.Values{"subject": {strings.Repeat("ä", 255)}, "message": {strings.Repeat("ö", 5000)}}, "HX-Request", "true"); r.Status != http.StatusOK {
			t.Errorf("subject of 255 and message of 5000 characters: %d %.300s", r.Status, r.Body)
		}

		sent := ta.Post(t, "/contact", acme.UserToken, url.Values{"subject": {"Gateway offline"}, "message": {"Our gateway {name} has been offline since noon.\nCan you help?"}}, "HX-Request", "true")
		if sent.Status != http.StatusOK || !strings.Contains(sent.Header.Get("HX-Trigger"), "Message sent") {
			t.Fatalf("send: %d HX-Trigger %q %.500s", sent.Status, sent.Header.Get("HX-Trigger"), sent.Body)
		}
		// The form comes back cleared.
		kerneltest.WantContains(t, "form after sending", sent, `name="subject" type="text" value=""`, `></textarea>`)
		kerneltest.WantAbsent(t, "form after sending", sent, "Gateway offline", "offline since noon")

		mail := inbox.WaitSubject(t, "Gateway offline")
		if len(mail.To) != 1 || mail.To[0] != "ops@fieldhub.example" {
			t.Errorf("contact mail went to %v, want FIELDHUB_CONTACT_EMAIL's address", mail.To)
		}
		for _, want := range []string{"Ada Lovelace <worker@acme.example>", "Reply to: worker@acme.example", "Acme AB",
			"Our gateway {name} has been offline since noon.\nCan you help?"} {
			if !strings.Contains(mail.Body, want) {
				t.Errorf("contact mail lacks %q:\n%s", want, mail.Body)
			}
		}

		// Without htmx the browser is sent back to a fresh form, with the
		// toast in a cookie.
		plain := ta.Post(t, "/contact", acme.UserToken, url.Values{"subject": {"Plain form"}, "message": {"Sent without htmx"}})
		kerneltest.WantRedirect(t, "plain POST /contact", plain, "/contact", url.Values{})
		if got := plain.ToastText(t); got != "Message sent" {
			t.Errorf("plain POST /contact: toast %q", got)
		}
	})
}

// TestContactGoesToSuperAdmins: without FIELDHUB_CONTACT_EMAIL the contact
// form writes to the installation's SuperAdmins.
func TestContactGoesToSuperAdmins(t *testing.T) {
	smtpURL, inbox := kerneltest.StartSMTP(t)
	ta := kerneltest.Start(t, db.SQLite, map[string]string{"SMTP_URL": smtpURL}, app.Build).NoRedirects()
	root := ta.SuperAdmin(t)
	acme := ta.Company(t, root, "Acme AB", "acme.example")
	r := ta.Post(t, "/contact", acme.CompanyAdminToken, url.Values{"subject": {"Invoice"}, "message": {"Where is our invoice?"}}, "HX-Request", "true")
	if r.Status != http.StatusOK {
		t.Fatalf("send: %d %.500s", r.Status, r.Body)
	}
	m := inbox.Wait(t, "root@example.com", 15*time.Second)
	if !strings.Contains(m.Subject, "Invoice") || !strings.Contains(m.Body, "Where is our invoice?") || !strings.Contains(m.Body, "boss@acme.example") {
		t.Errorf("mail to the SuperAdmin: %+v", m)
	}
}

func TestAPIDocumentationPage(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	r := ta.Call(t, "GET", "/api", "", nil, "Accept-Language", "en")
	if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /api: %d %s %.300s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
	kerneltest.WantContains(t, "API page", r, "API documentation", "Authorization: Bearer &lt;token&gt;", "POST /api/users/authenticate",
		"POST /api/users/refresh", html.EscapeString(`{"status", "id", "message", "errors"}`),
		`<h2 id="api-accounts">accounts</h2>`, `<h2 id="api-settings">settings</h2>`,
		// Rendered from the OpenAPI document: its address, each route's
		// summary, and the shared schemas.
		`href="/api/openapi.json"`, "Sign in with email and password", `id="schema-web.Problem"`)
	sv := ta.Call(t, "GET", "/api", "", nil, "Accept-Language", "sv")
	kerneltest.WantContains(t, "API page in Swedish", sv, "API-dokumentation", "Anropens beskrivningar är på engelska.")
	n := 0
	for _, rt := range ta.Host().Router.Routes() {
		if rt.Page || !strings.HasPrefix(rt.Path, "/api/") {
			continue
		}
		n++
		kerneltest.WantContains(t, "API page", r, "<code>"+rt.Path+"</code>")
	}
	if n < 20 {
		t.Errorf("only %d API routes registered", n)
	}
	// Each endpoint with its method and roles, or "open", or what it
	// authenticates its caller by itself.
	body := string(r.Body)
	for _, row := range []struct{ method, path, access string }{
		{"POST", "/api/users/authenticate", "open"},
		{"POST", "/api/ingest/chirpstack", "integration token"},
		{"POST", "/api/ingest/tts", "integration token"},
		{"POST", "/api/ingest/generic", "integration token"},
		{"GET", "/api/dashboards/public/{token}", "open"},
		{"GET", "/api/companies/all", "SuperAdmin"},
		{"POST", "/api/settings/global", "SuperAdmin"},
		{"GET", "/api/settings", "User, CompanyAdmin, Admin, SuperAdmin"},
	} {
		want := `<td><span class="pill">` + row.method + `</span></td><td><code>` + row.path + `</code></td><td>` + row.access + `</td>`
		if !strings.Contains(body, want) {
			t.Errorf("API page lacks the row %s", want)
		}
	}
	// The page lives beside the API, not over it.
	if r := ta.Call(t, "GET", "/api/no-such-call", "", nil); r.Status != http.StatusNotFound || r.Str("id") != "error.notFound" {
		t.Errorf("GET /api/no-such-call: %d %s", r.Status, r.Body)
	}
	if r := ta.Call(t, "POST", "/api/users/authenticate", "", map[string]string{"email": "nobody@example.com", "password": "wrong password"}); r.Status != http.StatusUnauthorized && r.Status != http.StatusBadRequest {
		t.Errorf("POST /api/users/authenticate beside the page: %d %s", r.Status, r.Body)
	}
}

// TestVisitorLanguage: a visitor's pages follow the lang cookie, else the
// browser's languages; the theme cookie gives the dark theme.
func TestVisitorLanguage(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	cases := []struct {
		name     string
		headers  []string
		wantTag  string
		wantText string
	}{
		{"no preference", nil, `<html lang="en" data-theme="light"`, "Log in"},
		{"Accept-Language sv", []string{"Accept-Language", "sv-SE,sv;q=0.9,en;q=0.5"}, `<html lang="sv" data-theme="light"`, "Logga in"},
		{"Accept-Language en", []string{"Accept-Language", "en-GB,en;q=0.9"}, `<html lang="en"`, "Log in"},
		{"cookie lang=sv over the browser's English", []string{"Cookie", "lang=sv", "Accept-Language", "en"}, `<html lang="sv"`, "Logga in"},
		{"unknown cookie language", []string{"Cookie", "lang=xx", "Accept-Language", "sv"}, `<html lang="sv"`, "Logga in"},
		{"cookie theme=dark", []string{"Cookie", "theme=dark"}, `<html lang="en" data-theme="dark"`, "Log in"},
	}
	for _, c := range cases {
		r := ta.Call(t, "GET", "/", "", nil, c.headers...)
		if tag := kerneltest.HTMLTag(t, r); !strings.HasPrefix(tag, c.wantTag) {
			t.Errorf("%s: %s, want %s", c.name, tag, c.wantTag)
		}
		kerneltest.WantContains(t, c.name, r, c.wantText)
	}
}
