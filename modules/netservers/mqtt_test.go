package netservers_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"
	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/config"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/netservers"
)

// mqttEnvVar names a broker other than the local Mosquitto for these tests.
const mqttEnvVar = "FIELDHUB_TEST_MQTT"

// waitLimit bounds every wait for something the portal does in the
// background.
const waitLimit = 20 * time.Second

// broker returns the address of the broker the MQTT tests use, and fails the
// test when nothing answers there: the MQTT path must not pass untested.
func broker(t *testing.T) string {
	t.Helper()
	raw := os.Getenv(mqttEnvVar)
	if raw == "" {
		raw = "mqtt://127.0.0.1:1883"
	}
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("%s: %v", mqttEnvVar, err)
	}
	host := u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), "1883")
	}
	conn, err := net.DialTimeout("tcp", host, 2*time.Second)
	if err != nil {
		t.Fatalf("an MQTT broker is required for these tests and none answers at %s (run scripts/ensure-mosquitto.sh, or set %s): %v",
			host, mqttEnvVar, err)
	}
	conn.Close()
	return raw
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// mqttClient is the test's own MQTT client: ChirpStack's side of the broker.
type mqttClient struct {
	cm  *autopaho.ConnectionManager
	mu  sync.Mutex
	got []*paho.Publish
}

// newMQTTClient connects to the broker with a clean session and subscribes
// to topics with QoS 1.
func newMQTTClient(t *testing.T, brokerURL string, topics ...string) *mqttClient {
	t.Helper()
	u, _ := url.Parse(brokerURL)
	c := &mqttClient{}
	ctx, cancel := context.WithCancel(context.Background())
	cfg := autopaho.ClientConfig{
		ServerUrls:                    []*url.URL{u},
		KeepAlive:                     30,
		CleanStartOnInitialConnection: true,
		ConnectTimeout:                5 * time.Second,
		ClientConfig: paho.ClientConfig{ClientID: "fieldhub-test-chirpstack-" + randomHex(4),
			OnPublishReceived: []func(paho.PublishReceived) (bool, error){func(pr paho.PublishReceived) (bool, error) {
				c.mu.Lock()
				c.got = append(c.got, pr.Packet)
				c.mu.Unlock()
				return true, nil
			}}},
	}
	if u.User != nil {
		cfg.ConnectUsername = u.User.Username()
		p, _ := u.User.Password()
		cfg.ConnectPassword = []byte(p)
	}
	cm, err := autopaho.NewConnection(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		<-cm.Done()
	})
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	if err := cm.AwaitConnection(wctx); err != nil {
		t.Fatalf("connect to the broker: %v", err)
	}
	c.cm = cm
	if len(topics) > 0 {
		var subs []paho.SubscribeOptions
		for _, topic := range topics {
			subs = append(subs, paho.SubscribeOptions{Topic: topic, QoS: 1})
		}
		if _, err := cm.Subscribe(wctx, &paho.Subscribe{Subscriptions: subs}); err != nil {
			t.Fatalf("subscribe: %v", err)
		}
	}
	return c
}

// forgetSession makes the broker drop the sessions of clientID
// (netservers.MQTTSessionIDs) when the test is over, by connecting with a
// clean start and no session expiry: a session no one comes back for would
// collect a week of other tests' events at the broker.
func forgetSession(t *testing.T, brokerURL, clientID string) {
	t.Cleanup(func() {
		var wg sync.WaitGroup
		for _, id := range netservers.MQTTSessionIDs(clientID) {
			wg.Go(func() { dropSession(brokerURL, id) })
		}
		wg.Wait()
	})
}

func dropSession(brokerURL, clientID string) {
	u, _ := url.Parse(brokerURL)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cfg := autopaho.ClientConfig{ServerUrls: []*url.URL{u}, CleanStartOnInitialConnection: true, KeepAlive: 30,
		ClientConfig: paho.ClientConfig{ClientID: clientID}}
	if u.User != nil {
		cfg.ConnectUsername = u.User.Username()
		p, _ := u.User.Password()
		cfg.ConnectPassword = []byte(p)
	}
	cm, err := autopaho.NewConnection(ctx, cfg)
	if err != nil {
		return
	}
	if cm.AwaitConnection(ctx) == nil {
		_ = cm.Disconnect(ctx)
	}
	cancel()
	<-cm.Done()
}

// publish sends with QoS 1 and waits for the broker's PUBACK.
func (c *mqttClient) publish(t *testing.T, topic string, payload []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.cm.Publish(ctx, &paho.Publish{Topic: topic, QoS: 1, Payload: payload}); err != nil {
		t.Fatalf("publish to %s: %v", topic, err)
	}
}

// await returns the first message received that ok accepts.
func (c *mqttClient) await(t *testing.T, ok func(*paho.Publish) bool) *paho.Publish {
	t.Helper()
	var found *paho.Publish
	kerneltest.WaitFor(t, waitLimit, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, p := range c.got {
			if ok(p) {
				found = p
				return true
			}
		}
		return false
	}, func() string { return fmt.Sprintf("no such MQTT message among %d received", len(c.got)) })
	return found
}

// mqttEnv is a portal with MQTT_URL set, on a database that outlives a
// restart. Acme has a ChirpStack application (csApp, a fresh UUID, so that
// its topics are this test's alone) with one node (devEUI, fresh too).
type mqttEnv struct {
	cfg      *config.Config
	broker   string
	clientID string // MQTT_CLIENT_ID
	c        *kerneltest.Client
	store    tsdb.Store
	metrics  *prometheus.Registry // of the running portal
	dec      decoders.Module      // of the running portal
	stop     func()

	super, admin, token string
	company, app, tag   int64
	csApp, devEUI       string
}

func newMQTTEnv(t *testing.T, d db.Dialect, more ...map[string]string) *mqttEnv {
	t.Helper()
	return newMQTTEnvAt(t, d, broker(t), more...)
}

// newMQTTEnvAt is newMQTTEnv on the broker at brokerURL; more are further
// settings of the portal's.
func newMQTTEnvAt(t *testing.T, d db.Dialect, brokerURL string, more ...map[string]string) *mqttEnv {
	t.Helper()
	e := &mqttEnv{broker: brokerURL, clientID: "fieldhub-test-" + randomHex(6), csApp: uuid.NewString(), devEUI: randomHex(8)}
	// The fake The Things Stack listens on 127.0.0.1, which companies may
	// reach only with FIELDHUB_OUTBOUND_PRIVATE.
	env := map[string]string{"MQTT_URL": e.broker, "MQTT_CLIENT_ID": e.clientID, "FIELDHUB_OUTBOUND_PRIVATE": "true"}
	for _, m := range more {
		maps.Copy(env, m)
	}
	e.cfg = kerneltest.Config(t, d, env)
	forgetSession(t, e.broker, e.clientID) // registered first, so it runs after the portal has stopped
	acc := e.start(t)
	s := kerneltest.Companies(t, e.c, acc, kerneltest.CompanySpec{Key: "acme", Ingest: true})
	e.super, e.admin, e.token, e.company = s.Tokens["super"], s.Tokens["acmeAdmin"], s.Tokens["acmeIngest"], s.ID(t, "{acme}")
	e.app = e.c.Must(t, "POST", fmt.Sprintf("/api/applications/%d", e.company), e.admin,
		map[string]any{"name": "Barn", "networkServer": "chirpstack", "chirpstackApplicationId": e.csApp}, http.StatusCreated).Num("id")
	e.tag = e.addTag(t, e.app, e.devEUI)
	return e
}

// start builds (app.Build) and starts the portal on e.cfg: on the first
// call a fresh database, later the same one, as after a restart.
func (e *mqttEnv) start(t *testing.T) accounts.Module {
	t.Helper()
	a, err := app.Build(context.Background(), e.cfg, kerneltest.Logger(t))
	if err != nil {
		t.Fatalf("build the portal: %v", err)
	}
	k := a.Kernel()
	e.store = a.Series()
	e.dec = a.Decoders()
	e.metrics = k.Host().Router.Registry()
	stop, err := k.Start(context.Background())
	if err != nil {
		a.Close()
		t.Fatalf("start kernel: %v", err)
	}
	srv := httptest.NewServer(k.Handler())
	e.c = kerneltest.NewClient(srv.URL)
	var once sync.Once
	e.stop = func() {
		once.Do(func() {
			srv.Close()
			stop()
			a.Close()
		})
	}
	t.Cleanup(e.stop)
	return a.Accounts()
}

func (e *mqttEnv) addTag(t *testing.T, app int64, devEUI string) int64 {
	t.Helper()
	return e.c.Must(t, "POST", fmt.Sprintf("/api/applications/%d/tag", app), e.admin,
		map[string]any{"name": "Node " + devEUI, "deveui": devEUI}, http.StatusCreated).Num("id")
}

// topic is the ChirpStack event topic of the env's node.
func (e *mqttEnv) topic(event string) string {
	return "application/" + e.csApp + "/device/" + e.devEUI + "/event/" + event
}

// uplink is the ChirpStack fixture for devEUI of ChirpStack application
// appID, at time at, with ChirpStack's decoded object.
func uplink(t *testing.T, appID, devEUI string, at time.Time, object map[string]any) []byte {
	t.Helper()
	return variant(t, "chirpstack_v4_up.json", func(m map[string]any) {
		sub(m, "deviceInfo")["devEui"] = devEUI
		sub(m, "deviceInfo")["applicationId"] = appID
		m["time"] = at.Format(time.RFC3339Nano)
		if object != nil {
			m["object"] = object
		}
	})
}

// points returns the stored points of a key of the env's node.
func (e *mqttEnv) points(t *testing.T, key string) []tsdb.Point {
	t.Helper()
	pts, err := e.store.Range(context.Background(), tsdb.Series{Company: e.company, DevEUI: e.devEUI, Key: key},
		tsdb.MinTime, time.Now().Add(time.Hour), 1000)
	if err != nil {
		t.Fatal(err)
	}
	return pts
}

// awaitSubscribed publishes probe uplinks until one is stored: then the
// portal's subscription (and its session at the broker) exists.
func (e *mqttEnv) awaitSubscribed(t *testing.T, c *mqttClient) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for len(e.points(t, "probe")) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the portal stored none of the probe uplinks: no MQTT subscription")
		}
		c.publish(t, e.topic("up"), uplink(t, e.csApp, e.devEUI, time.Now().Add(-time.Minute), map[string]any{"probe": 1}))
		time.Sleep(300 * time.Millisecond)
	}
}

// downlink returns a downlink of tag as the API lists it.
func (e *mqttEnv) downlink(t *testing.T, tag, id int64) map[string]any {
	t.Helper()
	for _, d := range e.c.Must(t, "GET", fmt.Sprintf("/api/downlink/tag/%d", tag), e.admin, nil, http.StatusOK).List() {
		if d.(map[string]any)["id"] == float64(id) {
			return d.(map[string]any)
		}
	}
	t.Fatalf("no downlink %d", id)
	return nil
}

// awaitStatus waits until downlink id of tag has status and returns it.
func (e *mqttEnv) awaitStatus(t *testing.T, tag, id int64, status string) map[string]any {
	t.Helper()
	var d map[string]any
	kerneltest.WaitFor(t, waitLimit, func() bool {
		d = e.downlink(t, tag, id)
		return d["status"] == status
	}, func() string { return fmt.Sprintf("downlink %d is %v, want %s", id, d, status) })
	return d
}

func (e *mqttEnv) queue(t *testing.T, tag int64, body map[string]any) int64 {
	t.Helper()
	return e.c.Must(t, "POST", fmt.Sprintf("/api/downlink/%d", tag), e.admin, body, http.StatusCreated).Num("id")
}

func TestMQTTUplinksAndDownlinks(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newMQTTEnv(t, d)
		cs := newMQTTClient(t, e.broker, "application/"+e.csApp+"/device/+/command/down")
		e.awaitSubscribed(t, cs)

		t.Run("the ChirpStack fixture published on the up topic is stored", func(t *testing.T) {
			cs.publish(t, e.topic("up"), uplink(t, e.csApp, e.devEUI, time.Date(2022, 7, 18, 9, 34, 15, 775023242, time.UTC), nil))
			at := time.Date(2022, 7, 18, 9, 34, 15, 775023000, time.UTC)
			want := map[string]any{"raw": "aa", "length": 1.0, "rssi": -36.0, "snr": 10.5}
			kerneltest.WaitFor(t, waitLimit, func() bool { return len(e.points(t, "raw")) == 1 }, func() string { return "the uplink was not stored" })
			for key, v := range want {
				var got []any
				for _, p := range e.points(t, key) {
					if p.Time.Equal(at) && p.IsText {
						got = append(got, p.Text)
					} else if p.Time.Equal(at) {
						got = append(got, p.Value)
					}
				}
				if len(got) != 1 || got[0] != v {
					t.Errorf("series %s at %v: %v, want %v", key, at, got, v)
				}
			}
		})

		t.Run("an uplink of a ChirpStack application no application names goes to the pool", func(t *testing.T) {
			stranger := randomHex(8)
			cs.publish(t, "application/"+uuid.NewString()+"/device/"+stranger+"/event/up", uplink(t, uuid.NewString(), stranger, time.Now(), nil))
			kerneltest.WaitFor(t, waitLimit, func() bool {
				for _, p := range e.c.Must(t, "GET", "/api/tag/pool", e.super, nil, http.StatusOK).List() {
					if p.(map[string]any)["deveui"] == strings.ToUpper(stranger) {
						return p.(map[string]any)["source"] == "chirpstack"
					}
				}
				return false
			}, func() string { return "the unknown DevEUI is not in the pool" })
		})

		t.Run("a device status on the status topic", func(t *testing.T) {
			body := `{"time":"2024-01-01T01:00:00Z","deviceInfo":{"devEui":"` + e.devEUI + `","applicationId":"` + e.csApp + `"},"margin":7,"batteryLevel":55.5}`
			cs.publish(t, e.topic("status"), []byte(body))
			kerneltest.WaitFor(t, waitLimit, func() bool { p := e.points(t, "batteryLevel"); return len(p) == 1 && p[0].Value == 55.5 },
				func() string { return "no batteryLevel stored" })
		})

		t.Run("an unreadable event is dropped and holds up nothing", func(t *testing.T) {
			cs.publish(t, e.topic("up"), []byte(`{"deviceInfo":`))
			cs.publish(t, e.topic("up"), uplink(t, e.csApp, strings.Repeat("ab", 8), time.Now(), nil)) // another DevEUI than the topic's
			cs.publish(t, e.topic("up"), uplink(t, e.csApp, e.devEUI, time.Now().Add(-2*time.Minute), map[string]any{"after": 1}))
			kerneltest.WaitFor(t, waitLimit, func() bool { return len(e.points(t, "after")) == 1 }, func() string { return "the good event after the bad ones was not stored" })
			for _, p := range e.c.Must(t, "GET", "/api/tag/pool", e.super, nil, http.StatusOK).List() {
				if p.(map[string]any)["deveui"] == strings.Repeat("AB", 8) {
					t.Errorf("an event whose DevEUI is not its topic's was taken: %v", p)
				}
			}
		})

		t.Run("another company naming the same ChirpStack application takes nothing", func(t *testing.T) {
			shared, dev := uuid.NewString(), randomHex(8)
			r := e.c.Must(t, "POST", "/api/users/create/company", e.super, map[string]any{
				"company": map[string]any{"name": "beta", "orgNumber": "556677-8899", "invoiceAdress": "a@beta.se", "country": "SE"},
				"user":    map[string]any{"firstName": "A", "lastName": "B", "email": "admin@beta.se", "phoneNumber": "46701234567", "password": "secret123"},
			}, http.StatusCreated)
			beta := int64(r.Obj()["company"].(map[string]any)["companyId"].(float64))
			betaAdmin := e.c.Login(t, "admin@beta.se", "secret123")
			// Beta names the id first, so its application is the older one.
			e.c.Must(t, "POST", fmt.Sprintf("/api/applications/%d", beta), betaAdmin,
				map[string]any{"name": "Squat", "networkServer": "chirpstack", "chirpstackApplicationId": shared}, http.StatusCreated)
			app := e.c.Must(t, "POST", fmt.Sprintf("/api/applications/%d", e.company), e.admin,
				map[string]any{"name": "Shared", "networkServer": "chirpstack", "chirpstackApplicationId": shared}, http.StatusCreated).Num("id")
			e.addTag(t, app, dev)
			cs.publish(t, "application/"+shared+"/device/"+dev+"/event/up", uplink(t, shared, dev, time.Now(), map[string]any{"shared": 7}))
			kerneltest.WaitFor(t, waitLimit, func() bool {
				pts, err := e.store.Range(context.Background(), tsdb.Series{Company: e.company, DevEUI: dev, Key: "shared"}, tsdb.MinTime, time.Now().Add(time.Hour), 10)
				return err == nil && len(pts) == 1 && pts[0].Value == 7
			}, func() string { return "the uplink was not stored for the node's company" })
			if n, err := e.store.Count(context.Background(), beta, tsdb.MinTime, tsdb.MaxTime.Add(-time.Hour)); err != nil || n != 0 {
				t.Errorf("beta has %d points, %v", n, err)
			}
		})

		t.Run("a ChirpStack downlink is published on command/down, then reported on", func(t *testing.T) {
			id := e.queue(t, e.tag, map[string]any{"port": 10, "payload": "01AB", "payloadType": "hex", "confirmed": true})
			msg := cs.await(t, func(p *paho.Publish) bool { return strings.Contains(string(p.Payload), netservers.DownlinkRef(id)) })
			parts := strings.Split(msg.Topic, "/")
			if len(parts) != 6 || parts[1] != e.csApp || parts[3] != e.devEUI || parts[5] != "down" {
				t.Errorf("topic %s", msg.Topic)
			}
			var body map[string]any
			if err := json.Unmarshal(msg.Payload, &body); err != nil {
				t.Fatalf("body %s: %v", msg.Payload, err)
			}
			want := map[string]any{"id": netservers.DownlinkRef(id), "devEui": parts[3], "confirmed": true, "fPort": 10.0,
				"data": base64.StdEncoding.EncodeToString([]byte{0x01, 0xab})}
			if fmt.Sprint(body) != fmt.Sprint(want) {
				t.Errorf("body %v, want %v", body, want)
			}
			if msg.QoS != 1 {
				t.Errorf("QoS %d", msg.QoS)
			}
			if dl := e.awaitStatus(t, e.tag, id, "sent"); dl["attempts"] != 1.0 || dl["retryAt"] != nil {
				t.Errorf("after the publish: %v", dl)
			}
			txack := `{"deviceInfo":{"devEui":"` + e.devEUI + `"},"queueItemId":"` + netservers.DownlinkRef(id) + `","gatewayId":"0016c001f153a14c","fCntDown":3}`
			cs.publish(t, e.topic("txack"), []byte(txack))
			kerneltest.WaitFor(t, waitLimit, func() bool { return e.downlink(t, e.tag, id)["detail"] == "transmitted by gateway 0016c001f153a14c" },
				func() string { return fmt.Sprintf("txack by MQTT: %v", e.downlink(t, e.tag, id)) })
			ack := `{"deviceInfo":{"devEui":"` + e.devEUI + `"},"queueItemId":"` + netservers.DownlinkRef(id) + `","acknowledged":true,"fCntDown":3}`
			if r := e.c.Call(t, "POST", "/api/ingest/chirpstack?event=ack", e.token, []byte(ack), "Content-Type", "application/json"); r.Status != http.StatusNoContent {
				t.Fatalf("ack: %d %s", r.Status, r.Body)
			}
			if dl := e.downlink(t, e.tag, id); dl["status"] != "acknowledged" {
				t.Errorf("after the ack: %v", dl)
			}
		})

		tts := newFakeTTS(t)
		ttsDev := randomHex(8)
		ttsApp := e.c.Must(t, "POST", fmt.Sprintf("/api/applications/%d", e.company), e.admin, map[string]any{
			"name": "Stable", "networkServer": "tts", "ttsApiKey": fakeTTSKey,
			"ttsDownlinkUrl": tts.URL + "/api/v3/as/applications/acme-app/webhooks/fieldhub/devices/{devId}/down/push",
		}, http.StatusCreated).Num("id")
		ttsTag := e.addTag(t, ttsApp, ttsDev)

		t.Run("a The Things Stack downlink is pushed with the API key", func(t *testing.T) {
			id := e.queue(t, ttsTag, map[string]any{"port": 15, "payload": "vu8=", "payloadType": "base64", "confirmed": false})
			dl := e.awaitStatus(t, ttsTag, id, "sent")
			if dl["attempts"] != 1.0 || dl["detail"] != "" {
				t.Errorf("downlink %v", dl)
			}
			req := tts.request(t, netservers.DownlinkRef(id))
			if req.path != "/api/v3/as/applications/acme-app/webhooks/fieldhub/devices/eui-"+ttsDev+"/down/push" || req.problem != "" {
				t.Errorf("request to %s: %s", req.path, req.problem)
			}
			want := `{"downlinks":[{"frm_payload":"vu8=","f_port":15,"priority":"NORMAL","confirmed":false,"correlation_ids":["fieldhub:downlink:` +
				netservers.DownlinkRef(id) + `"]}]}`
			if req.body != want {
				t.Errorf("body\n%s\nwant\n%s", req.body, want)
			}
			ack := `{"end_device_ids":{"device_id":"eui-` + ttsDev + `","dev_eui":"` + strings.ToUpper(ttsDev) + `"},"downlink_ack":{"f_port":15,"frm_payload":"vu8=",` +
				`"correlation_ids":["as:downlink:01HZ","fieldhub:downlink:` + netservers.DownlinkRef(id) + `"]}}`
			if r := e.c.Call(t, "POST", "/api/ingest/tts", e.token, []byte(ack), "Content-Type", "application/json"); r.Status != http.StatusNoContent {
				t.Fatalf("downlink_ack: %d %s", r.Status, r.Body)
			}
			if dl := e.downlink(t, ttsTag, id); dl["status"] != "acknowledged" {
				t.Errorf("after the ack: %v", dl)
			}
		})

		t.Run("a refusal of The Things Stack fails the downlink with its reason", func(t *testing.T) {
			id := e.queue(t, ttsTag, map[string]any{"port": refusePort, "payload": "01", "payloadType": "hex"})
			dl := e.awaitStatus(t, ttsTag, id, "failed")
			detail, _ := dl["detail"].(string)
			if dl["attempts"] != 1.0 || !strings.Contains(detail, "403") || !strings.Contains(detail, "no_application_rights") {
				t.Errorf("downlink %v", dl)
			}
		})

		t.Run("an outage of The Things Stack is retried later", func(t *testing.T) {
			id := e.queue(t, ttsTag, map[string]any{"port": unavailablePort, "payload": "02", "payloadType": "hex"})
			var dl map[string]any
			kerneltest.WaitFor(t, waitLimit, func() bool { dl = e.downlink(t, ttsTag, id); return dl["attempts"] == 1.0 },
				func() string { return fmt.Sprintf("no attempt: %v", dl) })
			detail, _ := dl["detail"].(string)
			if dl["status"] != "queued" || dl["retryAt"] == nil || !strings.Contains(detail, "503") || !strings.Contains(detail, "attempt 1 of") {
				t.Errorf("downlink %v", dl)
			}
		})

		t.Run("a JSON payload has no encoder yet", func(t *testing.T) {
			id := e.queue(t, e.tag, map[string]any{"port": 3, "payload": map[string]any{"valve": "open"}, "payloadType": "json"})
			dl := e.awaitStatus(t, e.tag, id, "failed")
			if detail, _ := dl["detail"].(string); !strings.Contains(detail, "JSON payloads cannot be encoded yet") {
				t.Errorf("downlink %v", dl)
			}
		})
	})
}

// TestMQTTPersistentSession stops the portal, publishes while it is down,
// and expects every uplink once it is back with the same client id.
func TestMQTTPersistentSession(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newMQTTEnv(t, d)
		cs := newMQTTClient(t, e.broker)
		e.awaitSubscribed(t, cs)
		e.stop()

		base := time.Now().Add(-time.Hour).Truncate(time.Second)
		const n = 20
		for i := range n {
			cs.publish(t, e.topic("up"), uplink(t, e.csApp, e.devEUI, base.Add(time.Duration(i)*time.Second), map[string]any{"seq": i}))
		}

		e.start(t)
		var got []float64
		kerneltest.WaitFor(t, waitLimit, func() bool {
			got = got[:0]
			for _, p := range e.points(t, "seq") {
				got = append(got, p.Value)
			}
			return len(got) == n
		}, func() string { return fmt.Sprintf("%d of %d uplinks stored after the restart: %v", len(got), n, got) })
		for i := range n {
			if !slices.Contains(got, float64(i)) {
				t.Errorf("uplink %d missing: %v", i, got)
			}
		}
	})
}

// The fake The Things Stack answers downlink pushes as the webhook
// downlink API documents: 200 with an empty body, or an error of its
// shape. The port of a downlink picks the answer.
const (
	fakeTTSKey      = "NNSXS.FAKEKEY.FIELDHUBTEST"
	refusePort      = 66 // 403, the key lacks rights
	unavailablePort = 67 // 503
)

type ttsRequest struct {
	path, body, problem string
}

type fakeTTS struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []ttsRequest
}

func newFakeTTS(t *testing.T) *fakeTTS {
	f := &fakeTTS{}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeTTS) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(io.LimitReader(r.Body, 64<<10))
	req := ttsRequest{path: r.URL.Path, body: string(raw)}
	var in struct {
		Downlinks []struct {
			FRMPayload     []byte   `json:"frm_payload"`
			FPort          int      `json:"f_port"`
			Priority       string   `json:"priority"`
			Confirmed      bool     `json:"confirmed"`
			CorrelationIDs []string `json:"correlation_ids"`
		} `json:"downlinks"`
	}
	dec := json.NewDecoder(strings.NewReader(req.body))
	dec.DisallowUnknownFields()
	var problems []string
	switch {
	case r.Method != http.MethodPost:
		problems = append(problems, "method "+r.Method)
	case !strings.HasSuffix(r.URL.Path, "/down/push"):
		problems = append(problems, "not a push")
	case r.Header.Get("Authorization") != "Bearer "+fakeTTSKey:
		problems = append(problems, "authorization "+r.Header.Get("Authorization"))
	case !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json"):
		problems = append(problems, "content type "+r.Header.Get("Content-Type"))
	case dec.Decode(&in) != nil || len(in.Downlinks) != 1:
		problems = append(problems, "body")
	}
	port := 0
	if len(problems) == 0 {
		d := in.Downlinks[0]
		port = d.FPort
		if d.FPort < 1 || d.FPort > 255 || d.FPort == 224 {
			problems = append(problems, "f_port")
		}
		if d.Priority != "NORMAL" || len(d.FRMPayload) == 0 || len(d.CorrelationIDs) == 0 {
			problems = append(problems, "downlink fields")
		}
	}
	req.problem = strings.Join(problems, "; ")
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch {
	case req.problem != "":
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"code":3,"message":"error:pkg/fake:request (%s)"}`, req.problem)
	case port == refusePort:
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"code":7,"message":"error:pkg/auth/rights:no_application_rights (no rights for application `+"`acme-app`"+`)",`+
			`"details":[{"@type":"type.googleapis.com/ttn.lorawan.v3.ErrorDetails","namespace":"pkg/auth/rights","name":"no_application_rights"}]}`)
	case port == unavailablePort:
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprint(w, `{"code":14,"message":"error:pkg/redis:unavailable (the store is unavailable)"}`)
	default:
		w.WriteHeader(http.StatusOK)
	}
}

// request returns the push that names ref.
func (f *fakeTTS) request(t *testing.T, ref string) ttsRequest {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.reqs {
		if strings.Contains(r.body, ref) {
			return r
		}
	}
	t.Fatalf("no push names %s among %d", ref, len(f.reqs))
	return ttsRequest{}
}

// TestChirpStackDownlinkWithoutBroker: without MQTT_URL a ChirpStack
// downlink cannot go anywhere, and says so, while a generic application's
// stays queued untouched.
func TestChirpStackDownlinkWithoutBroker(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.SQLite)
	acme := e.ID["acme"]
	app := e.c.Must(t, "POST", fmt.Sprintf("/api/applications/%d", acme), e.Admin["acme"],
		map[string]any{"name": "Barn", "networkServer": "chirpstack", "chirpstackApplicationId": uuid.NewString()}, http.StatusCreated).Num("id")
	tag := e.c.Must(t, "POST", fmt.Sprintf("/api/applications/%d/tag", app), e.Admin["acme"],
		map[string]any{"name": "Gate", "deveui": randomHex(8)}, http.StatusCreated).Num("id")
	status := func(tag, id int64) map[string]any {
		for _, d := range e.c.Must(t, "GET", fmt.Sprintf("/api/downlink/tag/%d", tag), e.Admin["acme"], nil, http.StatusOK).List() {
			if d.(map[string]any)["id"] == float64(id) {
				return d.(map[string]any)
			}
		}
		return nil
	}
	generic := e.c.Must(t, "POST", fmt.Sprintf("/api/downlink/%d", e.ID["cs"]), e.Admin["acme"],
		map[string]any{"port": 1, "payload": "01", "payloadType": "hex"}, http.StatusCreated).Num("id")
	id := e.c.Must(t, "POST", fmt.Sprintf("/api/downlink/%d", tag), e.Admin["acme"],
		map[string]any{"port": 1, "payload": "01", "payloadType": "hex"}, http.StatusCreated).Num("id")
	var dl map[string]any
	kerneltest.WaitFor(t, waitLimit, func() bool { dl = status(tag, id); return dl["status"] == "failed" }, func() string { return fmt.Sprint(dl) })
	if detail, _ := dl["detail"].(string); detail != "The portal has no MQTT broker to send ChirpStack downlinks through" || dl["attempts"] != 1.0 {
		t.Errorf("downlink %v", dl)
	}
	if g := status(e.ID["cs"], generic); g["status"] != "queued" || g["attempts"] != 0.0 || g["detail"] != "" {
		t.Errorf("the generic application's downlink was touched: %v", g)
	}
}

// TestTTSDownlinkToPrivateAddress: without FIELDHUB_OUTBOUND_PRIVATE a
// company's The Things Stack downlink URL may not lead to the portal's own
// host. An address is refused when the application is saved; one that gets
// there anyway (a name that resolves to it, an application saved before the
// check) fails the downlink at once with the reason, and nothing reaches the
// server listening there.
func TestTTSDownlinkToPrivateAddress(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.SQLite)
	tts := newFakeTTS(t)
	acme := e.ID["acme"]
	private := tts.URL + "/api/v3/as/applications/acme-app/webhooks/fieldhub/devices/{devId}/down/push"
	fields := e.c.Must(t, "POST", fmt.Sprintf("/api/applications/%d", acme), e.Admin["acme"], map[string]any{
		"name": "Stable", "networkServer": "tts", "ttsApiKey": fakeTTSKey, "ttsDownlinkUrl": private,
	}, http.StatusBadRequest).Body
	if !strings.Contains(string(fields), "not on the public internet") {
		t.Errorf("saving a loopback downlink URL: %s", fields)
	}
	app := e.c.Must(t, "POST", fmt.Sprintf("/api/applications/%d", acme), e.Admin["acme"], map[string]any{
		"name": "Stable", "networkServer": "tts", "ttsApiKey": fakeTTSKey,
		"ttsDownlinkUrl": "https://eu1.cloud.thethings.network/api/v3/as/applications/acme-app/webhooks/fieldhub/devices/{devId}/down/push",
	}, http.StatusCreated).Num("id")
	if _, err := e.k.Host().DB.NewRaw("UPDATE applications SET tts_downlink_url = ? WHERE id = ?", private, app).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	tag := e.c.Must(t, "POST", fmt.Sprintf("/api/applications/%d/tag", app), e.Admin["acme"],
		map[string]any{"name": "Gate", "deveui": randomHex(8)}, http.StatusCreated).Num("id")
	id := e.c.Must(t, "POST", fmt.Sprintf("/api/downlink/%d", tag), e.Admin["acme"],
		map[string]any{"port": 1, "payload": "01", "payloadType": "hex"}, http.StatusCreated).Num("id")
	var dl map[string]any
	kerneltest.WaitFor(t, waitLimit, func() bool {
		for _, d := range e.c.Must(t, "GET", fmt.Sprintf("/api/downlink/tag/%d", tag), e.Admin["acme"], nil, http.StatusOK).List() {
			if d.(map[string]any)["id"] == float64(id) {
				dl = d.(map[string]any)
			}
		}
		return dl["status"] == "failed"
	}, func() string { return fmt.Sprint(dl) })
	// The company is told why in general terms; which address the name
	// resolved to is for the server log (TestDownlinkFailuresShowAGenericReason).
	detail, _ := dl["detail"].(string)
	if dl["attempts"] != 1.0 || dl["retryAt"] != nil || !strings.Contains(detail, "not on the public internet") || strings.Contains(detail, "127.0.0.1") {
		t.Errorf("downlink %v", dl)
	}
	tts.mu.Lock()
	defer tts.mu.Unlock()
	if len(tts.reqs) != 0 {
		t.Errorf("the server on 127.0.0.1 got %d requests", len(tts.reqs))
	}
}
