package dashboards_test

import "testing"

// TestDashboardFlow walks the main path: a category, a dashboard in it, a
// chart module over a node's key, the tree, the module's data and latest
// value, and another company's refusal.
func TestDashboardFlow(t *testing.T) {
	t.Parallel()
	run(t, nil, []step{
		{Name: "create category", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/categories/{acme}", Body: `{"title":"Greenhouse"}`, Status: 201,
			Want: map[string]any{"icon": "mdi-shape-outline", "color": "#2196F3", "index": float64(0)}, Save: map[string]string{"{cat}": "dashboardCategoryId"}},
		{Name: "create dashboard", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards", Body: `{"name":"Main","categoryId":{cat}}`, Status: 201,
			Save: map[string]string{"{dash}": "dashboardId"}},
		{Name: "create module", As: "acmeAdmin", Method: "POST", Path: "/api/dashboards/{dash}/modules", Body: `{"type":0,"tag":"70b3d57ed005a1b2","attributes":{"tagkey":"temperature"}}`, Status: 201,
			Want: map[string]any{"tag": "70B3D57ED005A1B2", "settings.mapZoom": float64(7)}, Save: map[string]string{"{mod}": "dashboardModuleId"}},
		{Name: "tree", As: "acmeUser", Method: "GET", Path: "/api/dashboards/categories/{acme}", Status: 200, Want: map[string]any{"0.children.0.title": "Main"}},
		{Name: "tagdata", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{mod}/tagdata", Status: 200,
			Before: func(t *testing.T, e *env) { e.write(t, "{acme}", acmeNode, "temperature", 20, 21, 22) },
			Want:   map[string]any{"series.0.key": "temperature", "series.0.points.2.v": float64(22)}},
		{Name: "latest", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{mod}/tagdata/latest", Status: 200,
			Want: map[string]any{"series.0.value": float64(22), "series.0.previous": float64(21)}},
		{Name: "foreign", As: "betaAdmin", Method: "GET", Path: "/api/dashboards/modules/{mod}", Status: 404},
	})
}
