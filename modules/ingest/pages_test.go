package ingest_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// The ingest's section of the decoder page (/decoders/{decoderId}): the
// re-decode form with the nodes that use the decoder, its refusal of a
// backwards window, a job started from it, and the jobs fragment.

func TestDecoderPageRedecodeSection(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")
	const deveui = "70B3D57ED005A1B9"
	node := ta.AppNode(t, acme.CompanyAdminToken, acme.CompanyID, "Field", "Tank", deveui)
	r := ta.Call(t, "POST", fmt.Sprintf("/api/companies/%d/decoders", acme.CompanyID), acme.CompanyAdminToken,
		map[string]any{"name": "Tank level", "source": "function decodeUplink(i) { return {data: {level: i.bytes[0]}} }"})
	if r.Status != http.StatusCreated {
		t.Fatalf("create decoder: %d %s", r.Status, r.Body)
	}
	id := r.Num("id")
	page := fmt.Sprintf("/decoders/%d", id)
	if r := ta.Call(t, "PUT", "/api/tag/"+deveui, acme.CompanyAdminToken, map[string]any{"decoder": fmt.Sprintf("custom:%d", id)}); r.Status != http.StatusOK {
		t.Fatalf("pick the decoder: %d %s", r.Status, r.Body)
	}

	p := ta.Page(t, "GET", page, acme.CompanyAdminToken, nil)
	main := kerneltest.Main(p.Body)
	for _, want := range []string{`data-island="decoder-editor"`, "Decode stored uplinks again", "All nodes that use the decoder (1)",
		"Tank (" + deveui + ")", "No stored uplinks have been decoded again yet."} {
		if !strings.Contains(main, want) {
			t.Errorf("lacks %q", want)
		}
	}
	// The section sits between the nodes that use the decoder and the removal.
	if nodes, section, removal := strings.Index(main, `id="decoder-nodes-heading"`), strings.Index(main, `id="redecode"`), strings.Index(main, `id="decoder-delete"`); nodes < 0 || section < nodes || removal < section {
		t.Errorf("the section is not between the nodes and the removal: %d, %d, %d", nodes, section, removal)
	}
	bad := ta.Page(t, "POST", page+"/redecode", acme.CompanyAdminToken, url.Values{"tagId": {""}, "from": {"2026-02-10"}, "to": {"2026-02-01"}}, kerneltest.HTMX...)
	if bad.Status != http.StatusOK || !strings.Contains(bad.Body, "The end must be after the start") || bad.FullPage() {
		t.Errorf("a backwards window: %d %.500s", bad.Status, bad.Body)
	}
	// Without htmx, the refused form comes back on the whole decoder page.
	whole := ta.Page(t, "POST", page+"/redecode", acme.CompanyAdminToken, url.Values{"tagId": {""}, "from": {"2026-02-10"}, "to": {"2026-02-01"}})
	if whole.Status != http.StatusBadRequest || !strings.Contains(whole.Body, "The end must be after the start") || !whole.FullPage() ||
		!strings.Contains(whole.Body, `data-island="decoder-editor"`) || !strings.Contains(whole.Body, `value="2026-02-10"`) {
		t.Errorf("a backwards window without htmx: %d %.500s", whole.Status, kerneltest.Main(whole.Body))
	}
	today := time.Now().UTC().Format(time.DateOnly)
	if p := ta.Page(t, "POST", page+"/redecode", acme.CompanyAdminToken, url.Values{"tagId": {fmt.Sprint(node.TagID)}, "from": {today}, "to": {today}}); p.Status != http.StatusSeeOther {
		t.Fatalf("start a job: %d %.500s", p.Status, p.Body)
	}
	jobs := ta.Page(t, "GET", page+"/jobs", acme.CompanyAdminToken, nil, kerneltest.HTMX...)
	if jobs.Status != http.StatusOK || !strings.Contains(jobs.Body, `id="redecode-jobs"`) || !strings.Contains(jobs.Body, "<progress") {
		t.Errorf("jobs: %d %.500s", jobs.Status, jobs.Body)
	}
}
