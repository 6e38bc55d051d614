package netservers_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// TestImplausibleUplinksAreRefused: the ingest routes answer 400 naming
// the field for a time further back than FIELDHUB_INGEST_MAX_AGE_DAYS (a
// clock at 1970) and for readings no device reports (an RSSI or battery of
// 1e308), and store nothing of them; history within the window is taken.
func TestImplausibleUplinksAreRefused(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		p := kerneltest.Start(t, d, map[string]string{"FIELDHUB_INGEST_MAX_AGE_DAYS": "30"}, app.Build)
		e := &env{k: p.App.Kernel(), c: p.Client, store: p.App.Series()}
		e.Tenants = kerneltest.Companies(t, p.Client, p.App, kerneltest.CompanySpec{Key: "acme", Ingest: true, App: "Field",
			Nodes: []kerneltest.NodeSpec{{Key: "cs", Name: "Node cs", DevEUI: csEUI}, {Key: "tts", Name: "Node tts", DevEUI: strings.ToUpper(ttsEUI)}}}).Tenants(t)
		acme := e.ID["acme"]
		now := time.Now().UTC().Truncate(time.Second)
		history := now.Add(-29 * 24 * time.Hour)
		late := now.Add(-31 * 24 * time.Hour).Format(time.RFC3339)
		const epoch = "1970-01-01T00:00:00Z"
		cs := func(edit func(m map[string]any)) []byte {
			return variant(t, "chirpstack_v4_up.json", func(m map[string]any) { m["time"] = history.Format(time.RFC3339); edit(m) })
		}
		tts := func(edit func(m map[string]any)) []byte {
			return variant(t, "tts_v3_uplink.json", func(m map[string]any) {
				m["received_at"] = history.Format(time.RFC3339)
				sub(m, "uplink_message")["received_at"] = history.Format(time.RFC3339)
				edit(m)
			})
		}
		gateway := func(m map[string]any, path ...string) map[string]any {
			for _, k := range path[:len(path)-1] {
				m = m[k].(map[string]any)
			}
			return m[path[len(path)-1]].([]any)[0].(map[string]any)
		}
		refused := []struct {
			name, path string
			body       []byte
			field      string
		}{
			{"a generic uplink of 1970", "/api/ingest/generic", []byte(`{"devEui":"` + csEUI + `","time":"` + epoch + `","values":{"t":1}}`), "time"},
			{"a generic uplink of 31 days ago", "/api/ingest/generic", []byte(`{"devEui":"` + csEUI + `","time":"` + late + `","values":{"t":1}}`), "time"},
			{"a generic RSSI of 1e308", "/api/ingest/generic", []byte(`{"devEui":"` + csEUI + `","rssi":1e308,"values":{"t":1}}`), "rssi"},
			{"a generic battery of 1e308", "/api/ingest/generic", []byte(`{"devEui":"` + csEUI + `","battery":1e308,"values":{"t":1}}`), "battery"},
			{"a ChirpStack uplink of 1970", "/api/ingest/chirpstack?event=up", cs(func(m map[string]any) { m["time"] = epoch }), "time"},
			{"a ChirpStack RSSI of 1e308", "/api/ingest/chirpstack?event=up", cs(func(m map[string]any) { gateway(m, "rxInfo")["rssi"] = 1e308 }), "rxInfo[0].rssi"},
			{"a ChirpStack battery level of 1e308", "/api/ingest/chirpstack?event=status",
				[]byte(`{"time":"` + history.Format(time.RFC3339) + `","deviceInfo":{"devEui":"` + csEUI + `"},"margin":10,"batteryLevel":1e308}`), "batteryLevel"},
			{"a The Things Stack uplink of 1970", "/api/ingest/tts", tts(func(m map[string]any) { sub(m, "uplink_message")["received_at"] = epoch }), "uplink_message.received_at"},
			{"a The Things Stack RSSI of 1e308", "/api/ingest/tts", tts(func(m map[string]any) { gateway(m, "uplink_message", "rx_metadata")["rssi"] = 1e308 }),
				"uplink_message.rx_metadata[0].rssi"},
		}
		for _, tc := range refused {
			t.Run("refuses "+tc.name, func(t *testing.T) {
				r := e.post(t, "acme", tc.path, tc.body)
				if r.Status != http.StatusBadRequest || r.FieldError(tc.field) == "" {
					t.Errorf("%d %s; want 400 naming %s", r.Status, r.Body, tc.field)
				}
			})
		}
		if n := e.count(t, acme); n != 0 {
			t.Fatalf("%d points stored of refused uplinks", n)
		}
		tag := e.c.Must(t, "GET", fmt.Sprintf("/api/tag/%d", e.ID["cs"]), e.Admin["acme"], nil, http.StatusOK).Obj()
		if tag["latestTime"] != nil || tag["battery"] != nil || tag["rssi"] != nil {
			t.Errorf("the node's state changed: %v", tag)
		}
		// History within the window is taken.
		e.c.Must(t, "POST", "/api/ingest/chirpstack?event=up", e.Token["acme"], cs(func(map[string]any) {}), http.StatusOK)
		e.c.Must(t, "POST", "/api/ingest/tts", e.Token["acme"], tts(func(map[string]any) {}), http.StatusOK)
		if p, ok := e.latest(t, acme, csEUI, "rssi"); !ok || !p.Time.Equal(history) {
			t.Errorf("history of 29 days ago: %v, %v", p, ok)
		}
	})
}

// TestImplausibleMQTTEventsAreAcknowledged: an event of 1970 or with an
// RSSI of 1e308 is refused, stored nowhere, acknowledged to the broker (the
// events after it go on) and never sent again.
func TestImplausibleMQTTEventsAreAcknowledged(t *testing.T) {
	t.Parallel()
	e := newMQTTEnv(t, db.SQLite, map[string]string{"FIELDHUB_INGEST_MAX_AGE_DAYS": "30"})
	cs := newMQTTClient(t, e.broker)
	e.awaitSubscribed(t, cs)
	cs.publish(t, e.topic("up"), uplink(t, e.csApp, e.devEUI, time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC), map[string]any{"epoch": 1}))
	loud := variant(t, "chirpstack_v4_up.json", func(m map[string]any) {
		sub(m, "deviceInfo")["devEui"] = e.devEUI
		sub(m, "deviceInfo")["applicationId"] = e.csApp
		m["time"] = time.Now().Add(-time.Minute).Format(time.RFC3339Nano)
		m["object"] = map[string]any{"loud": 1}
		m["rxInfo"].([]any)[0].(map[string]any)["rssi"] = 1e308
	})
	cs.publish(t, e.topic("up"), loud)
	cs.publish(t, e.topic("up"), uplink(t, e.csApp, e.devEUI, time.Now().Add(-2*time.Minute), map[string]any{"after": 1}))
	kerneltest.WaitFor(t, waitLimit, func() bool { return len(e.points(t, "after")) == 1 }, func() string { return "the good event after the bad ones was not stored" })
	// Restarting the subscriber's session would bring back what it did
	// not acknowledge: the refused events do not come back.
	e.stop()
	e.start(t)
	e.awaitSubscribed(t, cs)
	for _, key := range []string{"epoch", "loud"} {
		if pts := e.points(t, key); len(pts) != 0 {
			t.Errorf("%s: stored %v", key, pts)
		}
	}
	if pts, err := e.store.Range(t.Context(), tsdb.Series{Company: e.company, DevEUI: e.devEUI, Key: "rssi"}, tsdb.MinTime, time.Now().Add(time.Hour), 100); err != nil {
		t.Fatal(err)
	} else {
		for _, p := range pts {
			if p.Value > 1000 {
				t.Errorf("an RSSI of %v was stored", p.Value)
			}
		}
	}
}
