package signaltests_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/signaltests"
)

const (
	walkerEUI = "70B3D57ED0000001"
	otherEUI  = "70B3D57ED0000002"
)

// env is a portal with the companies acme (a User, an integration token
// and two nodes: the walker and another) and beta.
type env struct {
	*kerneltest.Tenants
	p *kerneltest.Portal[*app.App]
}

func newEnv(t *testing.T, d db.Dialect) *env {
	t.Helper()
	p := kerneltest.Start(t, d, nil, app.Build)
	ten := kerneltest.Companies(t, p.Client, p.App,
		kerneltest.CompanySpec{Key: "acme", User: true, Ingest: true, App: "Field", Nodes: []kerneltest.NodeSpec{
			{Key: "walker", Name: "Walker", DevEUI: walkerEUI}, {Key: "other", Name: "Other", DevEUI: otherEUI}}},
		kerneltest.CompanySpec{Key: "beta", Ingest: true}).Tenants(t)
	return &env{Tenants: ten, p: p}
}

// gw is one gateway's hearing in an uplink body.
type gw struct {
	id        string
	rssi, snr float64
}

// uplink posts a ChirpStack v4 up event (the shape of
// /work/shared/fixtures/ingest/chirpstack_v4_up.json) of deveui with the
// decoded object and the gateways that heard it.
func (e *env) uplink(t *testing.T, deveui string, fCnt int, object map[string]any, gws ...gw) {
	t.Helper()
	e.uplinkAt(t, deveui, fCnt, time.Now().UTC().Add(time.Duration(fCnt)*time.Millisecond), object, gws...)
}

// uplinkAt posts an uplink that the network server received at at.
func (e *env) uplinkAt(t *testing.T, deveui string, fCnt int, at time.Time, object map[string]any, gws ...gw) {
	t.Helper()
	rx := []any{}
	for _, g := range gws {
		rx = append(rx, map[string]any{"gatewayId": g.id, "uplinkId": fCnt, "rssi": g.rssi, "snr": g.snr})
	}
	body := map[string]any{
		"deduplicationId": fmt.Sprintf("3ac7e3c4-4401-4b8d-9386-%012d", fCnt),
		"time":            at.UTC().Format(time.RFC3339Nano),
		"deviceInfo":      map[string]any{"devEui": deveui, "deviceName": "walker"},
		"fCnt":            fCnt, "fPort": 2, "dr": 5, "object": object, "rxInfo": rx,
		"txInfo": map[string]any{"frequency": 867100000, "modulation": map[string]any{"lora": map[string]any{"bandwidth": 125000, "spreadingFactor": 9, "codeRate": "CR_4_5"}}},
	}
	raw, _ := json.Marshal(body)
	if r := e.p.Client.Call(t, "POST", "/api/ingest/chirpstack?event=up", e.Token["acme"], raw, "Content-Type", "application/json"); r.Status != http.StatusOK {
		t.Fatalf("uplink: %d %s", r.Status, r.Body)
	}
}

func (e *env) detail(t *testing.T, token string, id int64) signaltests.Detail {
	t.Helper()
	r := e.p.Client.Must(t, "GET", fmt.Sprintf("/api/signaltest/single/%d", id), token, nil, http.StatusOK)
	var d signaltests.Detail
	if err := json.Unmarshal([]byte(r.Body), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// awaitPoints waits until the test has n points and returns it.
func (e *env) awaitPoints(t *testing.T, id int64, n int) signaltests.Detail {
	t.Helper()
	var d signaltests.Detail
	kerneltest.WaitFor(t, 10*time.Second, func() bool { d = e.detail(t, e.User["acme"], id); return len(d.Points) >= n },
		func() string { return fmt.Sprintf("%d points, want %d", len(d.Points), n) })
	if len(d.Points) != n {
		t.Fatalf("%d points, want %d", len(d.Points), n)
	}
	return d
}

func (e *env) start(t *testing.T, token, deveui string, body any, status int) kerneltest.Response {
	t.Helper()
	return e.p.Client.Must(t, "POST", fmt.Sprintf("/api/signaltest/%d/%s", e.ID["acme"], deveui), token, body, status)
}

func mean(ps []signaltests.Point, f func(signaltests.Point) *float64) *float64 {
	var sum float64
	var n int
	for _, p := range ps {
		if v := f(p); v != nil {
			sum += *v
			n++
		}
	}
	if n == 0 {
		return nil
	}
	m := sum / float64(n)
	return &m
}

func near(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return math.Abs(*a-*b) < 1e-9
}

func TestSignalTests(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		e := newEnv(t, d)
		user := e.User["acme"]

		// A description too long is refused before anything starts.
		long := make([]byte, 256)
		for i := range long {
			long[i] = 'x'
		}
		if got := e.start(t, user, walkerEUI, map[string]any{"description": string(long)}, http.StatusBadRequest).FieldError("description"); got == "" {
			t.Error("no field error for a long description")
		}
		// An uplink before the test adds nothing to it, also when it reaches
		// the collector after the start.
		e.uplinkAt(t, walkerEUI, 1, time.Now().Add(-5*time.Minute), map[string]any{"latitude": 57.1, "longitude": 12.1}, gw{"0016c001f153a14c", -90, 5})

		started := e.start(t, user, walkerEUI, map[string]any{"description": "North field"}, http.StatusCreated).Obj()
		id := int64(started["testId"].(float64))
		if started["active"] != true || started["description"] != "North field" || started["deveui"] != walkerEUI || started["tagName"] != "Walker" ||
			started["end"] != nil || started["averageRssi"] != nil || started["pointCount"] != 0.0 {
			t.Errorf("started %v", started)
		}
		// One active test per node.
		if r := e.start(t, e.Admin["acme"], walkerEUI, nil, http.StatusConflict); r.Str("id") != signaltests.IDActive {
			t.Errorf("second start: %s", r.Body)
		}
		// Another node may have its own; it is the sentinel below.
		other := int64(e.start(t, user, otherEUI, map[string]any{"latitudeKey": "pos.y", "longitudeKey": "pos.x"}, http.StatusCreated).Num("testId"))

		// Three uplinks while it is active: a position at the top level
		// heard by two gateways, a nested one (gps.latitude) heard by one,
		// and none at all (a GPS without a fix sends 0,0).
		e.uplink(t, walkerEUI, 2, map[string]any{"latitude": 57.70, "longitude": 11.97, "temperature": 20},
			gw{"0016c001f153a14c", -101, 2.5}, gw{"0016c001f153a14d", -95, 7.25})
		e.uplink(t, walkerEUI, 3, map[string]any{"gps": map[string]any{"latitude": 57.71, "longitude": 11.98}}, gw{"0016c001f153a14c", -117, -9})
		e.uplink(t, walkerEUI, 4, map[string]any{"lat": 0, "lng": 0}, gw{"0016c001f153a14d", -80, 9.5})
		got := e.awaitPoints(t, id, 3)
		p0, p1, p2 := got.Points[0], got.Points[1], got.Points[2]
		if *p0.RSSI != -95 || *p0.SNR != 7.25 || p0.GatewayID != "0016c001f153a14d" || len(p0.Receptions) != 2 || p0.SpreadingFactor != 9 || p0.FCnt != 2 ||
			*p0.Lat != 57.70 || *p0.Lng != 11.97 {
			t.Errorf("point 0 %+v", p0)
		}
		if *p1.RSSI != -117 || *p1.SNR != -9 || *p1.Lat != 57.71 || *p1.Lng != 11.98 || len(p1.Receptions) != 1 {
			t.Errorf("point 1 %+v", p1)
		}
		if p2.Lat != nil || p2.Lng != nil || *p2.RSSI != -80 {
			t.Errorf("point 2 %+v", p2)
		}
		// The averages are those of the points' best-gateway values.
		if !near(got.AverageRSSI, mean(got.Points, func(p signaltests.Point) *float64 { return p.RSSI })) ||
			!near(got.AverageSNR, mean(got.Points, func(p signaltests.Point) *float64 { return p.SNR })) || got.PointCount != 3 {
			t.Errorf("averages %v %v of %d points", *got.AverageRSSI, *got.AverageSNR, got.PointCount)
		}

		// Peek: all points, then none after the cursor; a bad cursor is 400.
		peek := e.p.Client.Must(t, "GET", fmt.Sprintf("/api/signaltest/peek/%d", id), user, nil, http.StatusOK)
		cursor := peek.Num("cursor")
		if cursor != p2.ID || len(peek.Obj()["points"].([]any)) != 3 {
			t.Errorf("peek %s", peek.Body)
		}
		if r := e.p.Client.Must(t, "GET", fmt.Sprintf("/api/signaltest/peek/%d?after=%d", id, cursor), user, nil, http.StatusOK); len(r.Obj()["points"].([]any)) != 0 || r.Num("cursor") != cursor {
			t.Errorf("peek after %d: %s", cursor, r.Body)
		}
		if r := e.p.Client.Must(t, "GET", fmt.Sprintf("/api/signaltest/peek/%d?after=x", id), user, nil, http.StatusBadRequest); r.Str("id") != signaltests.IDCursorInvalid {
			t.Errorf("bad cursor: %s", r.Body)
		}

		// The list: newest first, with counts and averages.
		list := e.p.Client.Must(t, "GET", fmt.Sprintf("/api/signaltest/%d", e.ID["acme"]), user, nil, http.StatusOK).List()
		if len(list) != 2 || list[1].(map[string]any)["testId"] != float64(id) || list[1].(map[string]any)["pointCount"] != 3.0 ||
			list[1].(map[string]any)["averageRssi"] != *got.AverageRSSI {
			t.Errorf("list %v", list)
		}

		// "Complete test" ends the collection: an uplink after it adds
		// nothing (the other node's point, posted after it, shows that the
		// collector has handled it), and completing again is a conflict.
		ended := e.p.Client.Must(t, "PUT", fmt.Sprintf("/api/signaltest/end/%d", id), user, nil, http.StatusOK).Obj()
		if ended["active"] != false || ended["end"] == nil || ended["pointCount"] != 3.0 {
			t.Errorf("ended %v", ended)
		}
		e.p.Client.Must(t, "PUT", fmt.Sprintf("/api/signaltest/end/%d", id), user, nil, http.StatusConflict)
		e.uplink(t, walkerEUI, 5, map[string]any{"latitude": 57.72, "longitude": 11.99}, gw{"0016c001f153a14c", -70, 10})
		e.uplink(t, otherEUI, 6, map[string]any{"pos": map[string]any{"y": 58.0, "x": 12.0}}, gw{"0016c001f153a14c", -70, 10})
		if o := e.awaitPoints(t, other, 1); *o.Points[0].Lat != 58.0 || *o.Points[0].Lng != 12.0 {
			t.Errorf("configured keys: %+v", o.Points[0])
		}
		if after := e.detail(t, user, id); len(after.Points) != 3 || !near(after.AverageRSSI, got.AverageRSSI) {
			t.Errorf("completed test changed: %d points", len(after.Points))
		}
		// The node may be tested again once its test is complete; of starts
		// at the same moment, one wins and the others are told why not.
		statuses := make(chan int, 6)
		for range 6 {
			go func() {
				statuses <- e.p.Client.Call(t, "POST", fmt.Sprintf("/api/signaltest/%d/%s", e.ID["acme"], walkerEUI), user, nil).Status
			}()
		}
		counts := map[int]int{}
		for range 6 {
			counts[<-statuses]++
		}
		if counts[http.StatusCreated] != 1 || counts[http.StatusConflict] != 5 {
			t.Errorf("concurrent starts: %v", counts)
		}

		// Another company's test and nodes are not found.
		for _, c := range []struct{ method, path string }{
			{"GET", fmt.Sprintf("/api/signaltest/single/%d", id)},
			{"GET", fmt.Sprintf("/api/signaltest/peek/%d", id)},
			{"PUT", fmt.Sprintf("/api/signaltest/end/%d", other)},
			{"DELETE", fmt.Sprintf("/api/signaltest/%d", id)},
			{"GET", fmt.Sprintf("/api/signaltest/%d", e.ID["acme"])},
			{"POST", fmt.Sprintf("/api/signaltest/%d/%s", e.ID["acme"], otherEUI)},
			{"POST", fmt.Sprintf("/api/signaltest/%d/%s", e.ID["beta"], walkerEUI)},
			{"GET", fmt.Sprintf("/signaltest/peek/%d", id)},
		} {
			if r := e.p.Client.Call(t, c.method, c.path, e.Admin["beta"], nil); r.Status != http.StatusNotFound {
				t.Errorf("beta %s %s: %d %s", c.method, c.path, r.Status, r.Body)
			}
		}

		// Deleting removes the test and its points.
		e.p.Client.Must(t, "DELETE", fmt.Sprintf("/api/signaltest/%d", id), user, nil, http.StatusNoContent)
		e.p.Client.Must(t, "GET", fmt.Sprintf("/api/signaltest/single/%d", id), user, nil, http.StatusNotFound)
		var left int
		if err := e.p.Host().DB.NewRaw("SELECT count(*) FROM signal_test_points WHERE test_id = ?", id).Scan(context.Background(), &left); err != nil || left != 0 {
			t.Errorf("points left: %d %v", left, err)
		}

		// The pages: the list and a test's live view.
		for _, path := range []string{"/signaltest", fmt.Sprintf("/signaltest/peek/%d", other)} {
			pg := e.p.Client.Page(t, "GET", path, user, nil)
			if pg.Status != http.StatusOK || !pg.FullPage() {
				t.Errorf("%s: %d", path, pg.Status)
			}
		}
	})
}

// TestGenericUplinkPoints: an uplink through the generic ingest, as the
// demo's service van posts it (lat, long, speed, rssi and snr among its
// values, no gateway named), adds a point with that position and signal.
func TestGenericUplinkPoints(t *testing.T) {
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		e := newEnv(t, d)
		id := e.start(t, e.User["acme"], walkerEUI, map[string]any{"description": "Van loop"}, http.StatusCreated).Num("testId")
		for i, v := range []map[string]any{
			{"lat": 59.3413, "long": 18.0686, "speed": 31.5, "rssi": -97, "snr": 4.5},
			{"lat": 59.3385, "long": 18.0902, "speed": 12.0, "rssi": -109, "snr": -2.0},
		} {
			e.p.Client.Must(t, "POST", "/api/ingest/generic", e.Token["acme"], map[string]any{"devEui": walkerEUI, "values": v}, http.StatusOK)
			got := e.awaitPoints(t, id, i+1)
			p := got.Points[i]
			if *p.Lat != v["lat"] || *p.Lng != v["long"] || *p.RSSI != float64(v["rssi"].(int)) || *p.SNR != v["snr"] || len(p.Receptions) != 0 || p.GatewayID != "" {
				t.Errorf("point %d: %+v", i, p)
			}
			if !near(got.AverageRSSI, mean(got.Points, func(p signaltests.Point) *float64 { return p.RSSI })) {
				t.Errorf("average RSSI %v", *got.AverageRSSI)
			}
		}
		// A burst from many connections: one point per uplink, none lost or
		// doubled, the averages still those of the points.
		const burst = 40
		errs := make(chan string, burst)
		for i := range burst {
			go func() {
				r := e.p.Client.Call(t, "POST", "/api/ingest/generic", e.Token["acme"],
					map[string]any{"devEui": walkerEUI, "values": map[string]any{"lat": 59.3 + float64(i)/1000, "long": 18.0, "rssi": -60 - i, "snr": float64(i % 7)}})
				if r.Status != http.StatusOK {
					errs <- string(r.Body)
					return
				}
				errs <- ""
			}()
		}
		for range burst {
			if msg := <-errs; msg != "" {
				t.Fatalf("burst uplink: %s", msg)
			}
		}
		got := e.awaitPoints(t, id, 2+burst)
		if !near(got.AverageRSSI, mean(got.Points, func(p signaltests.Point) *float64 { return p.RSSI })) ||
			!near(got.AverageSNR, mean(got.Points, func(p signaltests.Point) *float64 { return p.SNR })) {
			t.Errorf("averages after the burst: %v %v", *got.AverageRSSI, *got.AverageSNR)
		}
	})
}
