package alarms_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestInactivityAfterProfileInterval checks that a node whose device
// profile expects an uplink every 10 minutes is mailed about after 30
// silent minutes (3 missed uplinks) while a node without a profile is not,
// once with two instances scanning; and that a node whose profile expects
// one a day is not mailed about after the default 6 hours, but after 3
// days (docs/decisions.md, "Inactivity after a profile's interval").
func TestInactivityAfterProfileInterval(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		c := newCluster(t, d)
		c.Must(t, "acmeAdmin", "PUT", "/api/settings/company/{acme}", map[string]any{"INACTIVITY_EMAIL": "night@acme.se"}, http.StatusOK)
		often := c.Must(t, "acmeAdmin", "POST", "/api/companies/{acme}/profiles", map[string]any{"name": "Every 10 min", "uplinkInterval": 600}, http.StatusCreated).Num("id")
		daily := c.Must(t, "acmeAdmin", "POST", "/api/companies/{acme}/profiles", map[string]any{"name": "Daily", "uplinkInterval": 86400}, http.StatusCreated).Num("id")
		nodes := []struct {
			name, eui string
			profile   any
		}{{"Chatty", "70B3D57ED00000C1", often}, {"Daily", "70B3D57ED00000C2", daily}, {"Plain", "70B3D57ED00000C3", nil}}
		now := time.Now().UTC()
		for _, n := range nodes {
			body := map[string]any{"name": n.name, "deveui": n.eui}
			if n.profile != nil {
				body["profileId"] = n.profile
			}
			c.Must(t, "acmeAdmin", "POST", "/api/applications/{acmeApp}/tag", body, http.StatusCreated)
			c.Must(t, "acmeIngest", "POST", "/api/ingest/generic", map[string]any{"devEui": n.eui, "time": now.Format(time.RFC3339Nano),
				"values": map[string]any{"temperature": 1.0}}, http.StatusOK)
		}
		scan := func(at time.Time) {
			t.Helper()
			c.both(t, func(p *kerneltest.Portal[*app.App]) error {
				return p.App.Alarms().ScanInactivity(context.Background(), at)
			})
		}
		mailed := func(name string) int64 { return c.count(t, "mail_outbox", "subject = ?", "Inactive node: "+name) }
		scan(now.Add(29 * time.Minute))
		if n := mailed("Chatty"); n != 0 {
			t.Fatalf("%d mails about the 10-minute node after 29 silent minutes", n)
		}
		scan(now.Add(30 * time.Minute))
		scan(now.Add(40 * time.Minute))
		if n := mailed("Chatty"); n != 1 {
			t.Fatalf("%d mails about the 10-minute node after 30 silent minutes, want 1", n)
		}
		if n := mailed("Plain") + mailed("Daily"); n != 0 {
			t.Fatalf("%d mails about the other nodes after 30 silent minutes", n)
		}
		scan(now.Add(6 * time.Hour))
		scan(now.Add(7 * time.Hour))
		if n := mailed("Plain"); n != 1 {
			t.Errorf("%d mails about the node without profile after 6 hours, want 1", n)
		}
		if n := mailed("Daily"); n != 0 {
			t.Errorf("%d mails about the daily node after 6 hours, want none", n)
		}
		scan(now.Add(72 * time.Hour))
		if n := mailed("Daily"); n != 1 {
			t.Errorf("%d mails about the daily node after 3 days, want 1", n)
		}
		if n := mailed("Chatty") + mailed("Plain"); n != 2 {
			t.Errorf("%d mails about the other nodes in the end, want 2 (once each)", n)
		}
		c.inbox.Wait(t, "night@acme.se", 10*time.Second)
	})
}
