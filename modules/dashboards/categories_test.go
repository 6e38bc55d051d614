package dashboards_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

func TestCategories(t *testing.T) {
	t.Parallel()
	run(t, nil, []step{
		{Name: "title is required", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/categories/{acme}", Body: `{"title":"  "}`, Status: 400,
			Fields: map[string]string{"title": "validation.required"}, Texts: map[string]string{"title": "This field must be filled in"}},
		{Name: "title at most 255", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/categories/{acme}", Body: `{"title":"` + long(256) + `"}`, Status: 400,
			Texts: map[string]string{"title": "Max characters is 255"}},
		{Name: "colour must be #rrggbb", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/categories/{acme}", Body: `{"title":"X","color":"red"}`, Status: 400,
			Fields: map[string]string{"color": "dashboards.color.invalid"}},
		{Name: "icon must be an mdi name", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/categories/{acme}", Body: `{"title":"X","icon":"<b>"}`, Status: 400,
			Fields: map[string]string{"icon": "dashboards.icon.invalid"}},
		{Name: "a User may not create", As: "acmeUser", Method: "POST", Path: "/api/dashboards/categories/{acme}", Body: `{"title":"X"}`, Status: 403},
		{Name: "another company's admin gets not found", As: "betaAdmin", Method: "POST", Path: "/api/dashboards/categories/{acme}", Body: `{"title":"X"}`, Status: 404},
		{Name: "create with defaults", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/categories/{acme}", Body: `{"title":"Buildings"}`, Status: 201,
			Want: map[string]any{"title": "Buildings", "icon": "mdi-shape-outline", "color": "#2196F3", "index": float64(0), "parentGuid": nil},
			Save: map[string]string{"{buildings}": "dashboardCategoryId", "{buildingsGuid}": "guid"}},
		{Name: "second root category goes last", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/categories/{acme}", Body: `{"title":"Fields","icon":"mdi-sprout","color":"#4caf50"}`, Status: 201,
			Want: map[string]any{"index": float64(1), "icon": "mdi-sprout", "color": "#4CAF50"}, Save: map[string]string{"{fields}": "dashboardCategoryId", "{fieldsGuid}": "guid"}},
		{Name: "sub-category by parent guid", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/categories/{acme}", Body: `{"title":"House A","parentGuid":"{buildingsGuid}"}`, Status: 201,
			Want: map[string]any{"parentGuid": "{buildingsGuid}", "index": float64(0)}, Save: map[string]string{"{houseA}": "dashboardCategoryId", "{houseAGuid}": "guid"},
			Then: func(t *testing.T, e *env, got any) {
				if kerneltest.At(got, "parentGuid") != e.IDs["{buildingsGuid}"] {
					t.Errorf("parentGuid %v", kerneltest.At(got, "parentGuid"))
				}
			}},
		{Name: "a parent of another company is refused", As: "betaAdmin", Method: "POST", Path: "/api/dashboards/categories/{beta}", Body: `{"title":"Planted","parentGuid":"{buildingsGuid}"}`, Status: 400,
			Fields: map[string]string{"parentGuid": "dashboards.parent.unknown"}},
		{Name: "dashboard in the sub-category", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards", Body: `{"name":"Climate","categoryId":{houseA}}`, Status: 201,
			Save: map[string]string{"{climate}": "dashboardId"}},
		{Name: "dashboard at the root", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards", Body: `{"name":"Overview"}`, Status: 201,
			Want: map[string]any{"categoryId": nil, "categories": []any{}}, Save: map[string]string{"{overview}": "dashboardId"}},
		{Name: "tree: categories by index, sub-categories inside, loose dashboards last", As: "acmeUser", Method: "GET", Path: "/api/dashboards/categories/{acme}", Status: 200,
			Want: map[string]any{
				"0.title": "Buildings", "0.isLeaf": false, "0.data.icon": "mdi-shape-outline", "0.data.color": "#2196F3",
				"0.children.0.title": "House A", "0.children.0.children.0.title": "Climate", "0.children.0.children.0.isLeaf": true,
				"0.children.0.children.0.data.icon": "mdi-view-dashboard",
				"1.title":                           "Fields", "2.title": "Overview", "2.isLeaf": true, "2.data.dashboardCategoryId": nil,
			}},
		{Name: "another company sees not found", As: "betaAdmin", Method: "GET", Path: "/api/dashboards/categories/{acme}", Status: 404},
		{Name: "update keeps the parent", As: "acmeAdmin", Method: "PUT", Path: "/api/dashboards/categories/{houseA}", Body: `{"title":"House A (east)","icon":"mdi-home","color":"#FF0000"}`, Status: 200,
			Want: map[string]any{"title": "House A (east)", "icon": "mdi-home", "color": "#FF0000"},
			Then: func(t *testing.T, e *env, got any) {
				if kerneltest.At(got, "parentGuid") != e.IDs["{buildingsGuid}"] {
					t.Errorf("parentGuid %v", kerneltest.At(got, "parentGuid"))
				}
			}},
		{Name: "update of another company's category", As: "betaAdmin", Method: "PUT", Path: "/api/dashboards/categories/{houseA}", Body: `{"title":"Hijacked"}`, Status: 404},
		{Name: "a category with a sub-category is not removed", As: "acmeAdmin", Method: "DELETE", Path: "/api/dashboards/categories/{buildings}", Status: 400,
			ID: "dashboards.categoryNotEmpty", Texts: map[string]string{"": "Remove or move the dashboards and sub-categories of this category first"}},
		{Name: "the message is translated", As: "acmeAdmin", Method: "DELETE", Path: "/api/dashboards/categories/{houseA}", Lang: "sv", Status: 400,
			Texts: map[string]string{"": "Ta bort eller flytta kategorins instrumentpaneler och underkategorier först"}},
		{Name: "reorder: Fields first, House A to the root, Climate into Fields", As: "acmeAdmin", Method: "PUT", Path: "/api/dashboards/categories/indexes", Status: 204,
			Body: `{"categories":[{"dashboardCategoryId":{fields},"index":0,"parentGuid":null},{"dashboardCategoryId":{buildings},"index":1},
				{"dashboardCategoryId":{houseA},"index":2,"parentGuid":null}],"dashboards":[{"dashboardId":{climate},"dashboardCategoryId":{fields},"index":0}]}`},
		{Name: "the tree follows", As: "acmeAdmin", Method: "GET", Path: "/api/dashboards/categories/{acme}", Status: 200,
			Want: map[string]any{"0.title": "Fields", "0.children.0.title": "Climate", "1.title": "Buildings", "1.children": []any{}, "2.title": "House A (east)"}},
		{Name: "a category may not become its own descendant", As: "acmeAdmin", Method: "PUT", Path: "/api/dashboards/categories/indexes", Status: 400,
			Body:   `{"categories":[{"dashboardCategoryId":{buildings},"index":0,"parentGuid":"{houseAGuid}"},{"dashboardCategoryId":{houseA},"index":0,"parentGuid":"{buildingsGuid}"}]}`,
			Fields: map[string]string{"parentGuid": "dashboards.parent.cycle"}},
		{Name: "nor its own parent", As: "acmeAdmin", Method: "PUT", Path: "/api/dashboards/categories/indexes", Status: 400,
			Body: `{"categories":[{"dashboardCategoryId":{buildings},"index":0,"parentGuid":"{buildingsGuid}"}]}`},
		{Name: "a foreign id refuses the whole change", As: "betaAdmin", Method: "PUT", Path: "/api/dashboards/categories/indexes", Status: 404,
			Body: `{"categories":[{"dashboardCategoryId":{fields},"index":5}]}`},
		{Name: "nothing changed", As: "acmeAdmin", Method: "GET", Path: "/api/dashboards/categories/{acme}", Status: 200,
			Want: map[string]any{"0.title": "Fields", "0.data.index": float64(0)}},
		{Name: "a User may not reorder", As: "acmeUser", Method: "PUT", Path: "/api/dashboards/categories/indexes", Status: 403, Body: `{}`},
		{Name: "an empty category is removed", As: "acmeAdmin", Method: "DELETE", Path: "/api/dashboards/categories/{buildings}", Status: 204},
		{Name: "gone", As: "acmeAdmin", Method: "PUT", Path: "/api/dashboards/categories/{buildings}", Body: `{"title":"X"}`, Status: 404},
		{Name: "removing the company takes its whole tree along", As: "super", Method: "DELETE", Path: "/api/companies/{acme}", Status: 204,
			Before: func(t *testing.T, e *env) {
				e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards/categories/{acme}", `{"title":"Beds","parentGuid":"{fieldsGuid}"}`, http.StatusCreated, nil)
				e.MustDo(t, "acmeAdmin", "PUT", "/api/dashboards/{climate}/default", `{"scope":"company"}`, http.StatusNoContent, nil)
				e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards/{climate}/modules", `{"type":2}`, http.StatusCreated, nil)
				e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards/public/{acme}/{climate}/"+time.Now().Add(time.Hour).UTC().Format(time.RFC3339), "", http.StatusCreated, nil)
			},
			Then: func(t *testing.T, e *env, got any) {
				for _, table := range []string{"dashboard_categories", "dashboards", "dashboard_modules", "dashboard_public_links", "dashboard_company_defaults"} {
					var n int
					if err := e.p.Host().DB.NewRaw("SELECT COUNT(*) FROM "+table).Scan(t.Context(), &n); err != nil || n != 0 {
						t.Errorf("%s: %d rows left (%v)", table, n, err)
					}
				}
			}},
	})
}

func long(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'x'
	}
	return string(b)
}
