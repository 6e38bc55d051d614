package accounts_test

import (
	"fmt"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// probe is a call that any signed-in caller may make and that reads nothing
// but the token: 200 while the token is accepted, 401 once it is refused.
const probe = "/api/companies"

// TestEndedSessionsRefuseTheirAccessTokens checks that an access token stops
// working the moment its session ends, rather than when it lapses: after a
// logout, a password reset, a password change (the other sessions), a role
// change, and the deletion of the user or of their company.
func TestEndedSessionsRefuseTheirAccessTokens(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		smtpURL, inbox := kerneltest.StartSMTP(t)
		ta := kerneltest.Start(t, d, map[string]string{"SMTP_URL": smtpURL, "FIELDHUB_PUBLIC_URL": "https://portal.example"}, app.Build)
		root := ta.SuperAdmin(t)
		acme := ta.Company(t, root, "Acme AB", "acme.example")
		other := ta.Company(t, root, "Other AB", "other.example")
		accepted := func(t *testing.T, token string) {
			t.Helper()
			if r := ta.Call(t, "GET", probe, token, nil); r.Status != http.StatusOK {
				t.Fatalf("a live token is refused: %d %s", r.Status, r.Body)
			}
		}
		refused := func(t *testing.T, token, after string) {
			t.Helper()
			if r := ta.Call(t, "GET", probe, token, nil); r.Status != http.StatusUnauthorized {
				t.Errorf("the access token still works after %s: %d %s", after, r.Status, r.Body)
			}
		}

		t.Run("logout", func(t *testing.T) {
			token := ta.Login(t, "worker@acme.example", kerneltest.Password)
			kept := ta.Login(t, "worker@acme.example", kerneltest.Password)
			accepted(t, token)
			if r := ta.Call(t, "POST", "/api/users/logout", token, nil); r.Status != http.StatusNoContent {
				t.Fatalf("logout: %d %s", r.Status, r.Body)
			}
			refused(t, token, "a logout")
			accepted(t, kept) // the user's other session goes on
		})
		t.Run("role change", func(t *testing.T) {
			token := ta.Login(t, "worker@acme.example", kerneltest.Password)
			accepted(t, token)
			ta.Must(t, "PUT", fmt.Sprintf("/api/users/%d/role/CompanyAdmin", acme.UserID), acme.AdminToken, nil, http.StatusOK)
			refused(t, token, "a role change")
			ta.Must(t, "PUT", fmt.Sprintf("/api/users/%d/role/User", acme.UserID), acme.AdminToken, nil, http.StatusOK)
		})
		t.Run("password change ends the other sessions", func(t *testing.T) {
			mine := ta.Login(t, "worker@acme.example", kerneltest.Password)
			elsewhere := ta.Login(t, "worker@acme.example", kerneltest.Password)
			ta.Must(t, "PUT", fmt.Sprintf("/api/users/%d", acme.UserID), mine, map[string]any{
				"currentPassword": kerneltest.Password, "password": "a new password", "confirmPassword": "a new password"}, http.StatusOK)
			accepted(t, mine)
			refused(t, elsewhere, "a password change in another session")
			ta.Must(t, "PUT", fmt.Sprintf("/api/users/%d", acme.UserID), mine, map[string]any{
				"currentPassword": "a new password", "password": kerneltest.Password, "confirmPassword": kerneltest.Password}, http.StatusOK)
		})
		t.Run("password reset", func(t *testing.T) {
			token := ta.Login(t, "boss@other.example", kerneltest.Password)
			accepted(t, token)
			ta.Must(t, "POST", "/api/users/forgot/boss@other.example", "", nil, http.StatusAccepted)
			m := inbox.Wait(t, "boss@other.example", 10*time.Second)
			guid := regexp.MustCompile(`/forgot/([0-9a-f-]{36})`).FindStringSubmatch(m.Body)
			if guid == nil {
				t.Fatalf("no reset link in %q", m.Body)
			}
			ta.Must(t, "PUT", "/api/users/forgot/"+guid[1], "", map[string]any{"password": kerneltest.Password, "confirmPassword": kerneltest.Password}, http.StatusOK)
			refused(t, token, "a password reset")
		})
		t.Run("user deleted", func(t *testing.T) {
			id := ta.CreateUser(t, acme.CompanyAdminToken, "leaver@acme.example", "")
			token := ta.Login(t, "leaver@acme.example", kerneltest.Password)
			accepted(t, token)
			ta.Must(t, "DELETE", fmt.Sprintf("/api/users/%d", id), acme.CompanyAdminToken, nil, http.StatusNoContent)
			refused(t, token, "the user's deletion")
		})
		t.Run("made SuperAdmin with a new password from the command line", func(t *testing.T) {
			token := ta.Login(t, "admin@acme.example", kerneltest.Password)
			accepted(t, token)
			if err := ta.App.CreateSuperAdmin(t.Context(), "admin@acme.example", "the operator's new one"); err != nil {
				t.Fatal(err)
			}
			refused(t, token, "a new password and role from the command line")
		})
		t.Run("company deleted", func(t *testing.T) {
			token := ta.Login(t, "boss@other.example", kerneltest.Password)
			accepted(t, token)
			ta.Must(t, "DELETE", fmt.Sprintf("/api/companies/%d", other.CompanyID), root, nil, http.StatusNoContent)
			refused(t, token, "the company's deletion")
		})
	})
}

// TestLogoutReachesTheOtherInstances runs two portals on one PostgreSQL
// database: a session ended on one is refused by the other without waiting
// for its access token to lapse, and a portal started afterwards refuses it
// from the start.
func TestLogoutReachesTheOtherInstances(t *testing.T) {
	cfg := kerneltest.Config(t, db.Postgres, nil)
	a := kerneltest.StartConfig(t, cfg, app.Build)
	b := kerneltest.StartConfig(t, cfg, app.Build)
	root := a.SuperAdmin(t)
	acme := a.Company(t, root, "Acme AB", "acme.example")
	status := func(p *kerneltest.Client, token string) int { return p.Call(t, "GET", probe, token, nil).Status }
	refusedSoon := func(p *kerneltest.Client, token, what string) {
		t.Helper()
		kerneltest.WaitFor(t, 10*time.Second, func() bool { return status(p, token) == http.StatusUnauthorized },
			func() string { return "the other instance still takes the token after " + what })
	}

	token := a.Login(t, "worker@acme.example", kerneltest.Password)
	if s := status(b.Client, token); s != http.StatusOK {
		t.Fatalf("the other instance refuses a live token: %d", s)
	}
	a.Must(t, "POST", "/api/users/logout", token, nil, http.StatusNoContent)
	if s := status(a.Client, token); s != http.StatusUnauthorized {
		t.Errorf("the instance that logged out still takes the token: %d", s)
	}
	refusedSoon(b.Client, token, "a logout")

	// A role change made on the other instance reaches the first.
	token = b.Login(t, "worker@acme.example", kerneltest.Password)
	if s := status(a.Client, token); s != http.StatusOK {
		t.Fatalf("a live token is refused: %d", s)
	}
	b.Must(t, "PUT", fmt.Sprintf("/api/users/%d/role/CompanyAdmin", acme.UserID), acme.AdminToken, nil, http.StatusOK)
	refusedSoon(a.Client, token, "a role change")

	c := kerneltest.StartConfig(t, cfg, app.Build)
	if s := status(c.Client, token); s != http.StatusUnauthorized {
		t.Errorf("an instance started after the role change takes the old token: %d", s)
	}
}
