package dashboards_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/license"
)

// The dashboards module's pages: the chooser /dashboard with the category
// tree island and the powered-by footer, /dashboard/{id} and /public/{id}
// with the dashboard island and its props.

func TestDashboardPages(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, kerneltest.License(t, license.Terms{Name: "Test", WhiteLabel: true}), app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")
	beta := ta.EnglishCompany(t, root, "Beta AB", "beta.example")
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
	cat := call("POST", fmt.Sprintf("/api/dashboards/categories/%d", acme.CompanyID), acme.CompanyAdminToken, map[string]any{"title": "Greenhouses", "color": "#4CAF50"}, 201)
	dash := call("POST", "/api/dashboards", acme.CompanyAdminToken, map[string]any{"name": "Tomatoes", "categoryId": cat}, 201)
	betaDash := call("POST", "/api/dashboards", beta.CompanyAdminToken, map[string]any{"name": "Beta secrets"}, 201)
	r := ta.Call(t, "POST", fmt.Sprintf("/api/dashboards/public/%d/%d/%s", acme.CompanyID, dash, time.Now().Add(time.Hour).UTC().Format(time.RFC3339)),
		acme.CompanyAdminToken, nil)
	if r.Status != 201 {
		t.Fatalf("public link: %d %s", r.Status, r.Body)
	}
	token, linkID := r.Str("token"), r.Num("id")

	t.Run("visitors are sent to the login", func(t *testing.T) {
		for _, path := range []string{"/dashboard", fmt.Sprintf("/dashboard/%d", dash)} {
			if p := ta.Page(t, "GET", path, "", nil); p.Redirect() != "/login?next="+strings.ReplaceAll(path, "/", "%2F") {
				t.Errorf("%s: %d to %q", path, p.Status, p.Redirect())
			}
		}
	})
	t.Run("the menu has Dashboard", func(t *testing.T) {
		p := ta.Page(t, "GET", "/settings", acme.UserToken, nil)
		kerneltest.Contains(t, p.Body, []string{`href="/dashboard"`, "Dashboard"}, nil)
	})
	t.Run("the chooser shows the tree island and the company's name", func(t *testing.T) {
		p := ta.Page(t, "GET", "/dashboard", acme.UserToken, nil)
		if p.Status != http.StatusOK {
			t.Fatalf("status %d", p.Status)
		}
		body := kerneltest.Main(p.Body)
		kerneltest.Contains(t, body, []string{`data-island="category-tree"`,
			fmt.Sprintf(`data-props="{"companyId":%d,"canEdit":false,"mode":"page"}"`, acme.CompanyID),
			"Greenhouses", fmt.Sprintf(`href="/dashboard/%d"`, dash), "Tomatoes", "Powered by Acme AB"}, []string{"Beta"})
		if !strings.Contains(p.Body, `src="/assets/`) && !strings.Contains(p.Body, `type="module"`) {
			t.Error("no islands script")
		}
	})
	t.Run("admins may edit the tree", func(t *testing.T) {
		p := ta.Page(t, "GET", "/dashboard", acme.CompanyAdminToken, nil)
		kerneltest.Contains(t, kerneltest.Main(p.Body), []string{`"canEdit":true`}, nil)
	})
	t.Run("the default dashboard is offered", func(t *testing.T) {
		call("PUT", fmt.Sprintf("/api/dashboards/%d/default", dash), acme.UserToken, nil, 204)
		p := ta.Page(t, "GET", "/dashboard", acme.UserToken, nil)
		kerneltest.Contains(t, kerneltest.Main(p.Body), []string{"Your default dashboard: Tomatoes"}, nil)
	})
	t.Run("the global powered-by text wins", func(t *testing.T) {
		if r := ta.Call(t, "POST", "/api/settings/global", root, map[string]any{"powered_by": "Fieldhub Partners"}); r.Status != http.StatusOK {
			t.Fatalf("global settings: %d %s", r.Status, r.Body)
		}
		p := ta.Page(t, "GET", "/dashboard", acme.UserToken, nil)
		kerneltest.Contains(t, kerneltest.Main(p.Body), []string{"Powered by Fieldhub Partners"}, []string{"Powered by Acme AB"})
	})
	t.Run("a dashboard mounts the dashboard island", func(t *testing.T) {
		p := ta.Page(t, "GET", fmt.Sprintf("/dashboard/%d", dash), acme.UserToken, nil)
		if p.Status != http.StatusOK {
			t.Fatalf("status %d", p.Status)
		}
		kerneltest.Contains(t, kerneltest.Main(p.Body), []string{`data-island="dashboard"`,
			fmt.Sprintf(`"dashboardId":%d,"companyId":%d,"canEdit":false,"canRun":false,"publicToken":null,"tileUrl":"https://tile.openstreetmap.org/{z}/{x}/{y}.png","lang":"en"`, dash, acme.CompanyID),
			"Tomatoes"}, nil)
		p = ta.Page(t, "GET", fmt.Sprintf("/dashboard/%d", dash), acme.CompanyAdminToken, nil)
		kerneltest.Contains(t, kerneltest.Main(p.Body), []string{`"canEdit":true,"canRun":true`}, nil)
	})
	t.Run("another company's dashboard is not found", func(t *testing.T) {
		for _, path := range []string{fmt.Sprintf("/dashboard/%d", betaDash), "/dashboard/99999"} {
			p := ta.Page(t, "GET", path, acme.CompanyAdminToken, nil)
			if p.Status != http.StatusNotFound || strings.Contains(p.Body, "Beta secrets") {
				t.Errorf("%s: %d", path, p.Status)
			}
		}
	})
	t.Run("a public link opens for anyone, read-only", func(t *testing.T) {
		p := ta.Page(t, "GET", "/public/"+token, "", nil)
		if p.Status != http.StatusOK {
			t.Fatalf("status %d: %s", p.Status, p.Body)
		}
		kerneltest.Contains(t, kerneltest.Main(p.Body), []string{`data-island="dashboard"`, `"canEdit":false,"canRun":false,"publicToken":"` + token + `"`, "Tomatoes"}, nil)
		if p.Header.Get("Referrer-Policy") != "no-referrer" {
			t.Error("the token may leak through Referer")
		}
	})
	t.Run("a removed link says so", func(t *testing.T) {
		call("DELETE", fmt.Sprintf("/api/dashboards/public/%d", linkID), acme.CompanyAdminToken, nil, 204)
		p := ta.Page(t, "GET", "/public/"+token, "", nil)
		if p.Status != http.StatusNotFound {
			t.Fatalf("status %d", p.Status)
		}
		kerneltest.Contains(t, kerneltest.Main(p.Body), []string{"This link no longer works", "unknown, was removed or has expired"}, []string{"Tomatoes", `data-island="dashboard"`})
	})
	t.Run("in Swedish", func(t *testing.T) {
		p := ta.Page(t, "GET", "/public/pd_unknown", "", nil, "Accept-Language", "sv")
		kerneltest.Contains(t, kerneltest.Main(p.Body), []string{"Den här länken fungerar inte längre"}, nil)
	})
}
