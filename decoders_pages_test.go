package main

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
)

// The decoder pages (/decoders, /decoders/create, /decoders/{decoderId}):
// their guards, the list with the limits, the island's mount point, the
// re-decode form with its jobs, and the delete confirmation.

func TestDecoderPages(t *testing.T) {
	ta := newTestApp(t, db.SQLite, nil)
	root := ta.superAdmin(t)
	acme := ta.englishCompany(t, root, "Acme AB", "acme.example")
	other := ta.englishCompany(t, root, "Other AB", "other.example")
	f := ta.nodeFixture(t, acme.companyAdminToken, acme.companyID, "Field", "Tank", "70B3D57ED005A1B9")
	create := func(token string, companyID int64, name string) int64 {
		t.Helper()
		r := ta.Call(t, "POST", fmt.Sprintf("/api/companies/%d/decoders", companyID), token,
			map[string]any{"name": name, "source": "function decodeUplink(i) { return {data: {level: i.bytes[0]}} }"})
		if r.Status != http.StatusCreated {
			t.Fatalf("create decoder: %d %s", r.Status, r.Body)
		}
		return r.Num("id")
	}
	id := create(acme.companyAdminToken, acme.companyID, "Tank level")
	foreign := create(other.companyAdminToken, other.companyID, "Other meter")
	page := fmt.Sprintf("/decoders/%d", id)

	for _, tc := range []struct{ name, method, path, token, want string }{
		{"visitor on /decoders", "GET", "/decoders", "", "/login?next=%2Fdecoders"},
		{"User on /decoders", "GET", "/decoders", acme.userToken, "/"},
		{"User on a decoder", "GET", page, acme.userToken, "/"},
		{"User deletes a decoder", "POST", page + "/delete", acme.userToken, "/"},
		{"CompanyAdmin sets the limits", "POST", "/decoders/limits", acme.companyAdminToken, "/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var form url.Values
			if tc.method == "POST" {
				form = url.Values{"timeMs": {"900"}, "memoryMiB": {"60"}}
			}
			if p := ta.page(t, tc.method, tc.path, tc.token, form); p.Status != http.StatusSeeOther || p.redirect() != tc.want {
				t.Errorf("got %d to %q, want a redirect to %q", p.Status, p.redirect(), tc.want)
			}
		})
	}
	if p := ta.page(t, "GET", fmt.Sprintf("/decoders/%d", foreign), acme.companyAdminToken, nil); p.Status != http.StatusNotFound || strings.Contains(p.Body, "Other meter") {
		t.Errorf("another company's decoder: %d", p.Status)
	}

	list := ta.page(t, "GET", "/decoders", acme.companyAdminToken, nil)
	contains(t, mainOf(list.Body), []string{"Tank level", `href="` + page + `"`, "JavaScript codec", "50 ms", "16 MiB",
		"Only a SuperAdmin can change the limits.", "elsys", `href="/decoders/create"`}, []string{"Other meter", `name="timeMs"`})
	menu := list.Body[strings.Index(list.Body, `id="side-menu"`):strings.Index(list.Body, `<main id="main"`)]
	if n, d := strings.Index(menu, `href="/tag"`), strings.Index(menu, `href="/decoders"`); n < 0 || d < n {
		t.Errorf("the menu entry is not after Nodes: nodes at %d, decoders at %d", n, d)
	}
	if p := ta.page(t, "GET", "/company", acme.userToken, nil); strings.Contains(p.Body, `href="/decoders"`) {
		t.Error("a User's menu has Decoders")
	}
	if p := ta.page(t, "GET", "/decoders/create", acme.companyAdminToken, nil); !strings.Contains(p.Body, `data-island="decoder-editor"`) ||
		!strings.Contains(p.Body, fmt.Sprintf(`"companyId":%d`, acme.companyID)) {
		t.Errorf("create page: %.500s", mainOf(p.Body))
	}

	// A SuperAdmin sets the chosen company's limits.
	cookie := []string{"Cookie", fmt.Sprintf("fieldhub_company=%d", acme.companyID)}
	if p := ta.page(t, "GET", "/decoders", root, nil, cookie...); !strings.Contains(p.Body, `name="timeMs"`) {
		t.Errorf("SuperAdmin's list has no limits form: %.500s", mainOf(p.Body))
	}
	if p := ta.page(t, "POST", "/decoders/limits", root, url.Values{"timeMs": {"5000"}, "memoryMiB": {"16"}}, append(cookie, htmx...)...); p.Status != http.StatusBadRequest ||
		!strings.Contains(p.Body, "The time limit must be 1 to 1000 ms") {
		t.Errorf("limits out of range: %d %.500s", p.Status, p.Body)
	}
	if p := ta.page(t, "POST", "/decoders/limits", root, url.Values{"timeMs": {"200"}, "memoryMiB": {"32"}}, cookie...); p.Status != http.StatusSeeOther {
		t.Errorf("limits: %d", p.Status)
	}
	if p := ta.page(t, "GET", "/decoders", acme.companyAdminToken, nil); !strings.Contains(p.Body, "200 ms") || !strings.Contains(p.Body, "32 MiB") {
		t.Errorf("the saved limits are not shown: %.800s", mainOf(p.Body))
	}

	// The decoder page: the island, its nodes, re-decoding, the removal.
	if r := ta.Call(t, "PUT", "/api/tag/"+f.deveui, acme.companyAdminToken, map[string]any{"decoder": fmt.Sprintf("custom:%d", id)}); r.Status != http.StatusOK {
		t.Fatalf("pick the decoder: %d %s", r.Status, r.Body)
	}
	p := ta.page(t, "GET", page, acme.companyAdminToken, nil)
	contains(t, mainOf(p.Body), []string{`data-island="decoder-editor"`, fmt.Sprintf(`"decoderId":%d`, id), "Tank", f.deveui,
		"Decode stored uplinks again", "All nodes that use the decoder (1)", "No stored uplinks have been decoded again yet."}, nil)
	bad := ta.page(t, "POST", page+"/redecode", acme.companyAdminToken, url.Values{"tagId": {""}, "from": {"2026-02-10"}, "to": {"2026-02-01"}}, htmx...)
	if bad.Status != http.StatusBadRequest || !strings.Contains(bad.Body, "The end must be after the start") || bad.fullPage() {
		t.Errorf("a backwards window: %d %.500s", bad.Status, bad.Body)
	}
	today := time.Now().UTC().Format(time.DateOnly)
	if p := ta.page(t, "POST", page+"/redecode", acme.companyAdminToken, url.Values{"tagId": {fmt.Sprint(f.tagID)}, "from": {today}, "to": {today}}); p.Status != http.StatusSeeOther {
		t.Fatalf("start a job: %d %.500s", p.Status, p.Body)
	}
	jobs := ta.page(t, "GET", page+"/jobs", acme.companyAdminToken, nil, htmx...)
	if jobs.Status != http.StatusOK || !strings.Contains(jobs.Body, `id="redecode-jobs"`) || !strings.Contains(jobs.Body, "<progress") {
		t.Errorf("jobs: %d %.500s", jobs.Status, jobs.Body)
	}
	refused := ta.page(t, "POST", page+"/delete", acme.companyAdminToken, nil, htmx...)
	if refused.Status != http.StatusBadRequest || !strings.Contains(refused.Body, "Nodes still use this decoder (1: Tank)") {
		t.Errorf("delete in use: %d %.500s", refused.Status, refused.Body)
	}
	if r := ta.Call(t, "PUT", "/api/tag/"+f.deveui, acme.companyAdminToken, map[string]any{"decoder": "raw"}); r.Status != http.StatusOK {
		t.Fatalf("give the node raw: %d %s", r.Status, r.Body)
	}
	if p := ta.page(t, "GET", page+"/delete", acme.companyAdminToken, nil, htmx...); !strings.Contains(p.Body, "Delete the decoder “Tank level” and all its versions?") {
		t.Errorf("confirmation: %.500s", p.Body)
	}
	if p := ta.page(t, "POST", page+"/delete", acme.companyAdminToken, nil); p.Status != http.StatusSeeOther || p.redirect() != "/decoders" || !strings.Contains(p.toast(), "The decoder Tank level was deleted") {
		t.Errorf("delete: %d to %q, toast %q", p.Status, p.redirect(), p.toast())
	}
}
