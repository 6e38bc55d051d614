package dashboards_test

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestPublicLinks(t *testing.T) {
	t.Parallel()
	png := pngBytes()
	future := time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)
	setup := func(t *testing.T, e *env) {
		var d struct {
			ID float64 `json:"dashboardId"`
		}
		e.mustDo(t, "acmeAdmin", "POST", "/api/dashboards", `{"name":"Shared"}`, http.StatusCreated, &d)
		e.ids["{shared}"] = itoa(d.ID)
		e.mustDo(t, "acmeAdmin", "POST", "/api/dashboards", `{"name":"Private"}`, http.StatusCreated, &d)
		e.ids["{private}"] = itoa(d.ID)
		var m struct {
			ID float64 `json:"dashboardModuleId"`
		}
		e.mustDo(t, "acmeAdmin", "POST", "/api/dashboards/{shared}/modules", `{"type":8,"tag":"70B3D57ED005A1B2","attributes":{"tagkey":"temperature"}}`, http.StatusCreated, &m)
		e.ids["{sharedMod}"] = itoa(m.ID)
		e.mustDo(t, "acmeAdmin", "POST", "/api/dashboards/{shared}/modules", `{"type":3}`, http.StatusCreated, &m)
		e.ids["{sharedImg}"] = itoa(m.ID)
		if status, _, raw := e.send(t, "acmeAdmin", "POST", "/api/dashboards/modules/{sharedImg}/image", png, "image/png", ""); status != 200 {
			t.Fatalf("image: %d %s", status, raw)
		}
		e.mustDo(t, "acmeAdmin", "POST", "/api/dashboards/{shared}/modules", `{"type":5}`, http.StatusCreated, &m)
		e.ids["{sharedCompany}"] = itoa(m.ID)
		e.mustDo(t, "acmeAdmin", "POST", "/api/dashboards/{private}/modules", `{"type":8,"tag":"70B3D57ED005A1B3","attributes":{"tagkey":"temperature"}}`, http.StatusCreated, &m)
		e.ids["{privateMod}"] = itoa(m.ID)
		e.write(t, "{acme}", acmeNode, "temperature", 19.5, 20.5)
	}
	run(t, nil, []step{
		{name: "expiry in the past", as: "acmeAdmin", method: "POST", path: "/api/dashboards/public/{acme}/{shared}/2020-01-01T00:00:00Z", status: 400, before: setup,
			fields: map[string]string{"expiresAt": "dashboards.public.expiresAt"}},
		{name: "expiry not a time", as: "acmeAdmin", method: "POST", path: "/api/dashboards/public/{acme}/{shared}/tomorrow", status: 400},
		{name: "a User may not share", as: "acmeUser", method: "POST", path: "/api/dashboards/public/{acme}/{shared}/" + future, status: 403},
		{name: "a dashboard of another company", as: "betaAdmin", method: "POST", path: "/api/dashboards/public/{beta}/{shared}/" + future, status: 404},
		{name: "the dashboard must be the company's", as: "super", method: "POST", path: "/api/dashboards/public/{beta}/{shared}/" + future, status: 404},
		{name: "share", as: "acmeAdmin", method: "POST", path: "/api/dashboards/public/{acme}/{shared}/" + future, status: 201,
			want: map[string]any{"dashboardName": "Shared", "active": true, "expiresAt": future},
			save: map[string]string{"{token}": "token", "{link}": "id"},
			then: func(t *testing.T, e *env, got any) {
				tok := at(got, "token").(string)
				if !strings.HasPrefix(tok, "pd_") || len(tok) != 3+43 {
					t.Errorf("token %q", tok)
				}
				if host, _ := at(got, "host").(string); !strings.HasPrefix(host, "http") {
					t.Errorf("host %q", host)
				}
			}},
		{name: "share with Unix milliseconds", as: "acmeAdmin", method: "POST", status: 201,
			path: "/api/dashboards/public/{acme}/{private}/" + itoa(float64(time.Now().Add(time.Hour).UnixMilli())),
			save: map[string]string{"{privateToken}": "token", "{privateLink}": "id"}},
		{name: "the company's links, newest first, with tokens", as: "acmeAdmin", method: "GET", path: "/api/dashboards/public/company/{acme}", status: 200,
			list: true, items: 2, want: map[string]any{"0.dashboardName": "Private", "1.token": "{token}"}},
		{name: "another company's links", as: "betaAdmin", method: "GET", path: "/api/dashboards/public/company/{acme}", status: 404},
		{name: "anyone reads the shared dashboard", as: "", method: "GET", path: "/api/dashboards/public/{token}", status: 200,
			want: map[string]any{"dashboard.name": "Shared", "company.name": "Acme", "expiresAt": future, "modules.0.type": float64(8)},
			then: func(t *testing.T, e *env, got any) {
				img, _ := at(got, "modules.1.image").(string)
				if !strings.HasPrefix(img, "/api/dashboards/public/"+e.ids["{token}"]+"/modules/") {
					t.Errorf("image address %q", img)
				}
				if status, _, raw := e.send(t, "", "GET", img, nil, "", ""); status != 200 || string(raw) != string(png) {
					t.Errorf("public picture: %d", status)
				}
			}},
		{name: "its modules' latest values", as: "", method: "GET", path: "/api/dashboards/public/{token}/modules/{sharedMod}/tagdata/latest", status: 200,
			want: map[string]any{"series.0.value": 20.5, "series.0.previous": 19.5}},
		{name: "its modules' series", as: "", method: "GET", path: "/api/dashboards/public/{token}/modules/{sharedMod}/tagdata", status: 200,
			want: map[string]any{"series.0.points.1.v": 20.5}},
		{name: "company info without the logo's address", as: "", method: "GET", path: "/api/dashboards/public/{token}/modules/{sharedCompany}/info", status: 200,
			want: map[string]any{"company.name": "Acme", "company.image": nil}},
		{name: "a module of another dashboard is not reached", as: "", method: "GET", path: "/api/dashboards/public/{token}/modules/{privateMod}/tagdata/latest", status: 404},
		{name: "nor its picture", as: "", method: "GET", path: "/api/dashboards/public/{privateToken}/modules/{sharedImg}/image", status: 404},
		{name: "the token is no session", as: "", method: "GET", path: "/api/dashboards/{shared}", status: 401,
			before: func(t *testing.T, e *env) { e.tokens["public"] = e.ids["{token}"] },
			then: func(t *testing.T, e *env, got any) {
				for _, p := range []string{"/api/dashboards/{shared}", "/api/dashboards/{shared}/modules", "/api/dashboards/modules/{sharedMod}/tagdata"} {
					if status, _ := e.do(t, "public", "GET", p, "", ""); status != 401 {
						t.Errorf("%s with the token as bearer: %d", p, status)
					}
				}
				if status, _ := e.do(t, "public", "PUT", "/api/dashboards/modules/{sharedMod}", `{"type":2}`, ""); status != 401 {
					t.Errorf("a write with the token: %d", status)
				}
			}},
		{name: "an unknown token", as: "", method: "GET", path: "/api/dashboards/public/pd_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", status: 404,
			id: "dashboards.public.unknown"},
		{name: "an expired link", as: "", method: "GET", path: "/api/dashboards/public/{token}", status: 404,
			before: func(t *testing.T, e *env) {
				if _, err := e.p.Host().DB.NewRaw("UPDATE dashboard_public_links SET expires_at = ? WHERE id = ?",
					time.Now().Add(-time.Second).UTC(), e.id(t, "{link}")).Exec(t.Context()); err != nil {
					t.Fatal(err)
				}
			},
			then: func(t *testing.T, e *env, got any) {
				if status, _ := e.do(t, "", "GET", "/api/dashboards/public/{token}/modules/{sharedMod}/tagdata/latest", "", ""); status != 404 {
					t.Errorf("data after expiry: %d", status)
				}
			}},
		{name: "listed as inactive", as: "acmeAdmin", method: "GET", path: "/api/dashboards/public/company/{acme}", status: 200,
			want: map[string]any{"0.active": true, "1.active": false}},
		{name: "another company may not delete a link", as: "betaAdmin", method: "DELETE", path: "/api/dashboards/public/{privateLink}", status: 404},
		{name: "delete a link", as: "acmeAdmin", method: "DELETE", path: "/api/dashboards/public/{privateLink}", status: 204,
			then: func(t *testing.T, e *env, got any) {
				if status, _ := e.do(t, "", "GET", "/api/dashboards/public/{privateToken}", "", ""); status != 404 {
					t.Errorf("deleted link: %d", status)
				}
			}},
	})
}
