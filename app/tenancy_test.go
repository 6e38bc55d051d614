package app_test

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/tenancytest"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/notifications"
)

// TestTenancy walks every /api route as each role of one company with the
// ids of another, on both databases. A module that adds routes adds its
// path parameters, bodies and tables here.
func TestTenancy(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		ta := kerneltest.Start(t, d, nil, app.Build)
		root := ta.SuperAdmin(t)
		own := ta.Company(t, root, "Own Widgets AB", "own.example")
		foreign := ta.Company(t, root, "Foreign Widgets AB", "foreign.example")
		png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), make([]byte, 32)...)
		if r := ta.Call(t, "POST", fmt.Sprintf("/api/companies/%d/image", foreign.CompanyID), root, png); r.Status != 200 {
			t.Fatalf("foreign logo: %d %s", r.Status, r.Body)
		}
		if r := ta.Call(t, "PUT", fmt.Sprintf("/api/settings/company/%d", foreign.CompanyID), root, map[string]any{"INACTIVITY_EMAIL": "alarms@foreign.example"}); r.Status != 200 {
			t.Fatalf("foreign company settings: %d %s", r.Status, r.Body)
		}
		if r := ta.Call(t, "POST", "/api/settings", foreign.UserToken, map[string]any{"theme": "Scientific"}); r.Status != 200 {
			t.Fatalf("foreign user settings: %d %s", r.Status, r.Body)
		}
		if r := ta.Call(t, "POST", "/api/users", "", kerneltest.UserBody("loner@free.example")); r.Status != 201 {
			t.Fatalf("register loner: %d %s", r.Status, r.Body)
		}
		loner := ta.Login(t, "loner@free.example", kerneltest.Password)
		fn := foreignNodes(t, ta, root, foreign.CompanyID, png)
		awaitForeignLog(t, ta, foreign.CompanyID)
		fd := foreignDashboards(t, ta, root, foreign.UserToken, foreign.CompanyID, png)
		fdec := foreignDecoders(t, ta, root, foreign.CompanyID)
		fst := foreignSignalTest(t, ta, root, foreign.CompanyID)
		fnote := foreignNotification(t, ta, foreign.UserID)
		fgw := foreignGateway(t, ta, root, foreign.CompanyID, fn.applicationID)
		fal := foreignAlarms(t, ta, root, foreign.CompanyID, fn.tagID)
		// A forwarding target of the foreign application, at a public name
		// that nothing is sent to (no uplink is stored after it).
		foreignTarget := ta.Must(t, "POST", fmt.Sprintf("/api/applications/%d/forwarding", fn.applicationID), root, map[string]any{
			"name": "Foreign Widgets warehouse", "kind": "webhook", "url": "https://hooks.foreign.example/in", "secret": "foreign-secret"}, 201).Num("id")
		foreignReport := foreignReport(t, ta, root, foreign.CompanyID, fn.tagID)
		foreignScript := ta.Must(t, "POST", fmt.Sprintf("/api/script/%d", foreign.CompanyID), root, map[string]any{"name": "Foreign Widgets script",
			"type": 1, "enabled": true, "content": "return 'Foreign Widgets';"}, 201).Num("id")
		// The foreign company's device profile.
		fprof := ta.Must(t, "POST", fmt.Sprintf("/api/companies/%d/profiles", foreign.CompanyID), root, map[string]any{"name": "Foreign Widgets profile",
			"keys": []any{map[string]any{"key": "temperature", "label": "Foreign Widgets temperature"}}}, 201).Num("id")
		// The own company's public link: its token is the capability of one
		// dashboard of the own company and nothing else.
		ownToken := publicLink(t, ta, own.CompanyAdminToken, own.CompanyID, "Own Widgets board")
		// The installation's news, which only a SuperAdmin changes.
		newsID := ta.Must(t, "POST", "/api/news", root, map[string]any{"title": "Installation news", "body": "For everyone."}, 201).Num("id")
		// The audit trail is written after the bus hands it on, in order:
		// once the last foreign fixture's entry (the profile's) is there, so
		// are the others, and the snapshots see none arrive during the walk.
		awaitForeignAudit(t, ta, foreign.CompanyID, "audit.profile.created")

		bdb := ta.Host().DB
		fid := foreign.CompanyID
		fx := tenancytest.Fixture{
			Callers: []tenancytest.Caller{
				{Name: "User", Token: own.UserToken},
				{Name: "CompanyAdmin", Token: own.CompanyAdminToken},
				{Name: "Admin", Token: own.AdminToken},
				{Name: "user without a company", Token: loner},
				{Name: "visitor"},
				{Name: "public dashboard link", Token: ownToken},
			},
			Params: map[string]string{
				"companyId": fmt.Sprint(fid),
				"userId":    fmt.Sprint(foreign.UserID),
				"role":      "CompanyAdmin",
				"email":     "worker@foreign.example",
				"guid":      "0b7e6c1e-5d4f-4a51-9d2a-7d1f3c9e2b10",
				// The nodes module's ids.
				"applicationId": fmt.Sprint(fn.applicationID),
				"tagId":         fmt.Sprint(fn.tagID),
				"deveui":        foreignDevEUI,
				"key":           "temperature",
				"scope":         "company", // GET /tag/{scope}/{companyId} is GET /tag/company/{companyId}
				"view":          "trend",   // GET /tag/{tagId}/{view}/{key} is GET /tag/{tagId}/trend/{key}
				"poolId":        fmt.Sprint(fn.poolID),
				"tokenId":       fmt.Sprint(fn.tokenID),
				// The netservers module's id.
				"downlinkId": fmt.Sprint(fn.downlinkID),
				// The dashboards module's ids. "part" names what follows a
				// dashboard's (or module's) id; the walk repeats the {part}
				// routes with each part below.
				"categoryId":  fmt.Sprint(fd.categoryID),
				"dashboardId": fmt.Sprint(fd.dashboardID),
				"moduleId":    fmt.Sprint(fd.moduleID),
				"publicId":    fmt.Sprint(fd.publicID),
				"token":       ownToken,
				"expiresAt":   time.Now().Add(30 * 24 * time.Hour).UTC().Format(time.RFC3339),
				"part":        "modules",
				// The decoders module's ids.
				"decoderId": fmt.Sprint(fdec.decoderID),
				"version":   "1",
				"jobId":     fmt.Sprint(fdec.jobID),
				// The signal tests module's id.
				"testId": fmt.Sprint(fst),
				// The notifications module's id (its other routes name the
				// foreign user).
				"notificationId": fmt.Sprint(fnote),
				// The gateways module's id.
				"gatewayId": fmt.Sprint(fgw),
				// The news module's id.
				"newsId": fmt.Sprint(newsID),
				// The alarms module's ids: a rule and its open firing.
				"alarmId": fmt.Sprint(fal.alarmID),
				"eventId": fmt.Sprint(fal.eventID),
				// The reports module's id.
				"reportId": fmt.Sprint(foreignReport),
				// The device catalog's model (installation-wide, not a
				// company's: the walk checks it shows nothing of the other).
				"vendorId": "acme",
				"modelId":  "th1",
				// The scripts module's id.
				"scriptId": fmt.Sprint(foreignScript),
				// The forwarding module's id.
				"targetId": fmt.Sprint(foreignTarget),
				// The profiles module's id.
				"profileId": fmt.Sprint(fprof),
			},
			Bodies: map[string]any{
				"PUT /api/companies/{companyId}":        map[string]any{"name": "Hijacked"},
				"PUT /api/users/{userId}":               map[string]any{"firstName": "Hijacked", "email": "hijack@own.example"},
				"POST /api/companies/{companyId}/user":  map[string]any{"email": "loner@free.example"},
				"POST /api/companies/{companyId}/image": png,
				"PUT /api/settings/company/{companyId}": map[string]any{"INACTIVITY_EMAIL": "hijack@own.example"},
				"POST /api/users":                       kerneltest.UserBody("planted@own.example", "companyId", fid),
				"POST /api/users/authenticate":          map[string]any{"email": "worker@foreign.example", "password": "guess"},
				"POST /api/users/create/company":        map[string]any{"company": map[string]any{"name": "X"}},
				// The nodes module's bodies.
				"POST /api/applications/{companyId}":         map[string]any{"name": "Planted"},
				"PUT /api/applications/{applicationId}":      map[string]any{"name": "Hijacked", "ttsApiKey": ""},
				"POST /api/applications/{applicationId}/tag": map[string]any{"name": "Planted", "deveui": "0011223344556677"},
				"PUT /api/tag/{deveui}":                      map[string]any{"name": "Hijacked", "deveui": "0011223344556677"},
				"POST /api/tag/{tagId}/move":                 map[string]any{"applicationId": fn.applicationID, "appKey": "0102030405060708090A0B0C0D0E0F10"},
				"POST /api/tag/{tagId}/image":                png,
				"POST /api/tag/key/add":                      map[string]any{"tagId": fn.tagID, "key": "planted"},
				"POST /api/tag/key/update":                   map[string]any{"tagId": fn.tagID, "key": "temperature", "label": "Hijacked"},
				"PUT /api/tag/pool/{poolId}":                 map[string]any{"status": "hidden"},
				"POST /api/tag/{tagId}/tagdata":              map[string]any{"key": "planted", "value": 1},
				"POST /api/integration/tokens/{companyId}":   map[string]any{"label": "Planted", "isCompany": true},
				// The bulk import's file: a new node and an edit of the
				// foreign one, applied (Queries).
				"POST /api/companies/{companyId}/nodes/import": []byte("name,devEUI\nPlanted,0011223344556677\nHijacked," + foreignDevEUI + "\n"),
				// The netservers module's bodies: a downlink for the foreign
				// node, and uplinks of it, which a session token (not an
				// integration token) may not post.
				"POST /api/downlink/{tagId}":  map[string]any{"port": 1, "payload": "02", "payloadType": "hex"},
				"POST /api/ingest/generic":    map[string]any{"devEui": foreignDevEUI, "values": map[string]any{"temperature": -40}},
				"POST /api/ingest/chirpstack": map[string]any{"deviceInfo": map[string]any{"devEui": foreignDevEUI}, "data": "qg=="},
				"POST /api/ingest/tts":        map[string]any{"end_device_ids": map[string]any{"dev_eui": foreignDevEUI}, "uplink_message": map[string]any{"frm_payload": "AQ=="}},
				// The dashboards module's bodies.
				"POST /api/dashboards/categories/{companyId}": map[string]any{"title": "Planted"},
				"PUT /api/dashboards/categories/{categoryId}": map[string]any{"title": "Hijacked"},
				"PUT /api/dashboards/categories/indexes": map[string]any{
					"categories": []any{map[string]any{"dashboardCategoryId": fd.categoryID, "index": 9}},
					"dashboards": []any{map[string]any{"dashboardId": fd.dashboardID, "dashboardCategoryId": nil, "index": 9}}},
				"POST /api/dashboards":                           map[string]any{"name": "Planted", "categoryId": fd.categoryID},
				"POST /api/dashboards/create/{companyId}":        map[string]any{"name": "Planted"},
				"PUT /api/dashboards/{dashboardId}":              map[string]any{"name": "Hijacked"},
				"POST /api/dashboards/{dashboardId}/{part}":      map[string]any{"type": 2, "content": "Planted", "name": "Stolen"},
				"PUT /api/dashboards/{dashboardId}/{part}":       map[string]any{"scope": "user"},
				"PUT /api/dashboards/modules/multiple":           []any{map[string]any{"dashboardModuleId": fd.moduleID, "type": 2, "content": "Hijacked"}},
				"PUT /api/dashboards/modules/{moduleId}":         map[string]any{"type": 2, "content": "Hijacked"},
				"POST /api/dashboards/modules/{moduleId}/{part}": png,
				// The decoders module's bodies.
				"POST /api/decoder/test":                         map[string]any{"key": fdec.key, "fPort": 1, "bytes": "01"},
				"POST /api/companies/{companyId}/decoders":       map[string]any{"name": "Planted", "source": "function decodeUplink(i) { return {data: {}} }"},
				"PUT /api/decoders/{decoderId}":                  map[string]any{"name": "Hijacked"},
				"POST /api/decoders/{decoderId}/versions":        map[string]any{"source": "function decodeUplink(i) { return {data: {hijacked: 1}} }"},
				"PUT /api/companies/{companyId}/decoders/limits": map[string]any{"timeMs": 900, "memoryMiB": 60},
				// The signal tests module's body.
				"POST /api/signaltest/{companyId}/{deveui}": map[string]any{"description": "Planted"},
				"POST /api/companies/{companyId}/redecode": map[string]any{"decoder": fdec.key,
					"from": time.Now().Add(-time.Hour).UTC().Format(time.RFC3339), "to": time.Now().UTC().Format(time.RFC3339)},
				// The gateways module's bodies.
				"POST /api/gateway/{applicationId}": map[string]any{"name": "Planted", "macAddress": "0011223344556677", "latitude": 1, "longitude": 1},
				"PUT /api/gateway/{gatewayId}/pos":  map[string]any{"latitude": 1, "longitude": 1},
				// The news module's bodies.
				"POST /api/news":         map[string]any{"title": "Planted", "body": "Planted"},
				"PUT /api/news/{newsId}": map[string]any{"title": "Hijacked", "body": "Hijacked"},
				// The installation's logo (settings module).
				"POST /api/settings/global/logo": png,
				// The alarms module's bodies: a rule on the foreign node, and a
				// test of the foreign rule.
				"POST /api/companies/{companyId}/alarm":          foreignRule(fn.tagID),
				"PUT /api/companies/{companyId}/alarm/{alarmId}": foreignRule(fn.tagID),
				"POST /api/alarms/active/{alarmId}/status":       map[string]any{"active": false},
				"POST /api/alarms/setting/test":                  map[string]any{"alarmId": fal.alarmID},
				// The reports module's bodies name the foreign node.
				"POST /api/report":             reportBody(fn.tagID),
				"PUT /api/report/{reportId}":   reportBody(fn.tagID),
				"POST /api/report/preview":     exportBody(fn.tagID),
				"POST /api/report/multiexport": exportBody(fn.tagID),
				// The scripts module's bodies: a script that would write to the
				// foreign node.
				"POST /api/script/{companyId}":      map[string]any{"name": "Planted", "type": 1, "content": fmt.Sprintf("write(%d, {planted: 1});", fn.tagID)},
				"PUT /api/script/{scriptId}":        map[string]any{"name": "Hijacked", "content": fmt.Sprintf("write(%d, {planted: 1});", fn.tagID)},
				"POST /api/script/test/{companyId}": map[string]any{"content": fmt.Sprintf("return latest(%d, 'temperature');", fn.tagID), "boundTag": fn.tagID},
				// The forwarding module's bodies: a target of the foreign
				// application, and a change that would switch its target off.
				"POST /api/applications/{applicationId}/forwarding": map[string]any{"name": "Planted", "kind": "webhook",
					"url": "https://hooks.own.example/in", "secret": "planted-secret"},
				"PUT /api/forwarding/{targetId}": map[string]any{"name": "Hijacked", "enabled": false},
				// The profiles module's bodies.
				"POST /api/companies/{companyId}/profiles": map[string]any{"name": "Planted"},
				"PUT /api/profiles/{profileId}":            map[string]any{"name": "Hijacked"},
				"POST /api/profiles/from-model":            map[string]any{"companyId": fid, "vendorId": "acme", "modelId": "th1"},
				// The device repository's import (SuperAdmin): an archive's first bytes.
				"POST /api/devices/import": []byte("PK\x03\x04"),
			},
			// The tag data reads that name the node in the query.
			Queries: map[string]string{
				"GET /api/tag/tagdata":                   fmt.Sprintf("tagId=%d&key=note", fn.tagID),
				"GET /api/companies/{companyId}/tagdata": "deveui=" + foreignDevEUI + "&key=note",
				// The bulk import applies its file; the export is read as CSV.
				"POST /api/companies/{companyId}/nodes/import": "dryRun=false",
				"GET /api/companies/{companyId}/nodes/export":  "format=csv",
				// The logs name their company in the query.
				"GET /api/logs":             fmt.Sprintf("companyId=%d", fid),
				"GET /api/logs/activeusers": fmt.Sprintf("companyId=%d", fid),
				"GET /api/logs/datapoints":  fmt.Sprintf("companyId=%d", fid),
				// The decoder list and the test call name the company whose
				// own decoders they may use in the query.
				"GET /api/decoder":       fmt.Sprintf("companyId=%d", fid),
				"POST /api/decoder/test": fmt.Sprintf("companyId=%d", fid),
			},
			Markers: []string{"Foreign Widgets", "foreign.example", foreignDevEUI, foreignGatewayEUI, foreignUnknownGatewayEUI},
			Exempt: map[string]string{
				"POST /api/users/forgot/{email}": "answers the same for every address; the link goes only to the address's owner",
				"PUT /api/users/forgot/{guid}":   "the GUID is the capability: whoever holds the mailed link may use it",
				"GET /api/dashboards/public/{token}": "the token is the capability: the walk names the own company's link, " +
					"which anyone may read; the markers check that it shows nothing of the other company",
			},
			Snapshot: func(tb testing.TB) string {
				return strings.Join([]string{
					dumpRows(tb, bdb, "SELECT * FROM companies WHERE id = ?", fid),
					dumpRows(tb, bdb, "SELECT company_id, version FROM company_images WHERE company_id = ?", fid),
					dumpRows(tb, bdb, "SELECT * FROM users WHERE company_id = ? ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT id, user_id FROM sessions WHERE user_id IN (SELECT id FROM users WHERE company_id = ?) ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT * FROM company_settings WHERE company_id = ? ORDER BY name", fid),
					dumpRows(tb, bdb, "SELECT * FROM user_settings WHERE user_id IN (SELECT id FROM users WHERE company_id = ?) ORDER BY user_id, name", fid),
					dumpRows(tb, bdb, "SELECT * FROM applications WHERE company_id = ? ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT * FROM tags WHERE company_id = ? ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT tag_id, version FROM tag_images WHERE tag_id IN (SELECT id FROM tags WHERE company_id = ?) ORDER BY tag_id", fid),
					dumpRows(tb, bdb, "SELECT * FROM tag_keys WHERE tag_id IN (SELECT id FROM tags WHERE company_id = ?) ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT * FROM integration_tokens WHERE company_id = ? ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT * FROM downlinks WHERE tag_id IN (SELECT id FROM tags WHERE company_id = ?) ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT * FROM node_pool ORDER BY id"),
					dumpRows(tb, bdb, "SELECT * FROM deveui_claims WHERE company_id = ? OR owner_id = ? ORDER BY id", fid, fid),
					dumpRows(tb, bdb, "SELECT * FROM tsdb_series WHERE company_id = ? ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT p.* FROM tsdb_points p JOIN tsdb_series s ON s.id = p.series_id WHERE s.company_id = ? ORDER BY p.series_id, p.ts", fid),
					dumpRows(tb, bdb, "SELECT * FROM log_entries WHERE company_id = ? ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT * FROM log_user_activity WHERE company_id = ? ORDER BY user_id", fid),
					dumpRows(tb, bdb, "SELECT * FROM dashboard_categories WHERE company_id = ? ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT * FROM dashboards WHERE company_id = ? ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT m.* FROM dashboard_modules m JOIN dashboards d ON d.id = m.dashboard_id WHERE d.company_id = ? ORDER BY m.id", fid),
					dumpRows(tb, bdb, "SELECT i.module_id, i.version FROM dashboard_module_images i JOIN dashboard_modules m ON m.id = i.module_id JOIN dashboards d ON d.id = m.dashboard_id WHERE d.company_id = ? ORDER BY i.module_id", fid),
					dumpRows(tb, bdb, "SELECT * FROM dashboard_public_links WHERE company_id = ? ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT * FROM dashboard_user_defaults WHERE company_id = ? ORDER BY user_id", fid),
					dumpRows(tb, bdb, "SELECT * FROM dashboard_company_defaults WHERE company_id = ?", fid),
					dumpRows(tb, bdb, "SELECT * FROM decoders WHERE company_id = ? ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT v.* FROM decoder_versions v JOIN decoders d ON d.id = v.decoder_id WHERE d.company_id = ? ORDER BY v.id", fid),
					dumpRows(tb, bdb, "SELECT * FROM decoder_limits WHERE company_id = ?", fid),
					dumpRows(tb, bdb, "SELECT * FROM redecode_jobs WHERE company_id = ? ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT * FROM signal_tests WHERE company_id = ? ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT p.* FROM signal_test_points p JOIN signal_tests s ON s.id = p.test_id WHERE s.company_id = ? ORDER BY p.id", fid),
					// announced is left out: the dispatcher sets it when it will.
					dumpRows(tb, bdb, "SELECT id, user_id, company_id, label, message, route, read, created_at FROM notifications WHERE company_id = ? ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT * FROM gateways WHERE company_id = ? ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT * FROM gateway_seen WHERE company_id = ? ORDER BY eui", fid),
					dumpRows(tb, bdb, "SELECT * FROM gateway_uplinks WHERE company_id = ? ORDER BY eui, bucket", fid),
					dumpRows(tb, bdb, "SELECT * FROM gateway_samples WHERE company_id = ? ORDER BY eui, slot", fid),
					dumpRows(tb, bdb, "SELECT * FROM news_entries ORDER BY id"),
					dumpRows(tb, bdb, "SELECT id, version FROM brand_logo"),
					dumpRows(tb, bdb, "SELECT * FROM alarms WHERE company_id = ? ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT * FROM alarm_events WHERE company_id = ? ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT * FROM reports WHERE company_id = ? ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT s.* FROM report_sends s JOIN reports r ON r.id = s.report_id WHERE r.company_id = ? ORDER BY s.id", fid),
					dumpRows(tb, bdb, "SELECT * FROM scripts WHERE company_id = ? ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT * FROM script_runs WHERE company_id = ? ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT * FROM forwarding_targets WHERE company_id = ? ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT q.* FROM forwarding_queue q JOIN forwarding_targets t ON t.id = q.target_id WHERE t.company_id = ? ORDER BY q.id", fid),
					dumpRows(tb, bdb, "SELECT * FROM device_profiles WHERE company_id = ? OR company_id IS NULL ORDER BY id", fid),
					dumpRows(tb, bdb, "SELECT * FROM profile_nodes WHERE node_id IN (SELECT id FROM tags WHERE company_id = ?) ORDER BY node_id", fid),
					// The device repository is installation-wide: only the SuperAdmin imports.
					dumpRows(tb, bdb, "SELECT * FROM device_vendors ORDER BY id"),
					dumpRows(tb, bdb, "SELECT id, key, updated_at FROM device_codecs ORDER BY id"),
				}, "\n")
			},
		}
		routes := ta.Host().Router.Routes()
		tenancytest.Walk(t, ta.URL, routes, fx)
		// The routes that end in {part} serve several parts (see the
		// dashboards module's Routes): walk them again with the others.
		var partRoutes []web.Route
		for _, r := range routes {
			if strings.HasSuffix(r.Path, "/{part}") {
				partRoutes = append(partRoutes, r)
			}
		}
		for _, part := range []string{"duplicate", "default", "image", "press"} {
			params := maps.Clone(fx.Params)
			params["part"] = part
			fxPart := fx
			fxPart.Params = params
			tenancytest.Walk(t, ta.URL, partRoutes, fxPart)
		}
	})
}

// foreignSignalTest starts an active field test of the foreign company's
// node and returns its id.
func foreignSignalTest(t *testing.T, ta *kerneltest.Portal[*app.App], root string, companyID int64) int64 {
	t.Helper()
	r := ta.Call(t, "POST", fmt.Sprintf("/api/signaltest/%d/%s", companyID, foreignDevEUI), root, map[string]any{"description": "Foreign Widgets walk"})
	if r.Status != 201 {
		t.Fatalf("foreign signal test: %d %s", r.Status, r.Body)
	}
	return r.Num("testId")
}

// alarmIDs are the foreign company's things of the alarms module.
type alarmIDs struct{ alarmID, eventID int64 }

// foreignRule is the body of a HIGH rule on the foreign node.
func foreignRule(tagID int64) map[string]any {
	return map[string]any{"name": "Foreign Widgets alarm", "tag": tagID, "tagDataKey": "temperature", "limitHigh": 30,
		"alarmContacts": []string{"alarms@foreign.example"}, "priority": 2, "message": "Foreign Widgets {value}"}
}

// foreignAlarms gives the foreign company a rule on its node and fires it
// with an uplink, so that it has an open firing.
func foreignAlarms(t *testing.T, ta *kerneltest.Portal[*app.App], root string, companyID, tagID int64) alarmIDs {
	t.Helper()
	r := ta.Call(t, "POST", fmt.Sprintf("/api/companies/%d/alarm", companyID), root, foreignRule(tagID))
	if r.Status != 201 {
		t.Fatalf("foreign alarm: %d %s", r.Status, r.Body)
	}
	ids := alarmIDs{alarmID: r.Num("id")}
	tok := ta.Call(t, "POST", fmt.Sprintf("/api/integration/tokens/%d", companyID), root, map[string]any{"label": "Foreign Widgets alarm token", "isCompany": true})
	if r := ta.Call(t, "POST", "/api/ingest/generic", tok.Str("token"), map[string]any{"devEui": foreignDevEUI,
		"values": map[string]any{"temperature": 45}}); r.Status != 200 {
		t.Fatalf("foreign uplink: %d %s", r.Status, r.Body)
	}
	kerneltest.WaitFor(t, 10*time.Second, func() bool {
		list := ta.Call(t, "GET", fmt.Sprintf("/api/companies/%d/alarm/active", companyID), root, nil).List()
		if len(list) == 1 {
			ids.eventID = int64(list[0].(map[string]any)["id"].(float64))
		}
		return ids.eventID != 0
	}, func() string { return "the foreign alarm never fired" })
	return ids
}

// reportBody is a report subscription of node.
func reportBody(node int64) map[string]any {
	return map[string]any{"name": "Foreign Widgets report", "type": "regular", "tempo": 0, "reportContacts": []string{"ops@foreign.example"},
		"nodes": []int64{node}, "keys": []string{"temperature"}}
}

// exportBody is an export of node's last day.
func exportBody(node int64) map[string]any {
	return map[string]any{"nodes": []int64{node}, "keys": []string{"temperature", "note"}, "type": "regular", "format": "csv",
		"from": time.Now().Add(-24 * time.Hour).UTC().Format(time.RFC3339), "to": time.Now().Add(time.Minute).UTC().Format(time.RFC3339)}
}

// foreignReport gives the foreign company a report of its node.
func foreignReport(t *testing.T, ta *kerneltest.Portal[*app.App], root string, companyID, tagID int64) int64 {
	t.Helper()
	r := ta.Call(t, "POST", fmt.Sprintf("/api/report?companyId=%d", companyID), root, reportBody(tagID))
	if r.Status != 201 {
		t.Fatalf("foreign report: %d %s", r.Status, r.Body)
	}
	return r.Num("id")
}

// decoderIDs are the foreign company's things of the decoders module.
type decoderIDs struct {
	decoderID, jobID int64
	key              string
}

// foreignDecoders gives the foreign company a decoder of its own (with a
// second version), which its node uses, its own limits, and a re-decode
// job, finished before the walk so that the walk sees it stand still.
func foreignDecoders(t *testing.T, ta *kerneltest.Portal[*app.App], root string, companyID int64) decoderIDs {
	t.Helper()
	call := func(method, path string, body any, status int) kerneltest.Response {
		t.Helper()
		r := ta.Call(t, method, path, root, body)
		if r.Status != status {
			t.Fatalf("foreign %s %s: %d %s", method, path, r.Status, r.Body)
		}
		return r
	}
	source := "function decodeUplink(i) { console.log('Foreign Widgets decoder'); return {data: {note: 'Foreign Widgets'}} }"
	d := call("POST", fmt.Sprintf("/api/companies/%d/decoders", companyID), map[string]any{"name": "Foreign Widgets decoder", "source": source}, 201)
	ids := decoderIDs{decoderID: d.Num("id"), key: d.Str("key")}
	call("POST", fmt.Sprintf("/api/decoders/%d/versions", ids.decoderID), map[string]any{"source": source + " // 2"}, 201)
	call("PUT", "/api/tag/"+foreignDevEUI, map[string]any{"decoder": ids.key}, 200)
	call("PUT", fmt.Sprintf("/api/companies/%d/decoders/limits", companyID), map[string]any{"timeMs": 80, "memoryMiB": 20}, 200)
	ids.jobID = call("POST", fmt.Sprintf("/api/companies/%d/redecode", companyID), map[string]any{"decoder": ids.key,
		"from": time.Now().Add(-24 * time.Hour).UTC().Format(time.RFC3339), "to": time.Now().UTC().Format(time.RFC3339)}, 201).Num("id")
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if s := call("GET", fmt.Sprintf("/api/redecode/%d", ids.jobID), nil, 200).Str("status"); s == "done" {
			return ids
		}
		if time.Now().After(deadline) {
			t.Fatal("the foreign re-decode job did not finish")
		}
	}
}

// dashboardIDs are the foreign company's things of the dashboards module.
type dashboardIDs struct{ categoryID, dashboardID, moduleID, publicID int64 }

// foreignDashboards gives the foreign company a category with a dashboard
// holding a chart of its node and an image module with a picture, a public
// link, and makes the dashboard the company's default and its User's.
func foreignDashboards(t *testing.T, ta *kerneltest.Portal[*app.App], root, userToken string, companyID int64, png []byte) dashboardIDs {
	t.Helper()
	var ids dashboardIDs
	call := func(method, path, token string, body any, status int) kerneltest.Response {
		t.Helper()
		r := ta.Call(t, method, path, token, body)
		if r.Status != status {
			t.Fatalf("foreign %s %s: %d %s", method, path, r.Status, r.Body)
		}
		return r
	}
	ids.categoryID = call("POST", fmt.Sprintf("/api/dashboards/categories/%d", companyID), root, map[string]any{"title": "Foreign Widgets category"}, 201).Num("dashboardCategoryId")
	ids.dashboardID = call("POST", fmt.Sprintf("/api/dashboards/create/%d", companyID), root,
		map[string]any{"name": "Foreign Widgets board", "categoryId": ids.categoryID}, 201).Num("dashboardId")
	ids.moduleID = call("POST", fmt.Sprintf("/api/dashboards/%d/modules", ids.dashboardID), root, map[string]any{"title": "Foreign Widgets chart",
		"type": 0, "tag": foreignDevEUI, "attributes": map[string]any{"tagkey": "temperature,note"}}, 201).Num("dashboardModuleId")
	img := call("POST", fmt.Sprintf("/api/dashboards/%d/modules", ids.dashboardID), root, map[string]any{"title": "Foreign Widgets plan", "type": 11}, 201).Num("dashboardModuleId")
	call("POST", fmt.Sprintf("/api/dashboards/modules/%d/image", img), root, png, 200)
	call("PUT", fmt.Sprintf("/api/dashboards/%d/default", ids.dashboardID), root, map[string]any{"scope": "company"}, 204)
	call("PUT", fmt.Sprintf("/api/dashboards/%d/default", ids.dashboardID), userToken, nil, 204)
	ids.publicID = call("POST", fmt.Sprintf("/api/dashboards/public/%d/%d/%s", companyID, ids.dashboardID,
		time.Now().Add(24*time.Hour).UTC().Format(time.RFC3339)), root, nil, 201).Num("id")
	return ids
}

// publicLink makes a dashboard with a text module in a company and returns
// the token of a public link to it.
func publicLink(t *testing.T, ta *kerneltest.Portal[*app.App], adminToken string, companyID int64, name string) string {
	t.Helper()
	d := ta.Call(t, "POST", "/api/dashboards", adminToken, map[string]any{"name": name})
	if d.Status != 201 {
		t.Fatalf("own dashboard: %d %s", d.Status, d.Body)
	}
	if r := ta.Call(t, "POST", fmt.Sprintf("/api/dashboards/%d/modules", d.Num("dashboardId")), adminToken, map[string]any{"type": 2, "content": "Own"}); r.Status != 201 {
		t.Fatalf("own module: %d %s", r.Status, r.Body)
	}
	r := ta.Call(t, "POST", fmt.Sprintf("/api/dashboards/public/%d/%d/%s", companyID, d.Num("dashboardId"),
		time.Now().Add(24*time.Hour).UTC().Format(time.RFC3339)), adminToken, nil)
	if r.Status != 201 {
		t.Fatalf("own public link: %d %s", r.Status, r.Body)
	}
	return r.Str("token")
}

// foreignDevEUI is the DevEUI of the foreign company's node.
const foreignDevEUI = "F0E1D2C3B4A59687"

// nodeIDs are the foreign company's things of the nodes module, and its
// queued downlink (the netservers module's).
type nodeIDs struct{ applicationID, tagID, poolID, tokenID, downlinkID int64 }

// foreignNodes gives the foreign company an application with a node (its
// picture, a data key and a queued downlink) and an integration token, and
// puts a DevEUI in the node pool.
func foreignNodes(t *testing.T, ta *kerneltest.Portal[*app.App], root string, companyID int64, png []byte) nodeIDs {
	t.Helper()
	var ids nodeIDs
	create := func(path string, body any) int64 {
		t.Helper()
		r := ta.Call(t, "POST", path, root, body)
		if r.Status != 201 && r.Status != 200 {
			t.Fatalf("foreign %s: %d %s", path, r.Status, r.Body)
		}
		return r.Num("id")
	}
	// A generic application, though with The Things Stack settings: the
	// downlink worker leaves its queued downlink alone, so that only the
	// walk's calls could change the snapshot.
	ids.applicationID = create(fmt.Sprintf("/api/applications/%d", companyID), map[string]any{"name": "Foreign Widgets App",
		"networkServer": "generic", "ttsDownlinkUrl": "https://tts.foreign.example/down", "ttsApiKey": "NNSXS.FOREIGN"})
	ids.tagID = create(fmt.Sprintf("/api/applications/%d/tag", ids.applicationID), map[string]any{"name": "Foreign Widgets Node",
		"deveui": foreignDevEUI, "appKey": "0102030405060708090A0B0C0D0E0F10", "lat": 57.7, "long": 11.97})
	create(fmt.Sprintf("/api/tag/%d/image", ids.tagID), png)
	create("/api/tag/key/add", map[string]any{"tagId": ids.tagID, "key": "temperature", "label": "Foreign Widgets temperature", "defaultKey": true})
	tok := ta.Call(t, "POST", fmt.Sprintf("/api/integration/tokens/%d", companyID), root, map[string]any{"label": "Foreign Widgets token", "isCompany": true})
	if tok.Status != 201 {
		t.Fatalf("foreign token: %d %s", tok.Status, tok.Body)
	}
	ids.tokenID = tok.Num("id")
	// An uplink through the network servers' route gives the node stored
	// values and a state.
	if r := ta.Call(t, "POST", "/api/ingest/generic", tok.Str("token"), map[string]any{"devEui": foreignDevEUI,
		"values": map[string]any{"temperature": 21.5, "note": "Foreign Widgets reading"}, "rssi": -71}); r.Status != 200 {
		t.Fatalf("foreign uplink: %d %s", r.Status, r.Body)
	}
	ids.downlinkID = create(fmt.Sprintf("/api/downlink/%d", ids.tagID), map[string]any{"port": 5, "payload": "0A0B", "payloadType": "hex"})
	// A join gives the company a log entry that names its node.
	if r := ta.Call(t, "POST", "/api/ingest/chirpstack?event=join", tok.Str("token"), map[string]any{"deviceInfo": map[string]any{"devEui": foreignDevEUI}}); r.Status != 204 {
		t.Fatalf("foreign join: %d %s", r.Status, r.Body)
	}
	now := time.Now().UTC()
	if _, err := ta.Host().DB.NewRaw("INSERT INTO node_pool (deveui, source, status, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)",
		"A1B2C3D4E5F60718", "chirpstack", "shown", now, now).Exec(context.Background()); err != nil {
		t.Fatalf("foreign pool entry: %v", err)
	}
	r := ta.Call(t, "GET", "/api/tag/pool", root, nil)
	if len(r.List()) != 1 {
		t.Fatalf("pool: %s", r.Body)
	}
	ids.poolID = int64(r.List()[0].(map[string]any)["id"].(float64))
	return ids
}

// The foreign company's gateways: one registered, one its uplinks named
// without its registering it.
const (
	foreignGatewayEUI        = "F0E1D2C3B4A59601"
	foreignUnknownGatewayEUI = "F0E1D2C3B4A59602"
)

// foreignGateway registers a gateway of the foreign company and has an
// uplink of its node name it and an unknown one, then waits until the
// statistics are written (a list adds them), so that no write happens
// during the walk. It returns the gateway's id.
func foreignGateway(t *testing.T, ta *kerneltest.Portal[*app.App], root string, companyID, applicationID int64) int64 {
	t.Helper()
	r := ta.Call(t, "POST", fmt.Sprintf("/api/gateway/%d", applicationID), root, map[string]any{"name": "Foreign Widgets Gateway",
		"macAddress": foreignGatewayEUI, "latitude": 57.7, "longitude": 11.97})
	if r.Status != 201 {
		t.Fatalf("foreign gateway: %d %s", r.Status, r.Body)
	}
	id := r.Num("id")
	tok := ta.Call(t, "POST", fmt.Sprintf("/api/integration/tokens/%d", companyID), root, map[string]any{"label": "Foreign Widgets gateways", "isCompany": true})
	if tok.Status != 201 {
		t.Fatalf("foreign token: %d %s", tok.Status, tok.Body)
	}
	up := ta.Call(t, "POST", "/api/ingest/chirpstack?event=up", tok.Str("token"), map[string]any{"deviceInfo": map[string]any{"devEui": foreignDevEUI},
		"fCnt": 7, "fPort": 1, "data": "AQ==", "rxInfo": []any{
			map[string]any{"gatewayId": strings.ToLower(foreignGatewayEUI), "rssi": -70, "snr": 9.5},
			map[string]any{"gatewayId": strings.ToLower(foreignUnknownGatewayEUI), "rssi": -101, "snr": -3}}})
	if up.Status >= 300 {
		t.Fatalf("foreign gateway uplink: %d %s", up.Status, up.Body)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		r := ta.Call(t, "GET", fmt.Sprintf("/api/gateway/company/%d/unknown", companyID), root, nil)
		if strings.Contains(string(r.Body), foreignUnknownGatewayEUI) {
			return id
		}
		if time.Now().After(deadline) {
			t.Fatalf("foreign gateways never heard: %s", r.Body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// awaitForeignAudit waits until the foreign company's audit trail has an
// entry of messageID.
func awaitForeignAudit(t *testing.T, ta *kerneltest.Portal[*app.App], companyID int64, messageID string) {
	t.Helper()
	kerneltest.WaitFor(t, 15*time.Second, func() bool {
		var n int
		err := ta.Host().DB.NewRaw("SELECT count(*) FROM log_entries WHERE company_id = ? AND message_id = ?", companyID, messageID).Scan(context.Background(), &n)
		return err == nil && n > 0
	}, func() string { return "the foreign company's audit entry " + messageID + " was never written" })
}

// awaitForeignLog waits until the log entries of the foreign company's
// set-up are written (its node's join, after its users' sign-ins) and its
// users are noted as active: the logs module writes a moment later, and a
// write during the walk would look like a change the walk caused.
func awaitForeignLog(t *testing.T, ta *kerneltest.Portal[*app.App], companyID int64) {
	t.Helper()
	bdb := ta.Host().DB
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var joins, active int
		err := bdb.NewRaw("SELECT count(*) FROM log_entries WHERE company_id = ? AND deveui = ? AND message_id = 'logs.entry.join'", companyID, foreignDevEUI).Scan(context.Background(), &joins)
		if err == nil {
			err = bdb.NewRaw("SELECT count(*) FROM log_user_activity WHERE company_id = ?", companyID).Scan(context.Background(), &active)
		}
		if err != nil {
			t.Fatalf("foreign log: %v", err)
		}
		if joins == 1 && active == 3 { // the CompanyAdmin, the User and the Admin signed in
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("foreign log not written: %d joins, %d active users", joins, active)
		}
	}
}

// dumpRows renders a query's rows as text, for before-and-after comparisons.
func dumpRows(tb testing.TB, bdb *bun.DB, query string, args ...any) string {
	tb.Helper()
	rows, err := bdb.QueryContext(context.Background(), query, args...)
	if err != nil {
		tb.Fatalf("snapshot %q: %v", query, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var b strings.Builder
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			tb.Fatalf("snapshot scan: %v", err)
		}
		for i, v := range vals {
			if raw, ok := v.([]byte); ok {
				v = string(raw)
			}
			fmt.Fprintf(&b, "%s=%v ", cols[i], v)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// foreignNotification notifies the foreign company's user, as the alarms
// do, and returns the notification's id.
func foreignNotification(t *testing.T, ta *kerneltest.Portal[*app.App], userID int64) int64 {
	t.Helper()
	ctx := context.Background()
	n := notifications.New{Label: "Foreign Widgets freezer", Message: "Too warm at foreign.example", Route: "/alarm/1"}
	if err := ta.App.Notifications().NotifyUsers(ctx, ta.Host().DB, []int64{userID}, n); err != nil {
		t.Fatalf("foreign notification: %v", err)
	}
	var id int64
	if err := ta.Host().DB.NewRaw("SELECT id FROM notifications WHERE user_id = ?", userID).Scan(ctx, &id); err != nil {
		t.Fatalf("foreign notification: %v", err)
	}
	return id
}
