package gateways_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestPages checks the gateway pages' guards (SPEC section 2: /gateways for
// CompanyOrUser, /gateways/create for AdminOrCompanyAdmin), their islands'
// props and the menu entry (SuperAdmin, Admin, CompanyAdmin).
func TestPages(t *testing.T) {
	t.Parallel()
	ta := kerneltest.Start(t, db.SQLite, map[string]string{"FIELDHUB_GEOCODE_URL": "https://nominatim.example"}, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")

	for _, tc := range []struct{ name, path, token, want string }{
		{"visitor on /gateways", "/gateways", "", "/login?next=%2Fgateways"},
		{"visitor on /gateways/create", "/gateways/create", "", "/login?next=%2Fgateways%2Fcreate"},
		{"User on /gateways/create", "/gateways/create", acme.UserToken, "/"},
	} {
		if p := ta.Page(t, "GET", tc.path, tc.token, nil); p.Status != http.StatusSeeOther || p.Redirect() != tc.want {
			t.Errorf("%s: %d to %q, want a redirect to %q", tc.name, p.Status, p.Redirect(), tc.want)
		}
	}

	user := ta.Page(t, "GET", "/gateways", acme.UserToken, nil)
	if user.Status != http.StatusOK {
		t.Fatalf("User on /gateways: %d", user.Status)
	}
	main := kerneltest.Main(user.Body)
	kerneltest.Contains(t, main, []string{`data-island="gateway-list"`, fmt.Sprintf(`"companyId":%d`, acme.CompanyID),
		`"canManage":false`, `"offlineSeconds":600`, "Loading gateways"}, []string{`href="/gateways/create"`})
	if strings.Contains(user.Body, `href="/gateways"`) && strings.Contains(user.Body[:strings.Index(user.Body, `<main id="main"`)], `href="/gateways"`) {
		t.Error("a User's menu has Gateways")
	}

	admin := ta.Page(t, "GET", "/gateways", acme.CompanyAdminToken, nil)
	kerneltest.Contains(t, kerneltest.Main(admin.Body), []string{`"canManage":true`, `href="/gateways/create"`}, nil)
	menu := admin.Body[strings.Index(admin.Body, `id="side-menu"`):strings.Index(admin.Body, `<main id="main"`)]
	if d, g := strings.Index(menu, `href="/decoders"`), strings.Index(menu, `href="/gateways"`); g < 0 || g < d {
		t.Errorf("the menu entry is missing or before Decoders: decoders at %d, gateways at %d", d, g)
	}

	create := ta.Page(t, "GET", "/gateways/create?eui=AA555A0000000001", acme.CompanyAdminToken, nil)
	kerneltest.Contains(t, kerneltest.Main(create.Body), []string{`data-island="gateway-create"`, `"geocode":true`,
		`"eui":"AA555A0000000001"`, `"tileUrl":"https://tile.openstreetmap.org/{z}/{x}/{y}.png"`}, nil)
	if csp := create.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "https://tile.openstreetmap.org") {
		t.Errorf("the tiles' origin is not allowed: %s", csp)
	}

	// A user without a company has no gateways to show.
	ta.Must(t, "POST", "/api/users", "", kerneltest.UserBody("loner@free.example"), http.StatusCreated)
	loner := ta.Login(t, "loner@free.example", kerneltest.Password)
	if p := ta.Page(t, "GET", "/gateways", loner, nil); !strings.Contains(kerneltest.Main(p.Body), "Choose a company first.") ||
		strings.Contains(p.Body, `data-island="gateway-list"`) {
		t.Errorf("a user without a company: %.400s", kerneltest.Main(p.Body))
	}
}
