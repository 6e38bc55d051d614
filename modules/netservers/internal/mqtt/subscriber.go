package mqtt

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/parse"
)

// runSubscriber takes ChirpStack's device events from the broker until ctx
// is done. The session is persistent (a stable client id, no clean start,
// a long session expiry), so that events published while the portal is
// down wait at the broker; each is acknowledged only once what it reports
// is durable, so that one the portal could not finish comes again.
func (c *Client) runSubscriber(ctx context.Context, cfg *mqttConfig) error {
	for ctx.Err() == nil {
		lost, release, err := c.lead(ctx, "netservers.mqtt:"+cfg.clientID)
		if err != nil {
			break // ctx is done
		}
		c.subscribeSession(ctx, cfg, lost)
		release()
	}
	c.log.Info("MQTT subscriber stopped")
	return nil
}

// subscribeSession holds the subscription until ctx is done or lost
// closes; autopaho reconnects with backoff in between.
func (c *Client) subscribeSession(ctx context.Context, cfg *mqttConfig, lost <-chan struct{}) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-lost:
			c.log.Warn("MQTT subscriber lost its lock on the database; stepping down")
			cancel()
		case <-ctx.Done():
		}
	}()
	state := &connState{log: c.log, what: "subscriber"}
	cc := cfg.clientConfig(cfg.clientID)
	cc.CleanStartOnInitialConnection = false
	cc.SessionExpiryInterval = sessionExpiry
	cc.EnableManualAcknowledgment = true
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
		go c.subscribe(ctx, cm) // OnConnectionUp must not block
	}
	cc.OnConnectionDown = state.lost
	cc.OnConnectError = state.failed
	cc.OnPublishReceived = []func(paho.PublishReceived) (bool, error){func(pr paho.PublishReceived) (bool, error) {
		// Handlers run one at a time in arrival order, so the
		// acknowledgements go out in that order, as MQTT requires.
		if c.receive(ctx, pr.Packet.Topic, pr.Packet.Payload) && ctx.Err() == nil {
			if err := pr.Client.Ack(pr.Packet); err != nil {
				c.log.Warn("MQTT acknowledgement not sent; the broker will send the event again", "topic", pr.Packet.Topic, "err", err)
			}
		}
		return true, nil
	}}
	cm, err := autopaho.NewConnection(ctx, cc)
	if err != nil {
		c.log.Error("MQTT subscriber cannot start", "err", err)
		<-ctx.Done()
		return
	}
	<-cm.Done() // after a clean disconnect, once ctx is done
}

// subscribe (re)subscribes on every connection: a resumed session keeps
// its subscriptions, but a broker that lost the session (expired, or
// restarted without persistence) has none.
func (c *Client) subscribe(ctx context.Context, cm *autopaho.ConnectionManager) {
	sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	_, err := cm.Subscribe(sctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: eventTopics, QoS: 1}}})
	if err != nil {
		if ctx.Err() == nil {
			c.log.Error("MQTT subscribe failed", "topic", eventTopics, "err", err)
		}
		return
	}
	c.log.Info("MQTT subscribed", "topic", eventTopics, "qos", 1)
}

// receive handles one ChirpStack event and reports whether to acknowledge
// it: yes once it is durable, and for one that no retry can mend (an
// unreadable or implausible body, a topic not of ChirpStack's form); no when ctx ended
// first, so that the broker sends it again on the next session. A failure
// that may pass (the database is away) is retried here, holding up the
// events behind it: they could not be acknowledged before this one anyway.
func (c *Client) receive(ctx context.Context, topic string, payload []byte) bool {
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
		c.log.Error("ChirpStack event not stored; retrying", "topic", topic, "attempt", n+1, "retry_in", wait.String(), "err", err)
		select {
		case <-ctx.Done():
			return false
		case <-time.After(wait):
		}
	}
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
	_, err = c.deps.Dispatcher.Dispatch(ctx, company, msg)
	return err
}

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
	apps, err := c.deps.Applications.ApplicationsByChirpStackID(ctx, appID)
	if err != nil {
		return 0, fmt.Errorf("find the application of ChirpStack application %s: %w", appID, err)
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
