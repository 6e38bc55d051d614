package forwarding_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/forwarding"
)

// brokerURL is the Mosquitto the tests publish to; the test fails when
// none answers, so that the MQTT path is never left untested.
const brokerURL = "mqtt://127.0.0.1:1883"

// subscriber is the receiving system's client on the broker.
type subscriber struct {
	mu  sync.Mutex
	got []*paho.Publish
}

func subscribe(t *testing.T, topic string) *subscriber {
	t.Helper()
	if c, err := net.DialTimeout("tcp", "127.0.0.1:1883", 2*time.Second); err != nil {
		t.Fatalf("an MQTT broker is required at 127.0.0.1:1883 (run scripts/ensure-mosquitto.sh): %v", err)
	} else {
		c.Close()
	}
	s := &subscriber{}
	u, _ := url.Parse(brokerURL)
	ctx, cancel := context.WithCancel(context.Background())
	id := make([]byte, 4)
	_, _ = rand.Read(id)
	cm, err := autopaho.NewConnection(ctx, autopaho.ClientConfig{ServerUrls: []*url.URL{u}, KeepAlive: 30, CleanStartOnInitialConnection: true,
		ClientConfig: paho.ClientConfig{ClientID: "fieldhub-test-forward-" + hex.EncodeToString(id),
			OnPublishReceived: []func(paho.PublishReceived) (bool, error){func(pr paho.PublishReceived) (bool, error) {
				s.mu.Lock()
				s.got = append(s.got, pr.Packet)
				s.mu.Unlock()
				return true, nil
			}}}})
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
	if _, err := cm.Subscribe(wctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: topic, QoS: 1}}}); err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	return s
}

func (s *subscriber) messages() []*paho.Publish {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*paho.Publish(nil), s.got...)
}

// TestMQTTTargetPublishesOnTheTemplatedTopic: an MQTT target publishes
// each stored uplink, in order, on its topic template filled in, and its
// test call publishes a sample.
func TestMQTTTargetPublishesOnTheTemplatedTopic(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		run := make([]byte, 4)
		_, _ = rand.Read(run)
		prefix := "fieldhub-test/" + hex.EncodeToString(run)
		sub := subscribe(t, prefix+"/#")
		id := e.Must(t, "acmeAdmin", "POST", "/api/applications/{acmeApp}/forwarding", map[string]any{
			"name": "Second platform", "kind": "mqtt", "url": brokerURL, "username": "fieldhub", "password": "not-checked",
			"topic": prefix + "/{companyId}/{applicationId}/{devEui}/up",
		}, http.StatusCreated).Num("id")
		if r := e.Must(t, "acmeAdmin", "POST", fmt.Sprintf("/api/forwarding/%d/test", id), nil, http.StatusOK).Obj(); r["ok"] != true {
			t.Fatalf("test %v", r)
		}
		start := time.Now().UTC().Truncate(time.Second).Add(-time.Hour)
		for i := range 4 {
			e.Uplink(t, "acme", start.Add(time.Duration(i)*time.Minute), 2, []byte{byte(i)})
		}
		kerneltest.WaitFor(t, 60*time.Second, func() bool { return len(sub.messages()) >= 5 },
			func() string { return fmt.Sprintf("the broker passed %d messages, want 5", len(sub.messages())) })
		msgs := sub.messages()
		want := fmt.Sprintf("%s/%d/%d/%s/up", prefix, e.ID(t, "{acme}"), e.ID(t, "{acmeApp}"), e.EUI["acmeNode"])
		for i, m := range msgs {
			var u forwarding.Uplink
			if err := json.Unmarshal(m.Payload, &u); err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				if !u.Test || m.Topic != fmt.Sprintf("%s/%d/%d/0000000000000000/up", prefix, e.ID(t, "{acme}"), e.ID(t, "{acmeApp}")) {
					t.Errorf("test message %s %+v", m.Topic, u)
				}
				continue
			}
			if m.Topic != want || m.QoS != 1 || !u.Time.Equal(start.Add(time.Duration(i-1)*time.Minute)) || u.FPort != 2 {
				t.Errorf("message %d: %s qos %d %+v", i, m.Topic, m.QoS, u)
			}
		}
	})
}
