package accounts_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// The server pages of the accounts module (/company, /company/edit,
// /company/usercreate, /company/user/{userId}, /company/create, /register,
// /superadmin), driven as a browser without JavaScript (a form post, then a
// 303) and as htmx (HX-Request: true, a fragment or an HX-Redirect).

// companyForm is a valid /company/edit form, changed by name, value pairs.
func companyForm(pairs ...string) url.Values {
	f := url.Values{
		"name": {"Acme Sweden AB"}, "orgNumber": {"SE556677889901"}, "invoiceAdress": {"info@acme.example"},
		"contactPhonenumber": {"+46 8 123 456"}, "postalAdress": {"Box 1, 111 11 Stockholm"}, "deliveryAdress": {"Gatan 2"},
		"refrenceNmuber": {"REF-7"}, "country": {"GB"},
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		f.Set(pairs[i], pairs[i+1])
	}
	return f
}

// userForm is a valid new-user form, changed by name, value pairs.
func userForm(email string, pairs ...string) url.Values {
	f := url.Values{
		"firstName": {"Grace"}, "lastName": {"Hopper"}, "email": {email}, "phoneNumber": {"46701234567"},
		"password": {kerneltest.Password}, "confirmPassword": {kerneltest.Password}, "role": {"User"},
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		f.Set(pairs[i], pairs[i+1])
	}
	return f
}

func TestPageGuards(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")
	user := fmt.Sprintf("/company/user/%d", acme.UserID)
	cases := []struct {
		name, method, path, token string
		headers                   []string
		want                      string // where the guard sends the browser
	}{
		{"visitor on /company", "GET", "/company", "", nil, "/login?next=%2Fcompany"},
		{"visitor on a user", "GET", user, "", nil, "/login?next=" + url.QueryEscape(user)},
		{"visitor on /superadmin with htmx", "GET", "/superadmin", "", kerneltest.HTMX, "/login?next=%2Fsuperadmin"},
		{"visitor posts /company/edit", "POST", "/company/edit", "", nil, "/login?next=%2Fcompany%2Fedit"},
		{"User on /company/edit", "GET", "/company/edit", acme.UserToken, nil, "/"},
		{"User posts /company/edit", "POST", "/company/edit", acme.UserToken, nil, "/"},
		{"User on /company/usercreate", "GET", "/company/usercreate", acme.UserToken, nil, "/"},
		{"User posts an invitation", "POST", "/company/usercreate/invite", acme.UserToken, nil, "/"},
		{"User changes a role", "POST", user + "/role", acme.UserToken, nil, "/"},
		{"CompanyAdmin on /company/create", "GET", "/company/create", acme.CompanyAdminToken, nil, "/"},
		{"SuperAdmin on /company/create (Admin only)", "GET", "/company/create", root, nil, "/"},
		{"Admin on /register", "GET", "/register", acme.AdminToken, nil, "/"},
		{"Admin on /superadmin", "GET", "/superadmin", acme.AdminToken, nil, "/"},
		{"CompanyAdmin on /superadmin with htmx", "GET", "/superadmin", acme.CompanyAdminToken, kerneltest.HTMX, "/"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var form url.Values
			if tc.method == "POST" {
				form = url.Values{"name": {"Hacked"}, "role": {"Admin"}, "email": {"x@y.se"}}
			}
			p := ta.Page(t, tc.method, tc.path, tc.token, form, tc.headers...)
			wantStatus := http.StatusSeeOther
			if tc.headers != nil {
				wantStatus = http.StatusNoContent
			}
			if p.Status != wantStatus || p.Redirect() != tc.want {
				t.Errorf("got %d to %q, want %d to %q", p.Status, p.Redirect(), wantStatus, tc.want)
			}
		})
	}
	if r := ta.Call(t, "GET", fmt.Sprintf("/api/companies/%d", acme.CompanyID), root, nil); r.Str("name") != "Acme AB" {
		t.Errorf("a refused post changed the company: %s", r.Body)
	}
	allowed := []struct{ name, path, token string }{
		{"User on /company", "/company", acme.UserToken},
		{"User on their own page", user, acme.UserToken},
		{"CompanyAdmin on /company/edit", "/company/edit", acme.CompanyAdminToken},
		{"Admin on /company/usercreate", "/company/usercreate", acme.AdminToken},
		{"Admin on /company/create", "/company/create", acme.AdminToken},
		{"SuperAdmin on /register", "/register", root},
		{"SuperAdmin on /superadmin", "/superadmin", root},
	}
	for _, tc := range allowed {
		t.Run(tc.name, func(t *testing.T) {
			if p := ta.Page(t, "GET", tc.path, tc.token, nil); p.Status != http.StatusOK || !p.FullPage() {
				t.Errorf("status %d, full page %v: %.300s", p.Status, p.FullPage(), p.Body)
			}
		})
	}
}

func TestCompanyOverviewPage(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")
	ta.EnglishCompany(t, root, "Other AB", "other.example")
	if r := ta.Call(t, "POST", "/api/users", "", kerneltest.UserBody("loner@example.com")); r.Status != http.StatusCreated {
		t.Fatalf("register: %d %s", r.Status, r.Body)
	}
	loner := ta.Login(t, "loner@example.com", kerneltest.Password)
	ta.CreateUser(t, root, "free-admin@example.com", "Admin")
	freeAdmin := ta.Login(t, "free-admin@example.com", kerneltest.Password)
	cases := []struct {
		name, token string
		want, not   []string
	}{
		{"User sees the company and its users", acme.UserToken,
			[]string{"Acme AB", "5566778899", "billing@acme.example", "United Kingdom", "worker@acme.example", "boss@acme.example", fmt.Sprintf(`href="/company/user/%d"`, acme.CompanyAdminID)},
			[]string{`href="/company/edit"`, `href="/company/usercreate"`, "other.example"}},
		{"CompanyAdmin gets the edit buttons", acme.CompanyAdminToken,
			[]string{`href="/company/edit"`, `href="/company/usercreate"`}, nil},
		{"a User without a company is told to get invited", loner,
			[]string{"You do not belong to a company yet.", "invite you"}, []string{`href="/company/create"`}},
		{"an Admin without a company may create one", freeAdmin,
			[]string{"You do not belong to a company yet.", `href="/company/create"`}, nil},
		{"SuperAdmin sees the chosen company", root, []string{"Acme AB", `href="/company/edit"`}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.Page(t, "GET", "/company", tc.token, nil)
			if p.Status != http.StatusOK {
				t.Fatalf("status %d: %.300s", p.Status, p.Body)
			}
			for _, w := range tc.want {
				if !strings.Contains(p.Body, w) {
					t.Errorf("lacks %q", w)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(p.Body, n) {
					t.Errorf("shows %q", n)
				}
			}
		})
	}
}

func TestCompanyEditPage(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")
	companyPath := fmt.Sprintf("/api/companies/%d", acme.CompanyID)
	cases := []struct {
		name    string
		form    url.Values
		headers []string
		status  int
		want    string
	}{
		{"name required", companyForm("name", " "), nil, 400, "You must enter a company name"},
		{"name too long, htmx", companyForm("name", strings.Repeat("x", 256)), kerneltest.HTMX, 200, "Company name must not be more than 255 characters"},
		{"VAT number required", companyForm("orgNumber", ""), nil, 400, "You have to fill in you company VAT number"},
		{"VAT number format, htmx", companyForm("orgNumber", "12-ab"), kerneltest.HTMX, 200, "Wrong format VAT number"},
		{"email required", companyForm("invoiceAdress", ""), nil, 400, "You have to fill in email address"},
		{"email valid", companyForm("invoiceAdress", "not-an-address"), kerneltest.HTMX, 200, "Add valid email adress"},
		{"phone country code", companyForm("contactPhonenumber", "070-123 45 67"), nil, 400, "Don't forget that the phone number must have country code (e.g. 4607xxxxxxxx)"},
		{"country code", companyForm("country", "Sweden"), nil, 400, "Give the country as a two-letter code, such as SE"},
		{"time zone, htmx", companyForm("timezone", "Mars/Olympus"), kerneltest.HTMX, 200, "Unknown time zone: give an IANA name, such as Europe/Stockholm"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.Page(t, "POST", "/company/edit", acme.CompanyAdminToken, tc.form, tc.headers...)
			if p.Status != tc.status || !strings.Contains(p.Body, tc.want) {
				t.Fatalf("status %d, want %d with %q: %.500s", p.Status, tc.status, tc.want, p.Body)
			}
			if p.FullPage() == (tc.headers != nil) {
				t.Errorf("htmx %v but full page %v", tc.headers != nil, p.FullPage())
			}
			if !strings.Contains(p.Body, `value="`+tc.form.Get("refrenceNmuber")+`"`) {
				t.Errorf("the refused form lost what was typed")
			}
		})
	}
	t.Run("a body that is not a form", func(t *testing.T) {
		req, _ := http.NewRequest("POST", ta.URL+"/company/edit", strings.NewReader("name=%zz&orgNumber"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if p := ta.SendPage(t, req, acme.CompanyAdminToken); p.Status != http.StatusBadRequest {
			t.Errorf("status %d: %.300s", p.Status, p.Body)
		}
	})
	if r := ta.Call(t, "GET", companyPath, root, nil); r.Str("name") != "Acme AB" {
		t.Fatalf("a refused form changed the company: %s", r.Body)
	}
	saves := []struct {
		name, token, newName string
		headers              []string
	}{
		{"CompanyAdmin saves", acme.CompanyAdminToken, "Acme Sweden AB", nil},
		{"Admin saves with htmx", acme.AdminToken, "Acme Nordic AB", kerneltest.HTMX},
	}
	for _, tc := range saves {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.Page(t, "POST", "/company/edit", tc.token, companyForm("name", tc.newName, "country", "NO"), tc.headers...)
			if p.Redirect() != "/company" || p.Toast() != `{"level":"success","text":"The company has been updated"}` {
				t.Fatalf("status %d to %q, toast %q: %.300s", p.Status, p.Redirect(), p.Toast(), p.Body)
			}
			r := ta.Call(t, "GET", companyPath, tc.token, nil)
			if r.Str("name") != tc.newName || r.Str("orgNumber") != "SE556677889901" || r.Str("country") != "NO" || r.Str("contactPhonenumber") != "468123456" {
				t.Errorf("company after save: %s", r.Body)
			}
		})
	}
}

func TestCompanyLogoPages(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")
	companyPath := fmt.Sprintf("/api/companies/%d", acme.CompanyID)
	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), make([]byte, 64)...)
	upload := func(t *testing.T, data []byte, headers ...string) kerneltest.Page {
		t.Helper()
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		fw, _ := mw.CreateFormFile("file", "logo.png")
		_, _ = fw.Write(data)
		_ = mw.Close()
		req, _ := http.NewRequest("POST", ta.URL+"/company/edit/logo", &buf)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		return ta.SendPage(t, req, acme.CompanyAdminToken, headers...)
	}
	cases := []struct {
		name    string
		data    []byte
		headers []string
		status  int
		want    string
	}{
		{"not an image", []byte("<svg onload=alert(1)>"), nil, 400, "The image must be a PNG, JPEG, GIF or WebP file"},
		{"empty file, htmx", nil, kerneltest.HTMX, 200, "Choose an image to upload"},
		{"too large, htmx swaps the form in", append(png, make([]byte, 3<<20)...), kerneltest.HTMX, 200, "The image must be at most 2048 KB"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := upload(t, tc.data, tc.headers...)
			if p.Status != tc.status || !strings.Contains(p.Body, tc.want) {
				t.Errorf("status %d, want %d with %q: %.300s", p.Status, tc.status, tc.want, p.Body)
			}
		})
	}
	p := upload(t, png)
	if p.Redirect() != "/company/edit" {
		t.Fatalf("upload: %d %.300s", p.Status, p.Body)
	}
	image := ta.Call(t, "GET", companyPath, root, nil).Str("image")
	if image == "" {
		t.Fatal("no image after upload")
	}
	if p := ta.Page(t, "GET", "/company", acme.UserToken, nil); !strings.Contains(p.Body, `src="`+image+`"`) {
		t.Errorf("overview lacks the logo %s", image)
	}
	edit := ta.Page(t, "GET", "/company/edit", acme.CompanyAdminToken, nil)
	if !strings.Contains(edit.Body, `href="/company/edit/logo/delete"`) || strings.Contains(edit.Body, "confirm(") {
		t.Errorf("edit page lacks the remove step: %.300s", edit.Body)
	}
	confirm := ta.Page(t, "GET", "/company/edit/logo/delete", acme.CompanyAdminToken, nil, kerneltest.HTMX...)
	if confirm.Status != 200 || !strings.Contains(confirm.Body, "Remove the logo of Acme AB? This cannot be undone.") || confirm.FullPage() {
		t.Errorf("confirmation: %d %.300s", confirm.Status, confirm.Body)
	}
	if ta.Call(t, "GET", companyPath, root, nil).Str("image") == "" {
		t.Fatal("asking for the confirmation removed the logo")
	}
	if p := ta.Page(t, "POST", "/company/edit/logo/delete", acme.CompanyAdminToken, url.Values{}); p.Redirect() != "/company/edit" {
		t.Fatalf("remove: %d %.300s", p.Status, p.Body)
	}
	if r := ta.Call(t, "GET", companyPath, root, nil); r.Obj()["image"] != nil {
		t.Errorf("image after removal: %s", r.Body)
	}
}

func TestUserPages(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")
	other := ta.EnglishCompany(t, root, "Other AB", "other.example")
	second := ta.CreateUser(t, acme.CompanyAdminToken, "second@acme.example", "")
	path := func(id int64, rest string) string { return fmt.Sprintf("/company/user/%d%s", id, rest) }
	edit := url.Values{"firstName": {"Edited"}, "lastName": {"Worker"}, "email": {"worker@acme.example"}, "phoneNumber": {"+46 70 111 22 33"}}
	with := func(f url.Values, k, v string) url.Values {
		c := url.Values{}
		for key, vals := range f {
			c[key] = vals
		}
		c.Set(k, v)
		return c
	}
	cases := []struct {
		name, method, path, token string
		form                      url.Values
		headers                   []string
		status                    int
		want, not                 []string
	}{
		{"another company's user is a 404", "GET", path(other.UserID, ""), acme.CompanyAdminToken, nil, nil, 404, nil, []string{"other.example"}},
		{"another company's user cannot be edited", "POST", path(other.UserID, ""), acme.AdminToken, edit, nil, 404, nil, nil},
		{"another company's user cannot be deleted", "POST", path(other.UserID, "/delete"), acme.AdminToken, url.Values{}, nil, 404, nil, nil},
		{"not an id", "GET", "/company/user/abc", acme.UserToken, nil, nil, 400, nil, nil},
		{"User sees their own form, no delete", "GET", path(acme.UserID, ""), acme.UserToken, nil, nil, 200,
			[]string{`name="firstName"`, `name="currentPassword"`}, []string{path(acme.UserID, "/delete"), `name="role"`}},
		{"User sees a colleague read-only", "GET", path(second, ""), acme.UserToken, nil, nil, 200,
			[]string{"second@acme.example", "Only an administrator can change this user."}, []string{`name="firstName"`, "/delete"}},
		{"CompanyAdmin gets edit, role and delete", "GET", path(acme.UserID, ""), acme.CompanyAdminToken, nil, nil, 200,
			[]string{`name="firstName"`, `name="role"`, `value="CompanyAdmin"`, `href="` + path(acme.UserID, "/delete") + `"`}, []string{`value="Admin"`, `name="currentPassword"`}},
		{"CompanyAdmin has no delete button for themselves", "GET", path(acme.CompanyAdminID, ""), acme.CompanyAdminToken, nil, nil, 200,
			nil, []string{path(acme.CompanyAdminID, "/delete"), `name="role"`}},
		{"CompanyAdmin may not edit an Admin", "POST", path(acme.AdminID, ""), acme.CompanyAdminToken, edit, nil, 403, nil, nil},
		{"phone country code", "POST", path(acme.UserID, ""), acme.CompanyAdminToken, with(edit, "phoneNumber", "070-111"), nil, 400,
			[]string{"Don't forget that the phone number must have country code (e.g. 4607xxxxxxxx)"}, nil},
		{"first name required, htmx", "POST", path(acme.UserID, ""), acme.CompanyAdminToken, with(edit, "firstName", ""), kerneltest.HTMX, 200,
			[]string{"This field must be filled in"}, []string{"<html"}},
		{"own password needs the current one", "POST", path(acme.UserID, ""), acme.UserToken,
			with(with(edit, "password", "brand new pw"), "confirmPassword", "brand new pw"), nil, 400, []string{"The current password is wrong"}, nil},
		{"CompanyAdmin may not grant Admin, htmx", "POST", path(acme.UserID, "/role"), acme.CompanyAdminToken, url.Values{"role": {"Admin"}}, kerneltest.HTMX, 200,
			[]string{"You may not give that role to that user"}, nil},
		{"no such role", "POST", path(acme.UserID, "/role"), acme.CompanyAdminToken, url.Values{"role": {"Overlord"}}, nil, 400,
			[]string{"Overlord is not a role"}, nil},
		{"nobody changes their own role", "POST", path(acme.CompanyAdminID, "/role"), acme.CompanyAdminToken, url.Values{"role": {"User"}}, nil, 400,
			[]string{"You cannot change your own role"}, nil},
		{"nobody deletes themselves", "GET", path(acme.CompanyAdminID, "/delete"), acme.CompanyAdminToken, nil, nil, 400, []string{"You cannot delete yourself"}, nil},
		{"nobody deletes themselves by posting", "POST", path(acme.CompanyAdminID, "/delete"), acme.CompanyAdminToken, url.Values{}, nil, 400, nil, nil},
		{"User may not delete a colleague", "POST", path(second, "/delete"), acme.UserToken, url.Values{}, nil, 403, nil, nil},
		{"the delete step asks first", "GET", path(second, "/delete"), acme.CompanyAdminToken, nil, nil, 200,
			[]string{"Delete Ada Lovelace (second@acme.example)? This cannot be undone.", `action="` + path(second, "/delete") + `"`}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.Page(t, tc.method, tc.path, tc.token, tc.form, tc.headers...)
			if p.Status != tc.status {
				t.Fatalf("status %d, want %d: %.500s", p.Status, tc.status, p.Body)
			}
			for _, w := range tc.want {
				if !strings.Contains(p.Body, w) {
					t.Errorf("lacks %q", w)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(p.Body, n) {
					t.Errorf("shows %q", n)
				}
			}
		})
	}
	if r := ta.Call(t, "GET", fmt.Sprintf("/api/users/%d", other.UserID), root, nil); r.Status != 200 {
		t.Fatalf("another company's user was deleted: %d", r.Status)
	}
	if r := ta.Call(t, "GET", fmt.Sprintf("/api/users/%d", acme.UserID), root, nil); r.Str("firstName") != "Ada" || r.Str("role") != "User" {
		t.Fatalf("a refused form changed the user: %s", r.Body)
	}

	t.Run("CompanyAdmin edits a User", func(t *testing.T) {
		p := ta.Page(t, "POST", path(acme.UserID, ""), acme.CompanyAdminToken, edit)
		if p.Redirect() != path(acme.UserID, "") {
			t.Fatalf("status %d to %q: %.300s", p.Status, p.Redirect(), p.Body)
		}
		if r := ta.Call(t, "GET", fmt.Sprintf("/api/users/%d", acme.UserID), root, nil); r.Str("firstName") != "Edited" || r.Str("phoneNumber") != "46701112233" {
			t.Errorf("user after edit: %s", r.Body)
		}
	})
	t.Run("CompanyAdmin promotes a User, htmx", func(t *testing.T) {
		p := ta.Page(t, "POST", path(second, "/role"), acme.CompanyAdminToken, url.Values{"role": {"CompanyAdmin"}}, kerneltest.HTMX...)
		if p.Status != http.StatusNoContent || p.Redirect() != path(second, "") {
			t.Fatalf("status %d to %q: %.300s", p.Status, p.Redirect(), p.Body)
		}
		if r := ta.Call(t, "GET", fmt.Sprintf("/api/users/%d", second), root, nil); r.Str("role") != "CompanyAdmin" {
			t.Errorf("role after change: %s", r.Body)
		}
	})
	t.Run("Admin deletes a user after confirming", func(t *testing.T) {
		p := ta.Page(t, "POST", path(second, "/delete"), acme.AdminToken, url.Values{})
		if p.Redirect() != "/company" || !strings.Contains(p.Toast(), "Ada Lovelace has been deleted") {
			t.Fatalf("status %d to %q, toast %q: %.300s", p.Status, p.Redirect(), p.Toast(), p.Body)
		}
		if r := ta.Call(t, "GET", fmt.Sprintf("/api/users/%d", second), root, nil); r.Status != http.StatusNotFound {
			t.Errorf("deleted user still there: %d", r.Status)
		}
	})
	t.Run("User changes their own password", func(t *testing.T) {
		form := with(with(with(edit, "currentPassword", kerneltest.Password), "password", "brand new pw"), "confirmPassword", "brand new pw")
		if p := ta.Page(t, "POST", path(acme.UserID, ""), acme.UserToken, form); p.Status != http.StatusSeeOther {
			t.Fatalf("status %d: %.300s", p.Status, p.Body)
		}
		ta.Login(t, "worker@acme.example", "brand new pw")
	})
}

func TestUsercreatePage(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")
	if r := ta.Call(t, "POST", "/api/users", "", kerneltest.UserBody("stranger@example.com")); r.Status != http.StatusCreated {
		t.Fatalf("register: %d %s", r.Status, r.Body)
	}
	form := ta.Page(t, "GET", "/company/usercreate", acme.CompanyAdminToken, nil)
	for _, w := range []string{`<option value="User" selected>`, `<option value="CompanyAdmin">`, "Invite a registered user", `for="f-invite-email"`} {
		if !strings.Contains(form.Body, w) {
			t.Errorf("usercreate page lacks %q", w)
		}
	}
	if strings.Contains(form.Body, `<option value="Admin"`) {
		t.Errorf("a CompanyAdmin is offered the Admin role")
	}
	cases := []struct {
		name, path, token string
		form              url.Values
		headers           []string
		status            int
		want              string
	}{
		{"passwords match", "/company/usercreate", acme.CompanyAdminToken, userForm("new@acme.example", "confirmPassword", "something else"), nil, 400, "Passwords do not match"},
		{"email valid, htmx", "/company/usercreate", acme.CompanyAdminToken, userForm("nope"), kerneltest.HTMX, 200, "Add valid email adress"},
		{"email taken", "/company/usercreate", acme.CompanyAdminToken, userForm("worker@acme.example"), nil, 409, "A user with this email address already exists"},
		{"CompanyAdmin may not create an Admin", "/company/usercreate", acme.CompanyAdminToken, userForm("boss2@acme.example", "role", "Admin"), nil, 403, "You may not give that role to that user"},
		{"CompanyAdmin may not create an Admin, htmx", "/company/usercreate", acme.CompanyAdminToken, userForm("boss2@acme.example", "role", "Admin"), kerneltest.HTMX, 200, "You may not give that role to that user"},
		{"invite unregistered", "/company/usercreate/invite", acme.CompanyAdminToken, url.Values{"email": {"ghost@example.com"}}, nil, 404, "Could not find the user, Make sure the user is registrered before!"},
		{"invite unregistered, htmx", "/company/usercreate/invite", acme.CompanyAdminToken, url.Values{"email": {"ghost@example.com"}}, kerneltest.HTMX, 200, "Could not find the user, Make sure the user is registrered before!"},
		{"invite needs an address", "/company/usercreate/invite", acme.CompanyAdminToken, url.Values{"email": {""}}, kerneltest.HTMX, 200, "This field must be filled in"},
		{"invite", "/company/usercreate/invite", acme.CompanyAdminToken, url.Values{"email": {"Stranger@example.com"}}, kerneltest.HTMX, 200, "Invitation sent"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.Page(t, "POST", tc.path, tc.token, tc.form, tc.headers...)
			if p.Status != tc.status || !strings.Contains(p.Body, tc.want) {
				t.Fatalf("status %d, want %d with %q: %.500s", p.Status, tc.status, tc.want, p.Body)
			}
			if p.FullPage() == (tc.headers != nil) {
				t.Errorf("htmx %v but full page %v", tc.headers != nil, p.FullPage())
			}
		})
	}
	if me := ta.Call(t, "GET", "/api/users", ta.Login(t, "stranger@example.com", kerneltest.Password), nil); me.Num("companyId") != acme.CompanyID {
		t.Errorf("invited user not in the company: %s", me.Body)
	}
	creates := []struct {
		name, token, email, role string
		headers                  []string
	}{
		{"CompanyAdmin creates a User", acme.CompanyAdminToken, "new@acme.example", "User", nil},
		{"Admin creates an Admin, htmx", acme.AdminToken, "admin3@acme.example", "Admin", kerneltest.HTMX},
		{"SuperAdmin creates in the chosen company", root, "fromroot@acme.example", "CompanyAdmin", nil},
	}
	for _, tc := range creates {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.Page(t, "POST", "/company/usercreate", tc.token, userForm(tc.email, "role", tc.role), tc.headers...)
			if !strings.HasPrefix(p.Redirect(), "/company/user/") || !strings.Contains(p.Toast(), "Grace Hopper has been created") {
				t.Fatalf("status %d to %q, toast %q: %.300s", p.Status, p.Redirect(), p.Toast(), p.Body)
			}
			me := ta.Call(t, "GET", "/api/users", ta.Login(t, tc.email, kerneltest.Password), nil)
			if me.Num("companyId") != acme.CompanyID || me.Str("role") != tc.role || me.Str("phoneNumber") != "46701234567" {
				t.Errorf("created user: %s", me.Body)
			}
		})
	}
}

func TestCompanyCreatePage(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	ta.CreateUser(t, root, "free-admin@example.com", "Admin")
	admin := ta.Login(t, "free-admin@example.com", kerneltest.Password)
	form := companyForm("name", "Fresh AB")
	cases := []struct {
		name    string
		form    url.Values
		headers []string
		want    string
	}{
		{"name required", companyForm("name", ""), nil, "You must enter a company name"},
		{"VAT number format, htmx", companyForm("orgNumber", "x"), kerneltest.HTMX, "Wrong format VAT number"},
		{"email required", companyForm("invoiceAdress", ""), kerneltest.HTMX, "You have to fill in email address"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.Page(t, "POST", "/company/create", admin, tc.form, tc.headers...)
			want := http.StatusBadRequest
			if tc.headers != nil {
				want = http.StatusOK // htmx swaps the form with its messages in
			}
			if p.Status != want || !strings.Contains(p.Body, tc.want) {
				t.Fatalf("status %d, want %d with %q: %.500s", p.Status, want, tc.want, p.Body)
			}
		})
	}
	p := ta.Page(t, "POST", "/company/create", admin, form)
	token := p.Header.Get("X-Fieldhub-Token")
	if p.Redirect() != "/company" || token == "" || p.Toast() == "" {
		t.Fatalf("create: %d to %q, token %q: %.300s", p.Status, p.Redirect(), token, p.Body)
	}
	var cookie bool
	for _, c := range p.Header.Values("Set-Cookie") {
		cookie = cookie || strings.HasPrefix(c, "fieldhub_token=")
	}
	if !cookie {
		t.Errorf("no new session cookie after joining the company")
	}
	me := ta.Call(t, "GET", "/api/users", token, nil)
	if me.Num("companyId") == 0 {
		t.Fatalf("Admin did not join the company: %s", me.Body)
	}
	if c := ta.Page(t, "GET", "/company", token, nil); !strings.Contains(c.Body, "Fresh AB") {
		t.Errorf("overview after create: %.300s", c.Body)
	}
	if again := ta.Page(t, "POST", "/company/create", token, companyForm("name", "Second AB")); again.Status != http.StatusConflict || !strings.Contains(again.Body, "You already belong to a company") {
		t.Errorf("second company: %d %.300s", again.Status, again.Body)
	}
	if all := ta.Call(t, "GET", "/api/companies/all", root, nil); len(all.List()) != 1 {
		t.Errorf("companies: %s", all.Body)
	}
}

func TestRegisterAndSuperadminPages(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	if p := ta.Page(t, "GET", "/superadmin", root, nil); !strings.Contains(p.Body, "There are no companies yet.") || !strings.Contains(p.Body, `href="/register"`) {
		t.Errorf("empty superadmin page: %.500s", p.Body)
	}
	register := func(pairs ...string) url.Values {
		f := url.Values{}
		for k, v := range companyForm("name", "Beta AB", "orgNumber", "556000-1111") {
			f["company."+k] = v
		}
		for k, v := range userForm("chief@beta.example") {
			if k != "role" {
				f["user."+k] = v
			}
		}
		for i := 0; i+1 < len(pairs); i += 2 {
			f.Set(pairs[i], pairs[i+1])
		}
		return f
	}
	cases := []struct {
		name    string
		form    url.Values
		headers []string
		status  int
		want    string
	}{
		{"company name required", register("company.name", ""), nil, 400, "You must enter a company name"},
		{"VAT number required, htmx", register("company.orgNumber", ""), kerneltest.HTMX, 200, "You have to fill in you company VAT number"},
		{"user passwords match", register("user.confirmPassword", "nope nope"), nil, 400, "Passwords do not match"},
		{"user phone", register("user.phoneNumber", "0701234567"), kerneltest.HTMX, 200, "Don't forget that the phone number must have country code"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.Page(t, "POST", "/register", root, tc.form, tc.headers...)
			if p.Status != tc.status || !strings.Contains(p.Body, tc.want) {
				t.Fatalf("status %d, want %d with %q: %.500s", p.Status, tc.status, tc.want, p.Body)
			}
		})
	}
	p := ta.Page(t, "POST", "/register", root, register(), kerneltest.HTMX...)
	if p.Redirect() != "/superadmin" || !strings.Contains(p.Toast(), "Beta AB has been registered") {
		t.Fatalf("register: %d to %q, toast %q: %.300s", p.Status, p.Redirect(), p.Toast(), p.Body)
	}
	if me := ta.Call(t, "GET", "/api/users", ta.Login(t, "chief@beta.example", kerneltest.Password), nil); me.Str("role") != "CompanyAdmin" || me.Num("companyId") == 0 {
		t.Errorf("first user of the registered company: %s", me.Body)
	}
	acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")

	lists := []struct {
		name, query string
		headers     []string
		want, not   []string
		fragment    bool
	}{
		{"all companies with their users", "", nil, []string{"Acme AB", "Beta AB", "5560001111", "2 of 2 companies", `name="companyId" value="` + fmt.Sprint(acme.CompanyID) + `"`, `name="from" value="/company"`}, nil, false},
		{"search by name", "?q=acme", nil, []string{"Acme AB", "1 of 2 companies"}, []string{"Beta AB"}, false},
		{"search by org number, htmx", "?q=556000-11", []string{"HX-Request", "true", "HX-Target", "company-list"}, []string{"Beta AB", `<div id="company-list"`}, []string{"Acme AB"}, true},
		{"no match", "?q=zzz", nil, []string{`No company matches “zzz”.`}, nil, false},
	}
	for _, tc := range lists {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.Page(t, "GET", "/superadmin"+tc.query, root, nil, tc.headers...)
			if p.Status != 200 || p.FullPage() == tc.fragment {
				t.Fatalf("status %d, full page %v: %.300s", p.Status, p.FullPage(), p.Body)
			}
			// The company switcher of the side menu names every company; look at the list.
			if i := strings.Index(p.Body, `<div id="company-list"`); i >= 0 {
				p.Body = p.Body[i:]
			}
			// Nor at the latest changes below it, which name the companies too.
			if i := strings.Index(p.Body, `aria-labelledby="latest-changes"`); i >= 0 {
				p.Body = p.Body[:i]
			}
			for _, w := range tc.want {
				if !strings.Contains(p.Body, w) {
					t.Errorf("lacks %q", w)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(p.Body, n) {
					t.Errorf("shows %q", n)
				}
			}
		})
	}
	// Acme has its CompanyAdmin, User and Admin; Beta its first user.
	if p := ta.Page(t, "GET", "/superadmin", root, nil); !strings.Contains(p.Body, "<td>5566778899</td><td>3</td>") || !strings.Contains(p.Body, "<td>5560001111</td><td>1</td>") {
		t.Errorf("numbers of users: %.3000s", p.Body)
	}
	sw := ta.Page(t, "POST", "/company/switch", root, url.Values{"companyId": {fmt.Sprint(acme.CompanyID)}, "from": {"/company"}})
	if sw.Redirect() != "/company" {
		t.Errorf("switch: %d %q", sw.Status, sw.Redirect())
	}
}

// TestSwedishPages checks the pages' language: the browser's languages for a
// SuperAdmin, who has no company of their own, and the company's country for
// its users (SE gives Swedish).
func TestSwedishPages(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.Company(t, root, "Acme AB", "acme.example")
	sv := []string{"Accept-Language", "sv-SE,sv;q=0.9"}
	cases := []struct {
		name, method, path, token string
		form                      url.Values
		headers                   []string
		want                      []string
	}{
		{"superadmin page", "GET", "/superadmin", root, nil, sv, []string{`lang="sv"`, "Sök på namn eller organisationsnummer", "Nytt företag", "Användare"}},
		{"superadmin page in English", "GET", "/superadmin", root, nil, []string{"Accept-Language", "en"}, []string{`lang="en"`, "Search by name or org number"}},
		{"register labels", "GET", "/register", root, nil, sv, []string{"Företagsnamn", "Första användaren", "Förnamn", "Registrera företaget"}},
		{"register messages, htmx", "POST", "/register", root, url.Values{"company.name": {""}}, append([]string{"HX-Request", "true"}, sv...), []string{"Du måste ange ett företagsnamn", "Detta fält måste fyllas i"}},
		{"company overview", "GET", "/company", acme.UserToken, nil, nil, []string{`lang="sv"`, "Användare", "Organisations- eller momsnummer", "Sverige"}},
		{"edit form labels", "GET", "/company/edit", acme.CompanyAdminToken, nil, nil, []string{"Företagsnamn", "Kontakt-e-post", "Ladda upp logotyp"}},
		{"edit form messages", "POST", "/company/edit", acme.CompanyAdminToken, companyForm("name", ""), kerneltest.HTMX, []string{"Du måste ange ett företagsnamn", "Spara"}},
		{"invite texts", "POST", "/company/usercreate/invite", acme.CompanyAdminToken, url.Values{"email": {"ghost@example.com"}}, nil, []string{"Kunde inte hitta användaren. Kontrollera att användaren är registrerad först!", "Bjud in en registrerad användare"}},
		{"user page", "GET", fmt.Sprintf("/company/user/%d", acme.UserID), acme.CompanyAdminToken, nil, nil, []string{"Förnamn", "Byt roll", "Ta bort användaren"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.Page(t, tc.method, tc.path, tc.token, tc.form, tc.headers...)
			if p.Status >= 500 {
				t.Fatalf("status %d", p.Status)
			}
			for _, w := range tc.want {
				if !strings.Contains(p.Body, w) {
					t.Errorf("lacks %q: %.300s", w, p.Body)
				}
			}
		})
	}
}
