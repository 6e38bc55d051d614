package mqtt

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/parse"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// A session is one member of the shared subscription, held by this
// instance: a persistent MQTT session (a stable client id, no clean start, a
// long session expiry), so that events published while no instance holds
// it wait at the broker. The broker sends it up to receiveMaximum events
// before earlier ones are acknowledged; each is handled on a goroutine of
// its own, so that they all join the ingest's group commit together, and
// is acknowledged only once what it reports is durable, so that one the
// portal could not finish comes again. paho sends the acknowledgements in
// the order the events came, as MQTT requires: one that is not through yet
// holds back those after it.
type session struct {
	c    *Client
	id   string // client id
	slot int    // index among netservers.MQTTSessionIDs

	// work is the context of the events' handling; conn the connection's.
	// Both outlive the module's context, so that a stopping session can
	// finish the events in hand and acknowledge them (stop).
	work, conn             context.Context
	cancelWork, cancelConn context.CancelFunc
	slots                  chan struct{} // bounds the events in hand, QoS 0 ones too
	done                   chan struct{} // closed once the connection has ended

	mu         sync.Mutex
	accepting  bool
	subscribed bool // connected, and the subscription acknowledged (metrics.sessions)
	inHand     sync.WaitGroup
}

// setSubscribed records whether the session is connected and subscribed.
func (s *session) setSubscribed(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if on && s.conn.Err() != nil {
		return // stopped meanwhile
	}
	switch {
	case on && !s.subscribed:
		s.c.metrics.sessions.Inc()
	case !on && s.subscribed:
		s.c.metrics.sessions.Dec()
	}
	s.subscribed = on
}

// startSession connects session slot under client id and subscribes it.
func (c *Client) startSession(cfg *mqttConfig, slot int, id string) *session {
	s := &session{c: c, id: id, slot: slot, accepting: true, slots: make(chan struct{}, receiveMaximum), done: make(chan struct{})}
	s.work, s.cancelWork = context.WithCancel(context.Background())
	s.conn, s.cancelConn = context.WithCancel(context.Background())
	state := &connState{log: c.log.With("client_id", id), what: "subscriber"}
	cc := cfg.clientConfig(id)
	cc.CleanStartOnInitialConnection = false
	cc.SessionExpiryInterval = sessionExpiry
	cc.EnableManualAcknowledgment = true
	cc.SendAcksInterval = ackInterval
	cc.ConnectPacketBuilder = func(cp *paho.Connect, _ *url.URL) (*paho.Connect, error) {
		if cp.Properties == nil {
			cp.Properties = &paho.ConnectProperties{}
		}
		rm := uint16(receiveMaximum)
		cp.Properties.ReceiveMaximum = &rm
		return cp, nil
	}
	cc.OnConnectionUp = func(cm *autopaho.ConnectionManager, ca *paho.Connack) {
		state.up(ca, cfg.server.String())
		go s.subscribe(cm, cfg.clientID) // OnConnectionUp must not block
	}
	cc.OnConnectionDown = func() bool {
		s.setSubscribed(false)
		return state.lost()
	}
	cc.OnConnectError = state.failed
	cc.OnPublishReceived = []func(paho.PublishReceived) (bool, error){s.received}
	cm, err := autopaho.NewConnection(s.conn, cc)
	if err != nil {
		c.log.Error("MQTT subscriber cannot start", "client_id", id, "err", err)
		close(s.done)
		return s
	}
	go func() {
		<-cm.Done() // after a clean disconnect, once stop has cancelled s.conn
		close(s.done)
	}()
	return s
}

// received takes an event from paho, which calls it for one event at a
// time in arrival order, and handles it on a goroutine of its own. An event
// that comes while the session stops is left unacknowledged: the broker
// sends it again to the session's next holder.
func (s *session) received(pr paho.PublishReceived) (bool, error) {
	s.mu.Lock()
	if !s.accepting {
		s.mu.Unlock()
		return true, nil
	}
	s.inHand.Add(1)
	s.mu.Unlock()
	s.slots <- struct{}{}
	s.c.metrics.inHand.Inc()
	p, client := pr.Packet, pr.Client
	go func() {
		defer func() {
			<-s.slots
			s.c.metrics.inHand.Dec()
			s.inHand.Done()
		}()
		if !s.c.receive(s.work, p.Topic, p.Payload) {
			return
		}
		// After a lost connection the acknowledgement goes nowhere (paho
		// keeps them per connection), and the broker sends the event again.
		if err := client.Ack(p); err != nil {
			s.c.log.Debug("MQTT acknowledgement not sent; the broker will send the event again", "topic", p.Topic, "err", err)
			return
		}
		s.c.metrics.acked.Inc()
	}()
	return true, nil
}

// stop lets go of the session: it takes no more events, waits up to wait
// for those in hand (then cancels them), lets paho send the
// acknowledgements that are due, and disconnects, keeping the session at
// the broker for its next holder.
func (s *session) stop(wait time.Duration) {
	s.mu.Lock()
	s.accepting = false
	s.mu.Unlock()
	inHand := make(chan struct{})
	go func() {
		s.inHand.Wait()
		close(inHand)
	}()
	select {
	case <-inHand:
	case <-time.After(wait):
		s.cancelWork()
		<-inHand
	}
	time.Sleep(3 * ackInterval)
	s.cancelConn()
	<-s.done
	s.cancelWork()
	s.setSubscribed(false)
}

// subscribe (re)subscribes on every connection: a resumed session keeps
// its subscriptions, but a broker that lost the session (expired, or
// restarted without persistence) has none. Session 0 has the client id of
// the single subscriber of earlier versions, whose session may still hold
// its subscription of every event: it is dropped once the shared one is in
// place (the events it queued still come).
func (s *session) subscribe(cm *autopaho.ConnectionManager, group string) {
	ctx, cancel := context.WithTimeout(s.conn, 30*time.Second)
	defer cancel()
	topic := sharedEventTopics(group)
	ack, err := cm.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: topic, QoS: 1}}})
	if err == nil && len(ack.Reasons) == 1 && ack.Reasons[0] >= 0x80 {
		err = fmt.Errorf("refused with reason code 0x%02x (a broker without MQTT 5 shared subscriptions refuses with 0x9e)", ack.Reasons[0])
	}
	if err != nil {
		if s.conn.Err() == nil {
			s.c.log.Error("MQTT subscribe failed", "client_id", s.id, "topic", topic, "err", err)
		}
		return
	}
	s.c.log.Debug("MQTT subscribed", "client_id", s.id, "topic", topic, "qos", 1)
	s.setSubscribed(true)
	if s.slot == 0 {
		// The broker answers "no subscription existed" (0x11) when there
		// was none: nothing to do either way.
		_, _ = cm.Unsubscribe(ctx, &paho.Unsubscribe{Topics: []string{eventTopics}})
	}
}

// receive handles one ChirpStack event and reports whether to acknowledge
// it: yes once it is durable, and for one that no retry can mend (an
// unreadable or implausible body, a topic not of ChirpStack's form); no
// when ctx ended first, so that the broker sends it again. A failure that
// may pass (the database is away) is retried here; the acknowledgements of
// the events after it wait meanwhile, and once receiveMaximum events are in
// hand the broker sends no more.
func (c *Client) receive(ctx context.Context, topic string, payload []byte) bool {
	c.metrics.received.Inc()
	appID, devEUI, event, ok := splitEventTopic(topic)
	if !ok {
		c.log.Warn("MQTT message on a topic not of ChirpStack's form dropped", "topic", topic)
		return true
	}
	msg, err := parse.ChirpStack(event, payload, parse.Window{Now: c.now(), MaxAge: c.deps.MaxAge})
	if err != nil {
		// Unreadable, or implausible (a time out of the window, a reading
		// no device reports): no retry mends it.
		c.log.Warn("ChirpStack event refused and acknowledged", "topic", topic, "err", err)
		return true
	}
	if eui := msg.DevEUI(); eui != "" && eui != devEUI {
		c.log.Warn("ChirpStack event whose DevEUI differs from its topic's dropped", "topic", topic, "dev_eui", eui)
		return true
	}
	for n := 0; ; n++ {
		err := c.chirpStackEvent(ctx, appID, msg)
		switch {
		case err == nil:
			return true
		case errs.KindOf(err) == errs.Invalid:
			c.log.Warn("ChirpStack event refused and dropped", "topic", topic, "err", err)
			return true
		case ctx.Err() != nil:
			return false
		}
		wait := RetryDelay(n, time.Second, 30*time.Second)
		// Hundreds of events may fail at once: one line says so now and
		// then, rather than one for each.
		c.retries.log(func(others int) {
			c.log.Error("ChirpStack event not stored; retrying", "topic", topic, "attempt", n+1, "retry_in", wait.String(),
				"other_failures_since_last_line", others, "err", err)
		})
		select {
		case <-ctx.Done():
			return false
		case <-time.After(wait):
		}
	}
}

// sparseLog writes a line at most every sparseEvery, counting the lines
// it left out in between.
type sparseLog struct {
	mu      sync.Mutex
	last    time.Time
	skipped int
}

const sparseEvery = 10 * time.Second

func (l *sparseLog) log(write func(skipped int)) {
	l.mu.Lock()
	if now := time.Now(); now.Sub(l.last) < sparseEvery {
		l.skipped++
		l.mu.Unlock()
		return
	} else {
		l.last = now
	}
	skipped := l.skipped
	l.skipped = 0
	l.mu.Unlock()
	write(skipped)
}

// chirpStackEvent does what an event of ChirpStack application appID
// reports, for the company whose application names appID. An event of an
// application that none names has no company: its uplinks and joins put
// the DevEUI in the node pool, other events are left alone.
func (c *Client) chirpStackEvent(ctx context.Context, appID string, msg parse.Message) error {
	company, err := c.chirpStackCompany(ctx, appID, msg.DevEUI())
	if err != nil {
		return err
	}
	if d := msg.Device; company == 0 && (d == nil || d.Kind != ingest.KindUplink && d.Kind != ingest.KindJoin) {
		c.log.Debug("event of a ChirpStack application no application names", "chirpstack_application_id", appID,
			"kind", kindOf(msg), "dev_eui", msg.DevEUI())
		return nil
	}
	if msg.Device != nil {
		msg.Device.DecodeWait = decodeWait
	}
	_, err = c.deps.Dispatcher.Dispatch(ctx, company, msg)
	return err
}

// decodeWait is how long an uplink's decode waits for its company's decode
// budget before its payload is stored raw, with the reason, for decoding
// again (ingest.Message.DecodeWait). Over HTTP a request waits as long as
// its sender does, and only that sender waits; here acknowledgements go in
// arrival order, so a company's uplinks waiting for its budget would hold
// up the acknowledgements of every company's events behind them, and once
// receiveMaximum are unacknowledged the session would take no more. A
// second keeps a session flowing up to about 500 events a second; a company
// that keeps within its budget seldom waits that long, since its bucket
// holds a second's worth of codec time.
const decodeWait = time.Second

// kindOf names what msg reports, for the log.
func kindOf(msg parse.Message) string {
	switch {
	case msg.Device != nil:
		return string(msg.Device.Kind)
	case msg.Downlink != nil:
		return string(msg.Downlink.Kind)
	}
	return "other"
}

// chirpStackCompany returns the company whose application names ChirpStack
// application appID, 0 for none. Should several companies name it, the one
// that has the DevEUI's node wins, so that naming another company's
// application id takes nothing from it.
func (c *Client) chirpStackCompany(ctx context.Context, appID, devEUI string) (int64, error) {
	apps, err := c.applications(ctx, appID)
	if err != nil {
		return 0, err
	}
	if len(apps) == 0 {
		return 0, nil
	}
	if len(apps) > 1 && devEUI != "" {
		tag, err := c.deps.Tags.TagByDevEUI(ctx, devEUI)
		switch {
		case errs.Is(err, errs.NotFound):
		case err != nil:
			return 0, fmt.Errorf("look up tag %s: %w", devEUI, err)
		default:
			for _, a := range apps {
				if a.CompanyID == tag.CompanyID {
					return a.CompanyID, nil
				}
			}
		}
	}
	return apps[0].CompanyID, nil
}

// appCacheFor is how long the applications that name a ChirpStack
// application id are taken without asking the database again: every event
// needs them, and a few ids carry all the events. The price is that a
// change of an application's chirpstackApplicationId reaches the events
// up to this long later. An id that no application names is not kept, so
// that an application made for it takes its events at once.
const (
	appCacheFor = 5 * time.Second
	appCacheMax = 10_000 // beyond it the cache starts afresh
)

type appCache struct {
	mu   sync.Mutex
	apps map[string]cachedApps
}

type cachedApps struct {
	apps  []nodes.Application
	until time.Time
}

// applications returns the applications that name ChirpStack application
// appID, oldest first.
func (c *Client) applications(ctx context.Context, appID string) ([]nodes.Application, error) {
	now := c.now()
	c.appCache.mu.Lock()
	hit, ok := c.appCache.apps[appID]
	c.appCache.mu.Unlock()
	if ok && now.Before(hit.until) {
		return hit.apps, nil
	}
	apps, err := c.deps.Applications.ApplicationsByChirpStackID(ctx, appID)
	if err != nil {
		return nil, fmt.Errorf("find the application of ChirpStack application %s: %w", appID, err)
	}
	if len(apps) > 0 {
		c.appCache.mu.Lock()
		if c.appCache.apps == nil || len(c.appCache.apps) >= appCacheMax {
			c.appCache.apps = map[string]cachedApps{}
		}
		c.appCache.apps[appID] = cachedApps{apps: apps, until: now.Add(appCacheFor)}
		c.appCache.mu.Unlock()
	}
	return apps, nil
}

// splitEventTopic takes application/{id}/device/{devEui}/event/{event}
// apart; the DevEUI comes back in the parsers' spelling.
func splitEventTopic(topic string) (appID, devEUI, event string, ok bool) {
	p := strings.Split(topic, "/")
	if len(p) != 6 || p[0] != "application" || p[2] != "device" || p[4] != "event" || p[1] == "" || p[5] == "" {
		return "", "", "", false
	}
	eui := parse.NormaliseEUI(p[3])
	if len(eui) != 16 {
		return "", "", "", false
	}
	return strings.ToLower(p[1]), eui, p[5], true
}
