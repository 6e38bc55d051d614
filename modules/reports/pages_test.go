package reports_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestReportPages checks the pages: who sees them and the menu entry, the
// list with "Send now" (which mails the report), the editor's island with
// the company's nodes and keys, another company's report, and the removal.
func TestReportPages(t *testing.T) {
	smtpURL, inbox := kerneltest.StartSMTP(t)
	ta := kerneltest.Start(t, db.SQLite, map[string]string{"SMTP_URL": smtpURL}, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")
	other := ta.EnglishCompany(t, root, "Other AB", "other.example")
	n := ta.AppNode(t, acme.CompanyAdminToken, acme.CompanyID, "Field", "Tank", "70B3D57ED005A1B9")
	if r := ta.Call(t, "POST", "/api/tag/key/add", acme.CompanyAdminToken, map[string]any{"tagId": n.TagID, "key": "level"}); r.Status >= 300 {
		t.Fatalf("add key: %d %s", r.Status, r.Body)
	}
	o := ta.AppNode(t, other.CompanyAdminToken, other.CompanyID, "Yard", "Other tank", "70B3D57ED005A1C0")
	mk := func(token string, node int64, name string) int64 {
		t.Helper()
		return ta.Must(t, "POST", "/api/report", token, map[string]any{"name": name, "type": "trend", "tempo": 1,
			"reportContacts": []string{"ops@" + strings.ToLower(strings.Fields(name)[0]) + ".example"}, "nodes": []int64{node}, "keys": []string{"level"}}, http.StatusCreated).Num("id")
	}
	id := mk(acme.CompanyAdminToken, n.TagID, "Acme levels")
	foreign := mk(other.CompanyAdminToken, o.TagID, "Other levels")
	page := fmt.Sprintf("/report/%d", id)

	for _, tc := range []struct{ name, method, path, token, want string }{
		{"visitor on /report", "GET", "/report", "", "/login?next=%2Freport"},
		{"User on /report", "GET", "/report", acme.UserToken, "/"},
		{"User on /report/create", "GET", "/report/create", acme.UserToken, "/"},
		{"User sends a report", "POST", page + "/send", acme.UserToken, "/"},
	} {
		if p := ta.Page(t, tc.method, tc.path, tc.token, nil); p.Status != http.StatusSeeOther || p.Redirect() != tc.want {
			t.Errorf("%s: got %d to %q, want a redirect to %q", tc.name, p.Status, p.Redirect(), tc.want)
		}
	}
	if p := ta.Page(t, "GET", fmt.Sprintf("/report/%d", foreign), acme.CompanyAdminToken, nil); p.Status != http.StatusNotFound || strings.Contains(p.Body, "Other levels") {
		t.Errorf("another company's report: %d", p.Status)
	}

	list := ta.Page(t, "GET", "/report", acme.CompanyAdminToken, nil)
	kerneltest.Contains(t, kerneltest.Main(list.Body), []string{"Acme levels", `href="` + page + `"`, "Weekly", "Trend", "Never", "Send now",
		`data-island="report-export"`, `href="/report/create"`, `"deveui":"70B3D57ED005A1B9"`, `"key":"level"`}, []string{"Other levels", "Other tank"})
	if !strings.Contains(list.Body, `href="/report"`) {
		t.Error("no Reports menu entry for a CompanyAdmin")
	}
	if p := ta.Page(t, "GET", "/company", acme.UserToken, nil); strings.Contains(p.Body, `href="/report"`) {
		t.Error("a User's menu has Reports")
	}
	sv := kerneltest.Main(ta.Page(t, "GET", "/report", root, nil, "Cookie", fmt.Sprintf("fieldhub_company=%d; lang=sv", acme.CompanyID)).Body)
	kerneltest.Contains(t, sv, []string{"Rapporter", "Veckovis", "Skicka nu", "Acme levels"}, []string{"Other levels"})

	if p := ta.Page(t, "GET", "/report/create", acme.CompanyAdminToken, nil); !strings.Contains(p.Body, `data-island="report-editor"`) ||
		!strings.Contains(p.Body, fmt.Sprintf(`"companyId":%d`, acme.CompanyID)) {
		t.Errorf("create page: %.500s", kerneltest.Main(p.Body))
	}
	edit := kerneltest.Main(ta.Page(t, "GET", page, acme.CompanyAdminToken, nil).Body)
	kerneltest.Contains(t, edit, []string{"Acme levels", fmt.Sprintf(`"reportId":%d`, id), "Delete report"}, nil)

	// Send now: a toast, the mail with its files, lastSent on the list.
	sent := ta.Page(t, "POST", page+"/send", acme.CompanyAdminToken, nil)
	if sent.Status != http.StatusSeeOther || sent.Redirect() != "/report" || !strings.Contains(sent.Toast(), "The report Acme levels is on its way") {
		t.Errorf("send now: %d to %q, toast %q", sent.Status, sent.Redirect(), sent.Toast())
	}
	m := inbox.Wait(t, "ops@acme.example", mailTimeout)
	if len(m.Attachments) != 2 || !strings.HasSuffix(m.Attachments[0].Name, ".xlsx") || !strings.HasSuffix(m.Attachments[1].Name, ".csv") {
		t.Errorf("mail %q with %d files", m.Subject, len(m.Attachments))
	}
	if strings.Contains(kerneltest.Main(ta.Page(t, "GET", "/report", acme.CompanyAdminToken, nil).Body), "Never") {
		t.Error("the list does not show when the report was sent")
	}

	if p := ta.Page(t, "GET", page+"/delete", acme.CompanyAdminToken, nil, kerneltest.HTMX...); !strings.Contains(p.Body, "Delete the report Acme levels?") {
		t.Errorf("confirmation: %.500s", p.Body)
	}
	if p := ta.Page(t, "POST", page+"/delete", acme.CompanyAdminToken, nil); p.Status != http.StatusSeeOther || !strings.Contains(p.Toast(), "The report Acme levels was deleted") {
		t.Errorf("delete: %d, toast %q", p.Status, p.Toast())
	}
	ta.Must(t, "GET", "/api"+page, acme.CompanyAdminToken, nil, http.StatusNotFound)
}
