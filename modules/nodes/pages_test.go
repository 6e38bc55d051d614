package nodes_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// The server pages of the nodes module (/application, /company/applications,
// /tag, /tag/create, /tagdetails/{deveui}, /tag/pool, /company/tokens),
// driven as a browser without JavaScript and as htmx.

func TestNodePageGuards(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")
	f := ta.AppNode(t, acme.CompanyAdminToken, acme.CompanyID, "Field", "Door", "70B3D57ED005A1B2")
	appPath := fmt.Sprintf("/application/%d", f.AppID)
	details := "/tagdetails/" + f.DevEUI
	refused := []struct {
		name, method, path, token string
		headers                   []string
		want                      string
	}{
		{"visitor on /application", "GET", "/application", "", nil, "/login?next=%2Fapplication"},
		{"visitor on /tag with htmx", "GET", "/tag", "", kerneltest.HTMX, "/login?next=%2Ftag"},
		{"visitor on node details", "GET", details, "", nil, "/login?next=" + url.QueryEscape(details)},
		{"visitor on /tag/pool", "GET", "/tag/pool", "", nil, "/login?next=%2Ftag%2Fpool"},
		{"User on /application/create", "GET", "/application/create", acme.UserToken, nil, "/"},
		{"User posts /application/create", "POST", "/application/create", acme.UserToken, nil, "/"},
		{"User on an application", "GET", appPath, acme.UserToken, nil, "/"},
		{"User deletes an application", "POST", appPath + "/delete", acme.UserToken, nil, "/"},
		{"User on /tag/create", "GET", "/tag/create", acme.UserToken, nil, "/"},
		{"User on /tag/create/{deveui}", "GET", "/tag/create/A1B2C3D4E5F60718", acme.UserToken, nil, "/"},
		{"User on node details", "GET", details, acme.UserToken, nil, "/"},
		{"User deletes a node, htmx", "POST", details + "/delete", acme.UserToken, kerneltest.HTMX, "/"},
		{"User on /company/tokens", "GET", "/company/tokens", acme.UserToken, nil, "/"},
		{"CompanyAdmin on /tag/pool", "GET", "/tag/pool", acme.CompanyAdminToken, nil, "/"},
		{"Admin on /tag/pool", "GET", "/tag/pool", acme.AdminToken, nil, "/"},
		{"Admin changes a pool entry", "POST", "/tag/pool/1", acme.AdminToken, nil, "/"},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			var form url.Values
			if tc.method == "POST" {
				form = url.Values{"name": {"Hacked"}, "status": {"hidden"}}
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
	if r := ta.Call(t, "GET", fmt.Sprintf("/api/tag/%d", f.TagID), root, nil); r.Status != http.StatusOK {
		t.Errorf("a refused delete removed the node: %d", r.Status)
	}
	allowed := []struct{ name, path, token string }{
		{"User on /application", "/application", acme.UserToken},
		{"User on /company/applications", "/company/applications", acme.UserToken},
		{"User on /tag", "/tag", acme.UserToken},
		{"CompanyAdmin on /application/create", "/application/create", acme.CompanyAdminToken},
		{"CompanyAdmin on an application", appPath, acme.CompanyAdminToken},
		{"Admin on /tag/create", "/tag/create", acme.AdminToken},
		{"Admin on /tag/create/{deveui}", "/tag/create/A1B2C3D4E5F60718", acme.AdminToken},
		{"CompanyAdmin on node details", details, acme.CompanyAdminToken},
		{"CompanyAdmin on /company/tokens", "/company/tokens", acme.CompanyAdminToken},
		{"SuperAdmin on /tag/pool", "/tag/pool", root},
		{"SuperAdmin on node details", details, root},
	}
	for _, tc := range allowed {
		t.Run(tc.name, func(t *testing.T) {
			if p := ta.Page(t, "GET", tc.path, tc.token, nil); p.Status != http.StatusOK || !p.FullPage() {
				t.Errorf("status %d, full page %v: %.300s", p.Status, p.FullPage(), p.Body)
			}
		})
	}
	menus := []struct {
		name, token string
		want, not   []string
	}{
		{"User", acme.UserToken, nil, []string{`href="/application"`, `href="/tag"`, `href="/tag/pool"`}},
		{"CompanyAdmin", acme.CompanyAdminToken, []string{`href="/application"`, `href="/tag"`, "mdi-apps", "mdi-access-point"}, []string{`href="/tag/pool"`}},
		{"SuperAdmin", root, []string{`href="/application"`, `href="/tag"`, `href="/tag/pool"`, "Node pool"}, nil},
	}
	for _, tc := range menus {
		t.Run("menu of "+tc.name, func(t *testing.T) {
			p := ta.Page(t, "GET", "/company", tc.token, nil)
			menu := p.Body[strings.Index(p.Body, `id="side-menu"`):strings.Index(p.Body, `<main id="main"`)]
			kerneltest.Contains(t, menu, tc.want, tc.not)
		})
	}
	order := ta.Page(t, "GET", "/company", root, nil).Body
	if a, n, pool := strings.Index(order, `href="/application"`), strings.Index(order, `href="/tag"`), strings.Index(order, `href="/tag/pool"`); !(a < n && n < pool) {
		t.Errorf("menu order: application %d, nodes %d, pool %d", a, n, pool)
	}
}

func TestApplicationPages(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")
	other := ta.EnglishCompany(t, root, "Other AB", "other.example")
	foreign := ta.AppNode(t, other.CompanyAdminToken, other.CompanyID, "Other field", "", "")

	if p := ta.Page(t, "GET", "/application", acme.CompanyAdminToken, nil); !strings.Contains(p.Body, "There are no applications yet.") || !strings.Contains(p.Body, `href="/application/create"`) {
		t.Errorf("empty list: %.500s", kerneltest.Main(p.Body))
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
		{"name too long, htmx", form("name", strings.Repeat("x", 255)), kerneltest.HTMX, "Name must be fewer than 255 characters"},
		{"network server", form("networkServer", "lorix"), nil, "The network server must be chirpstack, tts or generic"},
		{"ChirpStack id, htmx", form("chirpstackApplicationId", "not-a-uuid"), kerneltest.HTMX, "The ChirpStack application id must be a UUID"},
		{"downlink address", form("ttsDownlinkUrl", "ftp://x"), nil, "The downlink address must be an http or https URL"},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.Page(t, "POST", "/application/create", acme.CompanyAdminToken, tc.form, tc.headers...)
			if want := formStatus(tc.headers, http.StatusBadRequest); p.Status != want || !strings.Contains(p.Body, tc.want) {
				t.Fatalf("status %d, want %d with %q: %.500s", p.Status, want, tc.want, kerneltest.Main(p.Body))
			}
			if p.FullPage() == (tc.headers != nil) {
				t.Errorf("htmx %v but full page %v", tc.headers != nil, p.FullPage())
			}
			if !strings.Contains(p.Body, `value="`+tc.form.Get("ttsDownlinkUrl")+`"`) || strings.Contains(p.Body, "NNSXS.SECRET") {
				t.Errorf("the refused form lost what was typed, or shows the API key")
			}
		})
	}
	if r := ta.Call(t, "GET", fmt.Sprintf("/api/companies/%d/applications", acme.CompanyID), root, nil); len(r.List()) != 0 {
		t.Fatalf("a refused form created an application: %s", r.Body)
	}

	created := ta.Page(t, "POST", "/application/create", acme.CompanyAdminToken, form(), kerneltest.HTMX...)
	if created.Status != http.StatusNoContent || !strings.HasPrefix(created.Redirect(), "/application/") || !strings.Contains(created.Toast(), "The application Greenhouse has been created") {
		t.Fatalf("create: %d to %q, toast %q: %.300s", created.Status, created.Redirect(), created.Toast(), created.Body)
	}
	path := created.Redirect()
	apps := ta.Call(t, "GET", fmt.Sprintf("/api/companies/%d/applications", acme.CompanyID), root, nil).List()
	if len(apps) != 1 || apps[0].(map[string]any)["ttsApiKeySet"] != true || apps[0].(map[string]any)["networkServer"] != "tts" {
		t.Fatalf("created application: %v", apps)
	}
	appID := int64(apps[0].(map[string]any)["id"].(float64))
	if path != fmt.Sprintf("/application/%d", appID) {
		t.Errorf("went to %q", path)
	}
	ta.AppNode(t, acme.CompanyAdminToken, acme.CompanyID, "Spare", "", "") // an application without nodes
	tag := ta.Call(t, "POST", fmt.Sprintf("/api/applications/%d/tag", appID), acme.CompanyAdminToken, map[string]any{"name": "Vent sensor", "deveui": "0004A30B001C1452"})
	if tag.Status != http.StatusCreated {
		t.Fatalf("tag: %d %s", tag.Status, tag.Body)
	}

	lists := []struct {
		name, path, token string
		want, not         []string
	}{
		{"CompanyAdmin's list links to the edit page", "/application", acme.CompanyAdminToken,
			[]string{"Greenhouse", "The Things Stack", "<td>1</td>", "Spare", "<td>0</td>", `href="` + path + `"`, "New application"}, []string{"Other field"}},
		{"User's list is read-only", "/application", acme.UserToken, []string{"Greenhouse", "<td>1</td>"}, []string{`href="` + path + `"`, "New application"}},
		{"the company's applications", "/company/applications", acme.CompanyAdminToken, []string{"The company's applications", "Greenhouse", `href="/company"`}, []string{`href="` + path + `"`}},
		{"SuperAdmin sees the chosen company", "/application", root, []string{"Greenhouse"}, nil},
	}
	for _, tc := range lists {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.Page(t, "GET", tc.path, tc.token, nil)
			if p.Status != http.StatusOK {
				t.Fatalf("status %d", p.Status)
			}
			kerneltest.Contains(t, kerneltest.Main(p.Body), tc.want, tc.not)
		})
	}

	edit := ta.Page(t, "GET", path, acme.AdminToken, nil)
	kerneltest.Contains(t, kerneltest.Main(edit.Body), []string{`value="Greenhouse"`, "A key is stored. Leave this empty to keep it.", "Remove the stored API key", "Vent sensor", `href="/tagdetails/0004A30B001C1452"`, `href="` + path + `/delete"`},
		[]string{"NNSXS.SECRET"})
	if p := ta.Page(t, "GET", fmt.Sprintf("/application/%d", foreign.AppID), acme.CompanyAdminToken, nil); p.Status != http.StatusNotFound {
		t.Errorf("another company's application: %d", p.Status)
	}
	if p := ta.Page(t, "POST", fmt.Sprintf("/application/%d", foreign.AppID), acme.CompanyAdminToken, form("name", "Taken over")); p.Status != http.StatusNotFound {
		t.Errorf("edit another company's application: %d", p.Status)
	}
	if p := ta.Page(t, "GET", "/application/abc", acme.CompanyAdminToken, nil); p.Status != http.StatusBadRequest {
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
			p := ta.Page(t, "POST", path, acme.CompanyAdminToken, tc.form)
			if p.Redirect() != "/application" || !strings.Contains(p.Toast(), "has been updated") {
				t.Fatalf("save: %d to %q: %.300s", p.Status, p.Redirect(), kerneltest.Main(p.Body))
			}
			r := ta.Call(t, "GET", fmt.Sprintf("/api/applications/%d", appID), root, nil)
			if r.Str("name") != tc.form.Get("name") || r.Obj()["ttsApiKeySet"] != tc.keySet {
				t.Errorf("after save: %s", r.Body)
			}
		})
	}
	if p := ta.Page(t, "POST", path, acme.CompanyAdminToken, form("name", ""), kerneltest.HTMX...); p.Status != http.StatusOK || !strings.Contains(p.Body, "Your application must have a name") || p.FullPage() {
		t.Errorf("refused edit: %d %.300s", p.Status, p.Body)
	}

	confirm := ta.Page(t, "GET", path+"/delete", acme.CompanyAdminToken, nil, kerneltest.HTMX...)
	if confirm.Status != http.StatusOK || confirm.FullPage() || !strings.Contains(confirm.Body, "Delete the application Greenhouse 3? This cannot be undone.") {
		t.Errorf("confirmation: %d %.300s", confirm.Status, confirm.Body)
	}
	deletes := []struct {
		name    string
		headers []string
		status  int
	}{
		{"with nodes, no JavaScript", nil, http.StatusConflict},
		{"with nodes, htmx", kerneltest.HTMX, http.StatusOK},
	}
	for _, tc := range deletes {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.Page(t, "POST", path+"/delete", acme.CompanyAdminToken, url.Values{}, tc.headers...)
			if p.Status != tc.status || !strings.Contains(p.Body, "Delete or move the application's nodes first") {
				t.Errorf("status %d: %.300s", p.Status, kerneltest.Main(p.Body))
			}
		})
	}
	if r := ta.Call(t, "DELETE", fmt.Sprintf("/api/tag/%d", tag.Num("id")), acme.CompanyAdminToken, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete tag: %d", r.Status)
	}
	if p := ta.Page(t, "POST", path+"/delete", acme.CompanyAdminToken, url.Values{}); p.Redirect() != "/application" || !strings.Contains(p.Toast(), "Greenhouse 3 has been deleted") {
		t.Errorf("delete: %d to %q", p.Status, p.Redirect())
	}
	if r := ta.Call(t, "GET", fmt.Sprintf("/api/applications/%d", appID), root, nil); r.Status != http.StatusNotFound {
		t.Errorf("deleted application: %d", r.Status)
	}
}

func TestApplicationPagesWithoutCompany(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	ta.CreateUser(t, root, "free-admin@example.com", "Admin")
	admin := ta.Login(t, "free-admin@example.com", kerneltest.Password)
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
			p := ta.Page(t, tc.method, tc.path, admin, tc.form, "Accept-Language", "en")
			if p.Status != tc.status || !strings.Contains(p.Body, "You must register a company first to create applications") {
				t.Errorf("status %d: %.400s", p.Status, kerneltest.Main(p.Body))
			}
		})
	}
	// A SuperAdmin works in the company chosen with the switcher; before
	// there is any, the pages say so and offer to register one, instead of
	// the API's "You must register a company first".
	for _, path := range []string{"/tag", "/application", "/company/tokens"} {
		t.Run("SuperAdmin without companies on "+path, func(t *testing.T) {
			p := ta.Page(t, "GET", path, root, nil, "Accept-Language", "en")
			kerneltest.Contains(t, kerneltest.Main(p.Body), []string{
				"As SuperAdmin you work in the company chosen with the company switcher in the side menu. There is no company yet: register one to add its applications and nodes.",
				`href="/register"`,
			}, []string{"You must register a company first"})
		})
	}
	// A chosen company that was deleted leaves the SuperAdmin in the first one.
	acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")
	p := ta.Page(t, "GET", "/tag", root, nil, "Accept-Language", "en", "Cookie", "fieldhub_company=999999")
	kerneltest.Contains(t, p.Body, []string{fmt.Sprintf(`<option value="%d" selected>Acme AB</option>`, acme.CompanyID)}, []string{"There is no company yet"})
}

func TestTagPages(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")
	other := ta.EnglishCompany(t, root, "Other AB", "other.example")
	foreign := ta.AppNode(t, other.CompanyAdminToken, other.CompanyID, "Other field", "Other door", "1111111111111111")

	if p := ta.Page(t, "GET", "/tag/create", acme.CompanyAdminToken, nil); !strings.Contains(p.Body, "A node belongs to an application. Create an application first.") {
		t.Errorf("node form without applications: %.300s", kerneltest.Main(p.Body))
	}
	if p := ta.Page(t, "GET", "/tag", acme.CompanyAdminToken, nil); !strings.Contains(p.Body, "There are no nodes yet.") {
		t.Errorf("empty node list: %.300s", kerneltest.Main(p.Body))
	}
	f := ta.AppNode(t, acme.CompanyAdminToken, acme.CompanyID, "Field", "", "")
	appID := fmt.Sprint(f.AppID)
	form := func(pairs ...string) url.Values {
		v := url.Values{"name": {"Door sensor"}, "deveui": {"70-b3-d5-7e-d0-05-a1-b2"}, "applicationId": {appID}, "decoder": {""},
			"appKey": {""}, "appEui": {""}, "profile": {"Class A"}, "lat": {"57,7"}, "long": {"11.97"}, "location": {"Gate"}, "type": {"door"}}
		for i := 0; i+1 < len(pairs); i += 2 {
			v.Set(pairs[i], pairs[i+1])
		}
		return v
	}
	blank := ta.Page(t, "GET", "/tag/create", acme.CompanyAdminToken, nil)
	kerneltest.Contains(t, blank.Body, []string{`<option value="raw">`, `<option value="` + appID + `">Field</option>`, `for="f-deveui"`, `for="f-decoder"`}, []string{"Could not fetch decoders"})

	refused := []struct {
		name    string
		form    url.Values
		headers []string
		status  int
		field   string
		want    string
	}{
		{"name required", form("name", ""), nil, 400, "name", "This field must be filled in"},
		{"DevEUI format, htmx", form("deveui", "12345"), kerneltest.HTMX, 200, "deveui", "A DevEUI is 16 hexadecimal digits"},
		{"application required", form("applicationId", ""), nil, 400, "applicationId", "This field must be filled in"},
		{"another company's application", form("applicationId", fmt.Sprint(foreign.AppID)), kerneltest.HTMX, 200, "applicationId", "Choose one of your applications"},
		{"unknown decoder", form("decoder", "no_such_decoder"), nil, 400, "decoder", "Choose a decoder from the list"},
		{"latitude", form("lat", "north"), kerneltest.HTMX, 200, "lat", "Latitude must be between -90 and 90"},
		{"DevEUI of another company's node", form("deveui", "1111111111111111"), nil, 400, "deveui", "Node with this DevEUI already exists on this server"},
		{"DevEUI taken, htmx", form("deveui", "11:11:11:11:11:11:11:11"), kerneltest.HTMX, 200, "deveui", "Node with this DevEUI already exists on this server"},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.Page(t, "POST", "/tag/create", acme.CompanyAdminToken, tc.form, tc.headers...)
			if p.Status != tc.status || !strings.Contains(p.Body, `<span class="error" id="e-`+tc.field+`">`+tc.want+`</span>`) {
				t.Fatalf("status %d, want %d with %q on %s: %.800s", p.Status, tc.status, tc.want, tc.field, kerneltest.Main(p.Body))
			}
			if p.FullPage() == (tc.headers != nil) {
				t.Errorf("htmx %v but full page %v", tc.headers != nil, p.FullPage())
			}
			if !strings.Contains(p.Body, `value="Gate"`) {
				t.Errorf("the refused form lost what was typed")
			}
		})
	}

	now := time.Now().UTC()
	if _, err := ta.Host().DB.NewRaw("INSERT INTO node_pool (deveui, source, status, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)",
		"70B3D57ED005A1B2", "chirpstack", "shown", now, now).Exec(context.Background()); err != nil {
		t.Fatalf("pool entry: %v", err)
	}
	fromPool := ta.Page(t, "GET", "/tag/create/70b3d57ed005a1b2", acme.CompanyAdminToken, nil)
	if !strings.Contains(fromPool.Body, `value="70B3D57ED005A1B2"`) {
		t.Errorf("the DevEUI from the pool is not filled in: %.500s", kerneltest.Main(fromPool.Body))
	}
	created := ta.Page(t, "POST", "/tag/create", acme.CompanyAdminToken, form())
	if created.Redirect() != "/tagdetails/70B3D57ED005A1B2" || !strings.Contains(created.Toast(), "The node Door sensor has been created") {
		t.Fatalf("create: %d to %q: %.500s", created.Status, created.Redirect(), kerneltest.Main(created.Body))
	}
	pool := ta.Call(t, "GET", "/api/tag/pool?status=taken", root, nil).List()
	if len(pool) != 1 {
		t.Errorf("the pool entry is not taken: %v", pool)
	}
	tag := ta.Call(t, "GET", "/api/tag", acme.CompanyAdminToken, nil).List()[0].(map[string]any)
	if tag["decoder"] != "raw" || tag["lat"] != 57.7 || tag["location"] != "Gate" || tag["profile"] != "Class A" {
		t.Errorf("created tag: %v", tag)
	}
	tagID := int64(tag["id"].(float64))
	ta.Call(t, "POST", fmt.Sprintf("/api/applications/%d/tag", f.AppID), acme.CompanyAdminToken, map[string]any{"name": "Boiler", "deveui": "0004A30B001C1452"})

	lists := []struct {
		name, query, token string
		headers            []string
		want, not          []string
		fragment           bool
	}{
		{"CompanyAdmin's list", "", acme.CompanyAdminToken, nil,
			[]string{"2 of 2 nodes", `href="/tagdetails/70B3D57ED005A1B2"`, "Door sensor", "Boiler", "Field", "raw", "Never", "No recent data", "New node"}, []string{"Other door"}, false},
		{"User's list without links", "", acme.UserToken, nil, []string{"Door sensor"}, []string{`href="/tagdetails/`, "New node"}, false},
		{"filter by name", "?q=door", acme.CompanyAdminToken, nil, []string{"1 of 2 nodes", "Door sensor"}, []string{"Boiler"}, false},
		{"filter by DevEUI, htmx", "?q=00-04-a3", acme.CompanyAdminToken, []string{"HX-Request", "true", "HX-Target", "tag-list"},
			[]string{`<div id="tag-list"`, "Boiler"}, []string{"Door sensor"}, true},
		{"no match", "?q=zzz", acme.CompanyAdminToken, nil, []string{"No node matches “zzz”."}, nil, false},
	}
	for _, tc := range lists {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.Page(t, "GET", "/tag"+tc.query, tc.token, nil, tc.headers...)
			if p.Status != 200 || p.FullPage() == tc.fragment {
				t.Fatalf("status %d, full page %v: %.300s", p.Status, p.FullPage(), p.Body)
			}
			kerneltest.Contains(t, kerneltest.Main(p.Body), tc.want, tc.not)
		})
	}

	details := "/tagdetails/70B3D57ED005A1B2"
	if p := ta.Page(t, "GET", "/tagdetails/"+foreign.DevEUI, acme.CompanyAdminToken, nil); p.Status != http.StatusNotFound {
		t.Errorf("another company's node: %d", p.Status)
	}
	if p := ta.Page(t, "POST", "/tagdetails/"+foreign.DevEUI+"/delete", acme.CompanyAdminToken, url.Values{}); p.Status != http.StatusNotFound {
		t.Errorf("delete another company's node: %d", p.Status)
	}
	if p := ta.Page(t, "GET", "/tagdetails/not-a-deveui", acme.CompanyAdminToken, nil); p.Status != http.StatusNotFound {
		t.Errorf("a malformed DevEUI: %d", p.Status)
	}

	edits := []struct {
		name    string
		form    url.Values
		headers []string
		status  int
		want    string
	}{
		{"DevEUI taken", form("deveui", "0004A30B001C1452"), kerneltest.HTMX, 200, `<span class="error" id="e-deveui">Node with this DevEUI already exists on this server</span>`},
		{"longitude", form("long", "200"), nil, 400, "Longitude must be between -180 and 180"},
		{"AppKey", form("appKey", "xyz"), kerneltest.HTMX, 200, "An AppKey is 32 hexadecimal digits"},
	}
	for _, tc := range edits {
		t.Run("edit: "+tc.name, func(t *testing.T) {
			p := ta.Page(t, "POST", details, acme.CompanyAdminToken, tc.form, tc.headers...)
			if p.Status != tc.status || !strings.Contains(p.Body, tc.want) {
				t.Fatalf("status %d, want %d with %q: %.500s", p.Status, tc.status, tc.want, kerneltest.Main(p.Body))
			}
		})
	}
	saved := ta.Page(t, "POST", details, acme.CompanyAdminToken, form("name", "Front door", "deveui", "70B3D57ED005A1B3", "lat", ""), kerneltest.HTMX...)
	if saved.Redirect() != "/tagdetails/70B3D57ED005A1B3" || !strings.Contains(saved.Toast(), "The node Front door has been updated") {
		t.Fatalf("edit: %d to %q: %.500s", saved.Status, saved.Redirect(), saved.Body)
	}
	details = saved.Redirect()
	if r := ta.Call(t, "GET", fmt.Sprintf("/api/tag/%d", tagID), root, nil); r.Str("name") != "Front door" || r.Obj()["lat"] != nil {
		t.Errorf("after edit: %s", r.Body)
	}

	// An uplink gives the node keys, a state and stored values.
	tok := ta.Call(t, "POST", fmt.Sprintf("/api/integration/tokens/%d", acme.CompanyID), acme.CompanyAdminToken, map[string]any{"label": "ingest", "isCompany": true})
	for i, temp := range []float64{20.5, 21.25} {
		up := ta.Call(t, "POST", "/api/ingest/generic", tok.Str("token"), map[string]any{"devEui": "70B3D57ED005A1B3",
			"time": now.Add(time.Duration(i-2) * time.Minute).Format(time.RFC3339), "values": map[string]any{"temperature": temp, "state": "open"}, "rssi": -71, "snr": 7.5, "battery": 3.6})
		if up.Status != http.StatusOK {
			t.Fatalf("uplink: %d %s", up.Status, up.Body)
		}
	}
	page := ta.Page(t, "GET", details, acme.CompanyAdminToken, nil)
	if page.Status != http.StatusOK {
		t.Fatalf("details: %d %.300s", page.Status, page.Body)
	}
	body := kerneltest.Main(page.Body)
	kerneltest.Contains(t, body, []string{"Front door", "Identity and decoder", `value="Front door"`, "Battery and signal", "-71 dBm", "7.5 dB", "Latest values",
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
		{"port 0", details + "/downlinks", url.Values{"port": {"0"}, "payload": {"01FF"}, "payloadType": {"hex"}}, kerneltest.HTMX, 200, "Port must be greater than 0"},
		{"port not a number", details + "/downlinks", url.Values{"port": {"x"}, "payload": {"01FF"}, "payloadType": {"hex"}}, nil, 400, "Port must be greater than 0"},
		{"payload not hex", details + "/downlinks", url.Values{"port": {"2"}, "payload": {"zz"}, "payloadType": {"hex"}}, kerneltest.HTMX, 200, "The payload must be an even number of hexadecimal digits"},
		{"payload required", details + "/downlinks", url.Values{"port": {"2"}, "payload": {""}, "payloadType": {"json"}}, nil, 400, "This field must be filled in"},
		{"key label too long, htmx", details + "/keys", url.Values{"key": {"temperature"}, "label": {strings.Repeat("x", 300)}, "unit": {""}}, kerneltest.HTMX, 200, "Max characters is 255"},
		{"unknown key", details + "/keys", url.Values{"key": {"nope"}, "label": {"x"}}, nil, 404, ""},
	}
	for _, tc := range steps {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.Page(t, "POST", tc.path, acme.CompanyAdminToken, tc.form, tc.headers...)
			if p.Status != tc.status || !strings.Contains(p.Body, tc.want) {
				t.Fatalf("status %d, want %d with %q: %.500s", p.Status, tc.status, tc.want, kerneltest.Main(p.Body))
			}
			if tc.want != "" && p.FullPage() == (tc.headers != nil) {
				t.Errorf("htmx %v but full page %v", tc.headers != nil, p.FullPage())
			}
		})
	}
	if p := ta.Page(t, "POST", details+"/keys", acme.CompanyAdminToken, url.Values{"key": {"temperature"}, "label": {"Air temperature"}, "unit": {"°C"}}); p.Redirect() != details {
		t.Errorf("key: %d to %q", p.Status, p.Redirect())
	}
	if p := ta.Page(t, "POST", details+"/keys/default", acme.CompanyAdminToken, url.Values{"key": {"temperature"}}, kerneltest.HTMX...); p.Redirect() != details || !strings.Contains(p.Toast(), "temperature is now the default key") {
		t.Errorf("default key: %d to %q", p.Status, p.Redirect())
	}
	if r := ta.Call(t, "GET", fmt.Sprintf("/api/tag/%d", tagID), root, nil); r.Obj()["latestValue"] != 21.25 {
		t.Errorf("latest value after the default key: %s", r.Body)
	}
	if p := ta.Page(t, "POST", details+"/downlinks", acme.CompanyAdminToken, url.Values{"port": {"10"}, "payload": {"01 ff"}, "payloadType": {"hex"}, "confirmed": {"true"}}); p.Redirect() != details {
		t.Fatalf("queue: %d %.500s", p.Status, kerneltest.Main(p.Body))
	}
	dls := ta.Call(t, "GET", fmt.Sprintf("/api/downlink/tag/%d", tagID), root, nil).List()
	if len(dls) != 1 || dls[0].(map[string]any)["payload"] != "01FF" || dls[0].(map[string]any)["confirmed"] != true {
		t.Fatalf("queued downlinks: %v", dls)
	}
	dl := fmt.Sprintf("%s/downlinks/%d/delete", details, int64(dls[0].(map[string]any)["id"].(float64)))
	page = ta.Page(t, "GET", details, acme.CompanyAdminToken, nil)
	kerneltest.Contains(t, kerneltest.Main(page.Body), []string{"Air temperature", `value="°C"`, "21.25 °C", `<span class="pill info">Default</span>`, "<code class=\"payload\">01FF</code>", "Queued", `href="` + dl + `"`}, nil)
	if p := ta.Page(t, "GET", dl, acme.CompanyAdminToken, nil, kerneltest.HTMX...); p.FullPage() || !strings.Contains(p.Body, "Take back the downlink 01FF on port 10 for Front door?") {
		t.Errorf("downlink confirmation: %d %.300s", p.Status, p.Body)
	}
	if p := ta.Page(t, "POST", fmt.Sprintf("/tagdetails/%s/downlinks/%d/delete", foreign.DevEUI, int64(dls[0].(map[string]any)["id"].(float64))), other.CompanyAdminToken, url.Values{}); p.Status != http.StatusNotFound {
		t.Errorf("a downlink under another node: %d", p.Status)
	}
	if p := ta.Page(t, "POST", dl, acme.CompanyAdminToken, url.Values{}); p.Redirect() != details || !strings.Contains(p.Toast(), "The downlink has been removed") {
		t.Errorf("remove downlink: %d to %q", p.Status, p.Redirect())
	}

	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), make([]byte, 64)...)
	if r := ta.Call(t, "POST", fmt.Sprintf("/api/tag/%d/image", tagID), acme.CompanyAdminToken, png); r.Status != http.StatusOK {
		t.Fatalf("image: %d", r.Status)
	}
	if p := ta.Page(t, "GET", details, acme.CompanyAdminToken, nil); !strings.Contains(p.Body, `alt="Picture of Front door"`) || !strings.Contains(p.Body, `href="`+details+`/image/delete"`) {
		t.Errorf("details lack the picture")
	}
	if p := ta.Page(t, "POST", details+"/image/delete", acme.CompanyAdminToken, url.Values{}); p.Redirect() != details {
		t.Errorf("remove picture: %d", p.Status)
	}

	confirm := ta.Page(t, "GET", details+"/delete", acme.CompanyAdminToken, nil)
	if !confirm.FullPage() || !strings.Contains(confirm.Body, "Delete the node Front door (70B3D57ED005A1B3) with its keys, picture and downlinks? This cannot be undone.") {
		t.Errorf("delete confirmation: %.300s", kerneltest.Main(confirm.Body))
	}
	if p := ta.Page(t, "POST", details+"/delete", acme.AdminToken, url.Values{}, kerneltest.HTMX...); p.Redirect() != "/tag" || !strings.Contains(p.Toast(), "The node Front door has been deleted") {
		t.Errorf("delete: %d to %q", p.Status, p.Redirect())
	}
	if r := ta.Call(t, "GET", fmt.Sprintf("/api/tag/%d", tagID), root, nil); r.Status != http.StatusNotFound {
		t.Errorf("deleted node: %d", r.Status)
	}
}

func TestPoolPage(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	ta.EnglishCompany(t, root, "Acme AB", "acme.example")
	en := []string{"Accept-Language", "en"}
	if p := ta.Page(t, "GET", "/tag/pool", root, nil, en...); !strings.Contains(p.Body, "No unknown DevEUIs have been heard.") {
		t.Errorf("empty pool: %.300s", kerneltest.Main(p.Body))
	}
	now := time.Now().UTC()
	for i, eui := range []string{"A1B2C3D4E5F60718", "A1B2C3D4E5F60719"} {
		if _, err := ta.Host().DB.NewRaw("INSERT INTO node_pool (deveui, source, status, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)",
			eui, "chirpstack", "shown", now, now.Add(time.Duration(-i)*time.Hour)).Exec(context.Background()); err != nil {
			t.Fatalf("pool entry: %v", err)
		}
	}
	entries := ta.Call(t, "GET", "/api/tag/pool", root, nil).List()
	first := int64(entries[0].(map[string]any)["id"].(float64))
	p := ta.Page(t, "GET", "/tag/pool", root, nil, en...)
	kerneltest.Contains(t, kerneltest.Main(p.Body), []string{"2 DevEUIs", "A1B2C3D4E5F60718", "chirpstack", `href="/tag/create/A1B2C3D4E5F60718"`, "Hide", "Mark taken", fmt.Sprintf(`action="/tag/pool/%d"`, first)}, nil)

	hidden := ta.Page(t, "POST", fmt.Sprintf("/tag/pool/%d", first), root, url.Values{"status": {"hidden"}, "from": {"shown"}}, append(en, kerneltest.HTMX...)...)
	if hidden.Redirect() != "/tag/pool" || !strings.Contains(hidden.Toast(), "A1B2C3D4E5F60718 is now Hidden") {
		t.Fatalf("hide: %d to %q, toast %q", hidden.Status, hidden.Redirect(), hidden.Toast())
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
			p := ta.Page(t, "GET", "/tag/pool"+tc.query, root, nil, append(tc.headers, en...)...)
			if p.Status != tc.status {
				t.Fatalf("status %d", p.Status)
			}
			kerneltest.Contains(t, kerneltest.Main(p.Body), tc.want, tc.not)
		})
	}
	if p := ta.Page(t, "POST", fmt.Sprintf("/tag/pool/%d", first), root, url.Values{"status": {"gone"}}, en...); p.Status != http.StatusBadRequest {
		t.Errorf("bad status: %d", p.Status)
	}
	if p := ta.Page(t, "POST", "/tag/pool/999999", root, url.Values{"status": {"hidden"}}, en...); p.Status != http.StatusNotFound {
		t.Errorf("unknown entry: %d", p.Status)
	}
	if p := ta.Page(t, "POST", fmt.Sprintf("/tag/pool/%d", first), root, url.Values{"status": {"shown"}, "from": {"hidden"}}, en...); p.Redirect() != "/tag/pool?status=hidden" {
		t.Errorf("back to the filter: %q", p.Redirect())
	}
}

func TestTokenPages(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")
	other := ta.EnglishCompany(t, root, "Other AB", "other.example")
	foreign := ta.Call(t, "POST", fmt.Sprintf("/api/integration/tokens/%d", other.CompanyID), other.CompanyAdminToken, map[string]any{"label": "Theirs", "isCompany": true})

	if p := ta.Page(t, "GET", "/company/tokens", acme.CompanyAdminToken, nil); !strings.Contains(p.Body, "The company has no integration tokens yet.") || strings.Contains(p.Body, "Theirs") {
		t.Errorf("empty tokens page: %.300s", kerneltest.Main(p.Body))
	}
	refused := []struct {
		name    string
		headers []string
	}{{"label required", nil}, {"label required, htmx", kerneltest.HTMX}}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.Page(t, "POST", "/company/tokens", acme.CompanyAdminToken, url.Values{"label": {" "}}, tc.headers...)
			if p.Status != formStatus(tc.headers, http.StatusBadRequest) || !strings.Contains(p.Body, "This field must be filled in") || p.FullPage() == (tc.headers != nil) {
				t.Errorf("status %d, full page %v: %.300s", p.Status, p.FullPage(), kerneltest.Main(p.Body))
			}
		})
	}
	token := regexp.MustCompile(`id="new-token" class="mono" type="text" readonly value="(fh_[A-Za-z0-9_-]+)"`)
	created := ta.Page(t, "POST", "/company/tokens", acme.CompanyAdminToken, url.Values{"label": {"ChirpStack"}, "isCompany": {"true"}}, kerneltest.HTMX...)
	m := token.FindStringSubmatch(created.Body)
	if created.Status != http.StatusOK || m == nil || created.FullPage() || !strings.Contains(created.Body, "Copy the token now: it is shown only this once.") ||
		!strings.Contains(created.Body, `data-copied="Copied token to clipboard"`) || !strings.Contains(created.Toast(), "The token ChirpStack has been created") {
		t.Fatalf("create: %d %.800s", created.Status, created.Body)
	}
	if r := ta.Call(t, "POST", "/api/ingest/generic", m[1], map[string]any{"devEui": "0101010101010101", "values": map[string]any{"x": 1}}); r.Status != http.StatusOK && r.Status != http.StatusAccepted {
		t.Errorf("the shown token does not work: %d %s", r.Status, r.Body)
	}
	personal := ta.Page(t, "POST", "/company/tokens", acme.AdminToken, url.Values{"label": {"Mine"}})
	if personal.Status != http.StatusOK || !personal.FullPage() || token.FindStringSubmatch(personal.Body) == nil {
		t.Fatalf("create without htmx: %d %.300s", personal.Status, kerneltest.Main(personal.Body))
	}
	list := ta.Page(t, "GET", "/company/tokens", acme.CompanyAdminToken, nil)
	kerneltest.Contains(t, kerneltest.Main(list.Body), []string{"ChirpStack", m[1][:7] + "…", "Company", "Mine", "Personal"}, []string{m[1], `id="new-token"`, "Theirs"})

	tokens := ta.Call(t, "GET", fmt.Sprintf("/api/integration/tokens/%d", acme.CompanyID), acme.CompanyAdminToken, nil).List()
	var id int64
	for _, tk := range tokens {
		if tk.(map[string]any)["label"] == "ChirpStack" {
			id = int64(tk.(map[string]any)["id"].(float64))
		}
	}
	del := fmt.Sprintf("/company/tokens/%d/delete", id)
	if p := ta.Page(t, "GET", del, acme.CompanyAdminToken, nil, kerneltest.HTMX...); p.FullPage() || !strings.Contains(p.Body, "Delete the token ChirpStack? Integrations that use it stop working.") {
		t.Errorf("confirmation: %.300s", p.Body)
	}
	if p := ta.Page(t, "POST", fmt.Sprintf("/company/tokens/%d/delete", foreign.Num("id")), acme.CompanyAdminToken, url.Values{}); p.Status != http.StatusNotFound {
		t.Errorf("another company's token: %d", p.Status)
	}
	if p := ta.Page(t, "POST", del, acme.CompanyAdminToken, url.Values{}); p.Redirect() != "/company/tokens" || !strings.Contains(p.Toast(), "The token ChirpStack has been deleted") {
		t.Errorf("delete: %d to %q", p.Status, p.Redirect())
	}
	if r := ta.Call(t, "POST", "/api/ingest/generic", m[1], map[string]any{"devEui": "0101010101010101", "values": map[string]any{"x": 1}}); r.Status != http.StatusUnauthorized {
		t.Errorf("a deleted token still works: %d", r.Status)
	}
}

// TestSwedishNodePages checks the pages' texts for a Swedish company.
func TestSwedishNodePages(t *testing.T) {
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.Company(t, root, "Acme AB", "acme.example")
	f := ta.AppNode(t, acme.CompanyAdminToken, acme.CompanyID, "Fält", "Dörr", "70B3D57ED005A1B2")
	cases := []struct {
		name, method, path, token string
		form                      url.Values
		headers                   []string
		want                      []string
	}{
		{"menu and list", "GET", "/application", acme.CompanyAdminToken, nil, nil, []string{`lang="sv"`, "Applikationer", "Noder", "Ny applikation", "Nätverksserver"}},
		{"application messages", "POST", "/application/create", acme.CompanyAdminToken, url.Values{"name": {""}}, kerneltest.HTMX, []string{"Din applikation måste ha ett namn", "Skapa applikation"}},
		{"node list", "GET", "/tag", acme.UserToken, nil, nil, []string{"Filtrera på namn eller DevEUI", "Senaste data", "Aldrig"}},
		{"node form", "GET", "/tag/create", acme.CompanyAdminToken, nil, nil, []string{"Avkodare", "Standard: rå nyttolast (hex)", `<option value="raw">Rå nyttolast (hex)</option>`, "Välj en applikation", "Skapa nod"}},
		{"node messages", "POST", "/tag/create", acme.CompanyAdminToken, url.Values{"name": {"X"}, "deveui": {"70B3D57ED005A1B2"}, "applicationId": {fmt.Sprint(f.AppID)}}, kerneltest.HTMX, []string{"En nod med denna DevEUI finns redan på servern"}},
		{"details", "GET", "/tagdetails/" + f.DevEUI, acme.CompanyAdminToken, nil, nil, []string{"Identitet och avkodare", "Batteri och signal", "Nedlänkar", "Köa nedlänk", "Ta bort noden"}},
		{"downlink messages", "POST", "/tagdetails/" + f.DevEUI + "/downlinks", acme.CompanyAdminToken, url.Values{"port": {"0"}, "payload": {"01"}, "payloadType": {"hex"}}, kerneltest.HTMX, []string{"Porten måste vara större än 0"}},
		{"tokens", "GET", "/company/tokens", acme.CompanyAdminToken, nil, nil, []string{"Integrationstoken", "Skapa token", "Företagstoken"}},
		{"pool", "GET", "/tag/pool", root, nil, []string{"Accept-Language", "sv"}, []string{"Nodpool", "Inga okända DevEUI:n har hörts."}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := ta.Page(t, tc.method, tc.path, tc.token, tc.form, tc.headers...)
			if p.Status >= 500 {
				t.Fatalf("status %d", p.Status)
			}
			kerneltest.Contains(t, p.Body, tc.want, nil)
		})
	}
}

// formStatus is the status of a refused form: 200 to htmx, which swaps the
// form with its messages in, else the error's own (noScript).
func formStatus(headers []string, noScript int) int {
	if headers != nil {
		return http.StatusOK
	}
	return noScript
}
