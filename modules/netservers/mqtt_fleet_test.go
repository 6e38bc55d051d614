package netservers_test

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/netservers"
)

// These tests run a Mosquitto of their own, with a configuration file in a
// temporary folder and a listener on a free port: the settings under test
// (the broker's defaults, or those README.md recommends for a fleet) are not
// the tests' to change on the system's broker.

// storeLimit bounds the waits for tens of thousands of uplinks to be stored
// on a shared, slow machine.
const storeLimit = 5 * time.Minute

// fleetBrokerSettings are the Mosquitto settings of README.md ("ChirpStack
// over MQTT, and downlinks") for a backlog of 50,000 events: the portal's
// 12 sessions share it, about 4,200 each, and each may queue 10,000.
var fleetBrokerSettings = []string{
	"max_queued_messages 10000",
	"max_queued_bytes 0",
	"persistence true",
	"autosave_interval 60",
}

// ownBroker starts Mosquitto on a free loopback port with settings beyond
// its listener, for the test alone, and returns its URL.
func ownBroker(t *testing.T, settings ...string) string {
	t.Helper()
	bin, err := exec.LookPath("mosquitto")
	if err != nil {
		bin = "/usr/sbin/mosquitto"
		if _, err := os.Stat(bin); err != nil {
			t.Fatal("these tests run a Mosquitto of their own and none is installed (scripts/ensure-mosquitto.sh installs it)")
		}
	}
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, port, _ := net.SplitHostPort(addr)
	lines := []string{"listener " + port + " 127.0.0.1", "allow_anonymous true", "persistence_location " + dir + "/"}
	if u, err := user.Current(); err == nil {
		lines = append(lines, "user "+u.Username) // run as root, Mosquitto would drop to its own user, which cannot write dir
	}
	conf := filepath.Join(dir, "mosquitto.conf")
	if err := os.WriteFile(conf, []byte(strings.Join(append(lines, settings...), "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	logFile, err := os.Create(filepath.Join(dir, "mosquitto.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-c", conf)
	cmd.Stdout, cmd.Stderr, cmd.SysProcAttr = logFile, logFile, brokerAttr()
	if err := cmd.Start(); err != nil {
		t.Fatalf("start mosquitto: %v", err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		logFile.Close()
		close(exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return "mqtt://" + addr
		}
		select {
		case <-exited:
			raw, _ := os.ReadFile(filepath.Join(dir, "mosquitto.log"))
			t.Fatalf("mosquitto exited at start:\n%s", raw)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("mosquitto does not answer on " + addr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// metric returns the value of a gauge or counter of the running portal.
func (e *mqttEnv) metric(t *testing.T, name string) float64 {
	t.Helper()
	return metricOf(t, e.metrics, name)
}

func metricOf(t *testing.T, reg prometheus.Gatherer, name string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name || len(f.GetMetric()) != 1 {
			continue
		}
		if m := f.GetMetric()[0]; m.GetGauge() != nil {
			return m.GetGauge().GetValue()
		} else if m.GetCounter() != nil {
			return m.GetCounter().GetValue()
		}
	}
	t.Fatalf("no metric %s", name)
	return 0
}

// awaitSessions waits until the running portal holds n sessions, connected
// and subscribed.
func (e *mqttEnv) awaitSessions(t *testing.T, n int) {
	t.Helper()
	kerneltest.WaitFor(t, waitLimit, func() bool { return e.metric(t, "fieldhub_mqtt_sessions") == float64(n) },
		func() string {
			return fmt.Sprintf("the portal holds %v MQTT sessions, want %d", e.metric(t, "fieldhub_mqtt_sessions"), n)
		})
}

// addTags adds n nodes to the env's ChirpStack application and returns
// their DevEUIs.
func (e *mqttEnv) addTags(t *testing.T, n int) []string {
	t.Helper()
	euis := make([]string, n)
	for i := range euis {
		euis[i] = randomHex(8)
		e.addTag(t, e.app, euis[i])
	}
	return euis
}

// publishAll publishes n messages with QoS 1 from several goroutines at
// once, each waiting for the broker's PUBACK: as fast as the broker takes
// them.
func (c *mqttClient) publishAll(t *testing.T, n int, msg func(i int) (string, []byte)) {
	t.Helper()
	var next atomic.Int64
	var failed atomic.Value
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n || failed.Load() != nil {
					return
				}
				topic, body := msg(i)
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				_, err := c.cm.Publish(ctx, &paho.Publish{Topic: topic, QoS: 1, Payload: body})
				cancel()
				if err != nil {
					failed.Store(fmt.Errorf("publish %d: %w", i, err))
					return
				}
			}
		})
	}
	wg.Wait()
	if err, ok := failed.Load().(error); ok {
		t.Fatal(err)
	}
}

// numbered is uplink i of n nodes: node i mod n, at base plus i div n
// seconds, with one value, so that each stores exactly one point.
func (e *mqttEnv) numbered(euis []string, base time.Time) func(i int) (string, []byte) {
	return func(i int) (string, []byte) {
		eui := euis[i%len(euis)]
		at := base.Add(time.Duration(i/len(euis)) * time.Second)
		body := `{"time":"` + at.Format(time.RFC3339Nano) + `","deviceInfo":{"devEui":"` + eui + `","applicationId":"` + e.csApp +
			`"},"fPort":1,"object":{"n":` + fmt.Sprint(i) + `}}`
		return "application/" + e.csApp + "/device/" + eui + "/event/up", []byte(body)
	}
}

// awaitStored waits until the company has want points from from on (the
// uplinks of numbered), and fails at once should it have more, or once the
// count has not moved for a minute (the rest are lost).
func (e *mqttEnv) awaitStored(t *testing.T, from time.Time, want int64) {
	t.Helper()
	deadline := time.Now().Add(storeLimit)
	var last int64 = -1
	moved := time.Now()
	for {
		n, err := e.store.Count(context.Background(), e.company, from, from.Add(24*time.Hour))
		switch {
		case err != nil:
			t.Fatal(err)
		case n == want:
			return
		case n > want:
			t.Fatalf("%d points stored, want %d", n, want)
		case n != last:
			last, moved = n, time.Now()
		case time.Since(moved) > stallLimit:
			t.Fatalf("%d of %d uplinks stored, and no more for %s", n, want, stallLimit)
		case time.Now().After(deadline):
			t.Fatalf("%d of %d uplinks stored", n, want)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// stallLimit is how long awaitStored waits for the next uplink to be stored.
const stallLimit = time.Minute

// TestMQTTBurstAtBrokerDefaults publishes a burst of 5,000 uplinks within
// about a second to a Mosquitto with its default settings, which queues at
// most 1,000 events for a session beyond those in flight and drops the
// rest: the portal takes them into its sessions fast enough, and every one
// is stored.
func TestMQTTBurstAtBrokerDefaults(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newMQTTEnvAt(t, d, ownBroker(t))
		euis := e.addTags(t, 50)
		e.awaitSessions(t, netservers.MQTTSessions)
		cs := newMQTTClient(t, e.broker)
		base := time.Now().Add(-2 * time.Hour).Truncate(time.Second)
		const n = 5000
		cs.publishAll(t, n, e.numbered(euis, base))
		e.awaitStored(t, base, n)
	})
}

// TestMQTTBacklogWhilePortalDown publishes 50,000 uplinks while the portal
// is down, to a Mosquitto set up as README.md says, and finds every one
// stored once the portal is back. With every member of the shared
// subscription away, Mosquitto 2.0 goes on handing each event to the next
// member in turn, so the backlog waits in the portal's 12 sessions, a
// twelfth in each; the portal, back, takes all of them.
func TestMQTTBacklogWhilePortalDown(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newMQTTEnvAt(t, d, ownBroker(t, fleetBrokerSettings...))
		euis := e.addTags(t, 100)
		e.awaitSessions(t, netservers.MQTTSessions)
		e.stop()

		cs := newMQTTClient(t, e.broker)
		base := time.Now().Add(-24 * time.Hour).Truncate(time.Second)
		const n = 50_000
		cs.publishAll(t, n, e.numbered(euis, base))

		e.start(t)
		e.awaitStored(t, base, n)
	})
}

// TestMQTTSessionsSharedBetweenInstances runs two instances on one
// PostgreSQL database and one broker: they divide the sessions between
// them and both take events; once one stops, the other takes its sessions
// and every event; with both stopped the events wait in the sessions, and
// one instance back takes them all.
func TestMQTTSessionsSharedBetweenInstances(t *testing.T) {
	t.Parallel()
	e := newMQTTEnvAt(t, db.Postgres, ownBroker(t))
	euis := e.addTags(t, 20)
	cs := newMQTTClient(t, e.broker)
	other := e.another(t)
	half := float64(netservers.MQTTSessions / 2)
	kerneltest.WaitFor(t, 3*balanceLimit, func() bool {
		return e.metric(t, "fieldhub_mqtt_sessions") == half && metricOf(t, other.metrics, "fieldhub_mqtt_sessions") == half
	}, func() string {
		return fmt.Sprintf("the instances hold %v and %v sessions, want %v each", e.metric(t, "fieldhub_mqtt_sessions"),
			metricOf(t, other.metrics, "fieldhub_mqtt_sessions"), half)
	})

	const n = 1200
	base := time.Now().Add(-3 * time.Hour).Truncate(time.Second)
	cs.publishAll(t, n, e.numbered(euis, base))
	e.awaitStored(t, base, n)
	if a, b := e.metric(t, "fieldhub_mqtt_events_received_total"), metricOf(t, other.metrics, "fieldhub_mqtt_events_received_total"); a == 0 || b == 0 {
		t.Errorf("the instances received %v and %v events: not shared", a, b)
	}

	other.stop()
	kerneltest.WaitFor(t, 2*balanceLimit, func() bool { return e.metric(t, "fieldhub_mqtt_sessions") == netservers.MQTTSessions },
		func() string {
			return fmt.Sprintf("the instance left holds %v sessions", e.metric(t, "fieldhub_mqtt_sessions"))
		})
	base = base.Add(time.Hour)
	cs.publishAll(t, n, e.numbered(euis, base))
	e.awaitStored(t, base, n)

	e.stop()
	base = base.Add(time.Hour)
	cs.publishAll(t, n, e.numbered(euis, base))
	e.start(t)
	e.awaitStored(t, base, n)
}

// balanceLimit bounds a wait for the instances to move sessions: two polls
// of the balancer (5 s each) and some.
const balanceLimit = 15 * time.Second

// instance is a second portal on the env's database and broker.
type instance struct {
	metrics prometheus.Gatherer
	stop    func()
}

// another starts a second portal on the env's configuration: another
// instance on the same database and broker.
func (e *mqttEnv) another(t *testing.T) *instance {
	t.Helper()
	a, err := app.Build(context.Background(), e.cfg, kerneltest.Logger(t))
	if err != nil {
		t.Fatalf("build the portal: %v", err)
	}
	stop, err := a.Kernel().Start(context.Background())
	if err != nil {
		a.Close()
		t.Fatalf("start kernel: %v", err)
	}
	in := &instance{metrics: a.Kernel().Host().Router.Registry(), stop: sync.OnceFunc(func() {
		stop()
		a.Close()
	})}
	t.Cleanup(in.stop)
	return in
}

// TestMQTTTakesOverTheSingleSubscribersSession starts the portal on a
// session left by an earlier version's single subscriber, under the client
// id that is now the first of the sessions, with its subscription of every
// event and events queued in it: they arrive, and the old subscription is
// dropped, so that later events come once, through the shared one.
func TestMQTTTakesOverTheSingleSubscribersSession(t *testing.T) {
	t.Parallel()
	e := newMQTTEnvAt(t, db.SQLite, ownBroker(t))
	euis := e.addTags(t, 5)
	e.awaitSessions(t, netservers.MQTTSessions)
	e.stop()
	// The earlier version's session: a clean one under MQTT_CLIENT_ID,
	// subscribed to every event.
	legacySession(t, e.broker, e.clientID)
	cs := newMQTTClient(t, e.broker)
	base := time.Now().Add(-2 * time.Hour).Truncate(time.Second)
	const queued = 10
	cs.publishAll(t, queued, e.numbered(euis, base))

	e.start(t)
	e.awaitStored(t, base, queued)
	// Each queued event came twice: through the old subscription and
	// through the shared one, to one of the other sessions.
	e.awaitHandled(t, 2*queued)
	e.awaitSessions(t, netservers.MQTTSessions)

	base = base.Add(time.Hour)
	const later = 24
	cs.publishAll(t, later, e.numbered(euis, base))
	e.awaitStored(t, base, later)
	e.awaitHandled(t, 2*queued+later)
}

// awaitHandled waits until the portal has received n events and is
// through with every one, and checks that no more came meanwhile.
func (e *mqttEnv) awaitHandled(t *testing.T, n float64) {
	t.Helper()
	kerneltest.WaitFor(t, waitLimit, func() bool {
		return e.metric(t, "fieldhub_mqtt_events_received_total") >= n && e.metric(t, "fieldhub_mqtt_events_in_hand") == 0
	}, func() string {
		return fmt.Sprintf("%v events received, want %v", e.metric(t, "fieldhub_mqtt_events_received_total"), n)
	})
	if got := e.metric(t, "fieldhub_mqtt_events_received_total"); got != n {
		t.Errorf("%v events received, want %v", got, n)
	}
}

// legacySession makes the session of clientID what the single subscriber
// of earlier versions left: subscribed to every event topic, kept a week.
func legacySession(t *testing.T, brokerURL, clientID string) {
	t.Helper()
	u, _ := url.Parse(brokerURL)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cm, err := autopaho.NewConnection(ctx, autopaho.ClientConfig{ServerUrls: []*url.URL{u}, KeepAlive: 30,
		CleanStartOnInitialConnection: true, SessionExpiryInterval: 7 * 24 * 60 * 60,
		ClientConfig: paho.ClientConfig{ClientID: clientID}})
	if err != nil {
		t.Fatal(err)
	}
	if err := cm.AwaitConnection(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := cm.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: "application/+/device/+/event/+", QoS: 1}}}); err != nil {
		t.Fatal(err)
	}
	if err := cm.Disconnect(ctx); err != nil {
		t.Fatal(err)
	}
	<-cm.Done()
}
