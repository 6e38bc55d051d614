package main

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/accounts"
)

// testApp is the whole portal, wired as main wires it, on a fresh database.
type testApp struct {
	*kerneltest.Client
	kernel   *kernel.Kernel
	accounts accounts.Module
	base     string
}

func newTestApp(t *testing.T, d db.Dialect, env map[string]string) *testApp {
	t.Helper()
	p := kerneltest.Start(t, d, env, app.Build)
	return &testApp{Client: p.Client, kernel: p.App.Kernel(), accounts: p.App.Accounts(), base: p.URL}
}

// people are the accounts most tests need: a SuperAdmin and, in one
// company, an Admin, a CompanyAdmin and a User.
type people struct {
	superToken, adminToken, companyAdminToken, userToken string
	companyID, adminID, companyAdminID, userID           int64
}

const testPassword = "correct horse"

func (ta *testApp) superAdmin(t *testing.T) string {
	t.Helper()
	if err := ta.accounts.CreateSuperAdmin(context.Background(), "root@example.com", testPassword); err != nil {
		t.Fatalf("create superadmin: %v", err)
	}
	return ta.Login(t, "root@example.com", testPassword)
}

// company makes a company through the API with a CompanyAdmin, an Admin and a
// User, all with emails under the given domain.
func (ta *testApp) company(t *testing.T, superToken, name, domain string) people {
	t.Helper()
	r := ta.Call(t, "POST", "/api/users/create/company", superToken, map[string]any{
		"company": map[string]any{"name": name, "orgNumber": "556677-8899", "invoiceAdress": "billing@" + domain, "country": "SE"},
		"user":    newUserBody("boss@" + domain),
	})
	if r.Status != http.StatusCreated {
		t.Fatalf("create company %s: %d %s", name, r.Status, r.Body)
	}
	p := people{superToken: superToken}
	p.companyID = int64(r.Obj()["company"].(map[string]any)["companyId"].(float64))
	p.companyAdminID = int64(r.Obj()["user"].(map[string]any)["userId"].(float64))
	p.companyAdminToken = ta.Login(t, "boss@"+domain, testPassword)
	p.userID = ta.createUser(t, p.companyAdminToken, "worker@"+domain, "")
	p.userToken = ta.Login(t, "worker@"+domain, testPassword)
	p.adminID = ta.createUser(t, superToken, "admin@"+domain, "Admin", "companyId", p.companyID)
	p.adminToken = ta.Login(t, "admin@"+domain, testPassword)
	return p
}

func newUserBody(email string, extra ...any) map[string]any {
	b := map[string]any{"firstName": "Ada", "lastName": "Lovelace", "email": email, "phoneNumber": "+46 70-123 45 67", "password": testPassword}
	for i := 0; i+1 < len(extra); i += 2 {
		b[extra[i].(string)] = extra[i+1]
	}
	return b
}

func (ta *testApp) createUser(t *testing.T, token, email, role string, extra ...any) int64 {
	t.Helper()
	body := newUserBody(email, extra...)
	if role != "" {
		body["role"] = role
	}
	r := ta.Call(t, "POST", "/api/users", token, body)
	if r.Status != http.StatusCreated {
		t.Fatalf("create user %s: %d %s", email, r.Status, r.Body)
	}
	return r.Num("userId")
}

// noRedirects makes the test app's client report redirects instead of
// following them.
func (ta *testApp) noRedirects() *testApp {
	ta.Client.NoRedirects()
	return ta
}

// The page helpers of the tests not moved to their modules yet.
var (
	wantContains = kerneltest.WantContains
	wantAbsent   = kerneltest.WantAbsent
	wantRedirect = kerneltest.WantRedirect
	htmlTag      = kerneltest.HTMLTag
)

func (ta *testApp) post(t *testing.T, path, token string, form url.Values, headers ...string) kerneltest.Response {
	t.Helper()
	return ta.Post(t, path, token, form, headers...)
}

func cookie(r kerneltest.Response, name string) (*http.Cookie, bool) { return r.Cookie(name) }

func toastText(t *testing.T, r kerneltest.Response) string { t.Helper(); return r.ToastText(t) }

func waitMail(t *testing.T, inbox *kerneltest.Inbox, subject string) kerneltest.Mail {
	t.Helper()
	return inbox.WaitSubject(t, subject)
}
