package scripts_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestScriptPages checks the pages: who sees them and the "Script engine"
// menu entry, the list with its switch, the editor's island with the
// company's nodes, another company's script, and the removal.
func TestScriptPages(t *testing.T) {
	t.Parallel()
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")
	other := ta.EnglishCompany(t, root, "Other AB", "other.example")
	ta.AppNode(t, acme.CompanyAdminToken, acme.CompanyID, "Field", "Tank", "70B3D57ED005A1B9")
	mk := func(token string, company int64, name string) int64 {
		t.Helper()
		return ta.Must(t, "POST", fmt.Sprintf("/api/script/%d", company), token, map[string]any{"name": name, "type": 0, "interval": 60,
			"content": "return 1;"}, http.StatusCreated).Num("id")
	}
	id := mk(acme.CompanyAdminToken, acme.CompanyID, "Acme counter")
	foreign := mk(other.CompanyAdminToken, other.CompanyID, "Other counter")
	page := fmt.Sprintf("/script/%d", id)

	for _, tc := range []struct{ name, method, path, token, want string }{
		{"visitor on /script", "GET", "/script", "", "/login?next=%2Fscript"},
		{"User on /script", "GET", "/script", acme.UserToken, "/"},
		{"User on /script/create", "GET", "/script/create", acme.UserToken, "/"},
		{"User switches a script", "POST", page + "/enabled", acme.UserToken, "/"},
	} {
		if p := ta.Page(t, tc.method, tc.path, tc.token, nil); p.Status != http.StatusSeeOther || p.Redirect() != tc.want {
			t.Errorf("%s: got %d to %q, want a redirect to %q", tc.name, p.Status, p.Redirect(), tc.want)
		}
	}
	if p := ta.Page(t, "GET", fmt.Sprintf("/script/%d", foreign), acme.CompanyAdminToken, nil); p.Status != http.StatusNotFound || strings.Contains(p.Body, "Other counter") {
		t.Errorf("another company's script: %d", p.Status)
	}

	list := ta.Page(t, "GET", "/script", acme.CompanyAdminToken, nil)
	kerneltest.Contains(t, kerneltest.Main(list.Body), []string{"Acme counter", `href="` + page + `"`, "Looping", "every 60 s", "Never", `role="switch"`,
		`aria-checked="false"`, `href="/script/create"`}, []string{"Other counter"})
	if !strings.Contains(list.Body, `href="/script"`) || !strings.Contains(list.Body, "Script engine") {
		t.Error("no Script engine menu entry for a CompanyAdmin")
	}
	if p := ta.Page(t, "GET", "/company", acme.UserToken, nil); strings.Contains(p.Body, `href="/script"`) {
		t.Error("a User's menu has the Script engine")
	}
	ta.Page(t, "POST", page+"/enabled", acme.CompanyAdminToken, nil)
	if s := ta.Must(t, "GET", "/api"+page, acme.CompanyAdminToken, nil, http.StatusOK).Obj(); s["enabled"] != true {
		t.Errorf("the switch left the script %v", s["enabled"])
	}
	editor := kerneltest.Main(ta.Page(t, "GET", page, acme.CompanyAdminToken, nil).Body)
	kerneltest.Contains(t, editor, []string{`data-island="script-editor"`, fmt.Sprintf(`"scriptId":%d`, id), "Tank"}, nil)
	if p := ta.Page(t, "POST", page+"/delete", acme.CompanyAdminToken, url.Values{"confirm": {"yes"}}); p.Status != http.StatusSeeOther {
		t.Errorf("delete: %d", p.Status)
	}
	ta.Must(t, "GET", "/api"+page, acme.CompanyAdminToken, nil, http.StatusNotFound)
}
