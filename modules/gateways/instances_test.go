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

// TestInstancesAddUp checks that two instances on one PostgreSQL database
// each add their own counts: uplinks taken by either are all counted, the
// last seen is the latest of both, and the medians take the samples of both.
func TestInstancesAddUp(t *testing.T) {
	t.Parallel()
	cfg := kerneltest.Config(t, db.Postgres, nil)
	a := kerneltest.StartConfig(t, cfg, app.Build)
	b := kerneltest.StartConfig(t, cfg, app.Build)
	root := a.SuperAdmin(t)
	people := a.Client.EnglishCompany(t, root, "Gate Works AB", "gate.example")
	an := a.Client.AppNode(t, people.CompanyAdminToken, people.CompanyID, "Field", "Tester", "70B3D57ED0001234")
	token := a.Client.Must(t, "POST", fmt.Sprintf("/api/integration/tokens/%d", people.CompanyID), people.CompanyAdminToken,
		map[string]any{"label": "network server", "isCompany": true}, http.StatusCreated).Str("token")
	a.Client.Must(t, "POST", fmt.Sprintf("/api/gateway/%d", an.AppID), people.CompanyAdminToken,
		map[string]any{"name": "Mast", "macAddress": "AA555A0000000001", "latitude": 59.3, "longitude": 18.0}, http.StatusCreated)
	now := time.Now().UTC().Truncate(time.Millisecond)
	post := func(c *kerneltest.Client, i int, rssi float64) {
		r := c.Call(t, "POST", "/api/ingest/chirpstack?event=up", token, map[string]any{
			"time": now.Add(time.Duration(i-10) * time.Second).Format(time.RFC3339Nano), "deviceInfo": map[string]any{"devEui": strings.ToLower(an.DevEUI)},
			"fCnt": i, "fPort": 1, "data": "AQ==", "rxInfo": []any{map[string]any{"gatewayId": "aa555a0000000001", "rssi": rssi, "snr": 5}}})
		if r.Status >= 300 {
			t.Fatalf("uplink %d: %d %s", i, r.Status, r.Body)
		}
	}
	// Instance a takes the later uplinks with the weaker signal, b the earlier with the stronger.
	for i := range 3 {
		post(b.Client, i, -60)
		post(a.Client, 5+i, -100)
	}
	post(a.Client, 8, -80)
	var got map[string]any
	kerneltest.WaitFor(t, 20*time.Second, func() bool {
		// Each list flushes its own instance; ask both.
		b.Client.Must(t, "GET", fmt.Sprintf("/api/gateway/company/%d", people.CompanyID), people.UserToken, nil, http.StatusOK)
		l := a.Client.Must(t, "GET", fmt.Sprintf("/api/gateway/company/%d", people.CompanyID), people.UserToken, nil, http.StatusOK).List()
		got = l[0].(map[string]any)
		return got["uplinks24h"] == float64(7)
	}, func() string { return fmt.Sprintf("seven uplinks counted across the instances: %v", got) })
	// The median of all seven samples: each flush takes the ring slots
	// after the last one written, whichever instance wrote it, so neither
	// instance overwrites the other's samples.
	if got["medianRssi"] != float64(-80) || got["state"] != "online" {
		t.Errorf("statistics %v; want the median -80 of both instances' samples", got)
	}
	if last, _ := time.Parse(time.RFC3339Nano, fmt.Sprint(got["lastSeen"])); !last.Equal(now.Add(-2 * time.Second)) {
		t.Errorf("lastSeen %v, want %v", got["lastSeen"], now.Add(-2*time.Second))
	}
}
