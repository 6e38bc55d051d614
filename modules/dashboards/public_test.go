package dashboards_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

func TestPublicLinks(t *testing.T) {
	t.Parallel()
	png := pngBytes()
	future := time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)
	setup := func(t *testing.T, e *env) {
		var d struct {
			ID float64 `json:"dashboardId"`
		}
		e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards", `{"name":"Shared"}`, http.StatusCreated, &d)
		e.IDs["{shared}"] = itoa(d.ID)
		e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards", `{"name":"Private"}`, http.StatusCreated, &d)
		e.IDs["{private}"] = itoa(d.ID)
		var m struct {
			ID float64 `json:"dashboardModuleId"`
		}
		e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards/{shared}/modules", `{"type":8,"tag":"70B3D57ED005A1B2","attributes":{"tagkey":"temperature"}}`, http.StatusCreated, &m)
		e.IDs["{sharedMod}"] = itoa(m.ID)
		e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards/{shared}/modules", `{"type":3}`, http.StatusCreated, &m)
		e.IDs["{sharedImg}"] = itoa(m.ID)
		if status, _, raw := e.Send(t, "acmeAdmin", "POST", "/api/dashboards/modules/{sharedImg}/image", png, "image/png", ""); status != 200 {
			t.Fatalf("image: %d %s", status, raw)
		}
		e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards/{shared}/modules", `{"type":5}`, http.StatusCreated, &m)
		e.IDs["{sharedCompany}"] = itoa(m.ID)
		e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards/{private}/modules", `{"type":8,"tag":"70B3D57ED005A1B3","attributes":{"tagkey":"temperature"}}`, http.StatusCreated, &m)
		e.IDs["{privateMod}"] = itoa(m.ID)
		e.write(t, "{acme}", acmeNode, "temperature", 19.5, 20.5)
	}
	run(t, nil, []step{
		{Name: "expiry in the past", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/public/{acme}/{shared}/2020-01-01T00:00:00Z", Status: 400, Before: setup,
			Fields: map[string]string{"expiresAt": "dashboards.public.expiresAt"}},
		{Name: "expiry not a time", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/public/{acme}/{shared}/tomorrow", Status: 400},
		{Name: "a User may not share", As: "acmeUser", Method: "POST", Path: "/api/dashboards/public/{acme}/{shared}/" + future, Status: 403},
		{Name: "a dashboard of another company", As: "betaAdmin", Method: "POST", Path: "/api/dashboards/public/{beta}/{shared}/" + future, Status: 404},
		{Name: "the dashboard must be the company's", As: "super", Method: "POST", Path: "/api/dashboards/public/{beta}/{shared}/" + future, Status: 404},
		{Name: "share", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/public/{acme}/{shared}/" + future, Status: 201,
			Want: map[string]any{"dashboardName": "Shared", "active": true, "expiresAt": future},
			Save: map[string]string{"{token}": "token", "{link}": "id"},
			Then: func(t *testing.T, e *env, got any) {
				tok := kerneltest.At(got, "token").(string)
				if !strings.HasPrefix(tok, "pd_") || len(tok) != 3+43 {
					t.Errorf("token %q", tok)
				}
				if host, _ := kerneltest.At(got, "host").(string); !strings.HasPrefix(host, "http") {
					t.Errorf("host %q", host)
				}
			}},
		{Name: "share with Unix milliseconds", As: "acmeAdmin", Method: "POST", Status: 201,
			Path: "/api/dashboards/public/{acme}/{private}/" + itoa(float64(time.Now().Add(time.Hour).UnixMilli())),
			Save: map[string]string{"{privateToken}": "token", "{privateLink}": "id"}},
		{Name: "the company's links, newest first, with tokens", As: "acmeAdmin", Method: "GET", Path: "/api/dashboards/public/company/{acme}", Status: 200,
			List: true, Items: 2, Want: map[string]any{"0.dashboardName": "Private", "1.token": "{token}"}},
		{Name: "another company's links", As: "betaAdmin", Method: "GET", Path: "/api/dashboards/public/company/{acme}", Status: 404},
		{Name: "anyone reads the shared dashboard", As: "", Method: "GET", Path: "/api/dashboards/public/{token}", Status: 200,
			Want: map[string]any{"dashboard.name": "Shared", "company.name": "Acme", "expiresAt": future, "modules.0.type": float64(8)},
			Then: func(t *testing.T, e *env, got any) {
				img, _ := kerneltest.At(got, "modules.1.image").(string)
				if !strings.HasPrefix(img, "/api/dashboards/public/"+e.IDs["{token}"]+"/modules/") {
					t.Errorf("image address %q", img)
				}
				if status, _, raw := e.Send(t, "", "GET", img, nil, "", ""); status != 200 || string(raw) != string(png) {
					t.Errorf("public picture: %d", status)
				}
			}},
		{Name: "its modules' latest values", As: "", Method: "GET", Path: "/api/dashboards/public/{token}/modules/{sharedMod}/tagdata/latest", Status: 200,
			Want: map[string]any{"series.0.value": 20.5, "series.0.previous": 19.5}},
		{Name: "its modules' series", As: "", Method: "GET", Path: "/api/dashboards/public/{token}/modules/{sharedMod}/tagdata", Status: 200,
			Want: map[string]any{"series.0.points.1.v": 20.5}},
		{Name: "company info without the logo's address", As: "", Method: "GET", Path: "/api/dashboards/public/{token}/modules/{sharedCompany}/info", Status: 200,
			Want: map[string]any{"company.name": "Acme", "company.image": nil}},
		{Name: "a module of another dashboard is not reached", As: "", Method: "GET", Path: "/api/dashboards/public/{token}/modules/{privateMod}/tagdata/latest", Status: 404},
		{Name: "nor its picture", As: "", Method: "GET", Path: "/api/dashboards/public/{privateToken}/modules/{sharedImg}/image", Status: 404},
		{Name: "the token is no session", As: "", Method: "GET", Path: "/api/dashboards/{shared}", Status: 401,
			Before: func(t *testing.T, e *env) { e.Tokens["public"] = e.IDs["{token}"] },
			Then: func(t *testing.T, e *env, got any) {
				for _, p := range []string{"/api/dashboards/{shared}", "/api/dashboards/{shared}/modules", "/api/dashboards/modules/{sharedMod}/tagdata"} {
					if status, _ := e.Do(t, "public", "GET", p, "", ""); status != 401 {
						t.Errorf("%s with the token as bearer: %d", p, status)
					}
				}
				if status, _ := e.Do(t, "public", "PUT", "/api/dashboards/modules/{sharedMod}", `{"type":2}`, ""); status != 401 {
					t.Errorf("a write with the token: %d", status)
				}
			}},
		{Name: "an unknown token", As: "", Method: "GET", Path: "/api/dashboards/public/pd_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", Status: 404,
			ID: "dashboards.public.unknown"},
		{Name: "an expired link", As: "", Method: "GET", Path: "/api/dashboards/public/{token}", Status: 404,
			Before: func(t *testing.T, e *env) {
				if _, err := e.p.Host().DB.NewRaw("UPDATE dashboard_public_links SET expires_at = ? WHERE id = ?",
					time.Now().Add(-time.Second).UTC(), e.ID(t, "{link}")).Exec(t.Context()); err != nil {
					t.Fatal(err)
				}
			},
			Then: func(t *testing.T, e *env, got any) {
				if status, _ := e.Do(t, "", "GET", "/api/dashboards/public/{token}/modules/{sharedMod}/tagdata/latest", "", ""); status != 404 {
					t.Errorf("data after expiry: %d", status)
				}
			}},
		{Name: "listed as inactive", As: "acmeAdmin", Method: "GET", Path: "/api/dashboards/public/company/{acme}", Status: 200,
			Want: map[string]any{"0.active": true, "1.active": false}},
		{Name: "another company may not delete a link", As: "betaAdmin", Method: "DELETE", Path: "/api/dashboards/public/{privateLink}", Status: 404},
		{Name: "delete a link", As: "acmeAdmin", Method: "DELETE", Path: "/api/dashboards/public/{privateLink}", Status: 204,
			Then: func(t *testing.T, e *env, got any) {
				if status, _ := e.Do(t, "", "GET", "/api/dashboards/public/{privateToken}", "", ""); status != 404 {
					t.Errorf("deleted link: %d", status)
				}
			}},
	})
}
