package accounts_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestCompanyAdminSetsCompanyRoles checks that a CompanyAdmin can take the
// CompanyAdmin role back from a colleague as well as give it, and nothing
// beyond User and CompanyAdmin in their own company.
func TestCompanyAdminSetsCompanyRoles(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")
	other := ta.Company(t, root, "Other AB", "other.example")
	colleague := ta.CreateUser(t, acme.CompanyAdminToken, "deputy@acme.example", "CompanyAdmin")
	role := func(id int64, r string) string { return fmt.Sprintf("/api/users/%d/role/%s", id, r) }
	cases := []struct {
		name, path, token string
		want              int
	}{
		{"CompanyAdmin demotes a CompanyAdmin", role(colleague, "User"), acme.CompanyAdminToken, 200},
		{"and promotes them again", role(colleague, "CompanyAdmin"), acme.CompanyAdminToken, 200},
		{"not to Admin", role(colleague, "Admin"), acme.CompanyAdminToken, 403},
		{"not an Admin's role", role(acme.AdminID, "User"), acme.CompanyAdminToken, 403},
		{"not their own", role(acme.CompanyAdminID, "User"), acme.CompanyAdminToken, 400},
		{"not another company's", role(other.CompanyAdminID, "User"), acme.CompanyAdminToken, 404},
		{"a User changes no role", role(colleague, "User"), acme.UserToken, 403},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if r := ta.Call(t, "PUT", tc.path, tc.token, nil); r.Status != tc.want {
				t.Errorf("status %d, want %d: %s", r.Status, tc.want, r.Body)
			}
		})
	}
	for id, want := range map[int64]string{colleague: "CompanyAdmin", acme.AdminID: "Admin", acme.CompanyAdminID: "CompanyAdmin", other.CompanyAdminID: "CompanyAdmin"} {
		if r := ta.Call(t, "GET", fmt.Sprintf("/api/users/%d", id), root, nil); r.Str("role") != want {
			t.Errorf("user %d: role %s, want %s", id, r.Str("role"), want)
		}
	}

	// The user page offers a CompanyAdmin the role form for a colleague, but
	// neither the profile form nor the delete button.
	page := ta.Page(t, "GET", fmt.Sprintf("/company/user/%d", colleague), acme.CompanyAdminToken, nil)
	if !strings.Contains(page.Body, `name="role"`) || strings.Contains(page.Body, `name="firstName"`) || strings.Contains(page.Body, "/delete") {
		t.Errorf("a CompanyAdmin's view of a CompanyAdmin colleague: %.2000s", page.Body)
	}
	p := ta.Page(t, "POST", fmt.Sprintf("/company/user/%d/role", colleague), acme.CompanyAdminToken, map[string][]string{"role": {"User"}})
	if p.Status != http.StatusSeeOther {
		t.Fatalf("demote through the page: %d %.300s", p.Status, p.Body)
	}
	if r := ta.Call(t, "GET", fmt.Sprintf("/api/users/%d", colleague), root, nil); r.Str("role") != "User" {
		t.Errorf("after the page's demotion: %s", r.Body)
	}
}
