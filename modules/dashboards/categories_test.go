package dashboards_test

import (
	"net/http"
	"testing"
	"time"
)

func TestCategories(t *testing.T) {
	t.Parallel()
	run(t, nil, []step{
		{name: "title is required", as: "acmeAdmin", method: "POST", path: "/api/dashboards/categories/{acme}", body: `{"title":"  "}`, status: 400,
			fields: map[string]string{"title": "validation.required"}, texts: map[string]string{"title": "This field must be filled in"}},
		{name: "title at most 255", as: "acmeAdmin", method: "POST", path: "/api/dashboards/categories/{acme}", body: `{"title":"` + long(256) + `"}`, status: 400,
			texts: map[string]string{"title": "Max characters is 255"}},
		{name: "colour must be #rrggbb", as: "acmeAdmin", method: "POST", path: "/api/dashboards/categories/{acme}", body: `{"title":"X","color":"red"}`, status: 400,
			fields: map[string]string{"color": "dashboards.color.invalid"}},
		{name: "icon must be an mdi name", as: "acmeAdmin", method: "POST", path: "/api/dashboards/categories/{acme}", body: `{"title":"X","icon":"<b>"}`, status: 400,
			fields: map[string]string{"icon": "dashboards.icon.invalid"}},
		{name: "a User may not create", as: "acmeUser", method: "POST", path: "/api/dashboards/categories/{acme}", body: `{"title":"X"}`, status: 403},
		{name: "another company's admin gets not found", as: "betaAdmin", method: "POST", path: "/api/dashboards/categories/{acme}", body: `{"title":"X"}`, status: 404},
		{name: "create with defaults", as: "acmeAdmin", method: "POST", path: "/api/dashboards/categories/{acme}", body: `{"title":"Buildings"}`, status: 201,
			want: map[string]any{"title": "Buildings", "icon": "mdi-shape-outline", "color": "#2196F3", "index": float64(0), "parentGuid": nil},
			save: map[string]string{"{buildings}": "dashboardCategoryId", "{buildingsGuid}": "guid"}},
		{name: "second root category goes last", as: "acmeAdmin", method: "POST", path: "/api/dashboards/categories/{acme}", body: `{"title":"Fields","icon":"mdi-sprout","color":"#4caf50"}`, status: 201,
			want: map[string]any{"index": float64(1), "icon": "mdi-sprout", "color": "#4CAF50"}, save: map[string]string{"{fields}": "dashboardCategoryId", "{fieldsGuid}": "guid"}},
		{name: "sub-category by parent guid", as: "acmeAdmin", method: "POST", path: "/api/dashboards/categories/{acme}", body: `{"title":"House A","parentGuid":"{buildingsGuid}"}`, status: 201,
			want: map[string]any{"parentGuid": "{buildingsGuid}", "index": float64(0)}, save: map[string]string{"{houseA}": "dashboardCategoryId", "{houseAGuid}": "guid"},
			then: func(t *testing.T, e *env, got any) {
				if at(got, "parentGuid") != e.ids["{buildingsGuid}"] {
					t.Errorf("parentGuid %v", at(got, "parentGuid"))
				}
			}},
		{name: "a parent of another company is refused", as: "betaAdmin", method: "POST", path: "/api/dashboards/categories/{beta}", body: `{"title":"Planted","parentGuid":"{buildingsGuid}"}`, status: 400,
			fields: map[string]string{"parentGuid": "dashboards.parent.unknown"}},
		{name: "dashboard in the sub-category", as: "acmeAdmin", method: "POST", path: "/api/dashboards", body: `{"name":"Climate","categoryId":{houseA}}`, status: 201,
			save: map[string]string{"{climate}": "dashboardId"}},
		{name: "dashboard at the root", as: "acmeAdmin", method: "POST", path: "/api/dashboards", body: `{"name":"Overview"}`, status: 201,
			want: map[string]any{"categoryId": nil, "categories": []any{}}, save: map[string]string{"{overview}": "dashboardId"}},
		{name: "tree: categories by index, sub-categories inside, loose dashboards last", as: "acmeUser", method: "GET", path: "/api/dashboards/categories/{acme}", status: 200,
			want: map[string]any{
				"0.title": "Buildings", "0.isLeaf": false, "0.data.icon": "mdi-shape-outline", "0.data.color": "#2196F3",
				"0.children.0.title": "House A", "0.children.0.children.0.title": "Climate", "0.children.0.children.0.isLeaf": true,
				"0.children.0.children.0.data.icon": "mdi-view-dashboard",
				"1.title":                           "Fields", "2.title": "Overview", "2.isLeaf": true, "2.data.dashboardCategoryId": nil,
			}},
		{name: "another company sees not found", as: "betaAdmin", method: "GET", path: "/api/dashboards/categories/{acme}", status: 404},
		{name: "update keeps the parent", as: "acmeAdmin", method: "PUT", path: "/api/dashboards/categories/{houseA}", body: `{"title":"House A (east)","icon":"mdi-home","color":"#FF0000"}`, status: 200,
			want: map[string]any{"title": "House A (east)", "icon": "mdi-home", "color": "#FF0000"},
			then: func(t *testing.T, e *env, got any) {
				if at(got, "parentGuid") != e.ids["{buildingsGuid}"] {
					t.Errorf("parentGuid %v", at(got, "parentGuid"))
				}
			}},
		{name: "update of another company's category", as: "betaAdmin", method: "PUT", path: "/api/dashboards/categories/{houseA}", body: `{"title":"Hijacked"}`, status: 404},
		{name: "a category with a sub-category is not removed", as: "acmeAdmin", method: "DELETE", path: "/api/dashboards/categories/{buildings}", status: 400,
			id: "dashboards.categoryNotEmpty", texts: map[string]string{"": "Remove or move the dashboards and sub-categories of this category first"}},
		{name: "the message is translated", as: "acmeAdmin", method: "DELETE", path: "/api/dashboards/categories/{houseA}", lang: "sv", status: 400,
			texts: map[string]string{"": "Ta bort eller flytta kategorins dashboards och underkategorier först"}},
		{name: "reorder: Fields first, House A to the root, Climate into Fields", as: "acmeAdmin", method: "PUT", path: "/api/dashboards/categories/indexes", status: 204,
			body: `{"categories":[{"dashboardCategoryId":{fields},"index":0,"parentGuid":null},{"dashboardCategoryId":{buildings},"index":1},
				{"dashboardCategoryId":{houseA},"index":2,"parentGuid":null}],"dashboards":[{"dashboardId":{climate},"dashboardCategoryId":{fields},"index":0}]}`},
		{name: "the tree follows", as: "acmeAdmin", method: "GET", path: "/api/dashboards/categories/{acme}", status: 200,
			want: map[string]any{"0.title": "Fields", "0.children.0.title": "Climate", "1.title": "Buildings", "1.children": []any{}, "2.title": "House A (east)"}},
		{name: "a category may not become its own descendant", as: "acmeAdmin", method: "PUT", path: "/api/dashboards/categories/indexes", status: 400,
			body:   `{"categories":[{"dashboardCategoryId":{buildings},"index":0,"parentGuid":"{houseAGuid}"},{"dashboardCategoryId":{houseA},"index":0,"parentGuid":"{buildingsGuid}"}]}`,
			fields: map[string]string{"parentGuid": "dashboards.parent.cycle"}},
		{name: "nor its own parent", as: "acmeAdmin", method: "PUT", path: "/api/dashboards/categories/indexes", status: 400,
			body: `{"categories":[{"dashboardCategoryId":{buildings},"index":0,"parentGuid":"{buildingsGuid}"}]}`},
		{name: "a foreign id refuses the whole change", as: "betaAdmin", method: "PUT", path: "/api/dashboards/categories/indexes", status: 404,
			body: `{"categories":[{"dashboardCategoryId":{fields},"index":5}]}`},
		{name: "nothing changed", as: "acmeAdmin", method: "GET", path: "/api/dashboards/categories/{acme}", status: 200,
			want: map[string]any{"0.title": "Fields", "0.data.index": float64(0)}},
		{name: "a User may not reorder", as: "acmeUser", method: "PUT", path: "/api/dashboards/categories/indexes", status: 403, body: `{}`},
		{name: "an empty category is removed", as: "acmeAdmin", method: "DELETE", path: "/api/dashboards/categories/{buildings}", status: 204},
		{name: "gone", as: "acmeAdmin", method: "PUT", path: "/api/dashboards/categories/{buildings}", body: `{"title":"X"}`, status: 404},
		{name: "removing the company takes its whole tree along", as: "super", method: "DELETE", path: "/api/companies/{acme}", status: 204,
			before: func(t *testing.T, e *env) {
				e.mustDo(t, "acmeAdmin", "POST", "/api/dashboards/categories/{acme}", `{"title":"Beds","parentGuid":"{fieldsGuid}"}`, http.StatusCreated, nil)
				e.mustDo(t, "acmeAdmin", "PUT", "/api/dashboards/{climate}/default", `{"scope":"company"}`, http.StatusNoContent, nil)
				e.mustDo(t, "acmeAdmin", "POST", "/api/dashboards/{climate}/modules", `{"type":2}`, http.StatusCreated, nil)
				e.mustDo(t, "acmeAdmin", "POST", "/api/dashboards/public/{acme}/{climate}/"+time.Now().Add(time.Hour).UTC().Format(time.RFC3339), "", http.StatusCreated, nil)
			},
			then: func(t *testing.T, e *env, got any) {
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
