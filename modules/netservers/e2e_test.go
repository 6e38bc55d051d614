package netservers_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"
	"github.com/google/uuid"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// The nodes issue's acceptance criterion, end to end through the wired
// portal: a ChirpStack v4 uplink event, a The Things Stack uplink webhook
// and an MQTT uplink, each the documentation's own example
// (testdata/, see /work/shared/fixtures/ingest/README.md),
// are stored and appear on /tagdetails and in the event hub of a logged-in
// user of the same company, and of no other company.

// What the fixtures say, checked against the files so that a changed
// fixture fails with a reason rather than a puzzling mismatch.
const (
	e2eChirpStackApp = "17c82e96-be03-4f38-aef3-f83d48582d97" // deviceInfo.applicationId
	e2eChirpStackEUI = "0101010101010101"                     // deviceInfo.devEui, as ChirpStack writes it
	e2eTTSEUI        = "0004A30B001C1452"                     // end_device_ids.dev_eui, as The Things Stack writes it
	e2eForeignEUI    = "F0E1D2C3B4A5968F"
)

// e2eWait bounds every wait for the portal's background work (the MQTT
// subscription, an uplink taken from the broker, an event on the feed).
const e2eWait = 20 * time.Second

// e2eUplink is what one uplink must leave behind: the node it belongs to,
// the time the network server received it, and the values stored.
type e2eUplink struct {
	path   string // how it arrived, for the failure messages
	tagID  int64
	name   string
	deveui string // upper case, as the tags and the feed spell it
	at     string // RFC 3339, as the API and the feed write it
	values map[string]any
}

// e2eFeedMessage is one message of GET /api/events, decoded by the wire
// names the events module documents rather than by its Go type.
type e2eFeedMessage struct {
	Type  string `json:"type"`
	Event *struct {
		ID   string `json:"id"`
		Date string `json:"date"`
		Tag  struct {
			Name   string `json:"name"`
			DevEUI string `json:"deveui"`
		} `json:"tag"`
		Data map[string]any `json:"data"`
	} `json:"event"`
}

func TestFixtureUplinksReachTheirCompanyOnly(t *testing.T) {
	brokerURL := e2eBroker(t)
	csFixture := e2eFixture(t, "chirpstack_v4_up.json", `"applicationId": "`+e2eChirpStackApp+`"`, `"devEui": "`+e2eChirpStackEUI+`"`)
	ttsFixture := e2eFixture(t, "tts_v3_uplink.json", `"dev_eui": "`+e2eTTSEUI+`"`)

	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		// Each run has its own MQTT client id (the broker keeps the
		// subscriber's session under it) and its own DevEUI for the MQTT
		// uplink: the HTTP and MQTT copies of the ChirpStack example would
		// otherwise be one and the same point of one node, and nothing would
		// show that the second path stored anything. The DevEUI (in the
		// body and the topic) is the only change; the ChirpStack application
		// id stays the example's, and it is what picks the company.
		clientID := "fieldhub-e2e-" + e2eHex(6)
		mqttEUI := strings.ToUpper(e2eHex(8))
		e2eForgetSession(t, brokerURL, clientID) // registered first: runs once the portal has stopped
		ta := kerneltest.Start(t, d, map[string]string{"MQTT_URL": brokerURL, "MQTT_CLIENT_ID": clientID}, app.Build)
		root := ta.SuperAdmin(t)
		own := ta.EnglishCompany(t, root, "Acme AB", "acme.example")
		foreign := ta.EnglishCompany(t, root, "Other AB", "other.example")

		// The foreign company names the example's ChirpStack application
		// too, and first: the MQTT uplink must still go to the company that
		// has the node.
		e2eMust(t, ta, foreign.CompanyAdminToken, "POST", fmt.Sprintf("/api/applications/%d", foreign.CompanyID),
			map[string]any{"name": "Squat", "networkServer": "chirpstack", "chirpstackApplicationId": e2eChirpStackApp}, http.StatusCreated)
		foreignApp := e2eMust(t, ta, foreign.CompanyAdminToken, "POST", fmt.Sprintf("/api/applications/%d", foreign.CompanyID),
			map[string]any{"name": "Gates"}, http.StatusCreated).Num("id")
		foreignTag := e2eMust(t, ta, foreign.CompanyAdminToken, "POST", fmt.Sprintf("/api/applications/%d/tag", foreignApp),
			map[string]any{"name": "Foreign gate", "deveui": e2eForeignEUI}, http.StatusCreated).Num("id")
		foreignToken := e2eMust(t, ta, foreign.CompanyAdminToken, "POST", fmt.Sprintf("/api/integration/tokens/%d", foreign.CompanyID),
			map[string]any{"label": "network server", "isCompany": true}, http.StatusCreated).Str("token")

		csApp := e2eMust(t, ta, own.CompanyAdminToken, "POST", fmt.Sprintf("/api/applications/%d", own.CompanyID),
			map[string]any{"name": "Barn", "networkServer": "chirpstack", "chirpstackApplicationId": e2eChirpStackApp}, http.StatusCreated).Num("id")
		ttsApp := e2eMust(t, ta, own.CompanyAdminToken, "POST", fmt.Sprintf("/api/applications/%d", own.CompanyID),
			map[string]any{"name": "Stable", "networkServer": "tts"}, http.StatusCreated).Num("id")
		newTag := func(app int64, name, deveui string) int64 {
			return e2eMust(t, ta, own.CompanyAdminToken, "POST", fmt.Sprintf("/api/applications/%d/tag", app),
				map[string]any{"name": name, "deveui": deveui}, http.StatusCreated).Num("id")
		}
		token := e2eMust(t, ta, own.CompanyAdminToken, "POST", fmt.Sprintf("/api/integration/tokens/%d", own.CompanyID),
			map[string]any{"label": "network server", "isCompany": true}, http.StatusCreated).Str("token")

		// The raw decoder (the default) gives ChirpStack's payload as hex
		// and its length; The Things Stack's decoded_payload is taken as it
		// is. rssi and snr are the best gateway's.
		csValues := map[string]any{"raw": "aa", "length": 1.0, "rssi": -36.0, "snr": 10.5}
		uplinks := []*e2eUplink{
			{path: "ChirpStack HTTP integration", tagID: newTag(csApp, "Barn door", e2eChirpStackEUI), name: "Barn door",
				deveui: e2eChirpStackEUI, at: "2022-07-18T09:34:15.775023Z", values: csValues},
			{path: "The Things Stack webhook", tagID: newTag(ttsApp, "Vent sensor", e2eTTSEUI), name: "Vent sensor",
				deveui: e2eTTSEUI, at: "2021-07-07T10:50:00.384736Z", values: map[string]any{"bytes.0": 1.0, "rssi": -89.0, "snr": 9.0}},
			{path: "ChirpStack MQTT integration", tagID: newTag(csApp, "Silo", mqttEUI), name: "Silo",
				deveui: mqttEUI, at: "2022-07-18T09:34:15.775023Z", values: csValues},
		}
		csHTTP, ttsHTTP, csMQTT := uplinks[0], uplinks[1], uplinks[2]
		for _, u := range uplinks {
			if got := e2eCurrents(t, ta, own.UserToken, u.tagID); len(got) != 0 {
				t.Fatalf("%s: the new node %s already has values: %v", u.path, u.name, got)
			}
		}

		// The MQTT subscription must be in place before the example is
		// published: until the portal has subscribed, the broker keeps
		// nothing for it. Probes on an application no one names go to the
		// node pool, where the SuperAdmin sees them, and raise no event.
		pub := e2eMQTTPublisher(t, brokerURL)
		e2eAwaitSubscribed(t, ta, root, pub, csFixture)

		ownFeed := e2eDial(t, ta, "Bearer", own.UserToken)
		foreignFeed := e2eDial(t, ta, "query", foreign.UserToken)

		// Each step expects the next message of the own feed, so a failed
		// step ends the run.
		if !t.Run("ChirpStack HTTP integration", func(t *testing.T) {
			r := ta.Call(t, "POST", "/api/ingest/chirpstack?event=up", token, csFixture, "Content-Type", "application/json")
			if r.Status != http.StatusOK || r.Num("tagId") != csHTTP.tagID {
				t.Fatalf("POST /api/ingest/chirpstack?event=up with the example: %d %s", r.Status, r.Body)
			}
			e2eWantStored(t, ta, own.UserToken, csHTTP)
			e2eWantEvent(t, ownFeed, csHTTP, 10*time.Second)
		}) {
			return
		}

		if !t.Run("The Things Stack webhook", func(t *testing.T) {
			r := ta.Call(t, "POST", "/api/ingest/tts", token, ttsFixture, "Content-Type", "application/json")
			if r.Status != http.StatusOK || r.Num("tagId") != ttsHTTP.tagID {
				t.Fatalf("POST /api/ingest/tts with the example: %d %s", r.Status, r.Body)
			}
			e2eWantStored(t, ta, own.UserToken, ttsHTTP)
			e2eWantEvent(t, ownFeed, ttsHTTP, 10*time.Second)
		}) {
			return
		}

		if !t.Run("ChirpStack MQTT integration", func(t *testing.T) {
			body := e2eWithDevEUI(t, csFixture, strings.ToLower(mqttEUI))
			pub.publish(t, "application/"+e2eChirpStackApp+"/device/"+strings.ToLower(mqttEUI)+"/event/up", body)
			// The event on the feed comes after the values are durable.
			e2eWantEvent(t, ownFeed, csMQTT, e2eWait)
			e2eWantStored(t, ta, own.UserToken, csMQTT)
		}) {
			return
		}

		t.Run("/tagdetails shows the values to the company", func(t *testing.T) {
			for _, u := range uplinks {
				e2eWantDetails(t, ta, own.CompanyAdminToken, u)
			}
		})

		t.Run("the foreign company sees none of it", func(t *testing.T) {
			// The sentinel, an uplink of the foreign company's own node, is
			// published after every uplink above. The feed of one instance
			// keeps the bus's order, so had any of them reached the foreign
			// user, it would arrive before the sentinel.
			r := ta.Call(t, "POST", "/api/ingest/generic", foreignToken, map[string]any{"devEui": e2eForeignEUI, "values": map[string]any{"sentinel": 1}})
			if r.Status != http.StatusOK || r.Num("tagId") != foreignTag {
				t.Fatalf("sentinel uplink: %d %s", r.Status, r.Body)
			}
			sentinel := &e2eUplink{path: "sentinel (generic ingest of the foreign company)", name: "Foreign gate", deveui: e2eForeignEUI,
				values: map[string]any{"sentinel": 1.0}}
			e2eWantEvent(t, foreignFeed, sentinel, 10*time.Second)
			// And nothing after it: a last check with a short bound; the
			// proof is the order above.
			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			defer cancel()
			if _, raw, err := foreignFeed.Read(ctx); err == nil {
				t.Errorf("the foreign user's feed carried another message after the sentinel: %s", raw)
			} else if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("the foreign user's feed ended instead of staying quiet: %v", err)
			}

			for _, u := range uplinks {
				if p := ta.Page(t, "GET", "/tagdetails/"+u.deveui, foreign.CompanyAdminToken, nil); p.Status != http.StatusNotFound {
					t.Errorf("the foreign CompanyAdmin on /tagdetails/%s: %d, want 404", u.deveui, p.Status)
				}
				if r := ta.Call(t, "GET", fmt.Sprintf("/api/tag/%d/currents", u.tagID), foreign.UserToken, nil); r.Status != http.StatusNotFound {
					t.Errorf("the foreign User on the values of %s: %d, want 404: %s", u.name, r.Status, r.Body)
				}
			}
		})
	})
}

// e2eWantStored checks the node's latest stored values, as the API reads
// them from the time-series store, against the uplink's.
func e2eWantStored(t *testing.T, ta *kerneltest.Portal[*app.App], token string, u *e2eUplink) {
	t.Helper()
	got := e2eCurrents(t, ta, token, u.tagID)
	for key, want := range u.values {
		v, ok := got[key]
		if !ok {
			t.Errorf("%s: %s has no stored %s; stored: %v", u.path, u.name, key, got)
			continue
		}
		if v["value"] != want || v["createdAt"] != u.at {
			t.Errorf("%s: %s stored %s = %v at %v, want %v at %s", u.path, u.name, key, v["value"], v["createdAt"], want, u.at)
		}
	}
	if len(got) != len(u.values) {
		t.Errorf("%s: %s has the keys %v, want those of %v", u.path, u.name, e2eKeys(got), u.values)
	}
}

// e2eCurrents returns GET /api/tag/{tagId}/currents as key to entry,
// leaving out the keys without a value.
func e2eCurrents(t *testing.T, ta *kerneltest.Portal[*app.App], token string, tagID int64) map[string]map[string]any {
	t.Helper()
	r := e2eMust(t, ta, token, "GET", fmt.Sprintf("/api/tag/%d/currents", tagID), nil, http.StatusOK)
	out := map[string]map[string]any{}
	for _, x := range r.List() {
		m := x.(map[string]any)
		if m["value"] != nil {
			out[m["key"].(string)] = m
		}
	}
	return out
}

func e2eKeys(m map[string]map[string]any) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// e2eWantEvent reads the next message of a feed within limit: it must be
// the uplink's BroadcastEvent.
func e2eWantEvent(t *testing.T, conn *websocket.Conn, u *e2eUplink, limit time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	typ, raw, err := conn.Read(ctx)
	if err != nil {
		t.Fatalf("%s: no message on the feed within %v: %v", u.path, limit, err)
	}
	var msg e2eFeedMessage
	if typ != websocket.MessageText || json.Unmarshal(raw, &msg) != nil || msg.Type != "BroadcastEvent" || msg.Event == nil {
		t.Fatalf("%s: the feed sent %s, want a BroadcastEvent", u.path, raw)
	}
	ev := msg.Event
	if ev.Tag.Name != u.name || ev.Tag.DevEUI != u.deveui {
		t.Fatalf("%s: the feed's next event is of %q %s, want %q %s: %s", u.path, ev.Tag.Name, ev.Tag.DevEUI, u.name, u.deveui, raw)
	}
	if ev.ID == "" || (u.at != "" && ev.Date != u.at) || !reflect.DeepEqual(ev.Data, u.values) {
		t.Errorf("%s: event %s, want date %s and data %v", u.path, raw, u.at, u.values)
	}
}

// e2eWantDetails checks /tagdetails/{deveui} as a CompanyAdmin: the
// signal, each key's latest value, and the stored-data table, whose one row
// must hold the uplink's values under their keys.
func e2eWantDetails(t *testing.T, ta *kerneltest.Portal[*app.App], token string, u *e2eUplink) {
	t.Helper()
	p := ta.Page(t, "GET", "/tagdetails/"+u.deveui, token, nil)
	if p.Status != http.StatusOK {
		t.Fatalf("/tagdetails/%s: %d %.300s", u.deveui, p.Status, p.Body)
	}
	body := kerneltest.Main(p.Body)
	what := fmt.Sprintf("/tagdetails/%s (%s)", u.deveui, u.path)
	if !strings.Contains(body, "<h1>"+u.name+"</h1>") {
		t.Errorf("%s does not name the node %s", what, u.name)
	}
	if rssi, ok := u.values["rssi"]; !ok || !strings.Contains(e2eSection(body, `id="signal-heading"`, `id="values-heading"`), fmt.Sprintf("<dd>%v dBm</dd>", rssi)) {
		t.Errorf("%s: battery and signal lack the RSSI %v", what, rssi)
	}
	latest := e2eSection(body, `id="values-heading"`, `id="data-heading"`)
	for key, v := range u.values {
		cell := regexp.MustCompile(`<code>` + regexp.QuoteMeta(key) + `</code>[^<]*</th><td>[^<]*</td><td>` + regexp.QuoteMeta(fmt.Sprint(v)) + ` ?</td>`)
		if !cell.MatchString(latest) {
			t.Errorf("%s: the latest values lack %s = %v:\n%s", what, key, v, latest)
		}
	}
	stored := e2eSection(body, `id="data-heading"`, `id="keys-heading"`)
	at, err := time.Parse(time.RFC3339Nano, u.at)
	if err != nil {
		t.Fatal(err)
	}
	var cols []string
	for _, m := range regexp.MustCompile(`<th scope="col"><code>([^<]+)</code></th>`).FindAllStringSubmatch(stored, -1) {
		cols = append(cols, m[1])
	}
	// The page shows the time in the company's zone (in the United Kingdom),
	// the zone named.
	london, err := time.LoadLocation("Europe/London")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`<tr><th scope="row"><time datetime="` + regexp.QuoteMeta(at.Format(time.RFC3339)) + `">` +
		regexp.QuoteMeta(at.In(london).Format("2006-01-02 15:04:05 MST")) + `</time></th>((?:<td>[^<]*</td>)*)</tr>`).FindStringSubmatch(stored)
	if !strings.Contains(stored, "Latest uplinks: 1") || row == nil {
		t.Errorf("%s: the stored data are not one uplink at %s:\n%s", what, u.at, stored)
		return
	}
	got := map[string]string{}
	for i, m := range regexp.MustCompile(`<td>([^<]*)</td>`).FindAllStringSubmatch(row[1], -1) {
		if i < len(cols) {
			got[cols[i]] = m[1]
		}
	}
	want := map[string]string{}
	for key, v := range u.values {
		want[key] = fmt.Sprint(v)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: the stored uplink shows %v, want %v:\n%s", what, got, want, stored)
	}
}

// e2eSection returns the part of a page from one marker to the next.
func e2eSection(body, from, to string) string {
	i := strings.Index(body, from)
	if i < 0 {
		return ""
	}
	rest := body[i:]
	if j := strings.Index(rest, to); j >= 0 {
		return rest[:j]
	}
	return rest
}

func e2eMust(t *testing.T, ta *kerneltest.Portal[*app.App], token, method, path string, body any, status int) kerneltest.Response {
	t.Helper()
	r := ta.Call(t, method, path, token, body)
	if r.Status != status {
		t.Fatalf("%s %s: %d, want %d: %s", method, path, r.Status, status, r.Body)
	}
	return r
}

// e2eFixture reads an ingest fixture and checks that it says what the test
// expects of it.
func e2eFixture(t *testing.T, name string, says ...string) []byte {
	t.Helper()
	raw, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range says {
		if bytes.Count(raw, []byte(s)) != 1 {
			t.Fatalf("fixture %s: want %s once in it", name, s)
		}
	}
	return raw
}

// e2eWithDevEUI returns the ChirpStack example with another DevEUI and no
// other change, byte for byte.
func e2eWithDevEUI(t *testing.T, fixture []byte, deveui string) []byte {
	t.Helper()
	out := bytes.Replace(fixture, []byte(`"devEui": "`+e2eChirpStackEUI+`"`), []byte(`"devEui": "`+deveui+`"`), 1)
	if bytes.Equal(out, fixture) && deveui != e2eChirpStackEUI {
		t.Fatal("the ChirpStack fixture has no devEui to replace")
	}
	return out
}

func e2eHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// e2eBroker returns the broker's address (FIELDHUB_TEST_MQTT, as for the
// netservers module's MQTT tests, else the local Mosquitto) and fails when
// nothing answers there: the MQTT path must not pass untested.
func e2eBroker(t *testing.T) string {
	t.Helper()
	raw := os.Getenv("FIELDHUB_TEST_MQTT")
	if raw == "" {
		raw = "mqtt://127.0.0.1:1883"
	}
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("FIELDHUB_TEST_MQTT: %v", err)
	}
	host := u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), "1883")
	}
	conn, err := net.DialTimeout("tcp", host, 2*time.Second)
	if err != nil {
		t.Fatalf("an MQTT broker is required and none answers at %s (run scripts/ensure-mosquitto.sh, or set FIELDHUB_TEST_MQTT): %v", host, err)
	}
	conn.Close()
	return raw
}

// e2eMQTTConfig is a client configuration for the broker at brokerURL.
func e2eMQTTConfig(brokerURL, clientID string) autopaho.ClientConfig {
	u, _ := url.Parse(brokerURL)
	cfg := autopaho.ClientConfig{ServerUrls: []*url.URL{u}, KeepAlive: 30, CleanStartOnInitialConnection: true,
		ConnectTimeout: 5 * time.Second, ClientConfig: paho.ClientConfig{ClientID: clientID}}
	if u.User != nil {
		cfg.ConnectUsername = u.User.Username()
		p, _ := u.User.Password()
		cfg.ConnectPassword = []byte(p)
	}
	return cfg
}

// e2ePublisher is ChirpStack's side of the broker.
type e2ePublisher struct{ cm *autopaho.ConnectionManager }

func e2eMQTTPublisher(t *testing.T, brokerURL string) *e2ePublisher {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cm, err := autopaho.NewConnection(ctx, e2eMQTTConfig(brokerURL, "fieldhub-e2e-chirpstack-"+e2eHex(4)))
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); <-cm.Done() })
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	if err := cm.AwaitConnection(wctx); err != nil {
		t.Fatalf("connect to the broker: %v", err)
	}
	return &e2ePublisher{cm: cm}
}

// publish sends with QoS 1 and returns once the broker has the message.
func (p *e2ePublisher) publish(t *testing.T, topic string, payload []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := p.cm.Publish(ctx, &paho.Publish{Topic: topic, QoS: 1, Payload: payload}); err != nil {
		t.Fatalf("publish to %s: %v", topic, err)
	}
}

// e2eAwaitSubscribed publishes the example, as an uplink of a ChirpStack
// application that no Fieldhub application names, until its DevEUI shows
// in the node pool: then the portal's subscription is in place.
func e2eAwaitSubscribed(t *testing.T, ta *kerneltest.Portal[*app.App], root string, pub *e2ePublisher, fixture []byte) {
	t.Helper()
	probe := e2eHex(8)
	body := e2eWithDevEUI(t, fixture, probe)
	topic := "application/" + uuid.NewString() + "/device/" + probe + "/event/up"
	pooled := func() bool {
		for _, p := range e2eMust(t, ta, root, "GET", "/api/tag/pool", nil, http.StatusOK).List() {
			if p.(map[string]any)["deveui"] == strings.ToUpper(probe) {
				return true
			}
		}
		return false
	}
	deadline := time.Now().Add(e2eWait)
	for {
		pub.publish(t, topic, body)
		for next := time.Now().Add(time.Second); time.Now().Before(next); time.Sleep(50 * time.Millisecond) {
			if pooled() {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the portal took none of the probe uplinks within %v: no MQTT subscription", e2eWait)
		}
	}
}

// e2eForgetSession makes the broker drop the session of clientID when the
// test is over: a session no one comes back for would collect other tests'
// events at the broker for a week.
func e2eForgetSession(t *testing.T, brokerURL, clientID string) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		cm, err := autopaho.NewConnection(ctx, e2eMQTTConfig(brokerURL, clientID))
		if err != nil {
			return
		}
		if cm.AwaitConnection(ctx) == nil {
			_ = cm.Disconnect(ctx)
		}
		cancel()
		<-cm.Done()
	})
}

// e2eDial opens the event feed with an access token sent as a Bearer
// header or as ?token=.
func e2eDial(t *testing.T, ta *kerneltest.Portal[*app.App], how, token string) *websocket.Conn {
	t.Helper()
	u := "ws" + strings.TrimPrefix(ta.URL, "http") + "/api/events"
	h := http.Header{}
	if how == "query" {
		u += "?token=" + url.QueryEscape(token)
	} else {
		h.Set("Authorization", "Bearer "+token)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, res, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		status := 0
		if res != nil {
			status = res.StatusCode
		}
		t.Fatalf("open the event feed (%s): %d %v", how, status, err)
	}
	conn.SetReadLimit(1 << 20)
	t.Cleanup(func() { conn.CloseNow() })
	return conn
}
