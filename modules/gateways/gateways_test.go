package gateways_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// env is a portal with one company, its application with a node, and the
// company's integration token for the ingest routes.
type env struct {
	p      *kerneltest.Portal[*app.App]
	people kerneltest.People
	appID  int64
	deveui string
	ingest string
}

func newEnv(t *testing.T, d db.Dialect, vars map[string]string) *env {
	t.Helper()
	p := kerneltest.Start(t, d, vars, app.Build)
	root := p.SuperAdmin(t)
	people := p.Client.EnglishCompany(t, root, "Gate Works AB", "gate.example")
	an := p.Client.AppNode(t, people.CompanyAdminToken, people.CompanyID, "Field", "Tester", "70B3D57ED0001234")
	token := p.Client.Must(t, "POST", fmt.Sprintf("/api/integration/tokens/%d", people.CompanyID), people.CompanyAdminToken,
		map[string]any{"label": "network server", "isCompany": true}, http.StatusCreated).Str("token")
	return &env{p: p, people: people, appID: an.AppID, deveui: an.DevEUI, ingest: token}
}

// uplink posts a ChirpStack uplink of the node heard by gateways (id,
// rssi, snr each).
func (e *env) uplink(t *testing.T, at time.Time, fcnt int, gws ...[3]any) {
	t.Helper()
	var rx []any
	for _, g := range gws {
		rx = append(rx, map[string]any{"gatewayId": g[0], "rssi": g[1], "snr": g[2]})
	}
	r := e.p.Client.Call(t, "POST", "/api/ingest/chirpstack?event=up", e.ingest, map[string]any{
		"time": at.Format(time.RFC3339Nano), "deviceInfo": map[string]any{"devEui": strings.ToLower(e.deveui)},
		"fCnt": fcnt, "fPort": 1, "data": "AQ==", "rxInfo": rx,
	})
	if r.Status >= 300 {
		t.Fatalf("uplink: %d %s", r.Status, r.Body)
	}
}

func (e *env) list(t *testing.T, token string) []map[string]any {
	t.Helper()
	r := e.p.Client.Must(t, "GET", fmt.Sprintf("/api/gateway/company/%d", e.people.CompanyID), token, nil, http.StatusOK)
	var out []map[string]any
	for _, x := range r.List() {
		out = append(out, x.(map[string]any))
	}
	return out
}

// await polls the list until ok holds of it (the bus delivers uplinks to
// the module on its own goroutine).
func (e *env) await(t *testing.T, what string, ok func([]map[string]any) bool) []map[string]any {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		l := e.list(t, e.people.UserToken)
		if ok(l) {
			return l
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: list is %v", what, l)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestCalls checks the SPEC's gateway calls and their refusals.
func TestCalls(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d, nil)
		c, admin := e.p.Client, e.people.CompanyAdminToken
		path := fmt.Sprintf("/api/gateway/%d", e.appID)
		r := c.Must(t, "POST", path, admin, map[string]any{"name": "Roof", "macAddress": "00-16-c0-01-f1-53-a1-4c", "latitude": 59.33, "longitude": 18.07}, http.StatusCreated)
		id := r.Num("id")
		if r.Str("macAddress") != "0016C001F153A14C" || r.Num("applicationId") != e.appID || r.Str("state") != "never" || r.Str("createdAt") == "" {
			t.Errorf("created %s", r.Body)
		}
		got := c.Must(t, "GET", fmt.Sprintf("/api/gateway/%d", id), e.people.UserToken, nil, http.StatusOK)
		if got.Str("name") != "Roof" || got.Obj()["latitude"] != 59.33 {
			t.Errorf("get %s", got.Body)
		}
		moved := c.Must(t, "PUT", fmt.Sprintf("/api/gateway/%d/pos", id), admin, map[string]any{"latitude": 57.7, "longitude": 11.97}, http.StatusOK)
		if moved.Obj()["latitude"] != 57.7 || moved.Obj()["longitude"] != 11.97 {
			t.Errorf("moved %s", moved.Body)
		}
		// Refusals name the field with the catalog's message.
		bad := []struct {
			body        map[string]any
			status      int
			field, want string
		}{
			{map[string]any{"macAddress": "0016C001F153A14D", "latitude": 1, "longitude": 1}, 400, "name", "This field must be filled in"},
			{map[string]any{"name": strings.Repeat("x", 256), "macAddress": "0016C001F153A14D", "latitude": 1, "longitude": 1}, 400, "name", "Max characters is 255"},
			{map[string]any{"name": "A", "macAddress": "0016C001F153A1", "latitude": 1, "longitude": 1}, 400, "macAddress", "A gateway EUI is 16 hexadecimal digits"},
			{map[string]any{"name": "A", "macAddress": "0016c001f153a14c", "latitude": 1, "longitude": 1}, 409, "macAddress", "already has a gateway with the EUI 0016C001F153A14C"},
			{map[string]any{"name": "A", "macAddress": "0016C001F153A14D", "latitude": 91, "longitude": 1}, 400, "latitude", "from -90 to 90"},
			{map[string]any{"name": "A", "macAddress": "0016C001F153A14D", "latitude": 1, "longitude": -181}, 400, "longitude", "from -180 to 180"},
			{map[string]any{"name": "A", "macAddress": "0016C001F153A14D", "latitude": 1}, 400, "longitude", "This field must be filled in"},
		}
		for _, b := range bad {
			r := c.Call(t, "POST", path, admin, b.body)
			errsOf, _ := r.Obj()["errors"].(map[string]any)
			if r.Status != b.status || !strings.Contains(fmt.Sprint(errsOf[b.field]), b.want) {
				t.Errorf("%v: %d %s; want %d with %q on %s", b.body, r.Status, r.Body, b.status, b.want, b.field)
			}
		}
		if r := c.Call(t, "POST", path, e.people.UserToken, map[string]any{"name": "A", "macAddress": "0016C001F153A14D", "latitude": 1, "longitude": 1}); r.Status != http.StatusForbidden {
			t.Errorf("a User created a gateway: %d %s", r.Status, r.Body)
		}
		if r := c.Call(t, "DELETE", fmt.Sprintf("/api/gateway/%d", id), e.people.UserToken, nil); r.Status != http.StatusForbidden {
			t.Errorf("a User deleted a gateway: %d %s", r.Status, r.Body)
		}
		if l := e.list(t, e.people.UserToken); len(l) != 1 || l[0]["name"] != "Roof" {
			t.Errorf("list %v", l)
		}
		c.Must(t, "DELETE", fmt.Sprintf("/api/gateway/%d", id), admin, nil, http.StatusNoContent)
		c.Must(t, "GET", fmt.Sprintf("/api/gateway/%d", id), admin, nil, http.StatusNotFound)
		if l := e.list(t, e.people.UserToken); len(l) != 0 {
			t.Errorf("list after delete %v", l)
		}
	})
}

// TestStatistics checks last seen, the 24-hour count, the medians and the
// state from the uplinks' receptions, and the unknown gateways.
func TestStatistics(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d, nil)
		c, admin := e.p.Client, e.people.CompanyAdminToken
		c.Must(t, "POST", fmt.Sprintf("/api/gateway/%d", e.appID), admin,
			map[string]any{"name": "Mast", "macAddress": "AA555A0000000001", "latitude": 59.3, "longitude": 18.0}, http.StatusCreated)
		now := time.Now().UTC().Truncate(time.Millisecond)
		rssi := []float64{-100, -90, -80, -70, -60}
		for i, v := range rssi {
			// The unknown gateway hears the first two uplinks only; one
			// uplink naming the registered gateway twice counts once.
			gws := [][3]any{{"aa555a0000000001", v, float64(i)}}
			if i < 2 {
				gws = append(gws, [3]any{"0016c001ffff0002", -110.0, -5.0})
			}
			if i == 4 {
				gws = append(gws, [3]any{"aa555a0000000001", -120.0, -20.0})
			}
			e.uplink(t, now.Add(time.Duration(i-len(rssi))*time.Second), i+1, gws...)
		}
		l := e.await(t, "five uplinks counted", func(l []map[string]any) bool { return len(l) == 1 && l[0]["uplinks24h"] == float64(5) })
		g := l[0]
		if g["state"] != "online" || g["medianRssi"] != -80.0 || g["medianSnr"] != 2.0 {
			t.Errorf("statistics %v; want online, median RSSI -80, SNR 2", g)
		}
		last, err := time.Parse(time.RFC3339Nano, fmt.Sprint(g["lastSeen"]))
		if err != nil || !last.Equal(now.Add(-time.Second)) {
			t.Errorf("lastSeen %v (%v), want %v", g["lastSeen"], err, now.Add(-time.Second))
		}
		r := c.Must(t, "GET", fmt.Sprintf("/api/gateway/company/%d/unknown", e.people.CompanyID), e.people.UserToken, nil, http.StatusOK)
		u := r.List()
		if len(u) != 1 || u[0].(map[string]any)["macAddress"] != "0016C001FFFF0002" || u[0].(map[string]any)["uplinks24h"] != float64(2) {
			t.Fatalf("unknown %s", r.Body)
		}
		// Registering it takes it off the unknown list, with its figures.
		c.Must(t, "POST", fmt.Sprintf("/api/gateway/%d", e.appID), admin,
			map[string]any{"name": "Barn", "macAddress": "0016C001FFFF0002", "latitude": 59.4, "longitude": 18.1}, http.StatusCreated)
		if r := c.Must(t, "GET", fmt.Sprintf("/api/gateway/company/%d/unknown", e.people.CompanyID), admin, nil, http.StatusOK); len(r.List()) != 0 {
			t.Errorf("unknown after registering %s", r.Body)
		}
		l = e.list(t, admin)
		if len(l) != 2 || l[0]["name"] != "Barn" || l[0]["uplinks24h"] != float64(2) || l[0]["medianRssi"] != -110.0 {
			t.Errorf("list %v", l)
		}
		// A later flush adds to the counts of the same hour, and last seen moves on.
		e.uplink(t, now, 6, [3]any{"0016c001ffff0002", -100.0, -4.0})
		l = e.await(t, "a third uplink of Barn", func(l []map[string]any) bool { return len(l) == 2 && l[0]["uplinks24h"] == float64(3) })
		if last, _ := time.Parse(time.RFC3339Nano, fmt.Sprint(l[0]["lastSeen"])); !last.Equal(now) || l[0]["medianRssi"] != -110.0 {
			t.Errorf("Barn after a third uplink: %v", l[0])
		}
	})
}

// TestOffline checks that a gateway goes offline after the configured
// silence.
func TestOffline(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d, map[string]string{"FIELDHUB_GATEWAY_OFFLINE_AFTER": "2s"})
		e.p.Client.Must(t, "POST", fmt.Sprintf("/api/gateway/%d", e.appID), e.people.CompanyAdminToken,
			map[string]any{"name": "Mast", "macAddress": "AA555A0000000001", "latitude": 59.3, "longitude": 18.0}, http.StatusCreated)
		e.uplink(t, time.Now(), 1, [3]any{"aa555a0000000001", -80.0, 7.5})
		e.await(t, "online", func(l []map[string]any) bool { return len(l) == 1 && l[0]["state"] == "online" })
		e.await(t, "offline", func(l []map[string]any) bool {
			return len(l) == 1 && l[0]["state"] == "offline" && l[0]["lastSeen"] != nil
		})
	})
}

// TestTheThingsStack checks that The Things Stack's rx_metadata names a
// gateway by its EUI, and that a gateway known only by its id is left out.
func TestTheThingsStack(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.SQLite, nil)
	r := e.p.Client.Call(t, "POST", "/api/ingest/tts", e.ingest, map[string]any{
		"end_device_ids": map[string]any{"device_id": "tester", "dev_eui": e.deveui},
		"received_at":    time.Now().UTC().Format(time.RFC3339Nano),
		"uplink_message": map[string]any{"f_port": 1, "f_cnt": 3, "frm_payload": "AQ==", "rx_metadata": []any{
			map[string]any{"gateway_ids": map[string]any{"gateway_id": "roof-gw", "eui": "00800000A00009EF"}, "rssi": -91, "channel_rssi": -91, "snr": 6.25},
			map[string]any{"gateway_ids": map[string]any{"gateway_id": "packetbroker"}, "rssi": -70, "snr": 9},
		}},
	})
	if r.Status >= 300 {
		t.Fatalf("uplink: %d %s", r.Status, r.Body)
	}
	var u []any
	kerneltest.WaitFor(t, 20*time.Second, func() bool {
		u = e.p.Client.Must(t, "GET", fmt.Sprintf("/api/gateway/company/%d/unknown", e.people.CompanyID), e.people.UserToken, nil, http.StatusOK).List()
		return len(u) > 0
	}, func() string { return "the gateway of the uplink listed as unknown" })
	g := u[0].(map[string]any)
	if len(u) != 1 || g["macAddress"] != "00800000A00009EF" || g["medianRssi"] != -91.0 || g["medianSnr"] != 6.25 || g["uplinks24h"] != 1.0 {
		t.Errorf("unknown gateways %v", u)
	}
}
