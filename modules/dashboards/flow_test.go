package dashboards_test

import "testing"

// TestDashboardFlow walks the main path: a category, a dashboard in it, a
// chart module over a node's key, the tree, the module's data and latest
// value, and another company's refusal.
func TestDashboardFlow(t *testing.T) {
	t.Parallel()
	run(t, nil, []step{
		{name: "create category", as: "acmeAdmin", method: "POST", path: "/api/dashboards/categories/{acme}", body: `{"title":"Greenhouse"}`, status: 201,
			want: map[string]any{"icon": "mdi-shape-outline", "color": "#2196F3", "index": float64(0)}, save: map[string]string{"{cat}": "dashboardCategoryId"}},
		{name: "create dashboard", as: "acmeAdmin", method: "POST", path: "/api/dashboards", body: `{"name":"Main","categoryId":{cat}}`, status: 201,
			save: map[string]string{"{dash}": "dashboardId"}},
		{name: "create module", as: "acmeAdmin", method: "POST", path: "/api/dashboards/{dash}/modules", body: `{"type":0,"tag":"70b3d57ed005a1b2","attributes":{"tagkey":"temperature"}}`, status: 201,
			want: map[string]any{"tag": "70B3D57ED005A1B2", "settings.mapZoom": float64(7)}, save: map[string]string{"{mod}": "dashboardModuleId"}},
		{name: "tree", as: "acmeUser", method: "GET", path: "/api/dashboards/categories/{acme}", status: 200, want: map[string]any{"0.children.0.title": "Main"}},
		{name: "tagdata", as: "acmeUser", method: "GET", path: "/api/dashboards/modules/{mod}/tagdata", status: 200,
			before: func(t *testing.T, e *env) { e.write(t, "{acme}", acmeNode, "temperature", 20, 21, 22) },
			want:   map[string]any{"series.0.key": "temperature", "series.0.points.2.v": float64(22)}},
		{name: "latest", as: "acmeUser", method: "GET", path: "/api/dashboards/modules/{mod}/tagdata/latest", status: 200,
			want: map[string]any{"series.0.value": float64(22), "series.0.previous": float64(21)}},
		{name: "foreign", as: "betaAdmin", method: "GET", path: "/api/dashboards/modules/{mod}", status: 404},
	})
}
