package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
)

// The dashboards module's pages: the chooser /dashboard with the category
// tree island and the powered-by footer, /dashboard/{id} and /public/{id}
// with the dashboard island and its props.

func TestDashboardPages(t *testing.T) {
	ta := newTestApp(t, db.SQLite, map[string]string{"FIELDHUB_WHITE_LABEL": "true"})
	root := ta.superAdmin(t)
	acme := ta.englishCompany(t, root, "Acme AB", "acme.example")
	beta := ta.englishCompany(t, root, "Beta AB", "beta.example")
	call := func(method, path, token string, body any, status int) int64 {
		t.Helper()
		r := ta.Call(t, method, path, token, body)
		if r.Status != status {
			t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Body)
		}
		for _, k := range []string{"dashboardId", "dashboardCategoryId", "id"} {
			if n := r.Num(k); n != 0 {
				return n
			}
		}
		return 0
	}
	cat := call("POST", fmt.Sprintf("/api/dashboards/categories/%d", acme.companyID), acme.companyAdminToken, map[string]any{"title": "Greenhouses", "color": "#4CAF50"}, 201)
	dash := call("POST", "/api/dashboards", acme.companyAdminToken, map[string]any{"name": "Tomatoes", "categoryId": cat}, 201)
	betaDash := call("POST", "/api/dashboards", beta.companyAdminToken, map[string]any{"name": "Beta secrets"}, 201)
	r := ta.Call(t, "POST", fmt.Sprintf("/api/dashboards/public/%d/%d/%s", acme.companyID, dash, time.Now().Add(time.Hour).UTC().Format(time.RFC3339)),
		acme.companyAdminToken, nil)
	if r.Status != 201 {
		t.Fatalf("public link: %d %s", r.Status, r.Body)
	}
	token, linkID := r.Str("token"), r.Num("id")

	t.Run("visitors are sent to the login", func(t *testing.T) {
		for _, path := range []string{"/dashboard", fmt.Sprintf("/dashboard/%d", dash)} {
			if p := ta.page(t, "GET", path, "", nil); p.redirect() != "/login?next="+strings.ReplaceAll(path, "/", "%2F") {
				t.Errorf("%s: %d to %q", path, p.Status, p.redirect())
			}
		}
	})
	t.Run("the menu has Dashboard", func(t *testing.T) {
		p := ta.page(t, "GET", "/settings", acme.userToken, nil)
		contains(t, p.Body, []string{`href="/dashboard"`, "Dashboard"}, nil)
	})
	t.Run("the chooser shows the tree island and the company's name", func(t *testing.T) {
		p := ta.page(t, "GET", "/dashboard", acme.userToken, nil)
		if p.Status != http.StatusOK {
			t.Fatalf("status %d", p.Status)
		}
		body := mainOf(p.Body)
		contains(t, body, []string{`data-island="category-tree"`,
			fmt.Sprintf(`data-props="{"companyId":%d,"canEdit":false,"mode":"page"}"`, acme.companyID),
			"Greenhouses", fmt.Sprintf(`href="/dashboard/%d"`, dash), "Tomatoes", "Powered by Acme AB"}, []string{"Beta"})
		if !strings.Contains(p.Body, `src="/assets/`) && !strings.Contains(p.Body, `type="module"`) {
			t.Error("no islands script")
		}
	})
	t.Run("admins may edit the tree", func(t *testing.T) {
		p := ta.page(t, "GET", "/dashboard", acme.companyAdminToken, nil)
		contains(t, mainOf(p.Body), []string{`"canEdit":true`}, nil)
	})
	t.Run("the default dashboard is offered", func(t *testing.T) {
		call("PUT", fmt.Sprintf("/api/dashboards/%d/default", dash), acme.userToken, nil, 204)
		p := ta.page(t, "GET", "/dashboard", acme.userToken, nil)
		contains(t, mainOf(p.Body), []string{"Your default dashboard: Tomatoes"}, nil)
	})
	t.Run("the global powered-by text wins", func(t *testing.T) {
		if r := ta.Call(t, "POST", "/api/settings/global", root, map[string]any{"powered_by": "Fieldhub Partners"}); r.Status != http.StatusOK {
			t.Fatalf("global settings: %d %s", r.Status, r.Body)
		}
		p := ta.page(t, "GET", "/dashboard", acme.userToken, nil)
		contains(t, mainOf(p.Body), []string{"Powered by Fieldhub Partners"}, []string{"Powered by Acme AB"})
	})
	t.Run("a dashboard mounts the dashboard island", func(t *testing.T) {
		p := ta.page(t, "GET", fmt.Sprintf("/dashboard/%d", dash), acme.userToken, nil)
		if p.Status != http.StatusOK {
			t.Fatalf("status %d", p.Status)
		}
		contains(t, mainOf(p.Body), []string{`data-island="dashboard"`,
			fmt.Sprintf(`"dashboardId":%d,"companyId":%d,"canEdit":false,"publicToken":null,"tileUrl":"https://tile.openstreetmap.org/{z}/{x}/{y}.png","lang":"en"`, dash, acme.companyID),
			"Tomatoes"}, nil)
		p = ta.page(t, "GET", fmt.Sprintf("/dashboard/%d", dash), acme.companyAdminToken, nil)
		contains(t, mainOf(p.Body), []string{`"canEdit":true`}, nil)
	})
	t.Run("another company's dashboard is not found", func(t *testing.T) {
		for _, path := range []string{fmt.Sprintf("/dashboard/%d", betaDash), "/dashboard/99999"} {
			p := ta.page(t, "GET", path, acme.companyAdminToken, nil)
			if p.Status != http.StatusNotFound || strings.Contains(p.Body, "Beta secrets") {
				t.Errorf("%s: %d", path, p.Status)
			}
		}
	})
	t.Run("a public link opens for anyone, read-only", func(t *testing.T) {
		p := ta.page(t, "GET", "/public/"+token, "", nil)
		if p.Status != http.StatusOK {
			t.Fatalf("status %d: %s", p.Status, p.Body)
		}
		contains(t, mainOf(p.Body), []string{`data-island="dashboard"`, `"canEdit":false,"publicToken":"` + token + `"`, "Tomatoes"}, nil)
		if p.Header.Get("Referrer-Policy") != "no-referrer" {
			t.Error("the token may leak through Referer")
		}
	})
	t.Run("a removed link says so", func(t *testing.T) {
		call("DELETE", fmt.Sprintf("/api/dashboards/public/%d", linkID), acme.companyAdminToken, nil, 204)
		p := ta.page(t, "GET", "/public/"+token, "", nil)
		if p.Status != http.StatusNotFound {
			t.Fatalf("status %d", p.Status)
		}
		contains(t, mainOf(p.Body), []string{"This link no longer works", "unknown, was removed or has expired"}, []string{"Tomatoes", `data-island="dashboard"`})
	})
	t.Run("in Swedish", func(t *testing.T) {
		p := ta.page(t, "GET", "/public/pd_unknown", "", nil, "Accept-Language", "sv")
		contains(t, mainOf(p.Body), []string{"Den här länken fungerar inte längre"}, nil)
	})
}
