package logs_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/logs"
	"github.com/fieldhub/fieldhub/modules/netservers"
)

// The DevEUIs of the two companies' nodes, as the tags store them.
var devEUI = map[string]string{"acme": "70B3D57ED0000001", "beta": "70B3D57ED0000002"}

const password = kerneltest.FixturePassword

// env is a portal with the companies Acme and Beta, each with a
// CompanyAdmin, a User, a node and an integration token, and a SuperAdmin.
type env struct {
	// Tenants' ID also holds the nodes' ids ("acmeNode").
	*kerneltest.Tenants
	p    *kerneltest.Portal[*app.App]
	c    *kerneltest.Client
	logs logs.Service
}

func newEnv(t *testing.T, d db.Dialect, vars map[string]string) *env {
	t.Helper()
	p := kerneltest.Start(t, d, vars, app.Build)
	var specs []kerneltest.CompanySpec
	for _, key := range []string{"acme", "beta"} {
		specs = append(specs, kerneltest.CompanySpec{Key: key, Admin: person("admin@" + key + ".se"), User: true, UserBody: person("user@" + key + ".se"),
			Ingest: true, App: "Field", Nodes: []kerneltest.NodeSpec{{Key: key + "Node", Name: "Node of " + key, DevEUI: devEUI[key]}}})
	}
	return &env{p: p, c: p.Client, logs: p.App.Logs(), Tenants: kerneltest.Companies(t, p.Client, p.App, specs...).Tenants(t)}
}

func person(email string) map[string]any {
	return map[string]any{"firstName": "Ada", "lastName": strings.Split(email, "@")[0], "email": email, "phoneNumber": "46701234567", "password": password}
}

// post sends a body to an ingest route with company's integration token.
func (e *env) post(t *testing.T, company, path string, body string) {
	t.Helper()
	r := e.c.Call(t, "POST", path, e.Token[company], body)
	if r.Status >= 300 {
		t.Fatalf("%s: %d %s", path, r.Status, r.Body)
	}
}

// entry is a log entry as GET /api/logs lists it.
type entry = map[string]any

// list returns GET /api/logs with query as the caller of token.
func (e *env) list(t *testing.T, token, query string, headers ...string) []entry {
	t.Helper()
	r := e.c.Call(t, "GET", "/api/logs?"+query, token, nil, headers...)
	if r.Status != http.StatusOK || r.List() == nil {
		t.Fatalf("GET /api/logs?%s: %d %s", query, r.Status, r.Body)
	}
	out := make([]entry, 0, len(r.List()))
	for _, v := range r.List() {
		out = append(out, v.(map[string]any))
	}
	return out
}

// await polls GET /api/logs until an entry matches: the entries are written
// a moment after what they report.
func (e *env) await(t *testing.T, token, query string, match func(entry) bool) entry {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		for _, en := range e.list(t, token, query) {
			if match(en) {
				return en
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no entry matches in GET /api/logs?%s: %v", query, e.list(t, token, query))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func has(en entry, key string, want any) bool { return en[key] == want }

// settle waits until the writer is past everything the ingest reported for
// company so far: the ingest publishes before it answers and the entries
// are written in order, so a marker posted now is written after them.
func (e *env) settle(t *testing.T, company string) {
	t.Helper()
	code := fmt.Sprintf("MARKER_%d", time.Now().UnixNano())
	e.post(t, company, "/api/ingest/chirpstack?event=log",
		`{"deviceInfo":{"devEui":"`+devEUI[company]+`"},"level":"INFO","code":"`+code+`","description":"settled"}`)
	e.await(t, e.Admin[company], "", func(en entry) bool { return has(en, "message", code+": settled") })
}

// TestDeviceEvents checks that what the ingest reports about a company's
// devices becomes entries of that company, typed by their level, and of
// no other company.
func TestDeviceEvents(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d, nil)
		node := `"deviceInfo":{"devEui":"` + strings.ToLower(devEUI["acme"]) + `"}`
		cases := []struct {
			name, path, body string
			typ, message     string
			messageID        string
			deveui           string
		}{
			{"a join", "/api/ingest/chirpstack?event=join", `{` + node + `,"devAddr":"00189440"}`,
				"APP", "The device joined the network", "logs.entry.join", devEUI["acme"]},
			{"a network server's error", "/api/ingest/chirpstack?event=log", `{` + node + `,"level":"ERROR","code":"UPLINK_MIC","description":"the MIC of the uplink is wrong"}`,
				"ERROR", "UPLINK_MIC: the MIC of the uplink is wrong", "", devEUI["acme"]},
			{"a network server's warning", "/api/ingest/chirpstack?event=log", `{` + node + `,"level":"WARNING","code":"UPLINK_F_CNT_RESET","description":"frame counter reset"}`,
				"WARNING", "UPLINK_F_CNT_RESET: frame counter reset", "", devEUI["acme"]},
			{"a network server's information", "/api/ingest/chirpstack?event=log", `{` + node + `,"level":"INFO","code":"OTAA","description":"join accepted"}`,
				"APP", "OTAA: join accepted", "", devEUI["acme"]},
			{"a device status", "/api/ingest/chirpstack?event=status", `{` + node + `,"margin":7,"batteryLevel":85.5}`,
				"APP", "Device status: battery 85.5 %, link margin 7 dB", "logs.entry.status", devEUI["acme"]},
			{"a device on external power", "/api/ingest/chirpstack?event=status", `{` + node + `,"margin":-3,"externalPowerSource":true}`,
				"APP", "Device status: external power, link margin -3 dB", "logs.entry.statusPowered", devEUI["acme"]},
			{"a device without a node", "/api/ingest/generic", `{"devEui":"A1A2A3A4A5A6A7A8","values":{"t":1}}`,
				"WARNING", "Heard a device that is not a node of the company; its DevEUI goes to the node pool", "logs.entry.pool", "A1A2A3A4A5A6A7A8"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				e.post(t, "acme", tc.path, tc.body)
				got := e.await(t, e.User["acme"], "", func(en entry) bool { return has(en, "message", tc.message) })
				if got["type"] != tc.typ || got["deveui"] != tc.deveui || got["companyId"] != float64(e.ID["acme"]) || got["userId"] != nil {
					t.Errorf("entry %v, want type %s about %s in company %d", got, tc.typ, tc.deveui, e.ID["acme"])
				}
				if id, _ := got["messageId"].(string); id != tc.messageID {
					t.Errorf("messageId %q, want %q", id, tc.messageID)
				}
			})
		}

		t.Run("a device without a node is logged once in a while, not at every uplink", func(t *testing.T) {
			for range 3 {
				e.post(t, "acme", "/api/ingest/generic", `{"devEui":"B1B2B3B4B5B6B7B8","values":{"t":1}}`)
			}
			e.settle(t, "acme")
			n := 0
			for _, en := range e.list(t, e.User["acme"], "deveui=B1B2B3B4B5B6B7B8") {
				if has(en, "messageId", "logs.entry.pool") {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%d pool entries for three uplinks, want 1", n)
			}
		})

		t.Run("another company's node named with this company's token is not logged", func(t *testing.T) {
			foreign := `"deviceInfo":{"devEui":"` + devEUI["beta"] + `"}`
			e.post(t, "acme", "/api/ingest/chirpstack?event=log", `{`+foreign+`,"level":"ERROR","code":"PLANTED","description":"planted"}`)
			e.post(t, "acme", "/api/ingest/chirpstack?event=status", `{`+foreign+`,"margin":1,"batteryLevel":1}`)
			e.settle(t, "acme")
			for _, who := range []string{e.Super + "|acme", e.Super + "|beta"} {
				token, company, _ := strings.Cut(who, "|")
				for _, en := range e.list(t, token, "companyId="+fmt.Sprint(e.ID[company])) {
					if strings.Contains(fmt.Sprint(en["message"]), "PLANTED") || en["deveui"] == devEUI["beta"] {
						t.Errorf("%s has the planted entry %v", company, en)
					}
				}
			}
		})

		t.Run("what becomes of a downlink", func(t *testing.T) {
			queue := func() int64 {
				return e.c.Must(t, "POST", fmt.Sprintf("/api/downlink/%d", e.ID["acmeNode"]), e.Admin["acme"],
					map[string]any{"port": 10, "payload": "01", "payloadType": "hex", "confirmed": true}, http.StatusCreated).Num("id")
			}
			report := func(company, event string, id int64, extra string) {
				t.Helper()
				e.post(t, company, "/api/ingest/chirpstack?event="+event,
					`{`+node+`,"queueItemId":"`+netservers.DownlinkRef(id)+`"`+extra+`}`)
			}
			first, second := queue(), queue()
			report("acme", "txack", first, `,"gatewayId":"0016c001f153a14c"`)
			report("beta", "ack", first, `,"acknowledged":true`) // another company's report changes nothing
			report("acme", "ack", first, `,"acknowledged":true`)
			report("acme", "ack", first, `,"acknowledged":true`) // again: no change, no entry
			report("acme", "ack", second, ``)                    // not acknowledged: failed
			e.settle(t, "acme")
			var got []string
			for _, en := range e.list(t, e.Admin["acme"], "deveui="+devEUI["acme"]) {
				if id, _ := en["messageId"].(string); strings.HasPrefix(id, "logs.entry.downlink.") {
					got = append(got, fmt.Sprintf("%s %s", en["type"], en["message"]))
				}
			}
			want := []string{ // newest first
				fmt.Sprintf("ERROR Downlink %d failed: the device did not acknowledge the downlink", second),
				fmt.Sprintf("APP Downlink %d was acknowledged by the device", first),
				fmt.Sprintf("APP Downlink %d was transmitted by gateway 0016c001f153a14c", first),
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("downlink entries:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})

		t.Run("a company's entries stay its own", func(t *testing.T) {
			for _, token := range []string{e.Admin["beta"], e.User["beta"]} {
				for _, en := range e.list(t, token, "limit=1000") {
					if en["companyId"] != float64(e.ID["beta"]) {
						t.Errorf("Beta sees %v", en)
					}
				}
			}
		})
	})
}
