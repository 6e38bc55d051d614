package accounts_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestRegistrationDoesNotTellWhetherAnAddressIsTaken checks that open
// registration answers a taken address exactly as a free one, and mails the
// address's owner instead, while an administrator creating a user is still
// told that the address is taken.
func TestRegistrationDoesNotTellWhetherAnAddressIsTaken(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		smtpURL, inbox := kerneltest.StartSMTP(t)
		ta := kerneltest.Start(t, d, map[string]string{"SMTP_URL": smtpURL, "FIELDHUB_PUBLIC_URL": "https://portal.example"}, app.Build)
		root := ta.SuperAdmin(t)
		acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")

		free := ta.Call(t, "POST", "/api/users", "", kerneltest.UserBody("newcomer@example.com"))
		taken := ta.Call(t, "POST", "/api/users", "", kerneltest.UserBody("Worker@Acme.example", "password", "the intruder's", "firstName", "Eve"))
		if free.Status != http.StatusCreated || taken.Status != free.Status || string(taken.Body) != string(free.Body) {
			t.Fatalf("free address: %d %s\ntaken address: %d %s", free.Status, free.Body, taken.Status, taken.Body)
		}
		if free.Str("message") == "" || free.Obj()["userId"] != nil || free.Obj()["email"] != nil {
			t.Errorf("the answer should be a message and nothing of the account: %s", free.Body)
		}
		ta.Login(t, "newcomer@example.com", kerneltest.Password)
		m := inbox.Wait(t, "worker@acme.example", 10*time.Second)
		if !strings.Contains(m.Body, "https://portal.example/forgot") || !strings.Contains(m.Subject, "Fieldhub") {
			t.Errorf("mail to the owner: %q %q", m.Subject, m.Body)
		}
		// The owner's account is as it was.
		ta.Login(t, "worker@acme.example", kerneltest.Password)
		if r := ta.Call(t, "POST", "/api/users/authenticate", "", map[string]any{"email": "worker@acme.example", "password": "the intruder's"}); r.Status != http.StatusUnauthorized {
			t.Errorf("the registrant's password opens the owner's account: %d", r.Status)
		}
		if me := ta.Call(t, "GET", fmt.Sprintf("/api/users/%d", acme.UserID), root, nil); me.Str("firstName") == "Eve" {
			t.Errorf("registration changed the owner's account: %s", me.Body)
		}
		// An administrator creating a user is told.
		r := ta.Call(t, "POST", "/api/users", acme.CompanyAdminToken, kerneltest.UserBody("worker@acme.example"))
		if r.Status != http.StatusConflict || r.Str("message") != "A user with this email address already exists" {
			t.Errorf("an administrator creating a taken address: %d %s", r.Status, r.Body)
		}
		// Validation problems are still reported: they say nothing of others' accounts.
		if r := ta.Call(t, "POST", "/api/users", "", kerneltest.UserBody("worker@acme.example", "confirmPassword", "other")); r.Status != http.StatusBadRequest {
			t.Errorf("a bad registration: %d %s", r.Status, r.Body)
		}
	})
}
