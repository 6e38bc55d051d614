package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestEmbeddedModulesServeANodesData builds the program on each database,
// signs in with its own login, makes an application, a node and an
// integration token through the embedded API, posts an uplink through the
// embedded ingest, and reads the node's value back through the nodes' tag
// data and a dashboard module. Fieldhub's own sign-in and the routes of
// modules the program does not run are not there.
func TestEmbeddedModulesServeANodesData(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		cfg := kerneltest.Config(t, d, nil)
		ctx := context.Background()
		p, err := Build(ctx, cfg, kerneltest.Logger(t), "Partner Fleet AB")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		if err := p.AddUser(ctx, "ops", "secret123"); err != nil {
			t.Fatal(err)
		}
		stop, err := p.Start(ctx)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(p.Handler())
		t.Cleanup(func() { srv.Close(); stop() })
		c := kerneltest.NewClient(srv.URL)
		ops := []string{"Authorization", "Basic b3BzOnNlY3JldDEyMw=="} // ops:secret123

		if r := c.Call(t, "GET", "/", "", nil); r.Status != http.StatusOK {
			t.Fatalf("the program's own page: %d %s", r.Status, r.Body)
		}
		if r := c.Call(t, "GET", "/fieldhub/api/tag", "", nil, "Authorization", "Basic b3BzOndyb25n"); r.Status != http.StatusUnauthorized {
			t.Errorf("a wrong password: %d %s, want 401", r.Status, r.Body)
		}
		for _, path := range []string{"/fieldhub/api/users/authenticate", "/fieldhub/login"} {
			if r := c.Call(t, "POST", path, "", map[string]string{"email": "x@y.z", "password": "secret123"}); r.Status != http.StatusNotFound {
				t.Errorf("POST %s: %d, want 404: Fieldhub's own sign-in is not part of the program", path, r.Status)
			}
		}

		company := p.CompanyID()
		application := c.Must(t, "POST", fmt.Sprintf("/fieldhub/api/applications/%d", company), "", map[string]any{"name": "Field"}, http.StatusCreated, ops...).Num("id")
		tag := c.Must(t, "POST", fmt.Sprintf("/fieldhub/api/applications/%d/tag", application), "",
			map[string]any{"name": "Greenhouse", "deveui": "70B3D57ED0000001"}, http.StatusCreated, ops...).Num("id")
		token := c.Must(t, "POST", fmt.Sprintf("/fieldhub/api/integration/tokens/%d", company), "",
			map[string]any{"label": "devices", "isCompany": true}, http.StatusCreated, ops...).Str("token")

		at := time.Now().UTC().Add(-time.Minute).Truncate(time.Second)
		c.Must(t, "POST", "/fieldhub/api/ingest/generic", token,
			map[string]any{"devEui": "70B3D57ED0000001", "time": at.Format(time.RFC3339), "values": map[string]any{"temperature": 21.5}}, http.StatusOK)

		latest := c.Must(t, "GET", fmt.Sprintf("/fieldhub/api/tag/latest/%d/temperature", tag), "", nil, http.StatusOK, ops...)
		if v, ok := latest.Obj()["value"].(float64); !ok || v != 21.5 {
			t.Errorf("the node's latest temperature: %s, want 21.5", latest.Body)
		}
		board := c.Must(t, "POST", "/fieldhub/api/dashboards", "", map[string]any{"name": "Greenhouse"}, http.StatusCreated, ops...).Num("dashboardId")
		module := c.Must(t, "POST", fmt.Sprintf("/fieldhub/api/dashboards/%d/modules", board), "",
			map[string]any{"type": 0, "tag": "70B3D57ED0000001", "attributes": map[string]any{"tagkey": "temperature"}}, http.StatusCreated, ops...).Num("dashboardModuleId")
		chart := c.Must(t, "GET", fmt.Sprintf("/fieldhub/api/dashboards/modules/%d/tagdata", module), "", nil, http.StatusOK, ops...)
		series, _ := chart.Obj()["series"].([]any)
		if len(series) != 1 {
			t.Fatalf("the dashboard chart: %s, want one series", chart.Body)
		}
		points, _ := series[0].(map[string]any)["points"].([]any)
		if len(points) != 1 || points[0].(map[string]any)["v"] != 21.5 {
			t.Errorf("the dashboard chart's points: %v, want the uplink's 21.5", points)
		}
	})
}
