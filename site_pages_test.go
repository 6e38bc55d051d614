package main

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// The server pages of the site and settings modules: the home landing, the
// contact form, the API documentation page and /settings, with the language
// and theme every page is drawn in.

// noRedirects makes the test app's client report redirects instead of
// following them, so that guards and post-redirect-get can be checked.
func (ta *testApp) noRedirects() *testApp {
	ta.HTTP = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return ta
}

// post sends a form as a browser would; headers are name, value pairs.
func (ta *testApp) post(t *testing.T, path, token string, form url.Values, headers ...string) kerneltest.Response {
	t.Helper()
	return ta.Call(t, "POST", path, token, []byte(form.Encode()),
		append([]string{"Content-Type", "application/x-www-form-urlencoded"}, headers...)...)
}

// htmlTag returns the page's <html ...> start tag.
func htmlTag(t *testing.T, r kerneltest.Response) string {
	t.Helper()
	body := string(r.Body)
	i := strings.Index(body, "<html")
	if i < 0 {
		t.Fatalf("no <html> tag in %d %.300s", r.Status, body)
	}
	return body[i : i+strings.Index(body[i:], ">")+1]
}

func wantContains(t *testing.T, what string, r kerneltest.Response, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(string(r.Body), p) {
			t.Errorf("%s: %q missing from %d %.2000s", what, p, r.Status, r.Body)
		}
	}
}

func wantAbsent(t *testing.T, what string, r kerneltest.Response, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if strings.Contains(string(r.Body), p) {
			t.Errorf("%s: %q should not be in %d %.2000s", what, p, r.Status, r.Body)
		}
	}
}

// wantRedirect checks a 303 to path with the given query values.
func wantRedirect(t *testing.T, what string, r kerneltest.Response, path string, query url.Values) {
	t.Helper()
	if r.Status != http.StatusSeeOther {
		t.Fatalf("%s: status %d, want 303: %.300s", what, r.Status, r.Body)
	}
	loc, err := url.Parse(r.Header.Get("Location"))
	if err != nil || loc.Path != path || loc.Query().Encode() != query.Encode() {
		t.Fatalf("%s: redirected to %q, want %s?%s", what, r.Header.Get("Location"), path, query.Encode())
	}
}

// cookie returns the value of a cookie the response sets, and whether it does.
func cookie(r kerneltest.Response, name string) (*http.Cookie, bool) {
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == name {
			return c, true
		}
	}
	return nil, false
}

// toastText reads the snackbar message a redirect carries in its cookie,
// decoded as the page's script decodes it (decodeURIComponent).
func toastText(t *testing.T, r kerneltest.Response) string {
	t.Helper()
	c, ok := cookie(r, "fieldhub_toast")
	if !ok {
		return ""
	}
	raw, err := url.PathUnescape(c.Value)
	if err != nil {
		t.Fatalf("toast cookie %q: %v", c.Value, err)
	}
	var toast struct{ Level, Text string }
	if err := json.Unmarshal([]byte(raw), &toast); err != nil || toast.Level != "success" {
		t.Fatalf("toast cookie %q: %v", raw, err)
	}
	return toast.Text
}

// waitMail returns the first mail whose subject contains subject.
func waitMail(t *testing.T, inbox *kerneltest.Inbox, subject string) kerneltest.Mail {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, m := range inbox.All() {
			if strings.Contains(m.Subject, subject) {
				return m
			}
		}
	}
	t.Fatalf("no mail about %q; got %+v", subject, inbox.All())
	return kerneltest.Mail{}
}

func TestHomePage(t *testing.T) {
	ta := newTestApp(t, db.SQLite, nil).noRedirects()
	root := ta.superAdmin(t)
	acme := ta.company(t, root, "Acme AB", "acme.example")

	visitor := ta.Call(t, "GET", "/", "", nil, "Accept-Language", "en")
	if visitor.Status != http.StatusOK || !strings.HasPrefix(visitor.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET / as a visitor: %d %s", visitor.Status, visitor.Header.Get("Content-Type"))
	}
	wantContains(t, "visitor's home", visitor, `class="hero"`, "Fieldhub collects the data", `href="/login"`, "Log in",
		`data-menu-toggle`, `aria-controls="side-menu"`, `href="/"`)
	// SPEC.md section 2: the home route hides the top bar; the hero's own
	// toggle keeps the side menu reachable.
	wantAbsent(t, "visitor's home", visitor, `class="topbar`, "Shortcuts", `href="/contact"`, `href="/settings"`)

	// A page takes the API's bearer token as well as the session cookie.
	// Acme is in Sweden, so its users' pages are Swedish until they choose.
	user := ta.Call(t, "GET", "/", acme.userToken, nil, "Accept-Language", "en")
	if user.Status != http.StatusOK {
		t.Fatalf("GET / as a User: %d %s", user.Status, user.Body)
	}
	wantContains(t, "User's home", user, "Välkommen, Ada Lovelace", "Genvägar", `href="/settings"`, `href="/contact"`, `data-menu-toggle`)
	wantAbsent(t, "User's home", user, `href="/login"`, `href="/superadmin"`, `class="topbar`)

	super := ta.Call(t, "GET", "/", root, nil, "Accept-Language", "en")
	wantContains(t, "SuperAdmin's home", super, "Welcome", `href="/settings"`)
	for _, rt := range ta.kernel.Host().Router.Routes() {
		if rt.Page && rt.Method == "GET" && rt.Path == "/superadmin" {
			wantContains(t, "SuperAdmin's home", super, `href="/superadmin"`)
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
		ta := newTestApp(t, d, map[string]string{"SMTP_URL": smtpURL, "FIELDHUB_CONTACT_EMAIL": "Operations <ops@fieldhub.example>"}).noRedirects()
		root := ta.superAdmin(t)
		acme := ta.company(t, root, "Acme AB", "acme.example")
		if r := ta.Call(t, "POST", "/api/settings", acme.userToken, map[string]any{"language": "en"}); r.Status != http.StatusOK {
			t.Fatalf("choose English: %d %s", r.Status, r.Body)
		}

		// The route is open (SPEC.md section 2): a visitor gives a name and an address.
		visitorPage := ta.Call(t, "GET", "/contact", "", nil)
		wantContains(t, "visitor's contact page", visitorPage, `name="name"`, `name="email"`, `name="subject"`)
		refused := ta.post(t, "/contact", "", url.Values{"name": {""}, "email": {"not-an-address"}, "subject": {"Hi"}, "message": {"Hello"}}, "HX-Request", "true")
		wantContains(t, "visitor without name and address", refused, "This field must be filled in", "Add valid email adress")
		if r := ta.post(t, "/contact", "", url.Values{"name": {"Vera Visitor"}, "email": {"vera@example.com"}, "subject": {"Pricing"}, "message": {"What does it cost?"}}, "HX-Request", "true"); r.Status != http.StatusOK {
			t.Fatalf("visitor's message: %d %s", r.Status, r.Body)
		}
		if m := waitMail(t, inbox, "Pricing"); !strings.Contains(m.Body, "vera@example.com") || !strings.Contains(m.Body, "Vera Visitor") {
			t.Errorf("visitor's mail lacks the sender:\n%s", m.Body)
		}

		page := ta.Call(t, "GET", "/contact", acme.userToken, nil)
		if page.Status != http.StatusOK {
			t.Fatalf("GET /contact: %d %s", page.Status, page.Body)
		}
		wantContains(t, "contact page", page, `name="subject"`, `name="message"`, "worker@acme.example", "Ada Lovelace", `hx-post="/contact"`)

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
			r := ta.post(t, "/contact", acme.userToken, url.Values{"subject": {c.subject}, "message": {c.message}}, "HX-Request", "true")
			if r.Status != http.StatusBadRequest {
				t.Errorf("%s: status %d, want 400: %.500s", c.name, r.Status, r.Body)
				continue
			}
			wantContains(t, c.name, r, `id="e-`+c.field+`">`+c.want+`</span>`)
			if strings.Contains(string(r.Body), "<html") {
				t.Errorf("%s: an htmx answer should be the form alone", c.name)
			}
		}
		// At the limits the message goes.
		if r := ta.post(t, "/contact", acme.userToken, url.Values{"subject": {strings.Repeat("ä", 255)}, "message": {strings.Repeat("ö", 5000)}}, "HX-Request", "true"); r.Status != http.StatusOK {
			t.Errorf("subject of 255 and message of 5000 characters: %d %.300s", r.Status, r.Body)
		}

		sent := ta.post(t, "/contact", acme.userToken, url.Values{"subject": {"Gateway offline"}, "message": {"Our gateway {name} has been offline since noon.\nCan you help?"}}, "HX-Request", "true")
		if sent.Status != http.StatusOK || !strings.Contains(sent.Header.Get("HX-Trigger"), "Message sent") {
			t.Fatalf("send: %d HX-Trigger %q %.500s", sent.Status, sent.Header.Get("HX-Trigger"), sent.Body)
		}
		// The form comes back cleared.
		wantContains(t, "form after sending", sent, `name="subject" type="text" value=""`, `></textarea>`)
		wantAbsent(t, "form after sending", sent, "Gateway offline", "offline since noon")

		mail := waitMail(t, inbox, "Gateway offline")
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
		plain := ta.post(t, "/contact", acme.userToken, url.Values{"subject": {"Plain form"}, "message": {"Sent without htmx"}})
		wantRedirect(t, "plain POST /contact", plain, "/contact", url.Values{})
		if got := toastText(t, plain); got != "Message sent" {
			t.Errorf("plain POST /contact: toast %q", got)
		}
	})
}

// TestContactGoesToSuperAdmins: without FIELDHUB_CONTACT_EMAIL the contact
// form writes to the installation's SuperAdmins.
func TestContactGoesToSuperAdmins(t *testing.T) {
	smtpURL, inbox := kerneltest.StartSMTP(t)
	ta := newTestApp(t, db.SQLite, map[string]string{"SMTP_URL": smtpURL}).noRedirects()
	root := ta.superAdmin(t)
	acme := ta.company(t, root, "Acme AB", "acme.example")
	r := ta.post(t, "/contact", acme.companyAdminToken, url.Values{"subject": {"Invoice"}, "message": {"Where is our invoice?"}}, "HX-Request", "true")
	if r.Status != http.StatusOK {
		t.Fatalf("send: %d %.500s", r.Status, r.Body)
	}
	m := inbox.Wait(t, "root@example.com", 15*time.Second)
	if !strings.Contains(m.Subject, "Invoice") || !strings.Contains(m.Body, "Where is our invoice?") || !strings.Contains(m.Body, "boss@acme.example") {
		t.Errorf("mail to the SuperAdmin: %+v", m)
	}
}

func TestAPIDocumentationPage(t *testing.T) {
	ta := newTestApp(t, db.SQLite, nil)
	r := ta.Call(t, "GET", "/api", "", nil, "Accept-Language", "en")
	if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /api: %d %s %.300s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
	wantContains(t, "API page", r, "API documentation", "Authorization: Bearer &lt;token&gt;", "POST /api/users/authenticate",
		"POST /api/users/refresh", html.EscapeString(`{"status", "id", "message", "errors"}`),
		`<h2 id="api-accounts">accounts</h2>`, `<h2 id="api-settings">settings</h2>`)
	n := 0
	for _, rt := range ta.kernel.Host().Router.Routes() {
		if rt.Page || !strings.HasPrefix(rt.Path, "/api/") {
			continue
		}
		n++
		wantContains(t, "API page", r, "<code>"+rt.Path+"</code>")
	}
	if n < 20 {
		t.Errorf("only %d API routes registered", n)
	}
	// Each endpoint with its method and roles, or "open".
	body := string(r.Body)
	for _, row := range []struct{ method, path, access string }{
		{"POST", "/api/users/authenticate", "open"},
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

func TestSettingsPage(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		ta := newTestApp(t, d, nil).noRedirects()
		root := ta.superAdmin(t)
		acme := ta.company(t, root, "Acme AB", "acme.example")
		token := acme.userToken

		wantRedirect(t, "GET /settings as a visitor", ta.Call(t, "GET", "/settings", "", nil), "/login", url.Values{"next": {"/settings"}})

		// Never chosen: the language of the company's country (Sweden),
		// over the browser's English.
		page := ta.Call(t, "GET", "/settings", token, nil, "Accept-Language", "en")
		if page.Status != http.StatusOK {
			t.Fatalf("GET /settings: %d %s", page.Status, page.Body)
		}
		if tag := htmlTag(t, page); !strings.Contains(tag, `lang="sv"`) || !strings.Contains(tag, `data-theme="light"`) {
			t.Errorf("before saving: %s", tag)
		}
		wantContains(t, "settings page", page, "Inställningar", `name="theme"`, `value="Scientific"`, `name="darkMode"`,
			`name="toolbarTransparent"`, `name="stickySideMenu"`, `name="language"`, ">English<", ">Svenska<",
			`data-island="date-range-picker"`, `data-props="`+html.EscapeString(`{"preset":"24h","saveTo":"/api/settings"}`)+`"`,
			`href="/settings" aria-current="page"`)

		// English and Scientific, light.
		saved := ta.post(t, "/settings", token, url.Values{"theme": {"Scientific"}, "language": {"en"}, "stickySideMenu": {"true"}})
		wantRedirect(t, "save English", saved, "/settings", url.Values{})
		for name, want := range map[string]string{"lang": "en", "theme": "light"} {
			c, ok := cookie(saved, name)
			if !ok || c.Value != want || c.Path != "/" || c.MaxAge != 365*24*3600 || c.SameSite != http.SameSiteLaxMode {
				t.Errorf("cookie %s after saving: %+v, want %s for a year on / with SameSite=Lax", name, c, want)
			}
		}
		if got := toastText(t, saved); got != "Settings saved" {
			t.Errorf("toast after saving: %q", got)
		}
		home := ta.Call(t, "GET", "/", token, nil, "Accept-Language", "sv")
		if tag := htmlTag(t, home); !strings.Contains(tag, `lang="en"`) || !strings.Contains(tag, `data-theme="light"`) || !strings.Contains(tag, `data-scheme="Scientific"`) {
			t.Errorf("after choosing English: %s", tag)
		}
		wantContains(t, "home after choosing English", home, "Welcome, Ada Lovelace", `class="shell menu-open"`)

		// Swedish and dark: the next page is drawn so.
		saved = ta.post(t, "/settings", token, url.Values{"theme": {"Colors"}, "language": {"sv"}, "darkMode": {"true"}, "toolbarTransparent": {"true"}})
		wantRedirect(t, "save Swedish", saved, "/settings", url.Values{})
		for name, want := range map[string]string{"lang": "sv", "theme": "dark"} {
			if c, ok := cookie(saved, name); !ok || c.Value != want {
				t.Errorf("cookie %s after saving: %+v, want %s", name, c, want)
			}
		}
		next := ta.Call(t, "GET", "/settings", token, nil, "Accept-Language", "en")
		if tag := htmlTag(t, next); !strings.Contains(tag, `<html lang="sv" data-theme="dark"`) {
			t.Errorf("after choosing Swedish and dark: %s", tag)
		}
		wantContains(t, "settings after saving", next, `name="darkMode" value="true" checked`, `name="toolbarTransparent" value="true" checked`)
		wantAbsent(t, "settings after saving", next, `name="stickySideMenu" value="true" checked`)
		// The form stored through the same logic as the API.
		api := ta.Call(t, "GET", "/api/settings", token, nil)
		for name, want := range map[string]any{"theme": "Colors", "language": "sv", "darkMode": true, "toolbarTransparent": true, "stickySideMenu": false, "defaultRange": "24h"} {
			if got := api.Obj()[name]; got != want {
				t.Errorf("GET /api/settings %s = %v, want %v: %s", name, got, want, api.Body)
			}
		}
		// Another user's pages are not affected.
		if tag := htmlTag(t, ta.Call(t, "GET", "/", acme.companyAdminToken, nil)); !strings.Contains(tag, `data-theme="light"`) {
			t.Errorf("another user's page: %s", tag)
		}

		// A bad value is refused with its message, and nothing is stored.
		bad := ta.post(t, "/settings", token, url.Values{"theme": {"Neon"}, "language": {"en"}})
		if bad.Status != http.StatusBadRequest {
			t.Fatalf("bad theme: %d %.300s", bad.Status, bad.Body)
		}
		wantContains(t, "bad theme", bad, "Värdet för theme är inte giltigt")
		if _, ok := cookie(bad, "lang"); ok {
			t.Errorf("a refused form set the lang cookie")
		}
		if api := ta.Call(t, "GET", "/api/settings", token, nil); api.Str("language") != "sv" || api.Str("theme") != "Colors" {
			t.Errorf("a refused form changed settings: %s", api.Body)
		}
	})
}

// TestVisitorLanguage: a visitor's pages follow the lang cookie, else the
// browser's languages; the theme cookie gives the dark theme.
func TestVisitorLanguage(t *testing.T) {
	ta := newTestApp(t, db.SQLite, nil)
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
		if tag := htmlTag(t, r); !strings.HasPrefix(tag, c.wantTag) {
			t.Errorf("%s: %s, want %s", c.name, tag, c.wantTag)
		}
		wantContains(t, c.name, r, c.wantText)
	}
}
