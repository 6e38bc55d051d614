package dashboards_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

func TestModuleData(t *testing.T) {
	t.Parallel()
	mk := func(body, placeholder string) func(t *testing.T, e *env) {
		return func(t *testing.T, e *env) {
			if e.IDs["{board}"] == "" {
				var d struct {
					ID float64 `json:"dashboardId"`
				}
				e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards", `{"name":"Data"}`, http.StatusCreated, &d)
				e.IDs["{board}"] = itoa(d.ID)
			}
			var m struct {
				ID float64 `json:"dashboardModuleId"`
			}
			e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards/{board}/modules", body, http.StatusCreated, &m)
			e.IDs[placeholder] = itoa(m.ID)
		}
	}
	run(t, nil, []step{
		{Name: "a chart of two keys", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{chart}/tagdata", Status: 200,
			Before: func(t *testing.T, e *env) {
				mk(`{"type":0,"tag":"70B3D57ED005A1B2","attributes":{"tagkey":"temperature,humidity"}}`, "{chart}")(t, e)
				e.write(t, "{acme}", acmeNode, "temperature", 20, 21, 22, 23, 24)
				e.write(t, "{acme}", acmeNode, "humidity", 50, 51)
				e.write(t, "{beta}", acmeNode, "temperature", -99) // another company's series of the same DevEUI
			},
			Want: map[string]any{"series.0.deveui": acmeNode, "series.0.name": "Greenhouse", "series.0.key": "temperature", "series.0.label": "Air temperature",
				"series.0.points.4.v": float64(24), "series.1.key": "humidity", "series.1.points.1.v": float64(51)},
			Then: func(t *testing.T, e *env, got any) {
				if n := len(kerneltest.At(got, "series.0.points").([]any)); n != 5 {
					t.Errorf("%d points, want 5", n)
				}
				from, _ := time.Parse(time.RFC3339, kerneltest.At(got, "from").(string))
				to, _ := time.Parse(time.RFC3339, kerneltest.At(got, "to").(string))
				if d := to.Sub(from); d != 24*time.Hour {
					t.Errorf("default window %v, want 24h", d)
				}
			}},
		{Name: "points downsample and keep the peak", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{chart}/tagdata?points=3", Status: 200,
			Want: map[string]any{"series.0.points.0.v": float64(20), "series.0.points.2.v": float64(24)},
			Then: func(t *testing.T, e *env, got any) {
				if n := len(kerneltest.At(got, "series.0.points").([]any)); n != 3 {
					t.Errorf("%d points, want 3", n)
				}
			}},
		// The window is taken when the step runs, not when the table is
		// made: the points are a minute apart up to when they were written.
		{Name: "a window", As: "acmeUser", Method: "GET", Status: 200,
			Path: "/api/dashboards/modules/{chart}/tagdata?from={from}&to={to}",
			Before: func(t *testing.T, e *env) {
				now := time.Now().UTC()
				e.IDs["{from}"], e.IDs["{to}"] = now.Add(-150*time.Second).Format(time.RFC3339), now.Add(time.Hour).Format(time.RFC3339)
			},
			Then: func(t *testing.T, e *env, got any) {
				if n := len(kerneltest.At(got, "series.0.points").([]any)); n < 2 || n > 3 {
					t.Errorf("%d points in the last 2.5 minutes", n)
				}
			}},
		{Name: "the stored time offset is the default window", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{chart}/tagdata", Status: 200,
			Before: func(t *testing.T, e *env) {
				e.MustDo(t, "acmeAdmin", "PUT", "/api/dashboards/modules/{chart}",
					`{"type":0,"tag":"70B3D57ED005A1B2","attributes":{"tagkey":"temperature,humidity"},"settings":{"timeOffset":150}}`, http.StatusOK, nil)
			},
			Then: func(t *testing.T, e *env, got any) {
				if n := len(kerneltest.At(got, "series.0.points").([]any)); n < 2 || n > 3 {
					t.Errorf("%d points in the module's 150 s", n)
				}
			}},
		{Name: "bad queries", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{chart}/tagdata?points=0&resolution=minute&tz=Mars/Base&to=yesterday", Status: 400,
			Fields: map[string]string{"points": "dashboards.tagdata.points", "resolution": "dashboards.tagdata.resolution", "tz": "dashboards.tagdata.timeZone", "to": "dashboards.tagdata.range"}},
		{Name: "from after to", As: "acmeUser", Method: "GET", Status: 400, Fields: map[string]string{"from": "dashboards.tagdata.range"},
			Path: "/api/dashboards/modules/{chart}/tagdata?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z"},
		{Name: "trend buckets by hour", As: "acmeUser", Method: "GET", Status: 200,
			Before: func(t *testing.T, e *env) {
				mk(`{"type":14,"tag":"70B3D57ED005A1B3","attributes":{"tagkey":"level","resolution":"hour"}}`, "{trend}")(t, e)
				s := tsdb.Series{Company: e.ID(t, "{acme}"), DevEUI: strings.ToLower(acmeNode2), Key: "level"}
				base := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
				var pts []tsdb.Point
				for i := 0; i < 120; i++ { // two hours of one value a minute: 0..59, then 100..159
					v := float64(i % 60)
					if i >= 60 {
						v += 100
					}
					pts = append(pts, tsdb.Number(s, base.Add(time.Duration(i)*time.Minute), v))
				}
				if err := e.p.App.Series().Write(context.Background(), pts); err != nil {
					t.Fatal(err)
				}
			},
			Path: "/api/dashboards/modules/{trend}/tagdata?resolution=hour&from=2026-03-02T10:30:00Z&to=2026-03-02T12:00:00Z",
			Want: map[string]any{"resolution": "hour", "from": "2026-03-02T10:30:00Z", "series.0.buckets.0.t": "2026-03-02T10:30:00Z",
				"series.0.buckets.0.end": "2026-03-02T11:00:00Z", "series.0.buckets.0.min": float64(30), "series.0.buckets.0.max": float64(59),
				"series.0.buckets.0.mean": 44.5, "series.0.buckets.0.count": float64(30),
				"series.0.buckets.1.min": float64(100), "series.0.buckets.1.last": float64(159), "series.0.buckets.1.end": "2026-03-02T12:00:00Z"}},
		{Name: "day buckets over a day are hours, the last ending at the window's end", As: "acmeUser", Method: "GET", Status: 200,
			Path: "/api/dashboards/modules/{trend}/tagdata?resolution=day&tz=Europe/Stockholm&from=2026-03-02T00:00:00Z&to=2026-03-03T00:00:00Z",
			Want: map[string]any{"resolution": "hour", "from": "2026-03-02T00:00:00Z", "series.0.buckets.0.t": "2026-03-02T10:00:00Z",
				"series.0.buckets.1.end": "2026-03-02T12:00:00Z", "series.0.buckets.1.count": float64(60)}},
		{Name: "day buckets start at midnight in the zone", As: "acmeUser", Method: "GET", Status: 200,
			Path: "/api/dashboards/modules/{trend}/tagdata?resolution=day&tz=Europe/Stockholm&from=2026-02-24T10:30:00Z&to=2026-03-03T00:00:00Z",
			Want: map[string]any{"resolution": "day", "series.0.buckets.0.t": "2026-03-01T23:00:00Z", "series.0.buckets.0.end": "2026-03-02T23:00:00Z",
				"series.0.buckets.0.count": float64(120), "series.0.buckets.0.max": float64(159)}},
		{Name: "day buckets of the company's zone are 25 hours on the fall-back day", As: "acmeUser", Method: "GET", Status: 200,
			Before: func(t *testing.T, e *env) {
				// One point an hour from Saturday 24 to Monday 26 October,
				// midnight to midnight in Stockholm: 24, 25 and 24 hours.
				mk(`{"type":14,"tag":"70B3D57ED005A1B3","attributes":{"tagkey":"autumn","resolution":"day"}}`, "{autumn}")(t, e)
				s := tsdb.Series{Company: e.ID(t, "{acme}"), DevEUI: strings.ToLower(acmeNode2), Key: "autumn"}
				var pts []tsdb.Point
				for at := time.Date(2026, 10, 23, 22, 0, 0, 0, time.UTC); at.Before(time.Date(2026, 10, 26, 23, 0, 0, 0, time.UTC)); at = at.Add(time.Hour) {
					pts = append(pts, tsdb.Number(s, at, 1))
				}
				if err := e.p.App.Series().Write(context.Background(), pts); err != nil {
					t.Fatal(err)
				}
			},
			// No ?tz=: the company is in Sweden.
			Path: "/api/dashboards/modules/{autumn}/tagdata?resolution=day&from=2026-10-24T08:00:00Z&to=2026-10-26T23:00:00Z",
			Want: map[string]any{"from": "2026-10-24T08:00:00Z",
				"series.0.buckets.0.t": "2026-10-24T08:00:00Z", "series.0.buckets.0.count": float64(14),
				"series.0.buckets.1.t": "2026-10-24T22:00:00Z", "series.0.buckets.1.count": float64(25),
				"series.0.buckets.2.t": "2026-10-25T23:00:00Z", "series.0.buckets.2.count": float64(24)}},
		{Name: "latest with the value before it", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{chart}/tagdata/latest", Status: 200,
			Want: map[string]any{"series.0.key": "temperature", "series.0.value": float64(24), "series.0.previous": float64(23), "series.0.text": nil,
				"series.1.value": float64(51), "series.1.previous": float64(50)}},
		{Name: "a text value, and a key without data", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{status}/tagdata/latest", Status: 200,
			Before: func(t *testing.T, e *env) {
				mk(`{"type":8,"tag":"70B3D57ED005A1B3","attributes":{"tagkey":"state,nothing"}}`, "{status}")(t, e)
				s := tsdb.Series{Company: e.ID(t, "{acme}"), DevEUI: strings.ToLower(acmeNode2), Key: "state"}
				if err := e.p.App.Series().Write(context.Background(), []tsdb.Point{tsdb.Text(s, time.Now().UTC().Add(-time.Minute), "open")}); err != nil {
					t.Fatal(err)
				}
			},
			Want: map[string]any{"series.0.text": "open", "series.0.value": nil, "series.0.previous": nil,
				"series.1.key": "nothing", "series.1.value": nil, "series.1.time": nil}},
		{Name: "text points carry s", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{status}/tagdata", Status: 200,
			Want: map[string]any{"series.0.points.0.s": "open", "series.0.points.0.v": nil}},
		{Name: "a module without a node has no series", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{text}/tagdata", Status: 200,
			Before: mk(`{"type":2,"content":"Hi"}`, "{text}"), Want: map[string]any{"series": []any{}}},
		{Name: "a multi-chart's series", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{multi}/tagdata/latest", Status: 200,
			Before: mk(`{"type":10,"attributes":{"series":"[{\"deveui\":\"70B3D57ED005A1B2\",\"key\":\"temperature\"},{\"deveui\":\"70B3D57ED005A1B3\",\"key\":\"level\"}]"}}`, "{multi}"),
			Want:   map[string]any{"series.0.name": "Greenhouse", "series.0.value": float64(24), "series.1.name": "Cellar", "series.1.value": float64(159)}},
		{Name: "the tilt visualizer's x and y", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{tilt}/tagdata/latest", Status: 200,
			Before: func(t *testing.T, e *env) {
				mk(`{"type":16,"tag":"70B3D57ED005A1B2","attributes":{"tagkey_x":"tiltX","tagkey_y":"tiltY"}}`, "{tilt}")(t, e)
				e.write(t, "{acme}", acmeNode, "tiltX", 3)
				e.write(t, "{acme}", acmeNode, "tiltY", -4)
			},
			Want: map[string]any{"series.0.key": "tiltX", "series.0.value": float64(3), "series.1.key": "tiltY", "series.1.value": float64(-4)}},
		{Name: "company info", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{company}/info", Status: 200,
			Before: mk(`{"type":5}`, "{company}"),
			Want:   map[string]any{"company.name": "Acme", "company.orgNumber": "5566778899", "company.invoiceAdress": "a@acme.se", "nodes": []any{}}},
		{Name: "node overview: every node of the company", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{overview}/info", Status: 200,
			Before: mk(`{"type":15}`, "{overview}"),
			Want: map[string]any{"company": nil, "nodes.0.name": "Cellar", "nodes.1.name": "Greenhouse", "nodes.1.lat": 59.33,
				"nodes.1.dataPoints24h": float64(9)},
			Then: func(t *testing.T, e *env, got any) {
				if n := len(kerneltest.At(got, "nodes").([]any)); n != 2 {
					t.Errorf("%d nodes, want the company's 2", n)
				}
				if strings.Contains(jsonText(got), "Beta") || strings.Contains(jsonText(got), "appKey") {
					t.Errorf("answer leaks: %v", got)
				}
			}},
		{Name: "node info: its node", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{chart}/info", Status: 200,
			Want: map[string]any{"nodes.0.deveui": acmeNode, "nodes.0.activeData": false},
			Then: func(t *testing.T, e *env, got any) {
				if n := len(kerneltest.At(got, "nodes").([]any)); n != 1 {
					t.Errorf("%d nodes, want 1", n)
				}
			}},
		{Name: "data of another company's module", As: "betaAdmin", Method: "GET", Path: "/api/dashboards/modules/{chart}/tagdata", Status: 404},
		{Name: "a deleted node drops out", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{multi}/tagdata", Status: 200,
			Before: func(t *testing.T, e *env) {
				e.MustDo(t, "acmeAdmin", "DELETE", "/api/tag/"+itoa(float64(e.tagID(t, "acmeAdmin", acmeNode2))), "", http.StatusNoContent, nil)
			},
			Then: func(t *testing.T, e *env, got any) {
				if n := len(kerneltest.At(got, "series").([]any)); n != 1 || kerneltest.At(got, "series.0.deveui") != acmeNode {
					t.Errorf("series %v", kerneltest.At(got, "series"))
				}
			}},
	})
}

// TestKeyLabels: series carry
// their labels and units, and a module without tagkey shows the node's
// default key.
func TestKeyLabels(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d, nil)
		kerneltest.RunSteps(t, e.Session, e, []step{
			{Name: "the default key, labelled", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{mod}/tagdata/latest", Status: 200,
				Before: func(t *testing.T, e *env) {
					var d, m struct {
						D float64 `json:"dashboardId"`
						M float64 `json:"dashboardModuleId"`
					}
					e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards", `{"name":"Labels"}`, http.StatusCreated, &d)
					e.IDs["{board}"] = itoa(d.D)
					e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards/{board}/modules", `{"type":8,"tag":"70B3D57ED005A1B2"}`, http.StatusCreated, &m)
					e.IDs["{mod}"] = itoa(m.M)
					e.write(t, "{acme}", acmeNode, "temperature", 18, 18.5)
					e.write(t, "{acme}", acmeNode, "humidity", 40)
				},
				Want: map[string]any{"series.0.key": "temperature", "series.0.label": "Air temperature", "series.0.unit": "°C", "series.0.value": 18.5},
				Then: func(t *testing.T, e *env, got any) {
					if n := len(kerneltest.At(got, "series").([]any)); n != 1 {
						t.Errorf("%d series, want the default key's alone", n)
					}
				}},
			{Name: "a key without a registration keeps its name", As: "acmeUser", Method: "GET", Path: "/api/dashboards/modules/{mod2}/tagdata", Status: 200,
				Before: func(t *testing.T, e *env) {
					var m struct {
						M float64 `json:"dashboardModuleId"`
					}
					e.MustDo(t, "acmeAdmin", "POST", "/api/dashboards/{board}/modules", `{"type":0,"tag":"70B3D57ED005A1B2","attributes":{"tagkey":"humidity,temperature"}}`, http.StatusCreated, &m)
					e.IDs["{mod2}"] = itoa(m.M)
				},
				Want: map[string]any{"series.0.label": "humidity", "series.0.unit": "", "series.1.label": "Air temperature"}},
		})
	})
}
