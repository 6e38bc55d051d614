package dashboards_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

func TestDashboards(t *testing.T) {
	t.Parallel()
	png := pngBytes()
	run(t, nil, []step{
		{Name: "name is required", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards", Body: `{"name":""}`, Status: 400,
			Fields: map[string]string{"name": "validation.required"}, Texts: map[string]string{"name": "This field must be filled in"}},
		{Name: "the Swedish text", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards", Body: `{}`, Lang: "sv", Status: 400,
			Fields: map[string]string{"name": "validation.required"}},
		{Name: "name at most 255", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards", Body: `{"name":"` + long(256) + `"}`, Status: 400,
			Fields: map[string]string{"name": "validation.max255"}},
		{Name: "a User may not create", As: "acmeUser", Method: "POST", Path: "/api/dashboards", Body: `{"name":"X"}`, Status: 403},
		{Name: "a category of another company is refused", As: "betaAdmin", Method: "POST", Path: "/api/dashboards", Status: 400,
			Before: func(t *testing.T, e *env) {
				var c struct {
					ID float64 `json:"dashboardCategoryId"`
				}
				e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards/categories/{acme}", `{"title":"Sites"}`, http.StatusCreated, &c)
				e.IDs["{sites}"] = itoa(c.ID)
			},
			Body: `{"name":"Planted","categoryId":{sites}}`, Fields: map[string]string{"categoryId": "dashboards.category.unknown"}},
		{Name: "create in the caller's company", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards", Body: `{"name":" Main ","categoryId":{sites}}`, Status: 201,
			Want: map[string]any{"name": "Main", "index": float64(0), "default": false}, Save: map[string]string{"{main}": "dashboardId"},
			Then: func(t *testing.T, e *env, got any) {
				if kerneltest.At(got, "companyId") != float64(e.ID(t, "{acme}")) || kerneltest.At(got, "categories.0") != float64(e.ID(t, "{sites}")) {
					t.Errorf("answer %v", got)
				}
			}},
		{Name: "a second goes last", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards", Body: `{"name":"Second","categoryId":{sites}}`, Status: 201,
			Want: map[string]any{"index": float64(1)}, Save: map[string]string{"{second}": "dashboardId"}},
		{Name: "SuperAdmin creates for a chosen company", As: "super", Method: "POST", Path: "/api/dashboards/create/{beta}", Body: `{"name":"Beta board"}`, Status: 201,
			Save: map[string]string{"{betaBoard}": "dashboardId"}},
		{Name: "only a SuperAdmin may", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/create/{acme}", Body: `{"name":"X"}`, Status: 403},
		{Name: "the company's list", As: "acmeUser", Method: "GET", Path: "/api/companies/{acme}/dashboards", Status: 200, List: true, Items: 2,
			Want: map[string]any{"0.name": "Main", "1.name": "Second"}},
		{Name: "another company's list", As: "acmeAdmin", Method: "GET", Path: "/api/companies/{beta}/dashboards", Status: 404},
		{Name: "get", As: "acmeUser", Method: "GET", Path: "/api/dashboards/{main}", Status: 200, Want: map[string]any{"name": "Main"}},
		{Name: "get another company's", As: "acmeUser", Method: "GET", Path: "/api/dashboards/{betaBoard}", Status: 404},
		{Name: "rename", As: "acmeAdmin", Method: "PUT", Path: "/api/dashboards/{second}", Body: `{"name":"Renamed","categoryId":{sites}}`, Status: 200,
			Want: map[string]any{"name": "Renamed", "index": float64(1)}},
		{Name: "move to the root", As: "acmeAdmin", Method: "PUT", Path: "/api/dashboards/{second}", Body: `{"name":"Renamed","categoryId":null}`, Status: 200,
			Want: map[string]any{"categoryId": nil, "index": float64(0)}},
		{Name: "update another company's", As: "acmeAdmin", Method: "PUT", Path: "/api/dashboards/{betaBoard}", Body: `{"name":"Hijacked"}`, Status: 404},
		{Name: "a module with a picture", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/{main}/modules", Body: `{"type":3,"title":"Plan"}`, Status: 201,
			Save: map[string]string{"{plan}": "dashboardModuleId"},
			Then: func(t *testing.T, e *env, got any) {
				status, _, raw := e.Send(t, "acmeAdmin", "POST", "/api/dashboards/modules/{plan}/image", png, "image/png", "")
				if status != 200 {
					t.Fatalf("image: %d %s", status, raw)
				}
			}},
		{Name: "duplicate: a copy after the original with copies of the modules and pictures", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/{main}/duplicate",
			Body: `{"name":"Main copy"}`, Status: 201, Want: map[string]any{"name": "Main copy", "index": float64(1)}, Save: map[string]string{"{copy}": "dashboardId"},
			Then: func(t *testing.T, e *env, got any) {
				var mods []map[string]any
				e.MustDo(t, "acmeUser", "GET", "/api/dashboards/{copy}/modules", "", http.StatusOK, &mods)
				if len(mods) != 1 || mods[0]["title"] != "Plan" || mods[0]["image"] == nil || mods[0]["dashboardModuleId"] == float64(e.ID(t, "{plan}")) {
					t.Fatalf("copied modules %v", mods)
				}
				status, _, raw := e.Send(t, "acmeUser", "GET", mods[0]["image"].(string), nil, "", "")
				if status != 200 || string(raw) != string(png) {
					t.Errorf("copied picture: %d", status)
				}
			}},
		{Name: "the copy needs a name", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/{main}/duplicate", Body: `{}`, Status: 400,
			Fields: map[string]string{"name": "validation.required"}},
		{Name: "another company's cannot be copied", As: "betaAdmin", Method: "POST", Path: "/api/dashboards/{main}/duplicate", Body: `{"name":"Stolen"}`, Status: 404},
		{Name: "an unknown part", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/{main}/explode", Body: `{}`, Status: 404},
		{Name: "no default yet", As: "acmeUser", Method: "GET", Path: "/api/dashboards/default", Status: 204},
		{Name: "a User may not set the company's default", As: "acmeUser", Method: "PUT", Path: "/api/dashboards/{main}/default", Body: `{"scope":"company"}`, Status: 403},
		{Name: "a bad scope", As: "acmeAdmin", Method: "PUT", Path: "/api/dashboards/{main}/default", Body: `{"scope":"world"}`, Status: 400,
			Fields: map[string]string{"scope": "dashboards.default.scope"}},
		{Name: "the company's default", As: "acmeAdmin", Method: "PUT", Path: "/api/dashboards/{main}/default", Body: `{"scope":"company"}`, Status: 204},
		{Name: "a User gets the company's default", As: "acmeUser", Method: "GET", Path: "/api/dashboards/default", Status: 200,
			Want: map[string]any{"name": "Main", "default": true}},
		{Name: "a User sets their own", As: "acmeUser", Method: "PUT", Path: "/api/dashboards/{second}/default", Status: 204},
		{Name: "their own wins", As: "acmeUser", Method: "GET", Path: "/api/dashboards/default", Status: 200, Want: map[string]any{"name": "Renamed"}},
		{Name: "and shows in the list", As: "acmeUser", Method: "GET", Path: "/api/companies/{acme}/dashboards", Status: 200,
			Then: func(t *testing.T, e *env, got any) {
				for _, d := range got.([]any) {
					m := d.(map[string]any)
					if want := m["name"] == "Renamed"; m["default"] != want {
						t.Errorf("%v default %v", m["name"], m["default"])
					}
				}
			}},
		{Name: "others keep the company's", As: "acmeAdmin", Method: "GET", Path: "/api/dashboards/default", Status: 200, Want: map[string]any{"name": "Main"}},
		{Name: "a foreign dashboard cannot be a default", As: "acmeUser", Method: "PUT", Path: "/api/dashboards/{betaBoard}/default", Status: 404},
		{Name: "clear their own", As: "acmeUser", Method: "DELETE", Path: "/api/dashboards/{second}/default", Status: 204},
		{Name: "back to the company's", As: "acmeUser", Method: "GET", Path: "/api/dashboards/default", Status: 200, Want: map[string]any{"name": "Main"}},
		{Name: "a SuperAdmin names the company", As: "super", Method: "GET", Path: "/api/dashboards/default?companyId={acme}", Status: 200, Want: map[string]any{"name": "Main"}},
		{Name: "delete another company's", As: "betaAdmin", Method: "DELETE", Path: "/api/dashboards/{main}", Status: 404},
		{Name: "delete", As: "acmeAdmin", Method: "DELETE", Path: "/api/dashboards/{main}", Status: 204},
		{Name: "its modules, pictures and default went with it", As: "acmeUser", Method: "GET", Path: "/api/dashboards/default", Status: 204,
			Then: func(t *testing.T, e *env, got any) {
				if status, _ := e.Do(t, "acmeAdmin", "GET", "/api/dashboards/modules/{plan}", "", ""); status != 404 {
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
