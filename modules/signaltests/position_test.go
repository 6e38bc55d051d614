package signaltests_test

import (
	"testing"

	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/signaltests"
)

func TestDetectPosition(t *testing.T) {
	for _, c := range []struct {
		data     map[string]any
		lat, lng string
	}{
		{map[string]any{"latitude": 1.0, "longitude": 2.0}, "latitude", "longitude"},
		{map[string]any{"gps.latitude": 1.0, "gps.longitude": 2.0, "temperature": 3.0}, "gps.latitude", "gps.longitude"},
		{map[string]any{"Lat": 1.0, "Lon": 2.0}, "Lat", "Lon"},
		{map[string]any{"lat": 1.0, "lng": 2.0, "gps.latitude": 1.5, "gps.longitude": 2.5}, "lat", "lng"},
		{map[string]any{"latitude": "57.1", "long": 2.0}, "", "long"},
		{map[string]any{"temperature": 3.0}, "", ""},
	} {
		if lat, lng := signaltests.DetectPosition(c.data); lat != c.lat || lng != c.lng {
			t.Errorf("%v: %q %q, want %q %q", c.data, lat, lng, c.lat, c.lng)
		}
	}
}

func TestPositionOf(t *testing.T) {
	data := map[string]any{"a": 57.7, "b": 11.9, "zero": 0.0, "far": 200.0}
	if lat, lng := signaltests.PositionOf(data, "a", "b"); lat == nil || *lat != 57.7 || *lng != 11.9 {
		t.Errorf("a,b: %v %v", lat, lng)
	}
	for _, keys := range [][2]string{{"zero", "zero"}, {"a", "far"}, {"a", "missing"}, {"", ""}} {
		if lat, lng := signaltests.PositionOf(data, keys[0], keys[1]); lat != nil || lng != nil {
			t.Errorf("%v: %v %v, want none", keys, *lat, *lng)
		}
	}
}

func TestBestReception(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	rs := []ingest.Reception{{GatewayID: "a", RSSI: f(-80)}, {GatewayID: "b", RSSI: f(-110), SNR: f(3)}, {GatewayID: "c", RSSI: f(-100), SNR: f(3)}, {GatewayID: "d", RSSI: f(-70), SNR: f(-2)}}
	if best, ok := signaltests.BestReception(rs); !ok || best.GatewayID != "c" {
		t.Errorf("best %+v", best)
	}
	if _, ok := signaltests.BestReception(nil); ok {
		t.Error("best of none")
	}
}
