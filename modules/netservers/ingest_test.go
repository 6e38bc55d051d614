package netservers_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/netservers"
)

// The DevEUIs of the fixtures, as the nodes module and the time series
// spell them.
const (
	csEUI  = "0101010101010101"
	ttsEUI = "0004a30b001c1452"
)

// env is a running portal with two companies, Acme and Beta. Acme has a
// node for each fixture's DevEUI ("cs", "tts"); both have an integration
// token.
type env struct {
	*kerneltest.Tenants
	k      *kernel.Kernel
	c      *kerneltest.Client
	store  tsdb.Store
	events *kerneltest.Recorder
}

func newEnv(t *testing.T, d db.Dialect) *env {
	t.Helper()
	p := kerneltest.Start(t, d, nil, app.Build)
	e := &env{k: p.App.Kernel(), c: p.Client, store: p.App.Series(), events: kerneltest.Record(p.Host().Bus, ingest.UplinkReceived{}.Topic())}
	e.Tenants = kerneltest.Companies(t, p.Client, p.App, kerneltest.CompanySpec{Key: "acme", Ingest: true, App: "Field", Nodes: []kerneltest.NodeSpec{
		{Key: "cs", Name: "Node cs", DevEUI: csEUI}, {Key: "tts", Name: "Node tts", DevEUI: strings.ToUpper(ttsEUI)}}},
		kerneltest.CompanySpec{Key: "beta", Ingest: true}).Tenants(t)
	return e
}

// post sends a raw body to an ingest route with an integration token.
func (e *env) post(t *testing.T, company, path string, body []byte) kerneltest.Response {
	t.Helper()
	return e.c.Call(t, "POST", path, e.Token[company], body, "Content-Type", "application/json")
}

func (e *env) latest(t *testing.T, company int64, eui, key string) (tsdb.Point, bool) {
	t.Helper()
	return kerneltest.Latest(t, e.store, tsdb.Series{Company: company, DevEUI: eui, Key: key})
}

// count is how many points a company has in all.
func (e *env) count(t *testing.T, company int64) int64 {
	t.Helper()
	n, err := e.store.Count(context.Background(), company, tsdb.MinTime, tsdb.MaxTime.Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (e *env) published(t *testing.T, ok func(ingest.UplinkReceived) bool) ingest.UplinkReceived {
	t.Helper()
	var found ingest.UplinkReceived
	kerneltest.WaitFor(t, 5*time.Second, func() bool {
		for _, ev := range e.events.Events() {
			if ev, is := ev.(ingest.UplinkReceived); is && ok(ev) {
				found = ev
				return true
			}
		}
		return false
	}, func() string { return fmt.Sprintf("no such UplinkReceived among %+v", e.events.Events()) })
	return found
}

func TestIngest(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		acme, beta := e.ID["acme"], e.ID["beta"]
		csAt := time.Date(2022, 7, 18, 9, 34, 15, 775023000, time.UTC)

		t.Run("the ChirpStack fixture is stored", func(t *testing.T) {
			r := e.post(t, "acme", "/api/ingest/chirpstack?event=up", fixture(t, "chirpstack_v4_up.json"))
			if r.Status != http.StatusOK || r.Num("tagId") != e.ID["cs"] || r.Str("devEui") != csEUI {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			want := map[string]any{"raw": "aa", "length": 1.0, "rssi": -36.0, "snr": 10.5}
			for key, v := range want {
				p, ok := e.latest(t, acme, csEUI, key)
				got := any(p.Value)
				if p.IsText {
					got = p.Text
				}
				if !ok || got != v || !p.Time.Equal(csAt) {
					t.Errorf("series %s: %+v, %v; want %v at %v", key, p, ok, v, csAt)
				}
			}
			meta := e.c.TagData(t, e.Admin["acme"], e.ID["cs"])
			for key, v := range want {
				if meta[key] == nil || meta[key]["value"] != v || meta[key]["time"] != "2022-07-18T09:34:15.775023Z" {
					t.Errorf("tagdata %s: %v", key, meta[key])
				}
			}
			tag := e.c.Must(t, "GET", fmt.Sprintf("/api/tag/%d", e.ID["cs"]), e.Admin["acme"], nil, http.StatusOK).Obj()
			if tag["rssi"] != -36.0 || tag["latestTime"] != "2022-07-18T09:34:15.775023Z" || tag["data"].(map[string]any)["raw"] != "aa" {
				t.Errorf("tag %v", tag)
			}
			ev := e.published(t, func(ev ingest.UplinkReceived) bool { return ev.DevEUI == csEUI })
			if ev.CompanyID != acme || ev.TagID != e.ID["cs"] || ev.Name != "Node cs" || !ev.Time.Equal(csAt) || ev.Data["raw"] != "aa" || ev.Data["rssi"] != -36.0 {
				t.Errorf("event %+v", ev)
			}
		})

		t.Run("a redelivery changes nothing", func(t *testing.T) {
			before := e.count(t, acme)
			if r := e.post(t, "acme", "/api/ingest/chirpstack?event=up", fixture(t, "chirpstack_v4_up.json")); r.Status != http.StatusOK {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			if after := e.count(t, acme); after != before {
				t.Errorf("%d points, then %d", before, after)
			}
		})

		t.Run("the TTS fixture is stored with its decoded payload", func(t *testing.T) {
			r := e.post(t, "acme", "/api/ingest/tts", fixture(t, "tts_v3_uplink.json"))
			if r.Status != http.StatusOK || r.Num("tagId") != e.ID["tts"] || r.Str("devEui") != strings.ToUpper(ttsEUI) {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			at := time.Date(2021, 7, 7, 10, 50, 0, 384736000, time.UTC)
			for key, v := range map[string]float64{"bytes.0": 1, "rssi": -89, "snr": 9} {
				if p, ok := e.latest(t, acme, ttsEUI, key); !ok || p.Value != v || !p.Time.Equal(at) {
					t.Errorf("series %s: %+v, %v", key, p, ok)
				}
			}
			if _, ok := e.latest(t, acme, ttsEUI, "raw"); ok {
				t.Error("the raw payload was stored beside the decoded one")
			}
			if m := e.c.TagData(t, e.Admin["acme"], e.ID["tts"]); m["bytes.0"]["value"] != 1.0 || m["rssi"]["value"] != -89.0 {
				t.Errorf("tagdata %v", m)
			}
			e.published(t, func(ev ingest.UplinkReceived) bool { return ev.DevEUI == ttsEUI && ev.Data["bytes.0"] == 1.0 })
		})

		t.Run("ChirpStack's object and the latest values", func(t *testing.T) {
			body := variant(t, "chirpstack_v4_up.json", func(m map[string]any) {
				m["time"] = "2022-07-18T10:00:00Z"
				m["object"] = map[string]any{"temperature": 21.5, "vdd": 3610, "door": map[string]any{"open": true}, "state": "ok"}
			})
			if r := e.post(t, "acme", "/api/ingest/chirpstack?event=up", body); r.Status != http.StatusOK {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			tag := e.c.Must(t, "GET", fmt.Sprintf("/api/tag/%d", e.ID["cs"]), e.Admin["acme"], nil, http.StatusOK).Obj()
			data := tag["data"].(map[string]any)
			// An Elsys-style vdd in millivolts is the node's battery voltage in
			// volts, and no percent.
			if tag["battery"] != nil || tag["batteryVoltage"] != 3.61 || tag["vdd"] != 3.61 || tag["latestTime"] != "2022-07-18T10:00:00Z" ||
				data["temperature"] != 21.5 || data["door.open"] != 1.0 || data["state"] != "ok" || data["raw"] != nil {
				t.Errorf("tag %v", tag)
			}
			if p, ok := e.latest(t, acme, csEUI, "state"); !ok || !p.IsText || p.Text != "ok" {
				t.Errorf("text series: %+v", p)
			}
			var keys []string
			for _, k := range e.c.Must(t, "GET", fmt.Sprintf("/api/tag/%d/keys", e.ID["cs"]), e.Admin["acme"], nil, http.StatusOK).List() {
				keys = append(keys, k.(map[string]any)["key"].(string))
			}
			if strings.Join(keys, " ") != "door.open length raw rssi snr state temperature vdd" {
				t.Errorf("keys %v", keys)
			}
		})

		t.Run("an older uplink is stored but leaves the latest values", func(t *testing.T) {
			body := variant(t, "chirpstack_v4_up.json", func(m map[string]any) {
				m["time"] = "2022-07-18T09:50:00Z"
				m["object"] = map[string]any{"temperature": 19.0}
			})
			if r := e.post(t, "acme", "/api/ingest/chirpstack?event=up", body); r.Status != http.StatusOK {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			pts, err := e.store.Range(context.Background(), tsdb.Series{Company: acme, DevEUI: csEUI, Key: "temperature"}, csAt, csAt.Add(time.Hour), 100)
			if err != nil || len(pts) != 2 || pts[0].Value != 19 || pts[1].Value != 21.5 {
				t.Errorf("temperature %+v, %v", pts, err)
			}
			if m := e.c.TagData(t, e.Admin["acme"], e.ID["cs"]); m["temperature"]["value"] != 21.5 || m["temperature"]["time"] != "2022-07-18T10:00:00Z" {
				t.Errorf("latest temperature %v", m["temperature"])
			}
		})

		t.Run("the generic form", func(t *testing.T) {
			r := e.post(t, "acme", "/api/ingest/generic", []byte(`{"devEui":"00-04-A3-0B-00-1C-14-52","time":"2024-01-01T00:00:00Z",
				"fPort":2,"data":"AQI=","values":{"humidity":40},"rssi":-70,"battery":3.3}`))
			if r.Status != http.StatusOK {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			tag := e.c.Must(t, "GET", fmt.Sprintf("/api/tag/%d", e.ID["tts"]), e.Admin["acme"], nil, http.StatusOK).Obj()
			data := tag["data"].(map[string]any)
			if tag["battery"] != nil || tag["batteryVoltage"] != 3.3 || tag["rssi"] != -70.0 || data["humidity"] != 40.0 || data["raw"] != "0102" || data["length"] != 2.0 {
				t.Errorf("tag %v", tag)
			}
		})

		t.Run("a device status", func(t *testing.T) {
			body := []byte(`{"time":"2024-01-01T01:00:00Z","deviceInfo":{"devEui":"` + ttsEUI + `"},"margin":10,"batteryLevel":88.3}`)
			if r := e.post(t, "acme", "/api/ingest/chirpstack?event=status", body); r.Status != http.StatusNoContent {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			if p, ok := e.latest(t, acme, ttsEUI, "batteryLevel"); !ok || p.Value != 88.3 {
				t.Errorf("batteryLevel %+v", p)
			}
			if p, ok := e.latest(t, acme, ttsEUI, "margin"); !ok || p.Value != 10 {
				t.Errorf("margin %+v", p)
			}
			// The node's uplinks report a voltage but no percent: the level
			// is the battery's percent, and the voltage stays.
			tag := e.c.Must(t, "GET", fmt.Sprintf("/api/tag/%d", e.ID["tts"]), e.Admin["acme"], nil, http.StatusOK).Obj()
			if tag["battery"] != 88.3 || tag["batteryVoltage"] != 3.3 {
				t.Errorf("battery %v %% and %v V", tag["battery"], tag["batteryVoltage"])
			}
			// Once its uplinks report a percent of their own, the network
			// server's estimate no longer replaces it.
			if r := e.post(t, "acme", "/api/ingest/generic", []byte(`{"devEui":"`+ttsEUI+`","time":"2024-01-01T02:00:00Z",
				"values":{"humidity":41},"battery":64}`)); r.Status != http.StatusOK {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			body = []byte(`{"time":"2024-01-01T03:00:00Z","deviceInfo":{"devEui":"` + ttsEUI + `"},"margin":10,"batteryLevel":20}`)
			if r := e.post(t, "acme", "/api/ingest/chirpstack?event=status", body); r.Status != http.StatusNoContent {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			tag = e.c.Must(t, "GET", fmt.Sprintf("/api/tag/%d", e.ID["tts"]), e.Admin["acme"], nil, http.StatusOK).Obj()
			if tag["battery"] != 64.0 || tag["batteryVoltage"] != 3.3 {
				t.Errorf("battery %v %% and %v V after the node's own percent", tag["battery"], tag["batteryVoltage"])
			}
		})

		t.Run("an unknown DevEUI lands in the pool", func(t *testing.T) {
			before := e.count(t, acme)
			body := variant(t, "chirpstack_v4_up.json", func(m map[string]any) { sub(m, "deviceInfo")["devEui"] = "A1A2A3A4A5A6A7A8" })
			r := e.post(t, "acme", "/api/ingest/chirpstack?event=up", body)
			if r.Status != http.StatusAccepted || r.Obj()["pooled"] != true {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			if r := e.post(t, "acme", "/api/ingest/tts", variant(t, "tts_v3_uplink.json", func(m map[string]any) {
				sub(m, "end_device_ids")["dev_eui"] = "B1B2B3B4B5B6B7B8"
			})); r.Status != http.StatusAccepted {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			pool := e.c.Must(t, "GET", "/api/tag/pool", e.Super, nil, http.StatusOK).List()
			sources := map[string]any{}
			for _, p := range pool {
				sources[p.(map[string]any)["deveui"].(string)] = p.(map[string]any)["source"]
			}
			if sources["A1A2A3A4A5A6A7A8"] != "chirpstack" || sources["B1B2B3B4B5B6B7B8"] != "tts" || len(sources) != 2 {
				t.Errorf("pool %v", pool)
			}
			if after := e.count(t, acme); after != before {
				t.Errorf("a pooled uplink stored %d points", after-before)
			}
		})

		t.Run("another company's token cannot write to this company's node", func(t *testing.T) {
			before := e.c.TagData(t, e.Admin["acme"], e.ID["cs"])
			body := variant(t, "chirpstack_v4_up.json", func(m map[string]any) {
				m["time"] = "2022-07-18T11:00:00Z"
				m["object"] = map[string]any{"temperature": -40}
			})
			r := e.post(t, "beta", "/api/ingest/chirpstack?event=up", body)
			if r.Status != http.StatusAccepted || strings.Contains(string(r.Body), "tagId") {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			if n := e.count(t, beta); n != 0 {
				t.Errorf("beta has %d points", n)
			}
			if p, _ := e.latest(t, acme, csEUI, "temperature"); p.Value != 21.5 {
				t.Errorf("acme's temperature became %v", p.Value)
			}
			if after := e.c.TagData(t, e.Admin["acme"], e.ID["cs"]); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Errorf("acme's tag changed:\n%v\n%v", before, after)
			}
			for _, p := range e.c.Must(t, "GET", "/api/tag/pool?status=all", e.Super, nil, http.StatusOK).List() {
				if p.(map[string]any)["deveui"] == strings.ToUpper(csEUI) {
					t.Errorf("a tagged DevEUI went to the pool: %v", p)
				}
			}
		})

		t.Run("tokens", func(t *testing.T) {
			body := fixture(t, "chirpstack_v4_up.json")
			for name, token := range map[string]string{
				"none": "", "unknown": "fh_" + strings.Repeat("x", 40), "a session token": e.Admin["acme"],
				"a truncated token": e.Token["acme"][:10],
			} {
				r := e.c.Call(t, "POST", "/api/ingest/chirpstack?event=up", token, body)
				if r.Status != http.StatusUnauthorized || r.Str("id") != "nodes.token.invalid" || r.Str("message") != "The integration token is not valid" {
					t.Errorf("%s: %d %s", name, r.Status, r.Body)
				}
			}
			r := e.c.Call(t, "POST", "/api/ingest/generic", "", []byte(`{"devEui":"0101010101010101"}`), "Authorization", "Basic "+e.Token["acme"])
			if r.Status != http.StatusUnauthorized {
				t.Errorf("basic scheme: %d %s", r.Status, r.Body)
			}
		})

		t.Run("malformed bodies change nothing", func(t *testing.T) {
			before := e.count(t, acme)
			poolBefore := len(e.c.Must(t, "GET", "/api/tag/pool?status=all", e.Super, nil, http.StatusOK).List())
			tagBefore := e.c.TagData(t, e.Admin["acme"], e.ID["cs"])
			cases := []struct {
				name, path string
				body       []byte
				status     int
				field, id  string
			}{
				{"not JSON", "/api/ingest/chirpstack?event=up", []byte(`{"deviceInfo":`), 400, "", "error.badJson"},
				{"no event", "/api/ingest/chirpstack", fixture(t, "chirpstack_v4_up.json"), 400, "event", "ingest.event.unknown"},
				{"bad base64", "/api/ingest/chirpstack?event=up", variant(t, "chirpstack_v4_up.json", func(m map[string]any) { m["data"] = "%%%" }), 400, "data", "ingest.data.invalid"},
				{"bad DevEUI", "/api/ingest/chirpstack?event=up", variant(t, "chirpstack_v4_up.json", func(m map[string]any) { sub(m, "deviceInfo")["devEui"] = "zz" }), 400, "deviceInfo.devEui", "ingest.devEui.invalid"},
				{"a port of the wrong type", "/api/ingest/chirpstack?event=up", variant(t, "chirpstack_v4_up.json", func(m map[string]any) { m["fPort"] = []any{} }), 400, "fPort", "error.badJsonType"},
				{"a bad value among good ones", "/api/ingest/chirpstack?event=up", []byte(`{"deviceInfo":{"devEui":"` + csEUI + `"},"data":"qg==","object":{"t":1,"x":1e400}}`), 400, "object", "ingest.number.invalid"},
				{"TTS without a message", "/api/ingest/tts", []byte(`{"end_device_ids":{"dev_eui":"` + ttsEUI + `"}}`), 400, "", "ingest.message.unknown"},
				{"TTS with a list for a payload", "/api/ingest/tts", variant(t, "tts_v3_uplink.json", func(m map[string]any) { sub(m, "uplink_message")["frm_payload"] = []any{1} }), 400, "uplink_message.frm_payload", "error.badJsonType"},
				{"generic with a typo", "/api/ingest/generic", []byte(`{"devEui":"` + csEUI + `","valeus":{"t":1}}`), 400, "valeus", "ingest.field.unknown"},
				{"generic in the future", "/api/ingest/generic", []byte(`{"devEui":"` + csEUI + `","time":"2999-01-01T00:00:00Z","values":{"t":1}}`), 400, "time", "ingest.time.invalid"},
				{"huge", "/api/ingest/generic", []byte(`{"devEui":"` + csEUI + `","values":{"t":"` + strings.Repeat("x", netservers.MaxBody) + `"}}`), 413, "", "error.tooLarge"},
			}
			for _, tc := range cases {
				r := e.post(t, "acme", tc.path, tc.body)
				if r.Status != tc.status {
					t.Errorf("%s: %d %.300s", tc.name, r.Status, r.Body)
					continue
				}
				if tc.field == "" && r.Str("id") != tc.id || tc.field != "" && r.Obj()["errorIds"].(map[string]any)[tc.field].([]any)[0] != tc.id {
					t.Errorf("%s: %s", tc.name, r.Body)
				}
				if r.Str("message") == "" || r.Str("message") == tc.id {
					t.Errorf("%s: no text for %s", tc.name, r.Body)
				}
			}
			if after := e.count(t, acme); after != before {
				t.Errorf("%d points became %d", before, after)
			}
			if n := len(e.c.Must(t, "GET", "/api/tag/pool?status=all", e.Super, nil, http.StatusOK).List()); n != poolBefore {
				t.Errorf("pool of %d became %d", poolBefore, n)
			}
			if after := e.c.TagData(t, e.Admin["acme"], e.ID["cs"]); fmt.Sprint(after) != fmt.Sprint(tagBefore) {
				t.Errorf("the tag changed")
			}
		})

		t.Run("concurrent uplinks are each stored before their answer", func(t *testing.T) {
			before := e.count(t, acme)
			const posters, each = 16, 5
			var wg sync.WaitGroup
			failures := make(chan string, posters*each)
			for p := range posters {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range each {
						when := time.Date(2025, 3, 1, 0, p, i, 0, time.UTC)
						at := when.Format(time.RFC3339)
						body := `{"devEui":"` + csEUI + `","time":"` + at + `","values":{"level":` + fmt.Sprint(p*each+i) + `,"flow":1.5}}`
						req, _ := http.NewRequest("POST", e.c.Base+"/api/ingest/generic", strings.NewReader(body))
						req.Header.Set("Authorization", "Bearer "+e.Token["acme"])
						resp, err := http.DefaultClient.Do(req)
						if err != nil {
							failures <- err.Error()
							continue
						}
						resp.Body.Close()
						if resp.StatusCode != http.StatusOK {
							failures <- fmt.Sprintf("%s: %d", at, resp.StatusCode)
							continue
						}
						got, err := e.store.Range(context.Background(), tsdb.Series{Company: acme, DevEUI: csEUI, Key: "level"}, when, when.Add(time.Second), 10)
						if err != nil || len(got) != 1 || got[0].Value != float64(p*each+i) {
							failures <- fmt.Sprintf("%s: answered 200, stored %v (%v)", at, got, err)
						}
					}
				}()
			}
			wg.Wait()
			close(failures)
			for f := range failures {
				t.Error(f)
			}
			if after := e.count(t, acme); after != before+2*posters*each {
				t.Errorf("%d points became %d, want %d more", before, after, 2*posters*each)
			}
			if !strings.Contains(kerneltest.Metrics(t, e.k), "fieldhub_ingest_batch_uplinks_count") {
				t.Error("no group commit metrics")
			}
		})

		t.Run("other events are acknowledged", func(t *testing.T) {
			doc := `"deviceInfo":{"devEui":"` + csEUI + `"}`
			for event, body := range map[string]string{
				"join": `{` + doc + `,"devAddr":"00189440"}`, "log": `{` + doc + `,"level":"ERROR","code":"UPLINK_MIC","description":"MIC"}`,
				"location": `{` + doc + `,"location":{"latitude":1,"longitude":2}}`, "integration": `{` + doc + `,"integrationName":"x","object":{}}`,
			} {
				if r := e.post(t, "acme", "/api/ingest/chirpstack?event="+event, []byte(body)); r.Status != http.StatusNoContent {
					t.Errorf("%s: %d %s", event, r.Status, r.Body)
				}
			}
			// Pasted with ?event=up, the address gets ChirpStack's own
			// event parameter after it: the last one names the event.
			if r := e.post(t, "acme", "/api/ingest/chirpstack?event=up&event=join", []byte(`{`+doc+`,"devAddr":"00189440"}`)); r.Status != http.StatusNoContent {
				t.Errorf("join after a pasted event=up: %d %s", r.Status, r.Body)
			}
			if r := e.post(t, "acme", "/api/ingest/chirpstack?event=join", []byte(`{"deviceInfo":{"devEui":"c1c2c3c4c5c6c7c8"}}`)); r.Status != http.StatusNoContent {
				t.Errorf("join of an unknown device: %d %s", r.Status, r.Body)
			}
			found := false
			for _, p := range e.c.Must(t, "GET", "/api/tag/pool", e.Super, nil, http.StatusOK).List() {
				found = found || p.(map[string]any)["deveui"] == "C1C2C3C4C5C6C7C8"
			}
			if !found {
				t.Error("a joining unknown device is not in the pool")
			}
		})

		t.Run("downlink reports", func(t *testing.T) {
			queue := func() int64 {
				return e.c.Must(t, "POST", fmt.Sprintf("/api/downlink/%d", e.ID["cs"]), e.Admin["acme"],
					map[string]any{"port": 10, "payload": "01", "payloadType": "hex", "confirmed": true}, http.StatusCreated).Num("id")
			}
			status := func(id int64) string {
				for _, d := range e.c.Must(t, "GET", fmt.Sprintf("/api/downlink/tag/%d", e.ID["cs"]), e.Admin["acme"], nil, http.StatusOK).List() {
					if d.(map[string]any)["id"] == float64(id) {
						return d.(map[string]any)["status"].(string)
					}
				}
				return ""
			}
			cs := func(company, event string, id int64, extra string) {
				t.Helper()
				body := `{"deviceInfo":{"devEui":"` + csEUI + `"},"queueItemId":"` + netservers.DownlinkRef(id) + `"` + extra + `}`
				if r := e.post(t, company, "/api/ingest/chirpstack?event="+event, []byte(body)); r.Status != http.StatusNoContent {
					t.Fatalf("%s: %d %s", event, r.Status, r.Body)
				}
			}
			first, second, third := queue(), queue(), queue()
			cs("acme", "txack", first, `,"gatewayId":"0016c001f153a14c","fCntDown":2`)
			if s := status(first); s != "sent" {
				t.Errorf("after txack: %s", s)
			}
			cs("beta", "ack", first, `,"acknowledged":true`)
			if s := status(first); s != "sent" {
				t.Errorf("another company's ack changed it to %s", s)
			}
			cs("acme", "ack", first, `,"acknowledged":true,"fCntDown":2`)
			if s := status(first); s != "acknowledged" {
				t.Errorf("after ack: %s", s)
			}
			cs("acme", "txack", first, `,"gatewayId":"0016c001f153a14c"`)
			if s := status(first); s != "acknowledged" {
				t.Errorf("a late txack moved it back to %s", s)
			}
			cs("acme", "ack", second, `,"fCntDown":3`)
			if s := status(second); s != "failed" {
				t.Errorf("after a nack: %s", s)
			}
			ttsFailed := `{"end_device_ids":{"device_id":"dev1"},"downlink_failed":{"downlink":{"f_port":10,"correlation_ids":["as:downlink:01E19Z5W3BZBG7CXSJE9C0A3CE","fieldhub:downlink:` +
				netservers.DownlinkRef(third) + `"]},"error":{"name":"application_downlink_too_long","message_format":"application downlink payload is too long"}}}`
			if r := e.post(t, "acme", "/api/ingest/tts", []byte(ttsFailed)); r.Status != http.StatusNoContent {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			if s := status(third); s != "failed" {
				t.Errorf("after downlink_failed: %s", s)
			}
			cs("acme", "ack", 999999, `,"acknowledged":true`)
		})
	})
}
