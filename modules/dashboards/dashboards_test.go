package dashboards_test

import (
	"net/http"
	"strconv"
	"testing"
)

func TestDashboards(t *testing.T) {
	t.Parallel()
	png := pngBytes()
	run(t, nil, []step{
		{name: "name is required", as: "acmeAdmin", method: "POST", path: "/api/dashboards", body: `{"name":""}`, status: 400,
			fields: map[string]string{"name": "validation.required"}, texts: map[string]string{"name": "This field must be filled in"}},
		{name: "the Swedish text", as: "acmeAdmin", method: "POST", path: "/api/dashboards", body: `{}`, lang: "sv", status: 400,
			fields: map[string]string{"name": "validation.required"}},
		{name: "name at most 255", as: "acmeAdmin", method: "POST", path: "/api/dashboards", body: `{"name":"` + long(256) + `"}`, status: 400,
			fields: map[string]string{"name": "validation.max255"}},
		{name: "a User may not create", as: "acmeUser", method: "POST", path: "/api/dashboards", body: `{"name":"X"}`, status: 403},
		{name: "a category of another company is refused", as: "betaAdmin", method: "POST", path: "/api/dashboards", status: 400,
			before: func(t *testing.T, e *env) {
				var c struct {
					ID float64 `json:"dashboardCategoryId"`
				}
				e.mustDo(t, "acmeAdmin", "POST", "/api/dashboards/categories/{acme}", `{"title":"Sites"}`, http.StatusCreated, &c)
				e.ids["{sites}"] = itoa(c.ID)
			},
			body: `{"name":"Planted","categoryId":{sites}}`, fields: map[string]string{"categoryId": "dashboards.category.unknown"}},
		{name: "create in the caller's company", as: "acmeAdmin", method: "POST", path: "/api/dashboards", body: `{"name":" Main ","categoryId":{sites}}`, status: 201,
			want: map[string]any{"name": "Main", "index": float64(0), "default": false}, save: map[string]string{"{main}": "dashboardId"},
			then: func(t *testing.T, e *env, got any) {
				if at(got, "companyId") != float64(e.id(t, "{acme}")) || at(got, "categories.0") != float64(e.id(t, "{sites}")) {
					t.Errorf("answer %v", got)
				}
			}},
		{name: "a second goes last", as: "acmeAdmin", method: "POST", path: "/api/dashboards", body: `{"name":"Second","categoryId":{sites}}`, status: 201,
			want: map[string]any{"index": float64(1)}, save: map[string]string{"{second}": "dashboardId"}},
		{name: "SuperAdmin creates for a chosen company", as: "super", method: "POST", path: "/api/dashboards/create/{beta}", body: `{"name":"Beta board"}`, status: 201,
			save: map[string]string{"{betaBoard}": "dashboardId"}},
		{name: "only a SuperAdmin may", as: "acmeAdmin", method: "POST", path: "/api/dashboards/create/{acme}", body: `{"name":"X"}`, status: 403},
		{name: "the company's list", as: "acmeUser", method: "GET", path: "/api/companies/{acme}/dashboards", status: 200, list: true, items: 2,
			want: map[string]any{"0.name": "Main", "1.name": "Second"}},
		{name: "another company's list", as: "acmeAdmin", method: "GET", path: "/api/companies/{beta}/dashboards", status: 404},
		{name: "get", as: "acmeUser", method: "GET", path: "/api/dashboards/{main}", status: 200, want: map[string]any{"name": "Main"}},
		{name: "get another company's", as: "acmeUser", method: "GET", path: "/api/dashboards/{betaBoard}", status: 404},
		{name: "rename", as: "acmeAdmin", method: "PUT", path: "/api/dashboards/{second}", body: `{"name":"Renamed","categoryId":{sites}}`, status: 200,
			want: map[string]any{"name": "Renamed", "index": float64(1)}},
		{name: "move to the root", as: "acmeAdmin", method: "PUT", path: "/api/dashboards/{second}", body: `{"name":"Renamed","categoryId":null}`, status: 200,
			want: map[string]any{"categoryId": nil, "index": float64(0)}},
		{name: "update another company's", as: "acmeAdmin", method: "PUT", path: "/api/dashboards/{betaBoard}", body: `{"name":"Hijacked"}`, status: 404},
		{name: "a module with a picture", as: "acmeAdmin", method: "POST", path: "/api/dashboards/{main}/modules", body: `{"type":3,"title":"Plan"}`, status: 201,
			save: map[string]string{"{plan}": "dashboardModuleId"},
			then: func(t *testing.T, e *env, got any) {
				status, _, raw := e.send(t, "acmeAdmin", "POST", "/api/dashboards/modules/{plan}/image", png, "image/png", "")
				if status != 200 {
					t.Fatalf("image: %d %s", status, raw)
				}
			}},
		{name: "duplicate: a copy after the original with copies of the modules and pictures", as: "acmeAdmin", method: "POST", path: "/api/dashboards/{main}/duplicate",
			body: `{"name":"Main copy"}`, status: 201, want: map[string]any{"name": "Main copy", "index": float64(1)}, save: map[string]string{"{copy}": "dashboardId"},
			then: func(t *testing.T, e *env, got any) {
				var mods []map[string]any
				e.mustDo(t, "acmeUser", "GET", "/api/dashboards/{copy}/modules", "", http.StatusOK, &mods)
				if len(mods) != 1 || mods[0]["title"] != "Plan" || mods[0]["image"] == nil || mods[0]["dashboardModuleId"] == float64(e.id(t, "{plan}")) {
					t.Fatalf("copied modules %v", mods)
				}
				status, _, raw := e.send(t, "acmeUser", "GET", mods[0]["image"].(string), nil, "", "")
				if status != 200 || string(raw) != string(png) {
					t.Errorf("copied picture: %d", status)
				}
			}},
		{name: "the copy needs a name", as: "acmeAdmin", method: "POST", path: "/api/dashboards/{main}/duplicate", body: `{}`, status: 400,
			fields: map[string]string{"name": "validation.required"}},
		{name: "another company's cannot be copied", as: "betaAdmin", method: "POST", path: "/api/dashboards/{main}/duplicate", body: `{"name":"Stolen"}`, status: 404},
		{name: "an unknown part", as: "acmeAdmin", method: "POST", path: "/api/dashboards/{main}/explode", body: `{}`, status: 404},
		{name: "no default yet", as: "acmeUser", method: "GET", path: "/api/dashboards/default", status: 204},
		{name: "a User may not set the company's default", as: "acmeUser", method: "PUT", path: "/api/dashboards/{main}/default", body: `{"scope":"company"}`, status: 403},
		{name: "a bad scope", as: "acmeAdmin", method: "PUT", path: "/api/dashboards/{main}/default", body: `{"scope":"world"}`, status: 400,
			fields: map[string]string{"scope": "dashboards.default.scope"}},
		{name: "the company's default", as: "acmeAdmin", method: "PUT", path: "/api/dashboards/{main}/default", body: `{"scope":"company"}`, status: 204},
		{name: "a User gets the company's default", as: "acmeUser", method: "GET", path: "/api/dashboards/default", status: 200,
			want: map[string]any{"name": "Main", "default": true}},
		{name: "a User sets their own", as: "acmeUser", method: "PUT", path: "/api/dashboards/{second}/default", status: 204},
		{name: "their own wins", as: "acmeUser", method: "GET", path: "/api/dashboards/default", status: 200, want: map[string]any{"name": "Renamed"}},
		{name: "and shows in the list", as: "acmeUser", method: "GET", path: "/api/companies/{acme}/dashboards", status: 200,
			then: func(t *testing.T, e *env, got any) {
				for _, d := range got.([]any) {
					m := d.(map[string]any)
					if want := m["name"] == "Renamed"; m["default"] != want {
						t.Errorf("%v default %v", m["name"], m["default"])
					}
				}
			}},
		{name: "others keep the company's", as: "acmeAdmin", method: "GET", path: "/api/dashboards/default", status: 200, want: map[string]any{"name": "Main"}},
		{name: "a foreign dashboard cannot be a default", as: "acmeUser", method: "PUT", path: "/api/dashboards/{betaBoard}/default", status: 404},
		{name: "clear their own", as: "acmeUser", method: "DELETE", path: "/api/dashboards/{second}/default", status: 204},
		{name: "back to the company's", as: "acmeUser", method: "GET", path: "/api/dashboards/default", status: 200, want: map[string]any{"name": "Main"}},
		{name: "a SuperAdmin names the company", as: "super", method: "GET", path: "/api/dashboards/default?companyId={acme}", status: 200, want: map[string]any{"name": "Main"}},
		{name: "delete another company's", as: "betaAdmin", method: "DELETE", path: "/api/dashboards/{main}", status: 404},
		{name: "delete", as: "acmeAdmin", method: "DELETE", path: "/api/dashboards/{main}", status: 204},
		{name: "its modules, pictures and default went with it", as: "acmeUser", method: "GET", path: "/api/dashboards/default", status: 204,
			then: func(t *testing.T, e *env, got any) {
				if status, _ := e.do(t, "acmeAdmin", "GET", "/api/dashboards/modules/{plan}", "", ""); status != 404 {
					t.Errorf("module after delete: %d", status)
				}
			}},
	})
}

func itoa(f float64) string { return strconv.FormatInt(int64(f), 10) }

// pngBytes is a picture that sniffs as PNG.
func pngBytes() []byte {
	return append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), make([]byte, 32)...)
}
