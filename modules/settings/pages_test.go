package settings_test

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestSettingsPage: /settings stores a user's language, theme and menu
// choices through the API's rules, and every page is drawn in them.
func TestSettingsPage(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		ta := kerneltest.Start(t, d, nil, app.Build).NoRedirects()
		root := ta.SuperAdmin(t)
		acme := ta.Company(t, root, "Acme AB", "acme.example")
		token := acme.UserToken

		kerneltest.WantRedirect(t, "GET /settings as a visitor", ta.Call(t, "GET", "/settings", "", nil), "/login", url.Values{"next": {"/settings"}})

		// Never chosen: the language of the company's country (Sweden),
		// over the browser's English.
		page := ta.Call(t, "GET", "/settings", token, nil, "Accept-Language", "en")
		if page.Status != http.StatusOK {
			t.Fatalf("GET /settings: %d %s", page.Status, page.Body)
		}
		if tag := kerneltest.HTMLTag(t, page); !strings.Contains(tag, `lang="sv"`) || !strings.Contains(tag, `data-theme="light"`) {
			t.Errorf("before saving: %s", tag)
		}
		kerneltest.WantContains(t, "settings page", page, "Inställningar", `name="theme"`, `value="Scientific"`, `name="darkMode"`,
			`name="toolbarTransparent"`, `name="stickySideMenu"`, `name="language"`, ">English<", ">Svenska<",
			`data-island="date-range-picker"`, `data-props="`+html.EscapeString(`{"preset":"24h","saveTo":"/api/settings"}`)+`"`,
			`href="/settings" aria-current="page"`)

		// English and Scientific, light.
		saved := ta.Post(t, "/settings", token, url.Values{"theme": {"Scientific"}, "language": {"en"}, "stickySideMenu": {"true"}})
		kerneltest.WantRedirect(t, "save English", saved, "/settings", url.Values{})
		for name, want := range map[string]string{"lang": "en", "theme": "light"} {
			c, ok := saved.Cookie(name)
			if !ok || c.Value != want || c.Path != "/" || c.MaxAge != 365*24*3600 || c.SameSite != http.SameSiteLaxMode {
				t.Errorf("cookie %s after saving: %+v, want %s for a year on / with SameSite=Lax", name, c, want)
			}
		}
		if got := saved.ToastText(t); got != "Settings saved" {
			t.Errorf("toast after saving: %q", got)
		}
		home := ta.Call(t, "GET", "/", token, nil, "Accept-Language", "sv")
		if tag := kerneltest.HTMLTag(t, home); !strings.Contains(tag, `lang="en"`) || !strings.Contains(tag, `data-theme="light"`) || !strings.Contains(tag, `data-scheme="Scientific"`) {
			t.Errorf("after choosing English: %s", tag)
		}
		kerneltest.WantContains(t, "home after choosing English", home, "Welcome, Ada Lovelace", `class="shell menu-open"`)

		// Swedish and dark: the next page is drawn so.
		saved = ta.Post(t, "/settings", token, url.Values{"theme": {"Colors"}, "language": {"sv"}, "darkMode": {"true"}, "toolbarTransparent": {"true"}})
		kerneltest.WantRedirect(t, "save Swedish", saved, "/settings", url.Values{})
		for name, want := range map[string]string{"lang": "sv", "theme": "dark"} {
			if c, ok := saved.Cookie(name); !ok || c.Value != want {
				t.Errorf("cookie %s after saving: %+v, want %s", name, c, want)
			}
		}
		next := ta.Call(t, "GET", "/settings", token, nil, "Accept-Language", "en")
		if tag := kerneltest.HTMLTag(t, next); !strings.Contains(tag, `<html lang="sv" data-theme="dark"`) {
			t.Errorf("after choosing Swedish and dark: %s", tag)
		}
		kerneltest.WantContains(t, "settings after saving", next, `name="darkMode" value="true" checked`, `name="toolbarTransparent" value="true" checked`)
		kerneltest.WantAbsent(t, "settings after saving", next, `name="stickySideMenu" value="true" checked`)
		// The form stored through the same logic as the API.
		api := ta.Call(t, "GET", "/api/settings", token, nil)
		for name, want := range map[string]any{"theme": "Colors", "language": "sv", "darkMode": true, "toolbarTransparent": true, "stickySideMenu": false, "defaultRange": "24h"} {
			if got := api.Obj()[name]; got != want {
				t.Errorf("GET /api/settings %s = %v, want %v: %s", name, got, want, api.Body)
			}
		}
		// Another user's pages are not affected.
		if tag := kerneltest.HTMLTag(t, ta.Call(t, "GET", "/", acme.CompanyAdminToken, nil)); !strings.Contains(tag, `data-theme="light"`) {
			t.Errorf("another user's page: %s", tag)
		}

		// A bad value is refused with its message, and nothing is stored.
		bad := ta.Post(t, "/settings", token, url.Values{"theme": {"Neon"}, "language": {"en"}})
		if bad.Status != http.StatusBadRequest {
			t.Fatalf("bad theme: %d %.300s", bad.Status, bad.Body)
		}
		kerneltest.WantContains(t, "bad theme", bad, "Värdet för theme är inte giltigt")
		if _, ok := bad.Cookie("lang"); ok {
			t.Errorf("a refused form set the lang cookie")
		}
		if api := ta.Call(t, "GET", "/api/settings", token, nil); api.Str("language") != "sv" || api.Str("theme") != "Colors" {
			t.Errorf("a refused form changed settings: %s", api.Body)
		}
	})
}
