package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// TestCrossSiteRequests covers the forgery defence: a state change
// authenticated by the session cookie must name the portal's own origin
// (scheme and host) and, when it sends JSON, say so; logout is a POST.
func TestCrossSiteRequests(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		p := kerneltest.Start(t, d, map[string]string{"FIELDHUB_PUBLIC_URL": "https://portal.example"}, app.Build)
		root := p.SuperAdmin(t)
		acme := p.Company(t, root, "Acme AB", "acme.example")
		cookie := sessionCookies(t, p.Client, "worker@acme.example")
		self := p.URL
		path := fmt.Sprintf("/api/users/%d", acme.UserID)
		name := func() string { return p.Must(t, "GET", path, acme.UserToken, nil, http.StatusOK).Str("firstName") }
		json := []string{"Content-Type", "application/json"}
		for _, c := range []struct {
			name    string
			headers []string
			status  int
			id      string
		}{
			{"another site", []string{"Origin", "https://evil.example"}, http.StatusForbidden, web.IDCrossSite},
			{"neither Origin nor Referer", nil, http.StatusForbidden, web.IDCrossSite},
			{"the portal's host with another scheme", []string{"Origin", strings.Replace(self, "http://", "https://", 1)}, http.StatusForbidden, web.IDCrossSite},
			{"the public host with another scheme", []string{"Origin", "http://portal.example:443"}, http.StatusForbidden, web.IDCrossSite},
			{"a foreign Referer", []string{"Referer", "https://evil.example/?" + self}, http.StatusForbidden, web.IDCrossSite},
			{"Origin null", []string{"Origin", "null"}, http.StatusForbidden, web.IDCrossSite},
			{"JSON sent as text/plain", []string{"Origin", self, "Content-Type", "text/plain"}, http.StatusUnsupportedMediaType, web.IDJSONContentType},
			{"JSON sent as a form", []string{"Origin", self, "Content-Type", "application/x-www-form-urlencoded"}, http.StatusUnsupportedMediaType, web.IDJSONContentType},
			{"JSON without a type", []string{"Origin", self, "Content-Type", ""}, http.StatusUnsupportedMediaType, web.IDJSONContentType},
		} {
			t.Run(c.name, func(t *testing.T) {
				before := name()
				headers := append([]string{"Cookie", cookie}, json...)
				r := p.Call(t, "PUT", path, "", map[string]any{"firstName": "Forged"}, append(headers, c.headers...)...)
				if r.Status != c.status || r.Str("id") != c.id {
					t.Errorf("%d %s, want %d %s", r.Status, r.Body, c.status, c.id)
				}
				if after := name(); after != before {
					t.Errorf("the name changed: %q", after)
				}
			})
		}
		for _, c := range []struct {
			name    string
			headers []string
		}{
			{"the portal's own origin", []string{"Origin", self}},
			{"the public origin", []string{"Origin", "https://portal.example"}},
			{"the portal's own Referer", []string{"Referer", self + "/company/user/1"}},
			{"a browser that sends neither but says same-origin", []string{"Sec-Fetch-Site", "same-origin"}},
			{"JSON with its charset", []string{"Origin", self, "Content-Type", "application/json; charset=utf-8"}},
		} {
			t.Run(c.name, func(t *testing.T) {
				headers := append([]string{"Cookie", cookie}, json...)
				want := "Name " + c.name[:6]
				r := p.Call(t, "PUT", path, "", map[string]any{"firstName": want}, append(headers, c.headers...)...)
				if r.Status != http.StatusOK || name() != want {
					t.Errorf("%d %s", r.Status, r.Body)
				}
			})
		}
		// A token in the header needs no origin, and may leave the type out.
		if r := p.Call(t, "PUT", path, acme.UserToken, []byte(`{"firstName":"Script"}`)); r.Status != http.StatusOK || name() != "Script" {
			t.Errorf("a script's PUT: %d %s", r.Status, r.Body)
		}
		// Login from another site's form is refused too, though it carries no cookie.
		form := url.Values{"email": {"worker@acme.example"}, "password": {kerneltest.Password}}
		if pg := p.Page(t, "POST", "/login", "", form, "Origin", "https://evil.example"); pg.Status != http.StatusForbidden {
			t.Errorf("a login posted by another site: %d", pg.Status)
		}

		// Logout: GET does nothing (405, as a page for a browser); another
		// origin's POST is refused and the session stays; the portal's own
		// ends it.
		get := p.Page(t, "GET", "/logout", "", nil, "Cookie", cookie)
		if get.Status != http.StatusMethodNotAllowed || !get.FullPage() || len(get.Header.Values("Set-Cookie")) != 0 {
			t.Errorf("GET /logout: %d %v", get.Status, get.Header)
		}
		if pg := p.Page(t, "POST", "/logout", "", url.Values{}, "Cookie", cookie, "Origin", strings.Replace(self, "127.0.0.1", "localhost", 1)); pg.Status != http.StatusForbidden {
			t.Errorf("POST /logout from another origin: %d", pg.Status)
		}
		if pg := p.Page(t, "POST", "/logout", "", url.Values{}, "Cookie", cookie); pg.Status != http.StatusForbidden {
			t.Errorf("POST /logout without an origin: %d", pg.Status)
		}
		refresh := strings.SplitN(cookie, "; ", 2)[1]
		if r := p.Call(t, "POST", "/api/users/refresh", "", nil, "Cookie", refresh, "Origin", "https://evil.example"); r.Status != http.StatusForbidden {
			t.Errorf("a refresh another site asks for: %d %s", r.Status, r.Body)
		}
		if r := p.Call(t, "GET", "/api/users", "", nil, "Cookie", cookie); r.Status != http.StatusOK {
			t.Fatalf("the session ended: %d", r.Status)
		}
		if pg := p.Page(t, "POST", "/logout", "", url.Values{}, "Cookie", cookie, "Origin", self); pg.Status != http.StatusSeeOther || pg.Redirect() != "/login" {
			t.Errorf("POST /logout: %d %s", pg.Status, pg.Redirect())
		}
		if r := p.Call(t, "POST", "/api/users/refresh", "", nil, "Cookie", refresh, "Origin", self); r.Status != http.StatusUnauthorized {
			t.Errorf("the session outlived its logout: %d %s", r.Status, r.Body)
		}
	})
}
