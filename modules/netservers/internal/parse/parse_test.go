package parse_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/parse"
)

// now is the time of arrival the parser tests pass; window lets their
// messages lie ten years back, since the published examples are of
// 2021 and 2022.
var (
	now    = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	window = parse.Window{Now: now, MaxAge: 10 * 365 * 24 * time.Hour}
)

// fixture reads a published example body from the module's testdata.
func fixture(tb testing.TB, name string) []byte {
	tb.Helper()
	raw, err := os.ReadFile("../../testdata/" + name)
	if err != nil {
		tb.Fatal(err)
	}
	return raw
}

// variant returns a fixture changed by edit, which gets the body as a JSON
// tree.
func variant(tb testing.TB, name string, edit func(m map[string]any)) []byte {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal(fixture(tb, name), &m); err != nil {
		tb.Fatal(err)
	}
	edit(m)
	raw, err := json.Marshal(m)
	if err != nil {
		tb.Fatal(err)
	}
	return raw
}

// sub returns the object at a path of keys in a JSON tree.
func sub(m map[string]any, path ...string) map[string]any {
	for _, k := range path {
		m = m[k].(map[string]any)
	}
	return m
}

func f64(v float64) *float64 { return &v }

// parseCase is a body and what its parse must give: want compared field by
// field, or the error's fields and their message ids.
type parseCase struct {
	name    string
	event   string // ChirpStack's event type
	body    []byte
	want    *parse.Message
	check   func(t *testing.T, m parse.Message)
	errID   string            // the error's message id
	errFlds map[string]string // or its fields
}

func runParse(t *testing.T, parseBody func(event string, body []byte) (parse.Message, error), cases []parseCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseBody(tc.event, tc.body)
			if tc.errID != "" || tc.errFlds != nil {
				var e *errs.Error
				if !errors.As(err, &e) || e.Kind != errs.Invalid {
					t.Fatalf("got %+v, %v; want an Invalid error", got, err)
				}
				if tc.errID != "" && e.ID != tc.errID {
					t.Errorf("error id %q, want %q (%v)", e.ID, tc.errID, err)
				}
				for field, id := range tc.errFlds {
					found := false
					for _, f := range e.Fields {
						found = found || f.Field == field && f.ID == id
					}
					if !found {
						t.Errorf("no %s error on %s: %v", id, field, err)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if tc.want != nil && !reflect.DeepEqual(got, *tc.want) {
				t.Errorf("got\n%s\nwant\n%s", dump(got), dump(*tc.want))
			}
			if tc.check != nil {
				tc.check(t, got)
			}
		})
	}
}

func dump(m parse.Message) string {
	raw, _ := json.MarshalIndent(m, "", "  ")
	return string(raw)
}

func chirpStack(event string, body []byte) (parse.Message, error) {
	return parse.ChirpStack(event, body, window)
}

// csUp is what the ChirpStack fixture holds.
func csUp() *parse.Message {
	at := time.Date(2022, 7, 18, 9, 34, 15, 775023242, time.UTC)
	return &parse.Message{Device: &ingest.Message{Kind: ingest.KindUplink, Source: "chirpstack", DevEUI: "0101010101010101", Time: at,
		Uplink: &ingest.Uplink{DevEUI: "0101010101010101", Time: at, FPort: 1, Payload: []byte{0xaa},
			RSSI: f64(-36), SNR: f64(10.5), GatewayID: "0016c001f153a14c", Gateways: 1, Frequency: 867100000,
			Receptions:      []ingest.Reception{{GatewayID: "0016c001f153a14c", RSSI: f64(-36), SNR: f64(10.5)}},
			SpreadingFactor: 11, DR: 1, DevAddr: "00189440", DeviceName: "Test device"}}}
}

func with(m *parse.Message, edit func(m *ingest.Message)) *parse.Message {
	u := *m.Device.Uplink
	m.Device.Uplink = &u
	edit(m.Device)
	return m
}

const csDoc = `"deviceInfo":{"tenantId":"52f14cd4-c6f1-4fbd-8f87-4025e1d49242","applicationId":"17c82e96-be03-4f38-aef3-f83d48582d97","deviceName":"Test device","devEui":"0101010101010101","tags":{"key":"value"}}`

func TestParseChirpStack(t *testing.T) {
	t.Parallel()
	const up = "chirpstack_v4_up.json"
	runParse(t, chirpStack, []parseCase{
		{name: "the documentation's up event", event: "up", body: fixture(t, up), want: csUp()},
		{name: "v4.1 and later write default values", event: "up", body: variant(t, up, func(m map[string]any) {
			m["fCnt"], m["adr"], m["confirmed"], m["object"] = 0, false, false, nil
			sub(m, "deviceInfo")["deviceClassEnabled"] = "CLASS_A"
			m["regionConfigId"] = "eu868"
		}), want: csUp()},
		{name: "64-bit and other integers as strings", event: "up", body: variant(t, up, func(m map[string]any) {
			m["fPort"], m["fCnt"], m["dr"] = "1", "4294967295", "1"
			sub(m, "txInfo")["frequency"] = "867100000"
		}), want: with(csUp(), func(m *ingest.Message) { m.Uplink.FCnt = 4294967295 })},
		{name: "upper-case DevEUI with dashes", event: "up", body: variant(t, up, func(m map[string]any) {
			sub(m, "deviceInfo")["devEui"] = "70-B3-D5-7E-D0-00-00-01"
		}), check: func(t *testing.T, m parse.Message) {
			if m.DevEUI() != "70b3d57ed0000001" || m.Device.Uplink.DevEUI != "70b3d57ed0000001" {
				t.Errorf("DevEUI %q", m.DevEUI())
			}
		}},
		{name: "defaults left out: no port, no data, no counter", event: "up", body: variant(t, up, func(m map[string]any) {
			delete(m, "fPort")
			delete(m, "data")
			delete(m, "dr")
		}), want: with(csUp(), func(m *ingest.Message) { m.Uplink.FPort, m.Uplink.Payload, m.Uplink.DR = 0, nil, 0 })},
		{name: "the codec's object", event: "up", body: variant(t, up, func(m map[string]any) {
			m["object"] = map[string]any{"temperature": 21.5, "door": map[string]any{"open": true}, "label": "x"}
		}), want: with(csUp(), func(m *ingest.Message) {
			m.Uplink.Object = map[string]any{"temperature": 21.5, "door": map[string]any{"open": true}, "label": "x"}
		})},
		{name: "the best of several gateways", event: "up", body: variant(t, up, func(m map[string]any) {
			m["rxInfo"] = []any{
				map[string]any{"gatewayId": "aa00000000000001", "rssi": -110, "snr": -3},
				map[string]any{"gatewayId": "aa00000000000002", "rssi": -70, "snr": 9.25},
				map[string]any{"gatewayId": "aa00000000000003"},
			}
		}), want: with(csUp(), func(m *ingest.Message) {
			m.Uplink.RSSI, m.Uplink.SNR, m.Uplink.GatewayID, m.Uplink.Gateways = f64(-70), f64(9.25), "aa00000000000002", 3
			m.Uplink.Receptions = []ingest.Reception{{GatewayID: "aa00000000000001", RSSI: f64(-110), SNR: f64(-3)},
				{GatewayID: "aa00000000000002", RSSI: f64(-70), SNR: f64(9.25)}, {GatewayID: "aa00000000000003"}}
		})},
		{name: "no time: the time of arrival", event: "up", body: variant(t, up, func(m map[string]any) { delete(m, "time") }),
			check: func(t *testing.T, m parse.Message) {
				if !m.Device.Time.Equal(now) || !m.Device.Uplink.Time.Equal(now) {
					t.Errorf("time %v", m.Device.Time)
				}
			}},
		{name: "URL-safe base64 without padding", event: "up", body: variant(t, up, func(m map[string]any) { m["data"] = "-_8" }),
			check: func(t *testing.T, m parse.Message) {
				if !bytes.Equal(m.Device.Uplink.Payload, []byte{0xfb, 0xff}) {
					t.Errorf("payload %x", m.Device.Uplink.Payload)
				}
			}},
		{name: "status", event: "status", body: []byte(`{"deduplicationId":"bf2a9746-1c8b-49be-a92e-f0b89c8534e4","time":"2022-07-18T09:35:06.927172638+00:00",` + csDoc + `,"margin":10,"batteryLevel":88.3}`),
			check: func(t *testing.T, m parse.Message) {
				if m.Device == nil || m.Device.Kind != ingest.KindStatus || *m.Device.Status.Margin != 10 || *m.Device.Status.BatteryLevel != 88.3 || m.DevEUI() != "0101010101010101" {
					t.Errorf("%s", dump(m))
				}
			}},
		{name: "status of a device on external power", event: "status", body: []byte(`{` + csDoc + `,"margin":7,"externalPowerSource":true,"batteryLevel":0}`),
			check: func(t *testing.T, m parse.Message) {
				if m.Device.Status.BatteryLevel != nil || !m.Device.Status.ExternalPower {
					t.Errorf("%s", dump(m))
				}
			}},
		{name: "join", event: "join", body: []byte(`{"deduplicationId":"c9dbe358-2578-4fb7-b295-66b44edc45a6","time":"2022-07-18T09:33:28.823500726+00:00",` + csDoc + `,"devAddr":"00189440"}`),
			check: func(t *testing.T, m parse.Message) {
				if m.Device == nil || m.Device.Kind != ingest.KindJoin || m.DevEUI() != "0101010101010101" || m.Device.Uplink != nil {
					t.Errorf("%s", dump(m))
				}
			}},
		{name: "ack", event: "ack", body: []byte(`{"time":"2022-07-18T09:38:49.235700766+00:00",` + csDoc + `,"queueItemId":"1bbcab1d-6ec6-4136-b3f5-d63be1dc08de","acknowledged":true,"fCntDown":3}`),
			check: func(t *testing.T, m parse.Message) {
				if m.Downlink == nil || m.Downlink.Kind != netservers.ReportAck || !m.Downlink.Acknowledged || m.Downlink.FCntDown != 3 ||
					!reflect.DeepEqual(m.Downlink.Refs, []string{"1bbcab1d-6ec6-4136-b3f5-d63be1dc08de"}) {
					t.Errorf("%s", dump(m))
				}
			}},
		{name: "nack: acknowledged left out", event: "ack", body: []byte(`{` + csDoc + `,"queueItemId":"1bbcab1d-6ec6-4136-b3f5-d63be1dc08de","fCntDown":"3"}`),
			check: func(t *testing.T, m parse.Message) {
				if m.Downlink.Acknowledged || m.Downlink.FCntDown != 3 {
					t.Errorf("%s", dump(m))
				}
			}},
		{name: "txack", event: "txack", body: []byte(`{"downlinkId":3461958127,"time":"2022-07-18T09:37:48.929184085+00:00",` + csDoc + `,"queueItemId":"42cb6459-a640-46ec-9623-bdff39dc4736","fCntDown":2,"gatewayId":"0016c001f153a14c","txInfo":{"frequency":867900000,"power":14}}`),
			check: func(t *testing.T, m parse.Message) {
				if m.Downlink == nil || m.Downlink.Kind != netservers.ReportSent || m.Downlink.GatewayID != "0016c001f153a14c" || m.Downlink.Refs[0] != "42cb6459-a640-46ec-9623-bdff39dc4736" {
					t.Errorf("%s", dump(m))
				}
			}},
		{name: "log", event: "log", body: []byte(`{"time":"2022-07-18T09:39:57.311414029+00:00",` + csDoc + `,"level":"ERROR","code":"UPLINK_MIC","description":"MIC of join-request is invalid, make sure keys are correct","context":{"deduplication_id":"4e91db13"}}`),
			check: func(t *testing.T, m parse.Message) {
				if m.Device == nil || m.Device.Kind != ingest.KindLog || m.Device.Log.Code != "UPLINK_MIC" || m.Device.Log.Level != "ERROR" || !strings.HasPrefix(m.Device.Log.Description, "MIC") {
					t.Errorf("%s", dump(m))
				}
			}},
		{name: "location is of no use", event: "location", body: []byte(`{` + csDoc + `,"location":{"latitude":37.344214,"longitude":-8.839375,"altitude":2}}`),
			check: func(t *testing.T, m parse.Message) {
				if m.Device != nil || m.Downlink != nil {
					t.Errorf("%s", dump(m))
				}
			}},

		{name: "unknown event", event: "down", body: fixture(t, up), errFlds: map[string]string{"event": "ingest.event.unknown"}},
		{name: "no event", event: "", body: fixture(t, up), errFlds: map[string]string{"event": "ingest.event.unknown"}},
		{name: "not JSON", event: "up", body: []byte(`{"deviceInfo":`), errID: "error.badJson"},
		{name: "trailing data", event: "up", body: append(fixture(t, up), []byte(` {}`)...), errID: "error.badJson"},
		{name: "an array", event: "up", body: []byte(`[1]`), errID: "ingest.body.object"},
		{name: "empty", event: "up", body: nil, errID: "error.badJson"},
		{name: "no DevEUI", event: "up", body: variant(t, up, func(m map[string]any) { delete(m, "deviceInfo") }),
			errFlds: map[string]string{"deviceInfo.devEui": "validation.required"}},
		{name: "short DevEUI", event: "up", body: variant(t, up, func(m map[string]any) { sub(m, "deviceInfo")["devEui"] = "01010101" }),
			errFlds: map[string]string{"deviceInfo.devEui": "ingest.devEui.invalid"}},
		{name: "DevEUI not hex", event: "up", body: variant(t, up, func(m map[string]any) { sub(m, "deviceInfo")["devEui"] = "010101010101010g" }),
			errFlds: map[string]string{"deviceInfo.devEui": "ingest.devEui.invalid"}},
		{name: "DevEUI a number", event: "up", body: variant(t, up, func(m map[string]any) { sub(m, "deviceInfo")["devEui"] = 101010101010101 }),
			errFlds: map[string]string{"deviceInfo.devEui": "error.badJsonType"}},
		{name: "deviceInfo a string", event: "up", body: variant(t, up, func(m map[string]any) { m["deviceInfo"] = "x" }),
			errFlds: map[string]string{"deviceInfo": "error.badJsonType"}},
		{name: "port a word", event: "up", body: variant(t, up, func(m map[string]any) { m["fPort"] = "one" }),
			errFlds: map[string]string{"fPort": "ingest.number.invalid"}},
		{name: "port a boolean", event: "up", body: variant(t, up, func(m map[string]any) { m["fPort"] = true }),
			errFlds: map[string]string{"fPort": "error.badJsonType"}},
		{name: "port 256", event: "up", body: variant(t, up, func(m map[string]any) { m["fPort"] = 256 }),
			errFlds: map[string]string{"fPort": "ingest.fPort.invalid"}},
		{name: "fractional port", event: "up", body: variant(t, up, func(m map[string]any) { m["fPort"] = 1.5 }),
			errFlds: map[string]string{"fPort": "ingest.fPort.invalid"}},
		{name: "data not base64", event: "up", body: variant(t, up, func(m map[string]any) { m["data"] = "***" }),
			errFlds: map[string]string{"data": "ingest.data.invalid"}},
		{name: "data a number", event: "up", body: variant(t, up, func(m map[string]any) { m["data"] = 12 }),
			errFlds: map[string]string{"data": "error.badJsonType"}},
		{name: "data too long", event: "up", body: variant(t, up, func(m map[string]any) { m["data"] = strings.Repeat("AAAA", 1400) }),
			errFlds: map[string]string{"data": "ingest.data.tooLong"}},
		{name: "bad time", event: "up", body: variant(t, up, func(m map[string]any) { m["time"] = "yesterday" }),
			errFlds: map[string]string{"time": "ingest.time.invalid"}},
		{name: "a time far ahead", event: "up", body: variant(t, up, func(m map[string]any) { m["time"] = "2030-01-01T00:00:00Z" }),
			errFlds: map[string]string{"time": "ingest.time.invalid"}},
		{name: "object an array", event: "up", body: variant(t, up, func(m map[string]any) { m["object"] = []any{1} }),
			errFlds: map[string]string{"object": "error.badJsonType"}},
		{name: "object too deep", event: "up", body: variant(t, up, func(m map[string]any) {
			var deep any = 1.0
			for range 20 {
				deep = map[string]any{"a": deep}
			}
			m["object"] = deep
		}), errFlds: map[string]string{"object": "ingest.values.tooDeep"}},
		{name: "object with too many values", event: "up", body: variant(t, up, func(m map[string]any) {
			many := make([]any, 300)
			for i := range many {
				many[i] = i
			}
			m["object"] = map[string]any{"list": many}
		}), errFlds: map[string]string{"object": "ingest.values.tooMany"}},
		{name: "a number too large", event: "up", body: []byte(`{` + csDoc + `,"object":{"x":1e999}}`),
			errFlds: map[string]string{"object": "ingest.number.invalid"}},
		{name: "rxInfo an object", event: "up", body: variant(t, up, func(m map[string]any) { m["rxInfo"] = map[string]any{} }),
			errFlds: map[string]string{"rxInfo": "error.badJsonType"}},
		{name: "rssi a word", event: "up", body: variant(t, up, func(m map[string]any) { m["rxInfo"].([]any)[0].(map[string]any)["rssi"] = "loud" }),
			errFlds: map[string]string{"rxInfo[0].rssi": "ingest.number.invalid"}},
		{name: "status margin a list", event: "status", body: []byte(`{` + csDoc + `,"margin":[10]}`),
			errFlds: map[string]string{"margin": "error.badJsonType"}},
	})
}

func tts(_ string, body []byte) (parse.Message, error) { return parse.TTS(body, window) }

func ttsUp() *parse.Message {
	at := time.Date(2021, 7, 7, 10, 50, 0, 384736040, time.UTC)
	return &parse.Message{Device: &ingest.Message{Kind: ingest.KindUplink, Source: "tts", DevEUI: "0004a30b001c1452", Time: at,
		Uplink: &ingest.Uplink{DevEUI: "0004a30b001c1452", Time: at, FPort: 1, FCnt: 420, Payload: []byte{1},
			RSSI: f64(-89), SNR: f64(9), GatewayID: "58A0CBFFFE8012E8", Gateways: 1, Frequency: 867900000,
			Receptions:      []ingest.Reception{{GatewayID: "58A0CBFFFE8012E8", RSSI: f64(-89), SNR: f64(9)}},
			SpreadingFactor: 7, DR: 5, DevAddr: "26001B76", DeviceName: "test-dev-01",
			Object: map[string]any{"bytes": []any{1.0}}}}}
}

const ttsIDs = `"end_device_ids":{"device_id":"dev1","application_ids":{"application_id":"app1"},"dev_eui":"0004A30B001C0530","join_eui":"800000000000000C","dev_addr":"00C30DFA"}`

func TestParseTTS(t *testing.T) {
	t.Parallel()
	const up = "tts_v3_uplink.json"
	downlink := func(name string) []byte {
		return []byte(`{` + ttsIDs + `,"correlation_ids":["as:downlink:01E19B99501X84X6CV471TVSZ1"],"received_at":"2020-02-17T10:32:24.590413417Z","` + name +
			`":{"session_key_id":"AXBSp8v2brG0jqkri+sIkw==","f_port":15,"f_cnt":1,"frm_payload":"vu8=","confirmed":true,"priority":"NORMAL","correlation_ids":["as:downlink:01E19B99501X84X6CV471TVSZ1","fieldhub:downlink:f1e1d000-0000-4000-8000-00000000002a"]}}`)
	}
	runParse(t, tts, []parseCase{
		{name: "the console's uplink", body: fixture(t, up), want: ttsUp()},
		{name: "f_port left out", body: variant(t, up, func(m map[string]any) { delete(sub(m, "uplink_message"), "f_port") }),
			want: with(ttsUp(), func(m *ingest.Message) { m.Uplink.FPort = 0 })},
		{name: "frequency as a number, counter as a string", body: variant(t, up, func(m map[string]any) {
			sub(m, "uplink_message", "settings")["frequency"] = 867900000
			sub(m, "uplink_message")["f_cnt"] = "420"
		}), want: ttsUp()},
		{name: "lower-case DevEUI", body: variant(t, up, func(m map[string]any) { sub(m, "end_device_ids")["dev_eui"] = "0004a30b001c1452" }),
			want: ttsUp()},
		{name: "no decoded payload, no gateways", body: variant(t, up, func(m map[string]any) {
			delete(sub(m, "uplink_message"), "decoded_payload")
			delete(sub(m, "uplink_message"), "rx_metadata")
		}), want: with(ttsUp(), func(m *ingest.Message) {
			m.Uplink.Object, m.Uplink.RSSI, m.Uplink.SNR, m.Uplink.GatewayID, m.Uplink.Gateways, m.Uplink.Receptions = nil, nil, nil, "", 0, nil
		})},
		{name: "a gateway without EUI, heard by channel RSSI", body: variant(t, up, func(m map[string]any) {
			g := sub(m, "uplink_message")["rx_metadata"].([]any)[0].(map[string]any)
			delete(g, "rssi")
			delete(g["gateway_ids"].(map[string]any), "eui")
			g["channel_rssi"] = -91
		}), want: with(ttsUp(), func(m *ingest.Message) {
			m.Uplink.RSSI, m.Uplink.GatewayID = f64(-91), "ttig-12e8"
			m.Uplink.Receptions = []ingest.Reception{{GatewayID: "ttig-12e8", RSSI: f64(-91), SNR: f64(9)}}
		})},
		{name: "no received_at anywhere", body: variant(t, up, func(m map[string]any) {
			delete(m, "received_at")
			delete(sub(m, "uplink_message"), "received_at")
		}), check: func(t *testing.T, m parse.Message) {
			if !m.Device.Time.Equal(now) {
				t.Errorf("time %v", m.Device.Time)
			}
		}},
		{name: "join accept", body: []byte(`{` + ttsIDs + `,"correlation_ids":["as:up:01E191YN5F2HMBQCBCVRF731VY"],"received_at":"2020-02-17T07:49:09.935284891Z","join_accept":{"session_key_id":"AXBSH1Pk6Z0G166RlH16CQ==","received_at":"2020-02-17T07:49:09.736532315Z"}}`),
			check: func(t *testing.T, m parse.Message) {
				if m.Device == nil || m.Device.Kind != ingest.KindJoin || m.DevEUI() != "0004a30b001c0530" {
					t.Errorf("%s", dump(m))
				}
			}},
		{name: "downlink ack", body: downlink("downlink_ack"), check: func(t *testing.T, m parse.Message) {
			if m.Downlink == nil || m.Downlink.Kind != netservers.ReportAck || !m.Downlink.Acknowledged || m.Downlink.FPort != 15 || len(m.Downlink.Refs) != 2 {
				t.Errorf("%s", dump(m))
			}
		}},
		{name: "downlink nack", body: downlink("downlink_nack"), check: func(t *testing.T, m parse.Message) {
			if m.Downlink == nil || m.Downlink.Kind != netservers.ReportAck || m.Downlink.Acknowledged {
				t.Errorf("%s", dump(m))
			}
		}},
		{name: "downlink sent", body: downlink("downlink_sent"), check: func(t *testing.T, m parse.Message) {
			if m.Downlink == nil || m.Downlink.Kind != netservers.ReportSent {
				t.Errorf("%s", dump(m))
			}
		}},
		{name: "downlink queued is of no use", body: downlink("downlink_queued"), check: func(t *testing.T, m parse.Message) {
			if m.Device != nil || m.Downlink != nil {
				t.Errorf("%s", dump(m))
			}
		}},
		{name: "downlink failed, without DevEUI", body: []byte(`{"end_device_ids":{"device_id":"dev1","application_ids":{"application_id":"app1"}},"correlation_ids":["as:downlink:01E19Z5W3BZBG7CXSJE9C0A3CE"],"downlink_failed":{"downlink":{"f_port":15,"frm_payload":"vu8=","confirmed":true,"priority":"NORMAL","correlation_ids":["as:downlink:01E19Z5W3BZBG7CXSJE9C0A3CE"]},"error":{"namespace":"pkg/networkserver","name":"application_downlink_too_long","message_format":"application downlink payload is too long","correlation_id":"2e7f786912e946e597894e381d0ad7b0","code":3}}}`),
			check: func(t *testing.T, m parse.Message) {
				if m.Downlink == nil || m.Downlink.Kind != netservers.ReportFailed || m.DevEUI() != "" || m.Downlink.Error != "application downlink payload is too long" {
					t.Errorf("%s", dump(m))
				}
			}},

		{name: "none of the messages", body: []byte(`{` + ttsIDs + `}`), errID: "ingest.message.unknown"},
		{name: "empty object", body: []byte(`{}`), errID: "ingest.message.unknown"},
		{name: "not JSON", body: []byte(`uplink_message`), errID: "error.badJson"},
		{name: "uplink without DevEUI", body: variant(t, up, func(m map[string]any) { delete(sub(m, "end_device_ids"), "dev_eui") }),
			errFlds: map[string]string{"end_device_ids.dev_eui": "validation.required"}},
		{name: "bad DevEUI", body: variant(t, up, func(m map[string]any) { sub(m, "end_device_ids")["dev_eui"] = "0004A30B001C14" }),
			errFlds: map[string]string{"end_device_ids.dev_eui": "ingest.devEui.invalid"}},
		{name: "payload not base64", body: variant(t, up, func(m map[string]any) { sub(m, "uplink_message")["frm_payload"] = "A" }),
			errFlds: map[string]string{"uplink_message.frm_payload": "ingest.data.invalid"}},
		{name: "decoded payload a string", body: variant(t, up, func(m map[string]any) { sub(m, "uplink_message")["decoded_payload"] = "x" }),
			errFlds: map[string]string{"uplink_message.decoded_payload": "error.badJsonType"}},
		{name: "frequency a word", body: variant(t, up, func(m map[string]any) { sub(m, "uplink_message", "settings")["frequency"] = "high" }),
			errFlds: map[string]string{"uplink_message.settings.frequency": "ingest.number.invalid"}},
		{name: "uplink_message a list", body: []byte(`{` + ttsIDs + `,"uplink_message":[]}`),
			errFlds: map[string]string{"uplink_message": "error.badJsonType"}},
	})
}

func generic(_ string, body []byte) (parse.Message, error) { return parse.Generic(body, window) }

func TestParseGeneric(t *testing.T) {
	t.Parallel()
	at := time.Date(2024, 5, 1, 11, 59, 0, 0, time.UTC)
	runParse(t, generic, []parseCase{
		{name: "everything", body: []byte(`{"devEui":"70B3D57ED0000001","time":"2024-05-01T13:59:00+02:00","fPort":2,"data":"AQI=",
			"values":{"temperature":21.5,"door":{"open":true}},"rssi":-80,"snr":7.5,"battery":3.6}`),
			want: &parse.Message{Device: &ingest.Message{Kind: ingest.KindUplink, Source: "generic", DevEUI: "70b3d57ed0000001", Time: at,
				Uplink: &ingest.Uplink{DevEUI: "70b3d57ed0000001", Time: at, FPort: 2, Payload: []byte{1, 2},
					RSSI: f64(-80), SNR: f64(7.5), Battery: f64(3.6),
					Values: map[string]any{"temperature": 21.5, "door": map[string]any{"open": true}}}}}},
		{name: "only the DevEUI", body: []byte(`{"devEui":"70b3d57ed0000001"}`),
			want: &parse.Message{Device: &ingest.Message{Kind: ingest.KindUplink, Source: "generic", DevEUI: "70b3d57ed0000001", Time: now,
				Uplink: &ingest.Uplink{DevEUI: "70b3d57ed0000001", Time: now}}}},
		{name: "names in any case, numbers as strings", body: []byte(`{"DEVEUI":"70:b3:d5:7e:d0:00:00:01","FPort":"3","RSSI":"-99"}`),
			check: func(t *testing.T, m parse.Message) {
				if m.DevEUI() != "70b3d57ed0000001" || m.Device.Uplink.FPort != 3 || *m.Device.Uplink.RSSI != -99 {
					t.Errorf("%s", dump(m))
				}
			}},
		{name: "the gateways that heard it, the strongest standing for the uplink", body: []byte(`{"devEui":"70b3d57ed0000001",
			"rxInfo":[{"gatewayId":"0016c001f153a14c","rssi":-101,"snr":-2},{"gatewayId":"aa555a0000000001","rssi":-75,"snr":8.5},{"gatewayId":"aa555a0000000002"}]}`),
			want: &parse.Message{Device: &ingest.Message{Kind: ingest.KindUplink, Source: "generic", DevEUI: "70b3d57ed0000001", Time: now,
				Uplink: &ingest.Uplink{DevEUI: "70b3d57ed0000001", Time: now, RSSI: f64(-75), SNR: f64(8.5), GatewayID: "aa555a0000000001", Gateways: 3,
					Receptions: []ingest.Reception{{GatewayID: "0016c001f153a14c", RSSI: f64(-101), SNR: f64(-2)},
						{GatewayID: "aa555a0000000001", RSSI: f64(-75), SNR: f64(8.5)}, {GatewayID: "aa555a0000000002"}}}}}},
		{name: "the uplink's own rssi and snr beside rxInfo", body: []byte(`{"devEui":"70b3d57ed0000001","rssi":-80,"snr":7,
			"rxInfo":[{"gatewayId":"aa555a0000000001","rssi":-75,"snr":8.5}]}`),
			check: func(t *testing.T, m parse.Message) {
				u := m.Device.Uplink
				if *u.RSSI != -80 || *u.SNR != 7 || u.GatewayID != "aa555a0000000001" || len(u.Receptions) != 1 {
					t.Errorf("%s", dump(m))
				}
			}},
		{name: "null values are absent", body: []byte(`{"devEui":"70b3d57ed0000001","values":null,"data":null,"rssi":null}`),
			want: &parse.Message{Device: &ingest.Message{Kind: ingest.KindUplink, Source: "generic", DevEUI: "70b3d57ed0000001", Time: now,
				Uplink: &ingest.Uplink{DevEUI: "70b3d57ed0000001", Time: now}}}},

		{name: "an unknown field", body: []byte(`{"devEui":"70b3d57ed0000001","temperature":21}`),
			errFlds: map[string]string{"temperature": "ingest.field.unknown"}},
		{name: "no DevEUI", body: []byte(`{"values":{"a":1}}`), errFlds: map[string]string{"devEui": "validation.required"}},
		{name: "bad DevEUI", body: []byte(`{"devEui":"hello"}`), errFlds: map[string]string{"devEui": "ingest.devEui.invalid"}},
		{name: "bad base64", body: []byte(`{"devEui":"70b3d57ed0000001","data":"!!"}`), errFlds: map[string]string{"data": "ingest.data.invalid"}},
		{name: "port 300", body: []byte(`{"devEui":"70b3d57ed0000001","fPort":300}`), errFlds: map[string]string{"fPort": "ingest.fPort.invalid"}},
		{name: "a Unix time", body: []byte(`{"devEui":"70b3d57ed0000001","time":1714564740}`), errFlds: map[string]string{"time": "error.badJsonType"}},
		{name: "a time before the stores' range", body: []byte(`{"devEui":"70b3d57ed0000001","time":"1600-01-01T00:00:00Z"}`),
			errFlds: map[string]string{"time": "ingest.time.invalid"}},
		{name: "values a list", body: []byte(`{"devEui":"70b3d57ed0000001","values":[1,2]}`), errFlds: map[string]string{"values": "error.badJsonType"}},
		{name: "battery a word", body: []byte(`{"devEui":"70b3d57ed0000001","battery":"full"}`), errFlds: map[string]string{"battery": "ingest.number.invalid"}},
		{name: "a gateway's RSSI a word", body: []byte(`{"devEui":"70b3d57ed0000001","rxInfo":[{"gatewayId":"aa555a0000000001","rssi":"loud"}]}`),
			errFlds: map[string]string{"rxInfo[0].rssi": "ingest.number.invalid"}},
		{name: "several problems at once", body: []byte(`{"devEui":"x","fPort":-1,"data":"*"}`),
			errFlds: map[string]string{"devEui": "ingest.devEui.invalid", "fPort": "ingest.fPort.invalid", "data": "ingest.data.invalid"}},
	})
}

// TestImplausibleValuesAreRefused: a time further back than the window (a
// clock at 1970) and readings no device reports (an RSSI of 1e308) are
// refused as field errors naming the JSON path, by every parser. The
// window is a month unless configured.
func TestImplausibleValuesAreRefused(t *testing.T) {
	t.Parallel()
	month := parse.Window{Now: now} // the default: 30 days back
	recent := now.Add(-29 * 24 * time.Hour).Format(time.RFC3339)
	old := now.Add(-31 * 24 * time.Hour).Format(time.RFC3339)
	const epoch = "1970-01-01T00:00:00Z"
	csUp := func(edit func(m map[string]any)) []byte {
		return variant(t, "chirpstack_v4_up.json", func(m map[string]any) { m["time"] = recent; edit(m) })
	}
	ttsUp := func(edit func(m map[string]any)) []byte {
		return variant(t, "tts_v3_uplink.json", func(m map[string]any) {
			m["received_at"] = recent
			sub(m, "uplink_message")["received_at"] = recent
			edit(m)
		})
	}
	rx := func(m map[string]any, path ...string) map[string]any {
		for _, k := range path[:len(path)-1] {
			m = m[k].(map[string]any)
		}
		return m[path[len(path)-1]].([]any)[0].(map[string]any)
	}
	status := func(margin, level string) []byte {
		return []byte(`{"time":"` + recent + `","deviceInfo":{"devEui":"0101010101010101"},"margin":` + margin + `,"batteryLevel":` + level + `}`)
	}
	cases := []struct {
		name   string
		parse  func() (parse.Message, error)
		field  string // "" for a message that is taken
		id     string
		checks func(t *testing.T, m parse.Message)
	}{
		{"generic: a time at 1970", func() (parse.Message, error) {
			return parse.Generic([]byte(`{"devEui":"70b3d57ed0000001","time":"`+epoch+`"}`), month)
		}, "time", parse.IDTimeTooOld, nil},
		{"generic: 31 days back", func() (parse.Message, error) {
			return parse.Generic([]byte(`{"devEui":"70b3d57ed0000001","time":"`+old+`"}`), month)
		}, "time", parse.IDTimeTooOld, nil},
		{"generic: 29 days back is history, taken", func() (parse.Message, error) {
			return parse.Generic([]byte(`{"devEui":"70b3d57ed0000001","time":"`+recent+`","rssi":-120.5,"snr":-19,"battery":3600}`), month)
		}, "", "", func(t *testing.T, m parse.Message) {
			if u := m.Device.Uplink; *u.RSSI != -120.5 || *u.SNR != -19 || *u.Battery != 3600 {
				t.Errorf("uplink %+v", u)
			}
		}},
		{"generic: 31 days back within a window of 60", func() (parse.Message, error) {
			return parse.Generic([]byte(`{"devEui":"70b3d57ed0000001","time":"`+old+`"}`), parse.Window{Now: now, MaxAge: 60 * 24 * time.Hour})
		}, "", "", nil},
		{"generic: an RSSI of 1e308", func() (parse.Message, error) {
			return parse.Generic([]byte(`{"devEui":"70b3d57ed0000001","rssi":1e308}`), month)
		}, "rssi", parse.IDNumberRange, nil},
		{"generic: a battery of 1e308", func() (parse.Message, error) {
			return parse.Generic([]byte(`{"devEui":"70b3d57ed0000001","battery":1e308}`), month)
		}, "battery", parse.IDNumberRange, nil},
		{"generic: a negative battery", func() (parse.Message, error) {
			return parse.Generic([]byte(`{"devEui":"70b3d57ed0000001","battery":-3.6}`), month)
		}, "battery", parse.IDNumberRange, nil},
		{"generic: an SNR of -1e308", func() (parse.Message, error) {
			return parse.Generic([]byte(`{"devEui":"70b3d57ed0000001","snr":-1e308}`), month)
		}, "snr", parse.IDNumberRange, nil},
		{"ChirpStack: a time at 1970", func() (parse.Message, error) {
			return parse.ChirpStack("up", csUp(func(m map[string]any) { m["time"] = epoch }), month)
		}, "time", parse.IDTimeTooOld, nil},
		{"ChirpStack: a gateway's RSSI of 1e308", func() (parse.Message, error) {
			return parse.ChirpStack("up", csUp(func(m map[string]any) { rx(m, "rxInfo")["rssi"] = 1e308 }), month)
		}, "rxInfo[0].rssi", parse.IDNumberRange, nil},
		{"ChirpStack: a gateway's SNR of 99", func() (parse.Message, error) {
			return parse.ChirpStack("up", csUp(func(m map[string]any) { rx(m, "rxInfo")["snr"] = 99 }), month)
		}, "rxInfo[0].snr", parse.IDNumberRange, nil},
		{"ChirpStack: a battery level of 250 %", func() (parse.Message, error) {
			return parse.ChirpStack("status", status("10", "250"), month)
		}, "batteryLevel", parse.IDNumberRange, nil},
		{"ChirpStack: a margin of 1e308", func() (parse.Message, error) {
			return parse.ChirpStack("status", status("1e308", "50"), month)
		}, "margin", parse.IDNumberRange, nil},
		{"ChirpStack: a join at 1970", func() (parse.Message, error) {
			return parse.ChirpStack("join", []byte(`{"time":"`+epoch+`","deviceInfo":{"devEui":"0101010101010101"}}`), month)
		}, "time", parse.IDTimeTooOld, nil},
		{"The Things Stack: an uplink received at 1970", func() (parse.Message, error) {
			return parse.TTS(ttsUp(func(m map[string]any) { sub(m, "uplink_message")["received_at"] = epoch }), month)
		}, "uplink_message.received_at", parse.IDTimeTooOld, nil},
		{"The Things Stack: a message received at 1970", func() (parse.Message, error) {
			return parse.TTS(ttsUp(func(m map[string]any) { m["received_at"] = epoch }), month)
		}, "received_at", parse.IDTimeTooOld, nil},
		{"The Things Stack: a gateway's RSSI of 1e308", func() (parse.Message, error) {
			return parse.TTS(ttsUp(func(m map[string]any) { rx(m, "uplink_message", "rx_metadata")["rssi"] = 1e308 }), month)
		}, "uplink_message.rx_metadata[0].rssi", parse.IDNumberRange, nil},
		{"The Things Stack: a gateway's channel RSSI of -1e308", func() (parse.Message, error) {
			return parse.TTS(ttsUp(func(m map[string]any) {
				g := rx(m, "uplink_message", "rx_metadata")
				delete(g, "rssi")
				g["channel_rssi"] = -1e308
			}), month)
		}, "uplink_message.rx_metadata[0].channel_rssi", parse.IDNumberRange, nil},
		{"The Things Stack: a recent uplink is taken", func() (parse.Message, error) {
			return parse.TTS(ttsUp(func(map[string]any) {}), month)
		}, "", "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, err := tc.parse()
			if tc.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if tc.checks != nil {
					tc.checks(t, m)
				}
				return
			}
			var e *errs.Error
			if !errors.As(err, &e) || e.Kind != errs.Invalid {
				t.Fatalf("got %+v, %v; want an Invalid error", m, err)
			}
			found := false
			for _, f := range e.Fields {
				found = found || f.Field == tc.field && f.ID == tc.id
			}
			if !found {
				t.Errorf("no %s error on %s: %+v", tc.id, tc.field, e.Fields)
			}
		})
	}
}
