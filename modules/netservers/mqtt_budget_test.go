package netservers_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/ingest"
)

// TestMQTTLoopingCodecHoldsUpNoOtherCompany: a company whose own codec
// loops, never switched off, publishes more uplinks over MQTT than its
// decode budget lets it decode in minutes (10 ms of codec time a second,
// and each decode takes its 50 ms limit: one every five seconds). The
// subscriber handles each event on its own goroutine, but acknowledges in
// arrival order, and a session takes no more events once 512 are
// unacknowledged: uplinks waiting for their company's budget would hold up
// the acknowledgements of every company's events behind them, and in the
// end the sessions. So an MQTT uplink waits for its company's budget a
// short while only; past it the payload is stored raw, with the reason,
// for decoding again. Every event of both companies is through within the
// test's wait, and the other company's values are stored.
func TestMQTTLoopingCodecHoldsUpNoOtherCompany(t *testing.T) {
	t.Parallel()
	e := newMQTTEnv(t, db.SQLite, map[string]string{"FIELDHUB_DECODER_SWITCH_OFF_AFTER": "0",
		"FIELDHUB_DECODE_TIME_PER_SECOND": "10ms", "FIELDHUB_DECODE_CONCURRENCY": "1"})
	cs := newMQTTClient(t, e.broker)
	e.awaitSubscribed(t, cs)

	// Noisy: a company of its own, whose node decodes with a looping codec.
	noisy := e.c.Company(t, e.super, "Noisy", "noisy.se")
	noisyApp := uuid.NewString()
	app := e.c.Must(t, "POST", fmt.Sprintf("/api/applications/%d", noisy.CompanyID), noisy.CompanyAdminToken,
		map[string]any{"name": "Loops", "networkServer": "chirpstack", "chirpstackApplicationId": noisyApp}, http.StatusCreated).Num("id")
	noisyEUI := randomHex(8)
	e.c.Must(t, "POST", fmt.Sprintf("/api/applications/%d/tag", app), noisy.CompanyAdminToken,
		map[string]any{"name": "Spinner", "deveui": noisyEUI}, http.StatusCreated)
	dec := e.c.Must(t, "POST", fmt.Sprintf("/api/companies/%d/decoders", noisy.CompanyID), noisy.CompanyAdminToken,
		map[string]any{"name": "Loop", "source": "function decodeUplink(i) { while (true) {} }"}, http.StatusCreated).Num("id")
	e.c.Must(t, "PUT", "/api/tag/"+noisyEUI, noisy.CompanyAdminToken, map[string]any{"decoder": decoders.CustomKey(dec)}, http.StatusOK)

	const n = 24
	received := e.metric(t, "fieldhub_mqtt_events_received_total")
	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	for i := range n {
		at := base.Add(time.Duration(i) * time.Second)
		cs.publish(t, "application/"+noisyApp+"/device/"+noisyEUI+"/event/up", uplink(t, noisyApp, noisyEUI, at, nil))
		cs.publish(t, e.topic("up"), uplink(t, e.csApp, e.devEUI, at, map[string]any{"quiet": i}))
	}
	// Through means handled and acknowledged: at the company's budget the
	// noisy uplinks alone would take two minutes.
	kerneltest.WaitFor(t, waitLimit, func() bool {
		return e.metric(t, "fieldhub_mqtt_events_received_total") >= received+2*n && e.metric(t, "fieldhub_mqtt_events_in_hand") == 0
	}, func() string {
		return fmt.Sprintf("%v of %d events received, %v in hand", e.metric(t, "fieldhub_mqtt_events_received_total")-received, 2*n,
			e.metric(t, "fieldhub_mqtt_events_in_hand"))
	})
	if pts := e.points(t, "quiet"); len(pts) != n {
		t.Errorf("the other company has %d of %d uplinks stored", len(pts), n)
	}
	// Every noisy uplink is stored: most raw, waiting no longer for the
	// budget, with the reason in the uplink's record (a re-decode job
	// decodes them later).
	series := func(key string) []tsdb.Point {
		pts, err := e.store.Range(t.Context(), tsdb.Series{Company: noisy.CompanyID, DevEUI: noisyEUI, Key: key}, tsdb.MinTime, time.Now(), 1000)
		if err != nil {
			t.Fatal(err)
		}
		return pts
	}
	records, budget := series(ingest.UplinkKey), 0
	for _, p := range records {
		if strings.Contains(p.Text, "decode budget") {
			budget++
		}
	}
	if len(records) != n || budget == 0 || len(series("raw")) != n {
		t.Errorf("noisy: %d uplink records, %d of them past the decode budget, %d raw payloads; want %d, most, %d",
			len(records), budget, len(series("raw")), n, n)
	}
}
