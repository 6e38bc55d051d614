package decoders_test

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

// The decoder pages (/decoders, /decoders/create, /decoders/{decoderId}):
// their guards, the list with the limits, the island's mount point, the
// nodes that use a decoder, and the delete confirmation. The ingest's
// re-decode section of the decoder page is tested with the ingest.

func TestDecoderPages(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")
	other := ta.EnglishCompany(t, root, "Other AB", "other.example")
	f := ta.AppNode(t, acme.CompanyAdminToken, acme.CompanyID, "Field", "Tank", "70B3D57ED005A1B9")
	create := func(token string, companyID int64, name string) int64 {
		t.Helper()
		r := ta.Call(t, "POST", fmt.Sprintf("/api/companies/%d/decoders", companyID), token,
			map[string]any{"name": name, "source": "function decodeUplink(i) { return {data: {level: i.bytes[0]}} }"})
		if r.Status != http.StatusCreated {
			t.Fatalf("create decoder: %d %s", r.Status, r.Body)
		}
		return r.Num("id")
	}
	id := create(acme.CompanyAdminToken, acme.CompanyID, "Tank level")
	foreign := create(other.CompanyAdminToken, other.CompanyID, "Other meter")
	page := fmt.Sprintf("/decoders/%d", id)

	for _, tc := range []struct{ name, method, path, token, want string }{
		{"visitor on /decoders", "GET", "/decoders", "", "/login?next=%2Fdecoders"},
		{"User on /decoders", "GET", "/decoders", acme.UserToken, "/"},
		{"User on a decoder", "GET", page, acme.UserToken, "/"},
		{"User deletes a decoder", "POST", page + "/delete", acme.UserToken, "/"},
		{"CompanyAdmin sets the limits", "POST", "/decoders/limits", acme.CompanyAdminToken, "/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var form url.Values
			if tc.method == "POST" {
				form = url.Values{"timeMs": {"900"}, "memoryMiB": {"60"}}
			}
			if p := ta.Page(t, tc.method, tc.path, tc.token, form); p.Status != http.StatusSeeOther || p.Redirect() != tc.want {
				t.Errorf("got %d to %q, want a redirect to %q", p.Status, p.Redirect(), tc.want)
			}
		})
	}
	if p := ta.Page(t, "GET", fmt.Sprintf("/decoders/%d", foreign), acme.CompanyAdminToken, nil); p.Status != http.StatusNotFound || strings.Contains(p.Body, "Other meter") {
		t.Errorf("another company's decoder: %d", p.Status)
	}

	list := ta.Page(t, "GET", "/decoders", acme.CompanyAdminToken, nil)
	kerneltest.Contains(t, kerneltest.Main(list.Body), []string{"Tank level", `href="` + page + `"`, "JavaScript codec", "50 ms", "16 MiB",
		"Only a SuperAdmin can change the limits.", "elsys", `href="/decoders/create"`}, []string{"Other meter", `name="timeMs"`})
	menu := list.Body[strings.Index(list.Body, `id="side-menu"`):strings.Index(list.Body, `<main id="main"`)]
	if n, d := strings.Index(menu, `href="/tag"`), strings.Index(menu, `href="/decoders"`); n < 0 || d < n {
		t.Errorf("the menu entry is not after Nodes: nodes at %d, decoders at %d", n, d)
	}
	if p := ta.Page(t, "GET", "/company", acme.UserToken, nil); strings.Contains(p.Body, `href="/decoders"`) {
		t.Error("a User's menu has Decoders")
	}
	if p := ta.Page(t, "GET", "/decoders/create", acme.CompanyAdminToken, nil); !strings.Contains(p.Body, `data-island="decoder-editor"`) ||
		!strings.Contains(p.Body, fmt.Sprintf(`"companyId":%d`, acme.CompanyID)) {
		t.Errorf("create page: %.500s", kerneltest.Main(p.Body))
	}

	// A company without decoders of its own: one "New decoder" button, in
	// the empty state; raw's name in the page's language.
	empty := ta.EnglishCompany(t, root, "Empty AB", "empty.example")
	emptyList := kerneltest.Main(ta.Page(t, "GET", "/decoders", root, nil, "Cookie", fmt.Sprintf("fieldhub_company=%d; lang=sv", empty.CompanyID)).Body)
	if n := strings.Count(emptyList, `href="/decoders/create"`); n != 1 {
		t.Errorf("the empty list has %d links to a new decoder, want 1", n)
	}
	kerneltest.Contains(t, emptyList, []string{"<code>raw</code> Rå nyttolast (hex)"}, []string{"Raw payload"})

	// A SuperAdmin sets the chosen company's limits.
	cookie := []string{"Cookie", fmt.Sprintf("fieldhub_company=%d", acme.CompanyID)}
	if p := ta.Page(t, "GET", "/decoders", root, nil, cookie...); !strings.Contains(p.Body, `name="timeMs"`) {
		t.Errorf("SuperAdmin's list has no limits form: %.500s", kerneltest.Main(p.Body))
	}
	if p := ta.Page(t, "POST", "/decoders/limits", root, url.Values{"timeMs": {"5000"}, "memoryMiB": {"16"}}, append(cookie, kerneltest.HTMX...)...); p.Status != http.StatusOK ||
		!strings.Contains(p.Body, "The time limit must be 1 to 1000 ms") {
		t.Errorf("limits out of range: %d %.500s", p.Status, p.Body)
	}
	if p := ta.Page(t, "POST", "/decoders/limits", root, url.Values{"timeMs": {"200"}, "memoryMiB": {"32"}}, cookie...); p.Status != http.StatusSeeOther {
		t.Errorf("limits: %d", p.Status)
	}
	if p := ta.Page(t, "GET", "/decoders", acme.CompanyAdminToken, nil); !strings.Contains(p.Body, "200 ms") || !strings.Contains(p.Body, "32 MiB") {
		t.Errorf("the saved limits are not shown: %.800s", kerneltest.Main(p.Body))
	}

	// The decoder page: the island, its nodes, the removal.
	if r := ta.Call(t, "PUT", "/api/tag/"+f.DevEUI, acme.CompanyAdminToken, map[string]any{"decoder": fmt.Sprintf("custom:%d", id)}); r.Status != http.StatusOK {
		t.Fatalf("pick the decoder: %d %s", r.Status, r.Body)
	}
	p := ta.Page(t, "GET", page, acme.CompanyAdminToken, nil)
	kerneltest.Contains(t, kerneltest.Main(p.Body), []string{`data-island="decoder-editor"`, fmt.Sprintf(`"decoderId":%d`, id), "Tank", f.DevEUI}, nil)
	refused := ta.Page(t, "POST", page+"/delete", acme.CompanyAdminToken, nil, kerneltest.HTMX...)
	if refused.Status != http.StatusOK || !strings.Contains(refused.Body, "Nodes still use this decoder (1: Tank)") {
		t.Errorf("delete in use: %d %.500s", refused.Status, refused.Body)
	}
	if r := ta.Call(t, "PUT", "/api/tag/"+f.DevEUI, acme.CompanyAdminToken, map[string]any{"decoder": "raw"}); r.Status != http.StatusOK {
		t.Fatalf("give the node raw: %d %s", r.Status, r.Body)
	}
	if p := ta.Page(t, "GET", page+"/delete", acme.CompanyAdminToken, nil, kerneltest.HTMX...); !strings.Contains(p.Body, "Delete the decoder “Tank level” and all its versions?") {
		t.Errorf("confirmation: %.500s", p.Body)
	}
	if p := ta.Page(t, "POST", page+"/delete", acme.CompanyAdminToken, nil); p.Status != http.StatusSeeOther || p.Redirect() != "/decoders" || !strings.Contains(p.Toast(), "The decoder Tank level was deleted") {
		t.Errorf("delete: %d to %q, toast %q", p.Status, p.Redirect(), p.Toast())
	}
}

// TestDecoderPagesOfASuperAdminWithoutCompanies: before any company exists,
// /decoders tells the SuperAdmin how companies are chosen and to register one.
func TestDecoderPagesOfASuperAdminWithoutCompanies(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	p := ta.Page(t, "GET", "/decoders", root, nil, "Accept-Language", "en")
	kerneltest.Contains(t, kerneltest.Main(p.Body), []string{
		"As SuperAdmin you work in the company chosen with the company switcher in the side menu. There is no company yet: register one to give it decoders of its own.",
		`href="/register"`,
	}, []string{"You must belong to a company"})
}
