package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
)

// The server pages of the nodes module (/application, /company/applications,
// /tag, /tag/create, /tagdetails/{deveui}, /tag/pool, /company/tokens),
// driven as a browser without JavaScript and as htmx, like the accounts
// pages' tests.

// nodeFixture is one company's application and node, made through the API.
type nodeFixture struct {
	appID, tagID int64
	deveui       string
}

func (ta *testApp) nodeFixture(t *testing.T, token string, companyID int64, appName, tagName, deveui string) nodeFixture {
	t.Helper()
	app := ta.Call(t, "POST", fmt.Sprintf("/api/applications/%d", companyID), token, map[string]any{"name": appName})
	if app.Status != http.StatusCreated {
		t.Fatalf("create application: %d %s", app.Status, app.Body)
	}
	f := nodeFixture{appID: app.Num("id"), deveui: deveui}
	if tagName != "" {
		tag := ta.Call(t, "POST", fmt.Sprintf("/api/applications/%d/tag", f.appID), token, map[string]any{"name": tagName, "deveui": deveui})
		if tag.Status != http.StatusCreated {
			t.Fatalf("create tag: %d %s", tag.Status, tag.Body)
		}
		f.tagID = tag.Num("id")
	}
	return f
}

// contains reports what of want a page lacks and what of not it shows.
func contains(t *testing.T, body string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(body, w) {
			t.Errorf("lacks %q", w)
		}
	}
	for _, n := range not {
		if strings.Contains(body, n) {
			t.Errorf("shows %q", n)
		}
	}
}

// mainOf is the page without its frame (the side menu names pages too).
func mainOf(body string) string {
	if i := strings.Index(body, `<main id="main"`); i >= 0 {
		return body[i:]
	}
	return body
}

func TestNodePageGuards(t *testing.T) {
	ta := newTestApp(t, db.SQLite, nil)
	root := ta.superAdmin(t)
	acme := ta.englishCompany(t, root, "Acme AB", "acme.example")
	f := ta.nodeFixture(t, acme.companyAdminToken, acme.companyID, "Field", "Door", "70B3D57ED005A1B2")
	app := fmt.Sprintf("/application/%d", f.appID)
	details := "/tagdetails/" + f.deveui
	refused := []struct {
		name, method, path, token string
		headers                   []string
		want                      string
	}{
		{"visitor on /application", "GET", "/application", "", nil, "/login?next=%2Fapplication"},
		{"visitor on /tag with htmx", "GET", "/tag", "", htmx, "/login?next=%2Ftag"},
		{"visitor on node details", "GET", details, "", nil, "/login?next=" + url.QueryEscape(details)},
		{"visitor on /tag/pool", "GET", "/tag/pool", "", nil, "/login?next=%2Ftag%2Fpool"},
		{"User on /application/create", "GET", "/application/create", acme.userToken, nil, "/"},
		{"User posts /application/create", "POST", "/application/create", acme.userToken, nil, "/"},
		{"User on an application", "GET", app, acme.userToken, nil, "/"},
		{"User deletes an application", "POST", app + "/delete", acme.userToken, nil, "/"},
		{"User on /tag/create", "GET", "/tag/create", acme.userToken, nil, "/"},
		{"User on /tag/create/{deveui}", "GET", "/tag/create/A1B2C3D4E5F60718", acme.userToken, nil, "/"},
		{"User on node details", "GET", details, acme.userToken, nil, "/"},
		{"User deletes a node, htmx", "POST", details + "/delete", acme.userToken, htmx, "/"},
		{"User on /company/tokens", "GET", "/company/tokens", acme.userToken, nil, "/"},
		{"CompanyAdmin on /tag/pool", "GET", "/tag/pool", acme.companyAdminToken, nil, "/"},
		{"Admin on /tag/pool", "GET", "/tag/pool", acme.adminToken, nil, "/"},
		{"Admin changes a pool entry", "POST", "/tag/pool/1", acme.adminToken, nil, "/"},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			var form url.Values
			if tc.method == "POST" {
				form = url.Values{"name": {"Hacked"}, "status": {"hidden"}}
			}
			p := ta.page(t, tc.method, tc.path, tc.token, form, tc.headers...)
			wantStatus := http.StatusSeeOther
			if tc.headers != nil {
				wantStatus = http.StatusNoContent
			}
			if p.Status != wantStatus || p.redirect() != tc.want {
				t.Errorf("got %d to %q, want %d to %q", p.Status, p.redirect(), wantStatus, tc.want)
			}
		})
	}
	if r := ta.Call(t, "GET", fmt.Sprintf("/api/tag/%d", f.tagID), root, nil); r.Status != http.StatusOK {
		t.Errorf("a refused delete removed the node: %d", r.Status)
	}
	allowed := []struct{ name, path, token string }{
		{"User on /application", "/application", acme.userToken},
		{"User on /company/applications", "/company/applications", acme.userToken},
		{"User on /tag", "/tag", acme.userToken},
		{"CompanyAdmin on /application/create", "/application/create", acme.companyAdminToken},
		{"CompanyAdmin on an application", app, acme.companyAdminToken},
		{"Admin on /tag/create", "/tag/create", acme.adminToken},
		{"Admin on /tag/create/{deveui}", "/tag/create/A1B2C3D4E5F60718", acme.adminToken},
		{"CompanyAdmin on node details", details, acme.companyAdminToken},
		{"CompanyAdmin on /company/tokens", "/company/tokens", acme.companyAdminToken},
		{"SuperAdmin on /tag/pool", "/tag/pool", root},
		{"SuperAdmin on node details", details, root},
	}
	for _, tc := range allowed {
		t.Run(tc.name, func(t *testing.T) {
			if p := ta.page(t, "GET", tc.path, tc.token, nil); p.Status != http.StatusOK || !p.fullPage() {
				t.Errorf("status %d, full page %v: %.300s", p.Status, p.fullPage(), p.Body)
			}
		})
	}
	menus := []struct {
		name, token string
		want, not   []string
	}{
		{"User", acme.userToken, nil, []string{`href="/application"`, `href="/tag"`, `href="/tag/pool"`}},
		{"CompanyAdmin", acme.companyAdminToken, []string{`href="/application"`, `href="/tag"`, "mdi-apps", "mdi-access-point"}, []string{`href="/tag/pool"`}},
		{"SuperAdmin", root, []string{`href="/application"`, `href="/tag"`, `href="/tag/pool"`, "Node pool"}, nil},
	}
	for _, tc := range menus {
		t.Run("menu of "+tc.name, func(t *testing.T) {
			p := ta.page(t, "GET", "/company", tc.token, nil)
			menu := p.Body[strings.Index(p.Body, `id="side-menu"`):strings.Index(p.Body, `<main id="main"`)]
			contains(t, menu, tc.want, tc.not)
		})
	}
	order := ta.page(t, "GET", "/company", root, nil).Body
	if a, n, pool := strings.Index(order, `href="/application"`), strings.Index(order, `href="/tag"`), strings.Index(order, `href="/tag/pool"`); !(a < n && n < pool) {
		t.Errorf("menu order: application %d, nodes %d, pool %d", a, n, pool)
	}
}

func TestApplicationPages(t *testing.T) {
	ta := newTestApp(t, db.SQLite, nil)
	root := ta.superAdmin(t)
	acme := ta.englishCompany(t, root, "Acme AB", "acme.example")
	other := ta.englishCompany(t, root, "Other AB", "other.example")
	foreign := ta.nodeFixture(t, other.companyAdminToken, other.companyID, "Other field", "", "")

	if p := ta.page(t, "GET", "/application", acme.companyAdminToken, nil); !strings.Contains(p.Body, "There are no applications yet.") || !strings.Contains(p.Body, `href="/application/create"`) {
		t.Errorf("empty list: %.500s", mainOf(p.Body))
	}
	form := func(pairs ...string) url.Values {
		f := url.Values{"name": {"Greenhouse"}, "networkServer": {"tts"}, "chirpstackApplicationId": {""},
			"ttsDownlinkUrl": {"https://eu1.cloud.thethings.network/api/v3/as/applications/gh/webhooks/fh/down"}, "ttsApiKey": {"NNSXS.SECRET"}}
		for i := 0; i+1 < len(pairs); i += 2 {
			f.Set(pairs[i], pairs[i+1])
		}
		return f
	}
	refused := []struct {
		name    string
		form    url.Values
		headers []string
		want    string
	}{
		{"name required", form("name", " "), nil, "Your application must have a name"},
		{"name too long, htmx", form("name", strings.Repeat("x", 255)), htmx, "Name must be fewer than 255 characters"},
		{"network server", form("networkServer", "lorix"), nil, "The network server must be chirpstack, tts or generic"},
		{"ChirpStack id, htmx", form("chirpstackApplicationId", "not-a-uuid"), htmx, "The ChirpStack application id must be a UUID"},
		{"downlink address", form("ttsDownlinkUrl", "ftp://x"), nil, "The downlink address must be an http or https URL"},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.page(t, "POST", "/application/create", acme.companyAdminToken, tc.form, tc.headers...)
			if p.Status != http.StatusBadRequest || !strings.Contains(p.Body, tc.want) {
				t.Fatalf("status %d, want 400 with %q: %.500s", p.Status, tc.want, mainOf(p.Body))
			}
			if p.fullPage() == (tc.headers != nil) {
				t.Errorf("htmx %v but full page %v", tc.headers != nil, p.fullPage())
			}
			if !strings.Contains(p.Body, `value="`+tc.form.Get("ttsDownlinkUrl")+`"`) || strings.Contains(p.Body, "NNSXS.SECRET") {
				t.Errorf("the refused form lost what was typed, or shows the API key")
			}
		})
	}
	if r := ta.Call(t, "GET", fmt.Sprintf("/api/companies/%d/applications", acme.companyID), root, nil); len(r.List()) != 0 {
		t.Fatalf("a refused form created an application: %s", r.Body)
	}

	created := ta.page(t, "POST", "/application/create", acme.companyAdminToken, form(), htmx...)
	if created.Status != http.StatusNoContent || !strings.HasPrefix(created.redirect(), "/application/") || !strings.Contains(created.toast(), "The application Greenhouse has been created") {
		t.Fatalf("create: %d to %q, toast %q: %.300s", created.Status, created.redirect(), created.toast(), created.Body)
	}
	path := created.redirect()
	apps := ta.Call(t, "GET", fmt.Sprintf("/api/companies/%d/applications", acme.companyID), root, nil).List()
	if len(apps) != 1 || apps[0].(map[string]any)["ttsApiKeySet"] != true || apps[0].(map[string]any)["networkServer"] != "tts" {
		t.Fatalf("created application: %v", apps)
	}
	appID := int64(apps[0].(map[string]any)["id"].(float64))
	if path != fmt.Sprintf("/application/%d", appID) {
		t.Errorf("went to %q", path)
	}
	ta.nodeFixture(t, acme.companyAdminToken, acme.companyID, "Spare", "", "") // an application without nodes
	tag := ta.Call(t, "POST", fmt.Sprintf("/api/applications/%d/tag", appID), acme.companyAdminToken, map[string]any{"name": "Vent sensor", "deveui": "0004A30B001C1452"})
	if tag.Status != http.StatusCreated {
		t.Fatalf("tag: %d %s", tag.Status, tag.Body)
	}

	lists := []struct {
		name, path, token string
		want, not         []string
	}{
		{"CompanyAdmin's list links to the edit page", "/application", acme.companyAdminToken,
			[]string{"Greenhouse", "The Things Stack", "<td>1</td>", "Spare", "<td>0</td>", `href="` + path + `"`, "New application"}, []string{"Other field"}},
		{"User's list is read-only", "/application", acme.userToken, []string{"Greenhouse", "<td>1</td>"}, []string{`href="` + path + `"`, "New application"}},
		{"the company's applications", "/company/applications", acme.companyAdminToken, []string{"The company's applications", "Greenhouse", `href="/company"`}, []string{`href="` + path + `"`}},
		{"SuperAdmin sees the chosen company", "/application", root, []string{"Greenhouse"}, nil},
	}
	for _, tc := range lists {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.page(t, "GET", tc.path, tc.token, nil)
			if p.Status != http.StatusOK {
				t.Fatalf("status %d", p.Status)
			}
			contains(t, mainOf(p.Body), tc.want, tc.not)
		})
	}

	edit := ta.page(t, "GET", path, acme.adminToken, nil)
	contains(t, mainOf(edit.Body), []string{`value="Greenhouse"`, "A key is stored. Leave this empty to keep it.", "Remove the stored API key", "Vent sensor", `href="/tagdetails/0004A30B001C1452"`, `href="` + path + `/delete"`},
		[]string{"NNSXS.SECRET"})
	if p := ta.page(t, "GET", fmt.Sprintf("/application/%d", foreign.appID), acme.companyAdminToken, nil); p.Status != http.StatusNotFound {
		t.Errorf("another company's application: %d", p.Status)
	}
	if p := ta.page(t, "POST", fmt.Sprintf("/application/%d", foreign.appID), acme.companyAdminToken, form("name", "Taken over")); p.Status != http.StatusNotFound {
		t.Errorf("edit another company's application: %d", p.Status)
	}
	if p := ta.page(t, "GET", "/application/abc", acme.companyAdminToken, nil); p.Status != http.StatusBadRequest {
		t.Errorf("a malformed id: %d", p.Status)
	}

	saves := []struct {
		name   string
		form   url.Values
		keySet bool
	}{
		{"an empty key keeps the stored one", form("name", "Greenhouse 2", "ttsApiKey", ""), true},
		{"the box removes it", form("name", "Greenhouse 3", "ttsApiKey", "", "clearTtsApiKey", "true"), false},
	}
	for _, tc := range saves {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.page(t, "POST", path, acme.companyAdminToken, tc.form)
			if p.redirect() != "/application" || !strings.Contains(p.toast(), "has been updated") {
				t.Fatalf("save: %d to %q: %.300s", p.Status, p.redirect(), mainOf(p.Body))
			}
			r := ta.Call(t, "GET", fmt.Sprintf("/api/applications/%d", appID), root, nil)
			if r.Str("name") != tc.form.Get("name") || r.Obj()["ttsApiKeySet"] != tc.keySet {
				t.Errorf("after save: %s", r.Body)
			}
		})
	}
	if p := ta.page(t, "POST", path, acme.companyAdminToken, form("name", ""), htmx...); p.Status != http.StatusBadRequest || !strings.Contains(p.Body, "Your application must have a name") || p.fullPage() {
		t.Errorf("refused edit: %d %.300s", p.Status, p.Body)
	}

	confirm := ta.page(t, "GET", path+"/delete", acme.companyAdminToken, nil, htmx...)
	if confirm.Status != http.StatusOK || confirm.fullPage() || !strings.Contains(confirm.Body, "Delete the application Greenhouse 3? This cannot be undone.") {
		t.Errorf("confirmation: %d %.300s", confirm.Status, confirm.Body)
	}
	deletes := []struct {
		name    string
		headers []string
		status  int
	}{
		{"with nodes, no JavaScript", nil, http.StatusConflict},
		{"with nodes, htmx", htmx, http.StatusConflict},
	}
	for _, tc := range deletes {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.page(t, "POST", path+"/delete", acme.companyAdminToken, url.Values{}, tc.headers...)
			if p.Status != tc.status || !strings.Contains(p.Body, "Delete or move the application's nodes first") {
				t.Errorf("status %d: %.300s", p.Status, mainOf(p.Body))
			}
		})
	}
	if r := ta.Call(t, "DELETE", fmt.Sprintf("/api/tag/%d", tag.Num("id")), acme.companyAdminToken, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete tag: %d", r.Status)
	}
	if p := ta.page(t, "POST", path+"/delete", acme.companyAdminToken, url.Values{}); p.redirect() != "/application" || !strings.Contains(p.toast(), "Greenhouse 3 has been deleted") {
		t.Errorf("delete: %d to %q", p.Status, p.redirect())
	}
	if r := ta.Call(t, "GET", fmt.Sprintf("/api/applications/%d", appID), root, nil); r.Status != http.StatusNotFound {
		t.Errorf("deleted application: %d", r.Status)
	}
}

func TestApplicationPagesWithoutCompany(t *testing.T) {
	ta := newTestApp(t, db.SQLite, nil)
	root := ta.superAdmin(t)
	ta.createUser(t, root, "free-admin@example.com", "Admin")
	admin := ta.Login(t, "free-admin@example.com", testPassword)
	cases := []struct {
		name, method, path string
		form               url.Values
		status             int
	}{
		{"list", "GET", "/application", nil, http.StatusOK},
		{"create form", "GET", "/application/create", nil, http.StatusOK},
		{"create", "POST", "/application/create", url.Values{"name": {"Lonely"}}, http.StatusBadRequest},
		{"node list", "GET", "/tag", nil, http.StatusOK},
		{"node form", "GET", "/tag/create", nil, http.StatusOK},
		{"tokens", "GET", "/company/tokens", nil, http.StatusOK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.page(t, tc.method, tc.path, admin, tc.form, "Accept-Language", "en")
			if p.Status != tc.status || !strings.Contains(p.Body, "You must register a company first to create applications") {
				t.Errorf("status %d: %.400s", p.Status, mainOf(p.Body))
			}
		})
	}
	if p := ta.page(t, "GET", "/application", root, nil, "Accept-Language", "en"); !strings.Contains(p.Body, `href="/register"`) {
		t.Errorf("a SuperAdmin without companies is not offered to register one")
	}
}

func TestTagPages(t *testing.T) {
	ta := newTestApp(t, db.SQLite, nil)
	root := ta.superAdmin(t)
	acme := ta.englishCompany(t, root, "Acme AB", "acme.example")
	other := ta.englishCompany(t, root, "Other AB", "other.example")
	foreign := ta.nodeFixture(t, other.companyAdminToken, other.companyID, "Other field", "Other door", "1111111111111111")

	if p := ta.page(t, "GET", "/tag/create", acme.companyAdminToken, nil); !strings.Contains(p.Body, "A node belongs to an application. Create an application first.") {
		t.Errorf("node form without applications: %.300s", mainOf(p.Body))
	}
	if p := ta.page(t, "GET", "/tag", acme.companyAdminToken, nil); !strings.Contains(p.Body, "There are no nodes yet.") {
		t.Errorf("empty node list: %.300s", mainOf(p.Body))
	}
	f := ta.nodeFixture(t, acme.companyAdminToken, acme.companyID, "Field", "", "")
	appID := fmt.Sprint(f.appID)
	form := func(pairs ...string) url.Values {
		v := url.Values{"name": {"Door sensor"}, "deveui": {"70-b3-d5-7e-d0-05-a1-b2"}, "applicationId": {appID}, "decoder": {""},
			"appKey": {""}, "appEui": {""}, "profile": {"Class A"}, "lat": {"57,7"}, "long": {"11.97"}, "location": {"Gate"}, "type": {"door"}}
		for i := 0; i+1 < len(pairs); i += 2 {
			v.Set(pairs[i], pairs[i+1])
		}
		return v
	}
	blank := ta.page(t, "GET", "/tag/create", acme.companyAdminToken, nil)
	contains(t, blank.Body, []string{`<option value="raw">`, `<option value="` + appID + `">Field</option>`, `for="f-deveui"`, `for="f-decoder"`}, []string{"Could not fetch decoders"})

	refused := []struct {
		name    string
		form    url.Values
		headers []string
		status  int
		field   string
		want    string
	}{
		{"name required", form("name", ""), nil, 400, "name", "This field must be filled in"},
		{"DevEUI format, htmx", form("deveui", "12345"), htmx, 400, "deveui", "A DevEUI is 16 hexadecimal digits"},
		{"application required", form("applicationId", ""), nil, 400, "applicationId", "This field must be filled in"},
		{"another company's application", form("applicationId", fmt.Sprint(foreign.appID)), htmx, 400, "applicationId", "Choose one of your applications"},
		{"unknown decoder", form("decoder", "no_such_decoder"), nil, 400, "decoder", "Choose a decoder from the list"},
		{"latitude", form("lat", "north"), htmx, 400, "lat", "Latitude must be between -90 and 90"},
		{"DevEUI of another company's node", form("deveui", "1111111111111111"), nil, 400, "deveui", "Node with this DevEUI already exists on this server"},
		{"DevEUI taken, htmx", form("deveui", "11:11:11:11:11:11:11:11"), htmx, 400, "deveui", "Node with this DevEUI already exists on this server"},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.page(t, "POST", "/tag/create", acme.companyAdminToken, tc.form, tc.headers...)
			if p.Status != tc.status || !strings.Contains(p.Body, `<span class="error" id="e-`+tc.field+`">`+tc.want+`</span>`) {
				t.Fatalf("status %d, want %d with %q on %s: %.800s", p.Status, tc.status, tc.want, tc.field, mainOf(p.Body))
			}
			if p.fullPage() == (tc.headers != nil) {
				t.Errorf("htmx %v but full page %v", tc.headers != nil, p.fullPage())
			}
			if !strings.Contains(p.Body, `value="Gate"`) {
				t.Errorf("the refused form lost what was typed")
			}
		})
	}

	now := time.Now().UTC()
	if _, err := ta.kernel.Host().DB.NewRaw("INSERT INTO node_pool (deveui, source, status, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)",
		"70B3D57ED005A1B2", "chirpstack", "shown", now, now).Exec(context.Background()); err != nil {
		t.Fatalf("pool entry: %v", err)
	}
	fromPool := ta.page(t, "GET", "/tag/create/70b3d57ed005a1b2", acme.companyAdminToken, nil)
	if !strings.Contains(fromPool.Body, `value="70B3D57ED005A1B2"`) {
		t.Errorf("the DevEUI from the pool is not filled in: %.500s", mainOf(fromPool.Body))
	}
	created := ta.page(t, "POST", "/tag/create", acme.companyAdminToken, form())
	if created.redirect() != "/tagdetails/70B3D57ED005A1B2" || !strings.Contains(created.toast(), "The node Door sensor has been created") {
		t.Fatalf("create: %d to %q: %.500s", created.Status, created.redirect(), mainOf(created.Body))
	}
	pool := ta.Call(t, "GET", "/api/tag/pool?status=taken", root, nil).List()
	if len(pool) != 1 {
		t.Errorf("the pool entry is not taken: %v", pool)
	}
	tag := ta.Call(t, "GET", "/api/tag", acme.companyAdminToken, nil).List()[0].(map[string]any)
	if tag["decoder"] != "raw" || tag["lat"] != 57.7 || tag["location"] != "Gate" || tag["profile"] != "Class A" {
		t.Errorf("created tag: %v", tag)
	}
	tagID := int64(tag["id"].(float64))
	ta.Call(t, "POST", fmt.Sprintf("/api/applications/%d/tag", f.appID), acme.companyAdminToken, map[string]any{"name": "Boiler", "deveui": "0004A30B001C1452"})

	lists := []struct {
		name, query, token string
		headers            []string
		want, not          []string
		fragment           bool
	}{
		{"CompanyAdmin's list", "", acme.companyAdminToken, nil,
			[]string{"2 of 2 nodes", `href="/tagdetails/70B3D57ED005A1B2"`, "Door sensor", "Boiler", "Field", "raw", "Never", "No recent data", "New node"}, []string{"Other door"}, false},
		{"User's list without links", "", acme.userToken, nil, []string{"Door sensor"}, []string{`href="/tagdetails/`, "New node"}, false},
		{"filter by name", "?q=door", acme.companyAdminToken, nil, []string{"1 of 2 nodes", "Door sensor"}, []string{"Boiler"}, false},
		{"filter by DevEUI, htmx", "?q=00-04-a3", acme.companyAdminToken, []string{"HX-Request", "true", "HX-Target", "tag-list"},
			[]string{`<div id="tag-list"`, "Boiler"}, []string{"Door sensor"}, true},
		{"no match", "?q=zzz", acme.companyAdminToken, nil, []string{"No node matches “zzz”."}, nil, false},
	}
	for _, tc := range lists {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.page(t, "GET", "/tag"+tc.query, tc.token, nil, tc.headers...)
			if p.Status != 200 || p.fullPage() == tc.fragment {
				t.Fatalf("status %d, full page %v: %.300s", p.Status, p.fullPage(), p.Body)
			}
			contains(t, mainOf(p.Body), tc.want, tc.not)
		})
	}

	details := "/tagdetails/70B3D57ED005A1B2"
	if p := ta.page(t, "GET", "/tagdetails/"+foreign.deveui, acme.companyAdminToken, nil); p.Status != http.StatusNotFound {
		t.Errorf("another company's node: %d", p.Status)
	}
	if p := ta.page(t, "POST", "/tagdetails/"+foreign.deveui+"/delete", acme.companyAdminToken, url.Values{}); p.Status != http.StatusNotFound {
		t.Errorf("delete another company's node: %d", p.Status)
	}
	if p := ta.page(t, "GET", "/tagdetails/not-a-deveui", acme.companyAdminToken, nil); p.Status != http.StatusNotFound {
		t.Errorf("a malformed DevEUI: %d", p.Status)
	}

	edits := []struct {
		name    string
		form    url.Values
		headers []string
		status  int
		want    string
	}{
		{"DevEUI taken", form("deveui", "0004A30B001C1452"), htmx, 400, `<span class="error" id="e-deveui">Node with this DevEUI already exists on this server</span>`},
		{"longitude", form("long", "200"), nil, 400, "Longitude must be between -180 and 180"},
		{"AppKey", form("appKey", "xyz"), htmx, 400, "An AppKey is 32 hexadecimal digits"},
	}
	for _, tc := range edits {
		t.Run("edit: "+tc.name, func(t *testing.T) {
			p := ta.page(t, "POST", details, acme.companyAdminToken, tc.form, tc.headers...)
			if p.Status != tc.status || !strings.Contains(p.Body, tc.want) {
				t.Fatalf("status %d, want %d with %q: %.500s", p.Status, tc.status, tc.want, mainOf(p.Body))
			}
		})
	}
	saved := ta.page(t, "POST", details, acme.companyAdminToken, form("name", "Front door", "deveui", "70B3D57ED005A1B3", "lat", ""), htmx...)
	if saved.redirect() != "/tagdetails/70B3D57ED005A1B3" || !strings.Contains(saved.toast(), "The node Front door has been updated") {
		t.Fatalf("edit: %d to %q: %.500s", saved.Status, saved.redirect(), saved.Body)
	}
	details = saved.redirect()
	if r := ta.Call(t, "GET", fmt.Sprintf("/api/tag/%d", tagID), root, nil); r.Str("name") != "Front door" || r.Obj()["lat"] != nil {
		t.Errorf("after edit: %s", r.Body)
	}

	// An uplink gives the node keys, a state and stored values.
	tok := ta.Call(t, "POST", fmt.Sprintf("/api/integration/tokens/%d", acme.companyID), acme.companyAdminToken, map[string]any{"label": "ingest", "isCompany": true})
	for i, temp := range []float64{20.5, 21.25} {
		up := ta.Call(t, "POST", "/api/ingest/generic", tok.Str("token"), map[string]any{"devEui": "70B3D57ED005A1B3",
			"time": now.Add(time.Duration(i-2) * time.Minute).Format(time.RFC3339), "values": map[string]any{"temperature": temp, "state": "open"}, "rssi": -71, "snr": 7.5, "battery": 3.6})
		if up.Status != http.StatusOK {
			t.Fatalf("uplink: %d %s", up.Status, up.Body)
		}
	}
	page := ta.page(t, "GET", details, acme.companyAdminToken, nil)
	if page.Status != http.StatusOK {
		t.Fatalf("details: %d %.300s", page.Status, page.Body)
	}
	body := mainOf(page.Body)
	contains(t, body, []string{"Front door", "Identity and decoder", `value="Front door"`, "Battery and signal", "-71 dBm", "7.5 dB", "Latest values",
		"<code>temperature</code>", "21.25", "Stored data", "Latest uplinks: 2", "<td>20.5</td>", "<td>open</td>",
		"Keys", "Label of temperature", "Make default", "Downlinks", "No downlinks have been queued for this node.", "Queue downlink",
		"Picture", "The node has no picture.", `href="` + details + `/delete"`, "Sending data",
		fmt.Sprintf(`data-island="tag-chart" data-props="{"tagId":%d,`, tagID)}, nil)
	if !regexp.MustCompile(`(?s)<th scope="col">Time</th>.*<th scope="col"><code>battery</code></th>`).MatchString(body) {
		t.Errorf("the stored data table lacks its key columns")
	}

	steps := []struct {
		name, path string
		form       url.Values
		headers    []string
		status     int
		want       string
	}{
		{"port 0", details + "/downlinks", url.Values{"port": {"0"}, "payload": {"01FF"}, "payloadType": {"hex"}}, htmx, 400, "Port must be greater than 0"},
		{"port not a number", details + "/downlinks", url.Values{"port": {"x"}, "payload": {"01FF"}, "payloadType": {"hex"}}, nil, 400, "Port must be greater than 0"},
		{"payload not hex", details + "/downlinks", url.Values{"port": {"2"}, "payload": {"zz"}, "payloadType": {"hex"}}, htmx, 400, "The payload must be an even number of hexadecimal digits"},
		{"payload required", details + "/downlinks", url.Values{"port": {"2"}, "payload": {""}, "payloadType": {"json"}}, nil, 400, "This field must be filled in"},
		{"key label too long, htmx", details + "/keys", url.Values{"key": {"temperature"}, "label": {strings.Repeat("x", 300)}, "unit": {""}}, htmx, 400, "Max characters is 255"},
		{"unknown key", details + "/keys", url.Values{"key": {"nope"}, "label": {"x"}}, nil, 404, ""},
	}
	for _, tc := range steps {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.page(t, "POST", tc.path, acme.companyAdminToken, tc.form, tc.headers...)
			if p.Status != tc.status || !strings.Contains(p.Body, tc.want) {
				t.Fatalf("status %d, want %d with %q: %.500s", p.Status, tc.status, tc.want, mainOf(p.Body))
			}
			if p.Status == 400 && p.fullPage() == (tc.headers != nil) {
				t.Errorf("htmx %v but full page %v", tc.headers != nil, p.fullPage())
			}
		})
	}
	if p := ta.page(t, "POST", details+"/keys", acme.companyAdminToken, url.Values{"key": {"temperature"}, "label": {"Air temperature"}, "unit": {"°C"}}); p.redirect() != details {
		t.Errorf("key: %d to %q", p.Status, p.redirect())
	}
	if p := ta.page(t, "POST", details+"/keys/default", acme.companyAdminToken, url.Values{"key": {"temperature"}}, htmx...); p.redirect() != details || !strings.Contains(p.toast(), "temperature is now the default key") {
		t.Errorf("default key: %d to %q", p.Status, p.redirect())
	}
	if r := ta.Call(t, "GET", fmt.Sprintf("/api/tag/%d", tagID), root, nil); r.Obj()["latestValue"] != 21.25 {
		t.Errorf("latest value after the default key: %s", r.Body)
	}
	if p := ta.page(t, "POST", details+"/downlinks", acme.companyAdminToken, url.Values{"port": {"10"}, "payload": {"01 ff"}, "payloadType": {"hex"}, "confirmed": {"true"}}); p.redirect() != details {
		t.Fatalf("queue: %d %.500s", p.Status, mainOf(p.Body))
	}
	dls := ta.Call(t, "GET", fmt.Sprintf("/api/downlink/tag/%d", tagID), root, nil).List()
	if len(dls) != 1 || dls[0].(map[string]any)["payload"] != "01FF" || dls[0].(map[string]any)["confirmed"] != true {
		t.Fatalf("queued downlinks: %v", dls)
	}
	dl := fmt.Sprintf("%s/downlinks/%d/delete", details, int64(dls[0].(map[string]any)["id"].(float64)))
	page = ta.page(t, "GET", details, acme.companyAdminToken, nil)
	contains(t, mainOf(page.Body), []string{"Air temperature", `value="°C"`, "21.25 °C", `<span class="pill info">Default</span>`, "<code class=\"payload\">01FF</code>", "Queued", `href="` + dl + `"`}, nil)
	if p := ta.page(t, "GET", dl, acme.companyAdminToken, nil, htmx...); p.fullPage() || !strings.Contains(p.Body, "Take back the downlink 01FF on port 10 for Front door?") {
		t.Errorf("downlink confirmation: %d %.300s", p.Status, p.Body)
	}
	if p := ta.page(t, "POST", fmt.Sprintf("/tagdetails/%s/downlinks/%d/delete", foreign.deveui, int64(dls[0].(map[string]any)["id"].(float64))), other.companyAdminToken, url.Values{}); p.Status != http.StatusNotFound {
		t.Errorf("a downlink under another node: %d", p.Status)
	}
	if p := ta.page(t, "POST", dl, acme.companyAdminToken, url.Values{}); p.redirect() != details || !strings.Contains(p.toast(), "The downlink has been removed") {
		t.Errorf("remove downlink: %d to %q", p.Status, p.redirect())
	}

	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), make([]byte, 64)...)
	if r := ta.Call(t, "POST", fmt.Sprintf("/api/tag/%d/image", tagID), acme.companyAdminToken, png); r.Status != http.StatusOK {
		t.Fatalf("image: %d", r.Status)
	}
	if p := ta.page(t, "GET", details, acme.companyAdminToken, nil); !strings.Contains(p.Body, `alt="Picture of Front door"`) || !strings.Contains(p.Body, `href="`+details+`/image/delete"`) {
		t.Errorf("details lack the picture")
	}
	if p := ta.page(t, "POST", details+"/image/delete", acme.companyAdminToken, url.Values{}); p.redirect() != details {
		t.Errorf("remove picture: %d", p.Status)
	}

	confirm := ta.page(t, "GET", details+"/delete", acme.companyAdminToken, nil)
	if !confirm.fullPage() || !strings.Contains(confirm.Body, "Delete the node Front door (70B3D57ED005A1B3) with its keys, picture and downlinks? This cannot be undone.") {
		t.Errorf("delete confirmation: %.300s", mainOf(confirm.Body))
	}
	if p := ta.page(t, "POST", details+"/delete", acme.adminToken, url.Values{}, htmx...); p.redirect() != "/tag" || !strings.Contains(p.toast(), "The node Front door has been deleted") {
		t.Errorf("delete: %d to %q", p.Status, p.redirect())
	}
	if r := ta.Call(t, "GET", fmt.Sprintf("/api/tag/%d", tagID), root, nil); r.Status != http.StatusNotFound {
		t.Errorf("deleted node: %d", r.Status)
	}
}

func TestPoolPage(t *testing.T) {
	ta := newTestApp(t, db.SQLite, nil)
	root := ta.superAdmin(t)
	ta.englishCompany(t, root, "Acme AB", "acme.example")
	en := []string{"Accept-Language", "en"}
	if p := ta.page(t, "GET", "/tag/pool", root, nil, en...); !strings.Contains(p.Body, "No unknown DevEUIs have been heard.") {
		t.Errorf("empty pool: %.300s", mainOf(p.Body))
	}
	now := time.Now().UTC()
	for i, eui := range []string{"A1B2C3D4E5F60718", "A1B2C3D4E5F60719"} {
		if _, err := ta.kernel.Host().DB.NewRaw("INSERT INTO node_pool (deveui, source, status, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)",
			eui, "chirpstack", "shown", now, now.Add(time.Duration(-i)*time.Hour)).Exec(context.Background()); err != nil {
			t.Fatalf("pool entry: %v", err)
		}
	}
	entries := ta.Call(t, "GET", "/api/tag/pool", root, nil).List()
	first := int64(entries[0].(map[string]any)["id"].(float64))
	p := ta.page(t, "GET", "/tag/pool", root, nil, en...)
	contains(t, mainOf(p.Body), []string{"2 DevEUIs", "A1B2C3D4E5F60718", "chirpstack", `href="/tag/create/A1B2C3D4E5F60718"`, "Hide", "Mark taken", fmt.Sprintf(`action="/tag/pool/%d"`, first)}, nil)

	hidden := ta.page(t, "POST", fmt.Sprintf("/tag/pool/%d", first), root, url.Values{"status": {"hidden"}, "from": {"shown"}}, append(en, htmx...)...)
	if hidden.redirect() != "/tag/pool" || !strings.Contains(hidden.toast(), "A1B2C3D4E5F60718 is now Hidden") {
		t.Fatalf("hide: %d to %q, toast %q", hidden.Status, hidden.redirect(), hidden.toast())
	}
	lists := []struct {
		name, query string
		headers     []string
		want, not   []string
		status      int
	}{
		{"shown", "", nil, []string{"1 DevEUIs", "A1B2C3D4E5F60719"}, []string{"A1B2C3D4E5F60718"}, 200},
		{"hidden, htmx", "?status=hidden", []string{"HX-Request", "true", "HX-Target", "pool-list"}, []string{`<div id="pool-list"`, "A1B2C3D4E5F60718", "Show"}, []string{"A1B2C3D4E5F60719"}, 200},
		{"all", "?status=all", nil, []string{"A1B2C3D4E5F60718", "A1B2C3D4E5F60719"}, nil, 200},
		{"taken is empty", "?status=taken", nil, []string{"No DevEUIs have been taken."}, nil, 200},
		{"a status that is not one", "?status=gone", nil, []string{"The status must be hidden, shown or taken"}, nil, 400},
	}
	for _, tc := range lists {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.page(t, "GET", "/tag/pool"+tc.query, root, nil, append(tc.headers, en...)...)
			if p.Status != tc.status {
				t.Fatalf("status %d", p.Status)
			}
			contains(t, mainOf(p.Body), tc.want, tc.not)
		})
	}
	if p := ta.page(t, "POST", fmt.Sprintf("/tag/pool/%d", first), root, url.Values{"status": {"gone"}}, en...); p.Status != http.StatusBadRequest {
		t.Errorf("bad status: %d", p.Status)
	}
	if p := ta.page(t, "POST", "/tag/pool/999999", root, url.Values{"status": {"hidden"}}, en...); p.Status != http.StatusNotFound {
		t.Errorf("unknown entry: %d", p.Status)
	}
	if p := ta.page(t, "POST", fmt.Sprintf("/tag/pool/%d", first), root, url.Values{"status": {"shown"}, "from": {"hidden"}}, en...); p.redirect() != "/tag/pool?status=hidden" {
		t.Errorf("back to the filter: %q", p.redirect())
	}
}

func TestTokenPages(t *testing.T) {
	ta := newTestApp(t, db.SQLite, nil)
	root := ta.superAdmin(t)
	acme := ta.englishCompany(t, root, "Acme AB", "acme.example")
	other := ta.englishCompany(t, root, "Other AB", "other.example")
	foreign := ta.Call(t, "POST", fmt.Sprintf("/api/integration/tokens/%d", other.companyID), other.companyAdminToken, map[string]any{"label": "Theirs", "isCompany": true})

	if p := ta.page(t, "GET", "/company/tokens", acme.companyAdminToken, nil); !strings.Contains(p.Body, "The company has no integration tokens yet.") || strings.Contains(p.Body, "Theirs") {
		t.Errorf("empty tokens page: %.300s", mainOf(p.Body))
	}
	refused := []struct {
		name    string
		headers []string
	}{{"label required", nil}, {"label required, htmx", htmx}}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.page(t, "POST", "/company/tokens", acme.companyAdminToken, url.Values{"label": {" "}}, tc.headers...)
			if p.Status != http.StatusBadRequest || !strings.Contains(p.Body, "This field must be filled in") || p.fullPage() == (tc.headers != nil) {
				t.Errorf("status %d, full page %v: %.300s", p.Status, p.fullPage(), mainOf(p.Body))
			}
		})
	}
	token := regexp.MustCompile(`id="new-token" class="mono" type="text" readonly value="(fh_[A-Za-z0-9_-]+)"`)
	created := ta.page(t, "POST", "/company/tokens", acme.companyAdminToken, url.Values{"label": {"ChirpStack"}, "isCompany": {"true"}}, htmx...)
	m := token.FindStringSubmatch(created.Body)
	if created.Status != http.StatusOK || m == nil || created.fullPage() || !strings.Contains(created.Body, "Copy the token now: it is shown only this once.") ||
		!strings.Contains(created.Body, `data-copied="Copied token to clipboard"`) || !strings.Contains(created.toast(), "The token ChirpStack has been created") {
		t.Fatalf("create: %d %.800s", created.Status, created.Body)
	}
	if r := ta.Call(t, "POST", "/api/ingest/generic", m[1], map[string]any{"devEui": "0101010101010101", "values": map[string]any{"x": 1}}); r.Status != http.StatusOK && r.Status != http.StatusAccepted {
		t.Errorf("the shown token does not work: %d %s", r.Status, r.Body)
	}
	personal := ta.page(t, "POST", "/company/tokens", acme.adminToken, url.Values{"label": {"Mine"}})
	if personal.Status != http.StatusOK || !personal.fullPage() || token.FindStringSubmatch(personal.Body) == nil {
		t.Fatalf("create without htmx: %d %.300s", personal.Status, mainOf(personal.Body))
	}
	list := ta.page(t, "GET", "/company/tokens", acme.companyAdminToken, nil)
	contains(t, mainOf(list.Body), []string{"ChirpStack", m[1][:7] + "…", "Company", "Mine", "Personal"}, []string{m[1], `id="new-token"`, "Theirs"})

	tokens := ta.Call(t, "GET", fmt.Sprintf("/api/integration/tokens/%d", acme.companyID), acme.companyAdminToken, nil).List()
	var id int64
	for _, tk := range tokens {
		if tk.(map[string]any)["label"] == "ChirpStack" {
			id = int64(tk.(map[string]any)["id"].(float64))
		}
	}
	del := fmt.Sprintf("/company/tokens/%d/delete", id)
	if p := ta.page(t, "GET", del, acme.companyAdminToken, nil, htmx...); p.fullPage() || !strings.Contains(p.Body, "Delete the token ChirpStack? Integrations that use it stop working.") {
		t.Errorf("confirmation: %.300s", p.Body)
	}
	if p := ta.page(t, "POST", fmt.Sprintf("/company/tokens/%d/delete", foreign.Num("id")), acme.companyAdminToken, url.Values{}); p.Status != http.StatusNotFound {
		t.Errorf("another company's token: %d", p.Status)
	}
	if p := ta.page(t, "POST", del, acme.companyAdminToken, url.Values{}); p.redirect() != "/company/tokens" || !strings.Contains(p.toast(), "The token ChirpStack has been deleted") {
		t.Errorf("delete: %d to %q", p.Status, p.redirect())
	}
	if r := ta.Call(t, "POST", "/api/ingest/generic", m[1], map[string]any{"devEui": "0101010101010101", "values": map[string]any{"x": 1}}); r.Status != http.StatusUnauthorized {
		t.Errorf("a deleted token still works: %d", r.Status)
	}
}

// TestSwedishNodePages checks the pages' texts for a Swedish company.
func TestSwedishNodePages(t *testing.T) {
	ta := newTestApp(t, db.SQLite, nil)
	root := ta.superAdmin(t)
	acme := ta.company(t, root, "Acme AB", "acme.example")
	f := ta.nodeFixture(t, acme.companyAdminToken, acme.companyID, "Fält", "Dörr", "70B3D57ED005A1B2")
	cases := []struct {
		name, method, path, token string
		form                      url.Values
		headers                   []string
		want                      []string
	}{
		{"menu and list", "GET", "/application", acme.companyAdminToken, nil, nil, []string{`lang="sv"`, "Applikationer", "Noder", "Ny applikation", "Nätverksserver"}},
		{"application messages", "POST", "/application/create", acme.companyAdminToken, url.Values{"name": {""}}, htmx, []string{"Din applikation måste ha ett namn", "Skapa applikation"}},
		{"node list", "GET", "/tag", acme.userToken, nil, nil, []string{"Filtrera på namn eller DevEUI", "Senaste data", "Aldrig"}},
		{"node form", "GET", "/tag/create", acme.companyAdminToken, nil, nil, []string{"Avkodare", "Standard (rå nyttolast)", "Välj en applikation", "Skapa nod"}},
		{"node messages", "POST", "/tag/create", acme.companyAdminToken, url.Values{"name": {"X"}, "deveui": {"70B3D57ED005A1B2"}, "applicationId": {fmt.Sprint(f.appID)}}, htmx, []string{"En nod med denna DevEUI finns redan på servern"}},
		{"details", "GET", "/tagdetails/" + f.deveui, acme.companyAdminToken, nil, nil, []string{"Identitet och avkodare", "Batteri och signal", "Nedlänkar", "Köa nedlänk", "Ta bort noden"}},
		{"downlink messages", "POST", "/tagdetails/" + f.deveui + "/downlinks", acme.companyAdminToken, url.Values{"port": {"0"}, "payload": {"01"}, "payloadType": {"hex"}}, htmx, []string{"Porten måste vara större än 0"}},
		{"tokens", "GET", "/company/tokens", acme.companyAdminToken, nil, nil, []string{"Integrationsnycklar", "Skapa nyckel", "Företagsnyckel"}},
		{"pool", "GET", "/tag/pool", root, nil, []string{"Accept-Language", "sv"}, []string{"Nodpool", "Inga okända DevEUI:n har hörts."}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.page(t, tc.method, tc.path, tc.token, tc.form, tc.headers...)
			if p.Status >= 500 {
				t.Fatalf("status %d", p.Status)
			}
			contains(t, p.Body, tc.want, nil)
		})
	}
}
