package profiles_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// fixtureRepo is the decoders module's small device repository in the
// published layout: Acme's TH1 decodes with ttn/acme/th1-codec.
const fixtureRepo = "../decoders/testdata/devrepo"

// env is a portal with two companies, each with an application, and the
// fixture repository imported.
type env struct {
	p          *kerneltest.Portal[*app.App]
	root       string
	own, other kerneltest.People
	appID      int64
}

func newEnv(t *testing.T, d db.Dialect) *env {
	t.Helper()
	p := kerneltest.Start(t, d, nil, app.Build)
	root := p.SuperAdmin(t)
	e := &env{p: p, root: root, own: p.Client.EnglishCompany(t, root, "Profile Works AB", "profile.example"),
		other: p.Client.EnglishCompany(t, root, "Other Works AB", "other.example")}
	e.appID = p.Client.AppNode(t, e.own.CompanyAdminToken, e.own.CompanyID, "Field", "", "").AppID
	if _, err := p.App.Decoders().ImportDevices(context.Background(), os.DirFS(fixtureRepo)); err != nil {
		t.Fatal(err)
	}
	return e
}

// profileBody is a full profile of the TH1.
func profileBody(name string) map[string]any {
	return map[string]any{"name": name, "vendorId": "acme", "modelId": "th1", "decoder": "ttn/acme/th1-codec",
		"keys":       []any{map[string]any{"key": "temperature", "label": "Air temperature", "unit": "°C"}, map[string]any{"key": "humidity", "label": "Humidity", "unit": "%"}},
		"defaultKey": "temperature", "uplinkInterval": 900,
		"alarms": []any{map[string]any{"key": "temperature", "limitType": "HIGH", "limitHigh": 30, "priority": 2, "delay": 5, "message": "Too warm"}},
		"dashboard": []any{map[string]any{"type": 0, "title": "Temperature", "tagKey": "temperature"},
			map[string]any{"type": 1, "title": "Humidity", "tagKey": "humidity"}}}
}

// TestApplyToANewNode creates a node with a profile and finds its decoder,
// labelled keys, default key, alarm and dashboard.
func TestApplyToANewNode(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		c, tok := e.p.Client, e.own.CompanyAdminToken
		pid := c.Must(t, "POST", fmt.Sprintf("/api/companies/%d/profiles", e.own.CompanyID), tok, profileBody("TH1 office"), http.StatusCreated).Num("id")
		node := c.Must(t, "POST", fmt.Sprintf("/api/applications/%d/tag", e.appID), tok,
			map[string]any{"name": "Office TH1", "deveui": "70B3D57ED0001234", "profileId": pid}, http.StatusCreated)
		if node.Str("decoder") != "ttn/acme/th1-codec" {
			t.Errorf("decoder %q", node.Str("decoder"))
		}
		keys := c.TagData(t, tok, node.Num("id"))
		if k := keys["temperature"]; k["label"] != "Air temperature" || k["unit"] != "°C" || k["defaultKey"] != true {
			t.Errorf("temperature key %v", k)
		}
		if k := keys["humidity"]; k["label"] != "Humidity" || k["unit"] != "%" || k["defaultKey"] != false {
			t.Errorf("humidity key %v", k)
		}
		rules := c.Must(t, "GET", fmt.Sprintf("/api/companies/%d/alarm", e.own.CompanyID), tok, nil, http.StatusOK).List()
		if len(rules) != 1 {
			t.Fatalf("rules %v", rules)
		}
		if r := rules[0].(map[string]any); r["tagDataKey"] != "temperature" || r["limitHigh"] != 30.0 || r["priority"] != 2.0 || r["alarmDelay"] != 5.0 ||
			r["message"] != "Too warm" || r["tag"] != float64(node.Num("id")) {
			t.Errorf("rule %v", r)
		}
		var modules []struct {
			Title string `bun:"title"`
			Type  int    `bun:"type"`
			EUI   string `bun:"deveui"`
			Attrs string `bun:"attributes"`
		}
		err := e.p.Host().DB.NewSelect().TableExpr("dashboard_modules AS m").ColumnExpr("m.title, m.type, m.deveui, m.attributes").
			Join("JOIN dashboards AS d ON d.id = m.dashboard_id").Where("d.company_id = ? AND d.name = ?", e.own.CompanyID, "Office TH1").
			Order("m.position").Scan(context.Background(), &modules)
		if err != nil || len(modules) != 2 || modules[0].Title != "Temperature" || modules[0].EUI != "70B3D57ED0001234" || modules[1].Type != 1 {
			t.Errorf("dashboard modules %+v, %v", modules, err)
		}
		if got := c.Must(t, "GET", fmt.Sprintf("/api/profiles/%d", pid), tok, nil, http.StatusOK).Num("nodes"); got != 1 {
			t.Errorf("nodes of the profile: %d", got)
		}

		// A changed profile is applied again to its nodes: decoder and labels.
		changed := profileBody("TH1 office")
		changed["keys"] = []any{map[string]any{"key": "temperature", "label": "Room temperature", "unit": "°C"}}
		changed["decoder"] = "ttn/brightsens/lux-codec"
		if n := c.Must(t, "PUT", fmt.Sprintf("/api/profiles/%d", pid), tok, changed, http.StatusOK).Num("nodes"); n != 1 {
			t.Errorf("update tells %d nodes", n)
		}
		if n := c.Must(t, "POST", fmt.Sprintf("/api/profiles/%d/apply", pid), tok, nil, http.StatusOK).Num("nodes"); n != 1 {
			t.Errorf("applied to %d nodes", n)
		}
		if got := c.Must(t, "GET", fmt.Sprintf("/api/tag/%d", node.Num("id")), tok, nil, http.StatusOK).Str("decoder"); got != "ttn/brightsens/lux-codec" {
			t.Errorf("decoder after apply %q", got)
		}
		if k := c.TagData(t, tok, node.Num("id"))["temperature"]; k["label"] != "Room temperature" {
			t.Errorf("label after apply %v", k)
		}
		if rules := c.Must(t, "GET", fmt.Sprintf("/api/companies/%d/alarm", e.own.CompanyID), tok, nil, http.StatusOK).List(); len(rules) != 1 {
			t.Errorf("apply made alarms again: %v", rules)
		}
	})
}

// TestFromModel makes a profile of an imported model in one step.
func TestFromModel(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		c := e.p.Client
		r := c.Must(t, "POST", "/api/profiles/from-model", e.own.AdminToken,
			map[string]any{"companyId": e.own.CompanyID, "vendorId": "acme", "modelId": "th1"}, http.StatusCreated)
		if r.Str("name") != "Acme TH1 Temperature and Humidity Sensor" || r.Str("decoder") != "ttn/acme/th1-codec" || r.Str("modelId") != "th1" || r.Num("companyId") != e.own.CompanyID {
			t.Errorf("from model: %s", r.Body)
		}
		// The installation's, by the SuperAdmin, usable by every company.
		g := c.Must(t, "POST", "/api/profiles/from-model", e.root,
			map[string]any{"companyId": 0, "vendorId": "brightsens", "modelId": "lux1", "name": "Lux everywhere"}, http.StatusCreated)
		list := c.Must(t, "GET", fmt.Sprintf("/api/companies/%d/profiles", e.other.CompanyID), e.other.CompanyAdminToken, nil, http.StatusOK).List()
		if len(list) != 1 || list[0].(map[string]any)["id"] != float64(g.Num("id")) {
			t.Errorf("other company's profiles %v", list)
		}
		bad := c.Must(t, "POST", "/api/profiles/from-model", e.own.AdminToken,
			map[string]any{"companyId": e.own.CompanyID, "vendorId": "acme", "modelId": "nope"}, http.StatusBadRequest)
		if bad.FieldError("modelId") != "Choose a device model of the device repository" {
			t.Errorf("unknown model: %s", bad.Body)
		}
	})
}

// TestValidation checks the messages of bad profiles.
func TestValidation(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		c, tok := e.p.Client, e.own.CompanyAdminToken
		path := fmt.Sprintf("/api/companies/%d/profiles", e.own.CompanyID)
		c.Must(t, "POST", path, tok, profileBody("Taken"), http.StatusCreated)
		for _, tc := range []struct {
			name  string
			body  map[string]any
			field string
			want  string
		}{
			{"name required", map[string]any{"name": " "}, "name", "This field must be filled in"},
			{"name taken", map[string]any{"name": "Taken"}, "name", "There is already a profile named Taken"},
			{"unknown decoder", map[string]any{"name": "X", "decoder": "nope"}, "decoder", "Choose a decoder from the list"},
			{"unknown model", map[string]any{"name": "X", "vendorId": "acme", "modelId": "nope"}, "modelId", "Choose a device model of the device repository"},
			{"key twice", map[string]any{"name": "X", "keys": []any{map[string]any{"key": "t"}, map[string]any{"key": "t"}}}, "keys[1].key", "The key t is listed twice"},
			{"key with a space", map[string]any{"name": "X", "keys": []any{map[string]any{"key": "a b"}}}, "keys[0].key", "A key is a name without spaces, at most 255 characters"},
			{"interval", map[string]any{"name": "X", "uplinkInterval": -1}, "uplinkInterval", "The interval must be 0 to 604800 seconds"},
			{"limit type", map[string]any{"name": "X", "alarms": []any{map[string]any{"key": "t", "limitType": "SIDEWAYS"}}}, "alarms[0].limitType", "Choose the limit type HIGH or LOW"},
			{"limit missing", map[string]any{"name": "X", "alarms": []any{map[string]any{"key": "t", "limitType": "LOW"}}}, "alarms[0].limitLow", "This field must be filled in"},
			{"priority", map[string]any{"name": "X", "alarms": []any{map[string]any{"key": "t", "limitType": "HIGH", "limitHigh": 1, "priority": 7}}}, "alarms[0].priority", "Choose priority A, B or C"},
			{"module type", map[string]any{"name": "X", "dashboard": []any{map[string]any{"type": 6, "tagKey": "t"}}}, "dashboard[0].type", "Choose a chart, gauge, latest value or trend module"},
			{"module key", map[string]any{"name": "X", "dashboard": []any{map[string]any{"type": 0}}}, "dashboard[0].tagKey", "This field must be filled in"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := c.Must(t, "POST", path, tok, tc.body, http.StatusBadRequest)
				if got := r.FieldError(tc.field); got != tc.want {
					t.Errorf("%s: %q, want %q (%s)", tc.field, got, tc.want, r.Body)
				}
			})
		}
		// A node created with a profile it may not use is refused.
		r := c.Must(t, "POST", fmt.Sprintf("/api/applications/%d/tag", e.appID), tok,
			map[string]any{"name": "N", "deveui": "70B3D57ED0009999", "profileId": 987654}, http.StatusBadRequest)
		if r.FieldError("profileId") != "Choose a device profile from the list" {
			t.Errorf("unknown profile: %s", r.Body)
		}
	})
}

// TestTenancy keeps each company's profiles to itself and the
// installation's to the SuperAdmin.
func TestTenancy(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		c := e.p.Client
		theirs := c.Must(t, "POST", fmt.Sprintf("/api/companies/%d/profiles", e.other.CompanyID), e.other.CompanyAdminToken, profileBody("Theirs"), http.StatusCreated).Num("id")
		global := c.Must(t, "POST", "/api/companies/0/profiles", e.root, profileBody("Everyone's"), http.StatusCreated).Num("id")
		tok := e.own.CompanyAdminToken
		for _, tc := range []struct {
			method, path, token string
			body                any
			want                int
		}{
			{"GET", fmt.Sprintf("/api/profiles/%d", theirs), tok, nil, http.StatusNotFound},
			{"PUT", fmt.Sprintf("/api/profiles/%d", theirs), tok, profileBody("Hijacked"), http.StatusNotFound},
			{"DELETE", fmt.Sprintf("/api/profiles/%d", theirs), tok, nil, http.StatusNotFound},
			{"POST", fmt.Sprintf("/api/profiles/%d/apply", theirs), tok, nil, http.StatusNotFound},
			{"GET", fmt.Sprintf("/api/companies/%d/profiles", e.other.CompanyID), tok, nil, http.StatusNotFound},
			{"POST", fmt.Sprintf("/api/companies/%d/profiles", e.other.CompanyID), tok, profileBody("Planted"), http.StatusNotFound},
			{"POST", "/api/companies/0/profiles", tok, profileBody("Planted"), http.StatusNotFound},
			{"POST", "/api/profiles/from-model", tok, map[string]any{"companyId": e.other.CompanyID, "vendorId": "acme", "modelId": "th1"}, http.StatusNotFound},
			{"GET", fmt.Sprintf("/api/profiles/%d", global), tok, nil, http.StatusOK},
			{"PUT", fmt.Sprintf("/api/profiles/%d", global), tok, profileBody("Hijacked"), http.StatusForbidden},
			{"DELETE", fmt.Sprintf("/api/profiles/%d", global), e.own.AdminToken, nil, http.StatusForbidden},
			{"GET", fmt.Sprintf("/api/profiles/%d", global), e.own.UserToken, nil, http.StatusForbidden},
		} {
			if r := c.Call(t, tc.method, tc.path, tc.token, tc.body); r.Status != tc.want {
				t.Errorf("%s %s: %d, want %d: %s", tc.method, tc.path, r.Status, tc.want, r.Body)
			}
		}
		// Another company's profile does not apply to the own nodes.
		r := c.Must(t, "POST", fmt.Sprintf("/api/applications/%d/tag", e.appID), tok,
			map[string]any{"name": "N", "deveui": "70B3D57ED0008888", "profileId": theirs}, http.StatusBadRequest)
		if r.FieldError("profileId") == "" {
			t.Errorf("foreign profile taken: %s", r.Body)
		}
		// The installation's profile does.
		n := c.Must(t, "POST", fmt.Sprintf("/api/applications/%d/tag", e.appID), tok,
			map[string]any{"name": "N", "deveui": "70B3D57ED0008888", "profileId": global}, http.StatusCreated)
		if n.Str("decoder") != "ttn/acme/th1-codec" {
			t.Errorf("global profile's decoder %q", n.Str("decoder"))
		}
	})
}
