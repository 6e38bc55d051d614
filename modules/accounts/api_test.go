package accounts_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestSuperAdminBuildsACompany follows the first-run path on both
// databases: the SuperAdmin creates a company, a CompanyAdmin and a User, and
// the User sees their own company but nothing of another.
func TestSuperAdminBuildsACompany(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		ta := kerneltest.Start(t, d, nil, app.Build)
		root := ta.SuperAdmin(t)
		acme := ta.Company(t, root, "Acme AB", "acme.example")
		other := ta.Company(t, root, "Other AB", "other.example")

		me := ta.Call(t, "GET", "/api/users", acme.UserToken, nil)
		if me.Status != 200 || me.Str("email") != "worker@acme.example" || me.Str("role") != "User" || me.Num("companyId") != acme.CompanyID {
			t.Fatalf("GET /users as the User: %d %s", me.Status, me.Body)
		}
		if _, leaked := me.Obj()["password"]; leaked {
			t.Errorf("user JSON carries a password field: %s", me.Body)
		}
		own := ta.Call(t, "GET", fmt.Sprintf("/api/companies/%d", acme.CompanyID), acme.UserToken, nil)
		if own.Status != 200 || own.Str("name") != "Acme AB" || own.Str("orgNumber") != "5566778899" || own.Str("invoiceAdress") != "billing@acme.example" {
			t.Fatalf("own company: %d %s", own.Status, own.Body)
		}
		for _, path := range []string{
			fmt.Sprintf("/api/companies/%d", other.CompanyID),
			fmt.Sprintf("/api/companies/%d/users", other.CompanyID),
			fmt.Sprintf("/api/users/%d", other.UserID),
			fmt.Sprintf("/api/users/%d/company", other.UserID),
		} {
			if r := ta.Call(t, "GET", path, acme.UserToken, nil); r.Status != http.StatusNotFound {
				t.Errorf("GET %s as another company's User: %d %s", path, r.Status, r.Body)
			}
		}
		if r := ta.Call(t, "PUT", fmt.Sprintf("/api/companies/%d", other.CompanyID), acme.CompanyAdminToken, map[string]any{"name": "Taken"}); r.Status != http.StatusNotFound {
			t.Errorf("PUT another company: %d %s", r.Status, r.Body)
		}
		all := ta.Call(t, "GET", "/api/companies/all", root, nil)
		if len(all.List()) != 2 {
			t.Errorf("SuperAdmin sees %d companies, want 2: %s", len(all.List()), all.Body)
		}
		if r := ta.Call(t, "GET", "/api/companies/all", acme.AdminToken, nil); r.Status != http.StatusForbidden {
			t.Errorf("GET /companies/all as Admin: %d", r.Status)
		}
		users := ta.Call(t, "GET", "/api/users/all", acme.CompanyAdminToken, nil)
		if len(users.List()) != 3 || strings.Contains(string(users.Body), "other.example") {
			t.Errorf("CompanyAdmin's user list: %s", users.Body)
		}
	})
}

// TestValidationMessages checks every validation message about users,
// companies, passwords and phone numbers, word for word.
func TestValidationMessages(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.Company(t, root, "Acme AB", "acme.example")
	companyPath := fmt.Sprintf("/api/companies/%d", acme.CompanyID)
	long := strings.Repeat("x", 256)
	cases := []struct {
		name, method, path, token string
		body                      any
		field, want               string
	}{
		{"company name required", "POST", "/api/companies", root, map[string]any{"orgNumber": "5566778899", "invoiceAdress": "a@b.se"}, "name", "You must enter a company name"},
		{"company name too long", "PUT", companyPath, root, map[string]any{"name": long}, "name", "Company name must not be more than 255 characters"},
		{"VAT number required", "POST", "/api/companies", root, map[string]any{"name": "X", "invoiceAdress": "a@b.se"}, "orgNumber", "You have to fill in you company VAT number"},
		{"VAT number format", "PUT", companyPath, root, map[string]any{"orgNumber": "12-ab"}, "orgNumber", "Wrong format VAT number"},
		{"company email required", "POST", "/api/companies", root, map[string]any{"name": "X", "orgNumber": "5566778899"}, "invoiceAdress", "You have to fill in email address"},
		{"company email valid", "PUT", companyPath, root, map[string]any{"invoiceAdress": "not-an-address"}, "invoiceAdress", "Add valid email adress"},
		{"passwords match", "POST", "/api/users", "", kerneltest.UserBody("new@acme.example", "confirmPassword", "something else"), "confirmPassword", "Passwords do not match"},
		{"phone required", "POST", "/api/users", "", kerneltest.UserBody("new@acme.example", "phoneNumber", ""), "phoneNumber", "This field must be filled in"},
		{"phone country code", "POST", "/api/users", "", kerneltest.UserBody("new@acme.example", "phoneNumber", "070-123 45 67"), "phoneNumber", "Don't forget that the phone number must have country code (e.g. 4607xxxxxxxx)"},
		{"phone letters", "PUT", fmt.Sprintf("/api/users/%d", acme.UserID), acme.UserToken, map[string]any{"phoneNumber": "46abc"}, "phoneNumber", "Don't forget that the phone number must have country code (e.g. 4607xxxxxxxx)"},
		{"user email valid", "POST", "/api/users", "", kerneltest.UserBody("nope"), "email", "Add valid email adress"},
		{"first name required", "POST", "/api/users", "", kerneltest.UserBody("new@acme.example", "firstName", " "), "firstName", "This field must be filled in"},
		{"last name too long", "POST", "/api/users", "", kerneltest.UserBody("new@acme.example", "lastName", long), "lastName", "This field contains too many characters"},
		{"reset passwords match", "PUT", "/api/users/forgot/0b7e6c1e-5d4f-4a51-9d2a-7d1f3c9e2b10", "", map[string]any{"password": "abcdefgh1", "confirmPassword": "abcdefgh2"}, "confirmPassword", "Passwords do not match"},
		{"nested company name", "POST", "/api/users/create/company", root, map[string]any{"company": map[string]any{"orgNumber": "5566778899", "invoiceAdress": "a@b.se"}, "user": kerneltest.UserBody("x@y.se")}, "company.name", "You must enter a company name"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := ta.Call(t, tc.method, tc.path, tc.token, tc.body)
			if r.Status != http.StatusBadRequest {
				t.Fatalf("status %d, want 400: %s", r.Status, r.Body)
			}
			if got := r.FieldError(tc.field); got != tc.want {
				t.Errorf("%s: got %q, want %q (%s)", tc.field, got, tc.want, r.Body)
			}
		})
	}
	// Nothing above may have changed the company.
	if r := ta.Call(t, "GET", companyPath, root, nil); r.Str("name") != "Acme AB" || r.Str("orgNumber") != "5566778899" {
		t.Errorf("a refused update changed the company: %s", r.Body)
	}
}

// TestSwedishMessages checks that errors follow Accept-Language.
func TestSwedishMessages(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	r := ta.Call(t, "POST", "/api/users/authenticate", "", map[string]any{"email": "x@y.se", "password": "wrong password"}, "Accept-Language", "sv-SE,sv;q=0.9")
	if r.Status != http.StatusUnauthorized || r.Str("message") != "E-post och lösenord stämmer inte, försök igen." {
		t.Errorf("Swedish login failure: %d %s", r.Status, r.Body)
	}
	r = ta.Call(t, "POST", "/api/users/authenticate", "", map[string]any{"email": "x@y.se", "password": "wrong password"})
	if r.Str("message") != "Email/password do not match try again." || r.Str("id") != "accounts.login.failed" {
		t.Errorf("English login failure: %d %s", r.Status, r.Body)
	}
}

// TestBadInputIsRefused sends malformed and hostile requests: each gets a 4xx
// with a message, never a 500, and nothing stored changes.
func TestBadInputIsRefused(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.Company(t, root, "Acme AB", "acme.example")
	userPath := fmt.Sprintf("/api/users/%d", acme.UserID)
	companyPath := fmt.Sprintf("/api/companies/%d", acme.CompanyID)
	huge := `{"name":"` + strings.Repeat("a", 2<<20) + `"}`
	cases := []struct {
		name, method, path, token string
		body                      any
		want                      int
	}{
		{"malformed JSON", "PUT", companyPath, root, `{"name": `, 400},
		{"not an object", "PUT", companyPath, root, `[1,2,3]`, 400},
		{"wrong type", "PUT", companyPath, root, `{"name": 12}`, 400},
		{"trailing garbage", "PUT", companyPath, root, `{"name": "B"} {"name": "C"}`, 400},
		{"oversized body", "PUT", companyPath, root, huge, 413},
		{"unknown user id", "GET", "/api/users/999999", root, nil, 404},
		{"non-numeric id", "GET", "/api/users/abc", root, nil, 400},
		{"negative id", "DELETE", "/api/companies/-4", root, nil, 400},
		{"id overflow", "GET", "/api/companies/99999999999999999999999", root, nil, 400},
		{"invalid GUID", "PUT", "/api/users/forgot/not-a-guid", "", map[string]any{"password": "abcdefgh1"}, 400},
		{"unknown GUID", "PUT", "/api/users/forgot/0b7e6c1e-5d4f-4a51-9d2a-7d1f3c9e2b10", "", map[string]any{"password": "abcdefgh1"}, 404},
		{"unknown role", "PUT", userPath + "/role/Overlord", acme.CompanyAdminToken, nil, 400},
		{"no token", "GET", "/api/users", "", nil, 401},
		{"forged token", "GET", "/api/users", "eyJ1IjoxLCJyIjoiU3VwZXJBZG1pbiJ9.AAAA", nil, 401},
		{"unknown route", "GET", "/api/nothing/here", root, nil, 404},
		{"wrong method", "PATCH", "/api/users", root, nil, 405},
		{"company data that no module serves", "GET", companyPath + "/no-such-data", root, nil, 404},
		{"empty body", "POST", "/api/users/authenticate", "", "", 400},
		{"wrong type in login", "POST", "/api/users/authenticate", "", `{"email": ["a"], "password": 1}`, 400},
		{"image that is not one", "POST", companyPath + "/image", root, []byte("<svg onload=alert(1)>"), 400},
		{"image too large", "POST", companyPath + "/image", root, append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 3<<20)...), 413},
	}
	before := ta.Call(t, "GET", companyPath, root, nil).Body
	beforeUser := ta.Call(t, "GET", userPath, root, nil).Body
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := ta.Call(t, tc.method, tc.path, tc.token, tc.body)
			if r.Status != tc.want {
				t.Fatalf("status %d, want %d: %.300s", r.Status, tc.want, r.Body)
			}
			if r.Str("message") == "" || r.Str("id") == "" {
				t.Errorf("answer lacks a message: %.300s", r.Body)
			}
		})
	}
	if after := ta.Call(t, "GET", companyPath, root, nil).Body; string(after) != string(before) {
		t.Errorf("company changed:\n%s\n%s", before, after)
	}
	if after := ta.Call(t, "GET", userPath, root, nil).Body; string(after) != string(beforeUser) {
		t.Errorf("user changed:\n%s\n%s", beforeUser, after)
	}
}

// TestRoleRules checks who may edit, re-role and delete whom.
func TestRoleRules(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.Company(t, root, "Acme AB", "acme.example")
	secondUser := ta.CreateUser(t, acme.CompanyAdminToken, "second@acme.example", "")
	secondAdmin := ta.CreateUser(t, acme.AdminToken, "admin2@acme.example", "CompanyAdmin")
	rootID := ta.Call(t, "GET", "/api/users", root, nil).Num("userId")
	cases := []struct {
		name, method, path, token string
		body                      any
		want                      int
	}{
		{"User edits themselves", "PUT", fmt.Sprintf("/api/users/%d", acme.UserID), acme.UserToken, map[string]any{"firstName": "Me"}, 200},
		{"User may not edit a colleague", "PUT", fmt.Sprintf("/api/users/%d", secondUser), acme.UserToken, map[string]any{"firstName": "You"}, 403},
		{"CompanyAdmin edits a User", "PUT", fmt.Sprintf("/api/users/%d", secondUser), acme.CompanyAdminToken, map[string]any{"firstName": "Edited"}, 200},
		{"CompanyAdmin may not edit a CompanyAdmin", "PUT", fmt.Sprintf("/api/users/%d", secondAdmin), acme.CompanyAdminToken, map[string]any{"firstName": "X"}, 403},
		{"CompanyAdmin may not edit an Admin", "PUT", fmt.Sprintf("/api/users/%d", acme.AdminID), acme.CompanyAdminToken, map[string]any{"firstName": "X"}, 403},
		{"CompanyAdmin may not make an Admin", "PUT", fmt.Sprintf("/api/users/%d/role/Admin", secondUser), acme.CompanyAdminToken, nil, 403},
		{"CompanyAdmin may not create an Admin", "POST", "/api/users", acme.CompanyAdminToken, kerneltest.UserBody("a3@acme.example", "role", "Admin"), 403},
		{"Admin edits a CompanyAdmin", "PUT", fmt.Sprintf("/api/users/%d", secondAdmin), acme.AdminToken, map[string]any{"lastName": "Y"}, 200},
		{"Admin may not edit a SuperAdmin", "PUT", fmt.Sprintf("/api/users/%d", rootID), acme.AdminToken, map[string]any{"lastName": "Y"}, 404},
		{"Admin may not make a SuperAdmin", "PUT", fmt.Sprintf("/api/users/%d/role/SuperAdmin", secondUser), acme.AdminToken, nil, 403},
		{"nobody changes their own role", "PUT", fmt.Sprintf("/api/users/%d/role/Admin", acme.CompanyAdminID), acme.CompanyAdminToken, nil, 400},
		{"nobody deletes themselves", "DELETE", fmt.Sprintf("/api/users/%d", acme.CompanyAdminID), acme.CompanyAdminToken, nil, 400},
		{"User may not delete a colleague", "DELETE", fmt.Sprintf("/api/users/%d", secondUser), acme.UserToken, nil, 403},
		{"User may not create users", "POST", "/api/users", acme.UserToken, kerneltest.UserBody("u3@acme.example"), 403},
		{"only a SuperAdmin deletes companies", "DELETE", fmt.Sprintf("/api/companies/%d", acme.CompanyID), acme.AdminToken, nil, 403},
		{"an Admin in a company cannot create another", "POST", "/api/companies", acme.AdminToken, map[string]any{"name": "X", "orgNumber": "5566778899", "invoiceAdress": "a@b.se"}, 409},
		{"CompanyAdmin promotes a User to CompanyAdmin", "PUT", fmt.Sprintf("/api/users/%d/role/CompanyAdmin", secondUser), acme.CompanyAdminToken, nil, 200},
		{"CompanyAdmin deletes a User", "DELETE", fmt.Sprintf("/api/users/%d", acme.UserID), acme.CompanyAdminToken, nil, 204},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if r := ta.Call(t, tc.method, tc.path, tc.token, tc.body); r.Status != tc.want {
				t.Errorf("status %d, want %d: %s", r.Status, tc.want, r.Body)
			}
		})
	}
	if r := ta.Call(t, "GET", fmt.Sprintf("/api/users/%d", secondUser), root, nil); r.Str("role") != "CompanyAdmin" || r.Str("firstName") != "Edited" {
		t.Errorf("second user after the changes: %s", r.Body)
	}
}

// TestSessions covers refresh-token rotation, logout and the session cookie.
func TestSessions(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		ta := kerneltest.Start(t, d, nil, app.Build)
		root := ta.SuperAdmin(t)
		acme := ta.Company(t, root, "Acme AB", "acme.example")
		login := ta.Call(t, "POST", "/api/users/authenticate", "", map[string]any{"email": "WORKER@acme.example ", "password": kerneltest.Password})
		if login.Status != 200 || login.Str("role") != "User" || login.Str("message") != "Logged in" {
			t.Fatalf("login: %d %s", login.Status, login.Body)
		}
		refresh := login.Str("refreshToken")
		r := ta.Call(t, "POST", "/api/users/refresh", "", map[string]any{"refreshToken": refresh})
		if r.Status != 200 || r.Str("token") == "" || r.Str("refreshToken") == refresh {
			t.Fatalf("refresh: %d %s", r.Status, r.Body)
		}
		// Within a few seconds of its rotation the old token still buys an access
		// token (two tabs renewing at once), but never a new refresh token.
		if again := ta.Call(t, "POST", "/api/users/refresh", "", map[string]any{"refreshToken": refresh}); again.Status != 200 || again.Str("refreshToken") != "" {
			t.Errorf("a rotated refresh token within its grace: %d %s", again.Status, again.Body)
		}
		// A role change ends the user's sessions, so the old role cannot be refreshed.
		if rr := ta.Call(t, "PUT", fmt.Sprintf("/api/users/%d/role/CompanyAdmin", acme.UserID), acme.CompanyAdminToken, nil); rr.Status != 200 {
			t.Fatalf("role change: %d %s", rr.Status, rr.Body)
		}
		if again := ta.Call(t, "POST", "/api/users/refresh", "", map[string]any{"refreshToken": r.Str("refreshToken")}); again.Status != http.StatusUnauthorized {
			t.Errorf("refresh after a role change: %d", again.Status)
		}
		fresh := ta.Call(t, "POST", "/api/users/authenticate", "", map[string]any{"email": "worker@acme.example", "password": kerneltest.Password})
		if fresh.Str("role") != "CompanyAdmin" {
			t.Errorf("new role not in the new login: %s", fresh.Body)
		}
		if out := ta.Call(t, "POST", "/api/users/logout", fresh.Str("token"), nil); out.Status != http.StatusNoContent {
			t.Errorf("logout: %d", out.Status)
		}
		if again := ta.Call(t, "POST", "/api/users/refresh", "", map[string]any{"refreshToken": fresh.Str("refreshToken")}); again.Status != http.StatusUnauthorized {
			t.Errorf("refresh after logout: %d", again.Status)
		}
	})
}

// TestSessionCookie checks that browsers are served by the HttpOnly cookie
// and that another site cannot use it to change anything.
func TestSessionCookie(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.Company(t, root, "Acme AB", "acme.example")
	login := ta.Call(t, "POST", "/api/users/authenticate", "", map[string]any{"email": "worker@acme.example", "password": kerneltest.Password})
	var cookie string
	for _, c := range login.Header.Values("Set-Cookie") {
		if strings.HasPrefix(c, "fieldhub_token=") {
			cookie = strings.SplitN(c, ";", 2)[0]
			if !strings.Contains(c, "HttpOnly") || !strings.Contains(c, "SameSite=Lax") {
				t.Errorf("session cookie is not HttpOnly and SameSite=Lax: %s", c)
			}
		}
	}
	if cookie == "" {
		t.Fatalf("no session cookie: %v", login.Header)
	}
	if r := ta.Call(t, "GET", "/api/users", "", nil, "Cookie", cookie); r.Status != 200 {
		t.Errorf("GET with the cookie: %d", r.Status)
	}
	path := fmt.Sprintf("/api/users/%d", acme.UserID)
	if r := ta.Call(t, "PUT", path, "", map[string]any{"firstName": "Evil"}, "Cookie", cookie, "Origin", "https://evil.example"); r.Status != http.StatusUnauthorized {
		t.Errorf("cross-site PUT with the cookie: %d", r.Status)
	}
	if r := ta.Call(t, "PUT", path, "", map[string]any{"firstName": "Good"}, "Cookie", cookie, "Origin", ta.URL); r.Status != 200 {
		t.Errorf("same-site PUT with the cookie: %d %s", r.Status, r.Body)
	}
}

// TestLoginRateLimit checks that repeated failures from one client make it
// wait, also with the right password, and that the answer says how long.
func TestLoginRateLimit(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	ta.Company(t, root, "Acme AB", "acme.example")
	for i := 0; i < 5; i++ {
		if r := ta.Call(t, "POST", "/api/users/authenticate", "", map[string]any{"email": "worker@acme.example", "password": "wrong"}); r.Status != http.StatusUnauthorized {
			t.Fatalf("failure %d: %d", i, r.Status)
		}
	}
	failedJustNow(t, ta.Host().DB, "127.0.0.1")
	r := ta.Call(t, "POST", "/api/users/authenticate", "", map[string]any{"email": "worker@acme.example", "password": kerneltest.Password})
	if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" || r.Str("id") != "accounts.login.tooMany" {
		t.Errorf("6th attempt: %d %s", r.Status, r.Body)
	}
	failedJustNow(t, ta.Host().DB, "127.0.0.1")
	sv := ta.Call(t, "POST", "/api/users/authenticate", "", map[string]any{"email": "worker@acme.example", "password": "wrong"}, "Accept-Language", "sv")
	if want := "För många misslyckade inloggningar härifrån; försök igen om " + sv.Header.Get("Retry-After") + " s"; sv.Str("message") != want {
		t.Errorf("Swedish: %q, want %q", sv.Str("message"), want)
	}
}

// TestForgotPassword runs the reset round trip through a real SMTP server.
func TestForgotPassword(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		smtpURL, inbox := kerneltest.StartSMTP(t)
		ta := kerneltest.Start(t, d, map[string]string{"SMTP_URL": smtpURL, "FIELDHUB_PUBLIC_URL": "https://portal.example"}, app.Build)
		root := ta.SuperAdmin(t)
		ta.Company(t, root, "Acme AB", "acme.example")
		for _, email := range []string{"worker@acme.example", "nobody@acme.example"} {
			r := ta.Call(t, "POST", "/api/users/forgot/"+email, "", nil)
			if r.Status != http.StatusAccepted || !strings.Contains(r.Str("message"), "reset") {
				t.Fatalf("forgot %s: %d %s", email, r.Status, r.Body)
			}
		}
		m := inbox.Wait(t, "worker@acme.example", 10*time.Second)
		i := strings.Index(m.Body, "https://portal.example/forgot/")
		if i < 0 {
			t.Fatalf("no reset link in the mail: %q", m.Body)
		}
		guid := strings.Fields(m.Body[i+len("https://portal.example/forgot/"):])[0]
		r := ta.Call(t, "PUT", "/api/users/forgot/"+guid, "", map[string]any{"password": "a new password", "confirmPassword": "a new password"})
		if r.Status != 200 {
			t.Fatalf("reset: %d %s", r.Status, r.Body)
		}
		if again := ta.Call(t, "PUT", "/api/users/forgot/"+guid, "", map[string]any{"password": "third password"}); again.Status != http.StatusNotFound {
			t.Errorf("a used link worked again: %d", again.Status)
		}
		ta.Login(t, "worker@acme.example", "a new password")
		if old := ta.Call(t, "POST", "/api/users/authenticate", "", map[string]any{"email": "worker@acme.example", "password": kerneltest.Password}); old.Status != http.StatusUnauthorized {
			t.Errorf("old password still works: %d", old.Status)
		}
		for _, got := range inbox.All() {
			for _, to := range got.To {
				if to == "nobody@acme.example" {
					t.Errorf("a mail went to an address without an account")
				}
			}
		}
	})
}

// TestInvite checks the invitation texts and that the invited user joins
// the company and is told by mail.
func TestInvite(t *testing.T) {
	smtpURL, inbox := kerneltest.StartSMTP(t)
	ta := kerneltest.Start(t, db.SQLite, map[string]string{"SMTP_URL": smtpURL}, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.Company(t, root, "Acme AB", "acme.example")
	other := ta.Company(t, root, "Other AB", "other.example")
	invite := fmt.Sprintf("/api/companies/%d/user", acme.CompanyID)
	r := ta.Call(t, "POST", invite, acme.CompanyAdminToken, map[string]any{"email": "stranger@example.com"})
	if r.Status != http.StatusNotFound || r.Str("message") != "Could not find the user, Make sure the user is registrered before!" {
		t.Errorf("invite unregistered: %d %s", r.Status, r.Body)
	}
	reg := ta.Call(t, "POST", "/api/users", "", kerneltest.UserBody("stranger@example.com"))
	if reg.Status != http.StatusCreated || reg.Str("id") != "accounts.register.done" {
		t.Fatalf("register: %d %s", reg.Status, reg.Body)
	}
	if me := ta.Call(t, "GET", "/api/users", ta.Login(t, "stranger@example.com", kerneltest.Password), nil); me.Obj()["companyId"] != nil || me.Str("role") != "User" {
		t.Fatalf("a registered user is a User without a company: %s", me.Body)
	}
	r = ta.Call(t, "POST", invite, acme.CompanyAdminToken, map[string]any{"email": "Stranger@example.com"})
	if r.Status != 200 || r.Str("message") != "Invitation sent" {
		t.Fatalf("invite: %d %s", r.Status, r.Body)
	}
	if m := inbox.Wait(t, "stranger@example.com", 10*time.Second); !strings.Contains(m.Subject, "Acme AB") {
		t.Errorf("invitation mail subject: %q", m.Subject)
	}
	token := ta.Login(t, "stranger@example.com", kerneltest.Password)
	if me := ta.Call(t, "GET", "/api/users", token, nil); me.Num("companyId") != acme.CompanyID {
		t.Errorf("invited user not in the company: %s", me.Body)
	}
	r = ta.Call(t, "POST", fmt.Sprintf("/api/companies/%d/user", other.CompanyID), other.CompanyAdminToken, map[string]any{"email": "stranger@example.com"})
	if r.Status != http.StatusConflict {
		t.Errorf("inviting another company's user: %d %s", r.Status, r.Body)
	}
}

// TestCompanyImage uploads, serves and removes a logo.
func TestCompanyImage(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		ta := kerneltest.Start(t, d, nil, app.Build)
		root := ta.SuperAdmin(t)
		acme := ta.Company(t, root, "Acme AB", "acme.example")
		path := fmt.Sprintf("/api/companies/%d/image", acme.CompanyID)
		png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), make([]byte, 64)...)
		r := ta.Call(t, "POST", path, acme.CompanyAdminToken, png, "Content-Type", "image/png")
		if r.Status != 200 || !strings.HasPrefix(r.Str("image"), path+"?v=") {
			t.Fatalf("upload: %d %s", r.Status, r.Body)
		}
		img := ta.Call(t, "GET", r.Str("image"), acme.UserToken, nil)
		if img.Status != 200 || img.Header.Get("Content-Type") != "image/png" || string(img.Body) != string(png) {
			t.Errorf("download: %d %s", img.Status, img.Header.Get("Content-Type"))
		}
		if del := ta.Call(t, "DELETE", path, acme.UserToken, nil); del.Status != http.StatusForbidden {
			t.Errorf("User deletes logo: %d", del.Status)
		}
		if del := ta.Call(t, "DELETE", path, acme.CompanyAdminToken, nil); del.Status != http.StatusNoContent {
			t.Errorf("delete: %d", del.Status)
		}
		if c := ta.Call(t, "GET", fmt.Sprintf("/api/companies/%d", acme.CompanyID), acme.UserToken, nil); c.Obj()["image"] != nil {
			t.Errorf("image after delete: %s", c.Body)
		}
	})
}

// TestFirstSuperAdmin checks that an empty installation gets one SuperAdmin,
// once.
func TestFirstSuperAdmin(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	ctx := context.Background()
	email, password, created, err := ta.App.Accounts().EnsureFirstSuperAdmin(ctx)
	if err != nil || !created {
		t.Fatalf("first start: created=%v err=%v", created, err)
	}
	if r := ta.Call(t, "POST", "/api/users/authenticate", "", map[string]any{"email": email, "password": password}); r.Str("role") != "SuperAdmin" {
		t.Errorf("first SuperAdmin login: %s", r.Body)
	}
	if _, _, again, err := ta.App.Accounts().EnsureFirstSuperAdmin(ctx); err != nil || again {
		t.Errorf("second start created another: %v %v", again, err)
	}
}
