package parse_test

import (
	"errors"
	"regexp"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/parse"
)

// keyPattern is what the nodes module accepts as a key name.
var keyPattern = regexp.MustCompile(`^[A-Za-z0-9_.\-]{1,64}$`)

// checkParsed fails when a parse returned something the ingest cannot
// store: every error must be Invalid (a 400, never a 500), and every message
// must name a storable node, time and values.
func checkParsed(t *testing.T, m parse.Message, err error) {
	t.Helper()
	if err != nil {
		var e *errs.Error
		if !errors.As(err, &e) || e.Kind != errs.Invalid {
			t.Fatalf("error %v is not Invalid", err)
		}
		return
	}
	if m.Device != nil && m.Downlink != nil {
		t.Fatalf("both a device message and a downlink report: %+v", m)
	}
	if eui := m.DevEUI(); eui != "" && !tsdb.ValidDevEUI(eui) {
		t.Fatalf("DevEUI %q", eui)
	}
	if r := m.Downlink; r != nil {
		checkTime(t, r.Time)
		switch r.Kind {
		case netservers.ReportAck, netservers.ReportSent, netservers.ReportFailed:
		default:
			t.Fatalf("report kind %q", r.Kind)
		}
	}
	d := m.Device
	if d == nil {
		return
	}
	checkTime(t, d.Time)
	switch d.Kind {
	case ingest.KindUplink:
		u := d.Uplink
		if u == nil || u.DevEUI != d.DevEUI || !tsdb.ValidDevEUI(u.DevEUI) || !u.Time.Equal(d.Time) {
			t.Fatalf("uplink %+v of message %+v", u, d)
		}
		if u.FPort < 0 || u.FPort > 255 || len(u.Payload) > ingest.MaxPayload {
			t.Fatalf("port %d, payload of %d bytes", u.FPort, len(u.Payload))
		}
		for _, values := range []map[string]any{u.Object, u.Values} {
			flat, err := ingest.Flatten(values)
			if err != nil || len(flat) > ingest.MaxValues {
				t.Fatalf("values %v flatten to %d values, %v", values, len(flat), err)
			}
			for k, v := range flat {
				p := tsdb.Point{Series: tsdb.Series{Company: 1, DevEUI: u.DevEUI, Key: k}, Time: u.Time}
				switch x := v.(type) {
				case float64:
					p.Value = x
				case string:
					p.Text, p.IsText = x, true
				default:
					t.Fatalf("value %q is a %T", k, v)
				}
				if !keyPattern.MatchString(k) || tsdb.ValidatePoints([]tsdb.Point{p}) != nil {
					t.Fatalf("value %q = %v cannot be stored: %v", k, v, tsdb.ValidatePoints([]tsdb.Point{p}))
				}
			}
		}
	case ingest.KindJoin:
		if d.DevEUI == "" {
			t.Fatalf("join without DevEUI")
		}
	case ingest.KindStatus:
		if d.Status == nil {
			t.Fatal("status without Status")
		}
	case ingest.KindLog:
		if d.Log == nil {
			t.Fatal("log without Log")
		}
	default:
		t.Fatalf("kind %q", d.Kind)
	}
}

// checkTime fails when a message's time cannot be stored or lies out of
// the window.
func checkTime(t *testing.T, at time.Time) {
	t.Helper()
	if at.Before(tsdb.MinTime) || !at.Before(tsdb.MaxTime) || at.After(now.Add(ingest.MaxFuture)) || at.Before(now.Add(-window.MaxAge)) {
		t.Fatalf("time %v", at)
	}
}

func FuzzParseChirpStack(f *testing.F) {
	up := fixture(f, "chirpstack_v4_up.json")
	f.Add("up", up)
	f.Add("up", variant(f, "chirpstack_v4_up.json", func(m map[string]any) {
		m["fPort"], m["fCnt"], m["object"] = "2", "7", map[string]any{"t": 1.5, "a": []any{true, "x", nil}}
	}))
	f.Add("status", []byte(`{`+csDoc+`,"margin":10,"batteryLevel":88.3}`))
	f.Add("ack", []byte(`{`+csDoc+`,"queueItemId":"f1e1d000-0000-4000-8000-000000000001","acknowledged":true,"fCntDown":3}`))
	f.Add("txack", []byte(`{`+csDoc+`,"queueItemId":"f1e1d000-0000-4000-8000-000000000001","gatewayId":"0016c001f153a14c"}`))
	f.Add("log", []byte(`{`+csDoc+`,"level":"ERROR","code":"UPLINK_MIC","description":"bad"}`))
	f.Add("join", []byte(`{`+csDoc+`}`))
	f.Add("up", []byte(`{"deviceInfo":{"devEui":"0101010101010101"},"data":"-_8","object":{"x":1e999}}`))
	f.Fuzz(func(t *testing.T, event string, body []byte) {
		m, err := parse.ChirpStack(event, body, window)
		checkParsed(t, m, err)
		if err == nil && (m.Device != nil && m.Device.Source != "chirpstack" || m.Downlink != nil && m.Downlink.Source != "chirpstack") {
			t.Fatalf("source of %+v", m)
		}
	})
}

func FuzzParseTTS(f *testing.F) {
	f.Add(fixture(f, "tts_v3_uplink.json"))
	f.Add(variant(f, "tts_v3_uplink.json", func(m map[string]any) {
		delete(sub(m, "uplink_message"), "f_port")
		sub(m, "uplink_message", "settings")["frequency"] = 868100000
	}))
	f.Add([]byte(`{` + ttsIDs + `,"join_accept":{"session_key_id":"AXBSH1Pk6Z0G166RlH16CQ=="}}`))
	f.Add([]byte(`{` + ttsIDs + `,"downlink_ack":{"f_port":15,"f_cnt":1,"frm_payload":"vu8=","correlation_ids":["fieldhub:downlink:f1e1d000-0000-4000-8000-000000000001"]}}`))
	f.Add([]byte(`{"end_device_ids":{"device_id":"dev1"},"downlink_failed":{"downlink":{"f_port":15},"error":{"name":"x","message_format":"y"}}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		m, err := parse.TTS(body, window)
		checkParsed(t, m, err)
	})
}

func FuzzParseGeneric(f *testing.F) {
	f.Add([]byte(`{"devEui":"70B3D57ED0000001","time":"2024-05-01T12:00:00Z","fPort":2,"data":"AQI=","values":{"temperature":21.5,"door":{"open":true}},"rssi":-80,"snr":7.5,"battery":3.6}`))
	f.Add([]byte(`{"devEui":"70b3d57ed0000001"}`))
	f.Add([]byte(`{"DEVEUI":"70-b3-d5-7e-d0-00-00-01","values":{"a":[1,2,{"b":"c"}],"Temp (°C)":"20"}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		m, err := parse.Generic(body, window)
		checkParsed(t, m, err)
		if err == nil && (m.Device == nil || m.Device.Kind != ingest.KindUplink || m.Device.Uplink.Object != nil) {
			t.Fatalf("generic message %+v", m)
		}
	})
}
