package forwarding_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestTwoInstancesDeliverOnceInOrder: two portals on one PostgreSQL
// database both store uplinks of an application with a webhook target and
// both run the delivery worker; the webhook gets each uplink once, in the
// order they were stored.
func TestTwoInstancesDeliverOnceInOrder(t *testing.T) {
	t.Parallel()
	cfg := kerneltest.Config(t, db.Postgres, map[string]string{"FIELDHUB_OUTBOUND_PRIVATE": "true"})
	a := kerneltest.StartConfig(t, cfg, app.Build)
	dev := kerneltest.NewDevices(t, a.Client, a.App, a.App.Series())
	hook := newReceiver(t, "cluster-secret")
	e := &env{Devices: dev, p: a}
	e.addWebhook(t, hook.srv.URL, "cluster-secret")
	// Started after the target exists, so that its cache has it at once.
	b := kerneltest.StartConfig(t, cfg, app.Build)
	portals := []*kerneltest.Client{a.Client, b.Client}
	start := time.Now().UTC().Truncate(time.Second).Add(-time.Hour)
	const n = 40
	for i := range n {
		at := start.Add(time.Duration(i) * time.Second)
		r := portals[i%2].Call(t, "POST", "/api/ingest/generic", dev.Tokens["acmeIngest"],
			map[string]any{"devEui": dev.EUI["acmeNode"], "time": at.Format(time.RFC3339), "values": map[string]any{"i": i}})
		if r.Status != http.StatusOK {
			t.Fatalf("uplink %d: %d %s", i, r.Status, r.Body)
		}
	}
	hook.wait(n)
	time.Sleep(500 * time.Millisecond) // a second delivery would come now
	got := hook.uplinks()
	hook.checks()
	if len(got) != n {
		t.Fatalf("the webhook got %d uplinks, want %d", len(got), n)
	}
	for i, u := range got {
		if !u.Time.Equal(start.Add(time.Duration(i)*time.Second)) || u.Data["i"] != float64(i) {
			t.Errorf("uplink %d: %+v", i, u)
		}
	}
}
