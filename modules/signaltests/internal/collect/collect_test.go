package collect

import (
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/signaltests/internal/store"
)

func TestTestOf(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2026, 11, 27, 10, m, 0, 0, time.UTC) }
	end := at(20)
	done := store.OpenTest{ID: 1, Start: at(0), End: &end}
	active := store.OpenTest{ID: 2, Start: at(21)}
	for _, c := range []struct {
		tests []store.OpenTest
		t     time.Time
		want  int64
	}{
		{[]store.OpenTest{done, active}, at(19), 1}, // received before the completion, handled after it
		{[]store.OpenTest{done, active}, at(20), 1},
		{[]store.OpenTest{done, active}, at(22), 2},
		{[]store.OpenTest{done, active}, at(-5), 0},                  // received long before the start, handled late: none
		{[]store.OpenTest{active}, at(21).Add(-30 * time.Second), 2}, // a network server's clock a little behind the portal's
		{[]store.OpenTest{active}, at(21).Add(-2 * time.Minute), 0},  // before the start by more than that
		{[]store.OpenTest{done}, at(25), 0},                          // after the completion, none
		{nil, at(5), 0},
	} {
		got, ok := testOf(c.tests, c.t)
		if (c.want == 0) == ok || (ok && got.ID != c.want) {
			t.Errorf("uplink at %v: test %d (%v), want %d", c.t, got.ID, ok, c.want)
		}
	}
}

func TestPointOf(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	u := ingest.UplinkReceived{FCnt: 7, SpreadingFactor: 10, Data: map[string]any{"gps.lat": 57.1, "gps.lng": 12.2, "rssi": -50.0},
		Receptions: []ingest.Reception{{GatewayID: "a", RSSI: f(-100), SNR: f(1)}, {GatewayID: "b", RSSI: f(-90), SNR: f(2)}}}
	p := PointOf(u, "", "")
	if p.GatewayID != "b" || *p.RSSI != -90 || *p.SNR != 2 || *p.Lat != 57.1 || *p.Lng != 12.2 || len(p.Receptions) != 2 || p.FCnt != 7 || p.SpreadingFactor != 10 {
		t.Errorf("point %+v", p)
	}
	// Without gateways the uplink's own values give the signal.
	u.Receptions = nil
	if p := PointOf(u, "gps.lat", "gps.lng"); p.GatewayID != "" || *p.RSSI != -50 || p.SNR != nil || len(p.Receptions) != 0 {
		t.Errorf("point without gateways %+v", p)
	}
}
