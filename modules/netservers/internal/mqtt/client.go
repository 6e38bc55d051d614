// Package mqtt is the netservers module's link to ChirpStack's MQTT
// integration: the subscriber of its device events, which hands each event
// to the dispatcher, in sessions that are members of one shared
// subscription (subscriber.go) and that the instances divide among
// themselves (sessions.go), and the publisher of downlink commands
// (publisher.go), which the downlink worker sends through.
package mqtt

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/parse"
)

// Dispatcher does what a message reports, for a company, and returns once
// the outcome is durable.
type Dispatcher interface {
	Dispatch(ctx context.Context, company int64, msg parse.Message) (*ingest.UplinkResult, error)
}

// Deps are what the subscriber needs.
type Deps struct {
	// Applications and Tags tell the company of a ChirpStack event.
	Applications netservers.ChirpStackApplications
	Tags         netservers.Tags
	// Dispatcher handles the events.
	Dispatcher Dispatcher
	// MaxAge is how far back an event's time may lie.
	MaxAge time.Duration
}

// Client holds the MQTT connections of MQTT_URL: the subscriber and the
// publisher, each with a connection of its own.
type Client struct {
	host *kernel.Host
	log  *slog.Logger
	deps Deps
	now  func() time.Time

	wg  sync.WaitGroup
	pub *publisher // nil without MQTT_URL

	// appCache keeps the applications of ChirpStack application ids
	// (subscriber.go); retries thins out the lines about events that
	// fail.
	appCache appCache
	retries  sparseLog
	metrics  metrics
}

// metrics are the subscriber's Prometheus metrics.
type metrics struct {
	sessions prometheus.Gauge   // sessions this instance holds and has subscribed
	inHand   prometheus.Gauge   // events received and not through yet
	received prometheus.Counter // events received
	acked    prometheus.Counter // events acknowledged
}

// New builds the client and registers its metrics; nothing connects before
// Start.
func New(host *kernel.Host, deps Deps) *Client {
	c := &Client{host: host, log: host.Logger("netservers"), deps: deps, now: time.Now}
	c.metrics = metrics{
		sessions: prometheus.NewGauge(prometheus.GaugeOpts{Name: "fieldhub_mqtt_sessions",
			Help: "MQTT sessions of the shared subscription of ChirpStack events that this instance holds, connected and subscribed."}),
		inHand: prometheus.NewGauge(prometheus.GaugeOpts{Name: "fieldhub_mqtt_events_in_hand",
			Help: "ChirpStack events received over MQTT that are not through yet."}),
		received: prometheus.NewCounter(prometheus.CounterOpts{Name: "fieldhub_mqtt_events_received_total",
			Help: "ChirpStack events received over MQTT, those sent again included."}),
		acked: prometheus.NewCounter(prometheus.CounterOpts{Name: "fieldhub_mqtt_events_acknowledged_total",
			Help: "ChirpStack events acknowledged to the broker, once what they report was durable or they were dropped."}),
	}
	host.Router.Registry().MustRegister(c.metrics.sessions, c.metrics.inHand, c.metrics.received, c.metrics.acked)
	return c
}

// Start starts the subscriber and readies the publisher of broker (the
// value of MQTT_URL) under clientID (MQTT_CLIENT_ID); without a broker it
// does nothing. Both end when ctx is done: the subscriber's sessions then
// finish the events in hand for a few seconds (Wait waits for them).
func (c *Client) Start(ctx context.Context, broker, clientID string) error {
	if broker == "" {
		return nil
	}
	cfg, err := parseMQTTURL(broker, clientID)
	if err != nil {
		return fmt.Errorf("MQTT_URL: %w", err)
	}
	c.pub = newPublisher(ctx, cfg, c.log)
	c.wg.Go(func() {
		c.runSessions(ctx, cfg)
		c.log.Info("MQTT subscriber stopped")
	})
	return nil
}

// Wait waits for the subscriber's sessions to finish and disconnect (the
// kernel has cancelled the context of Start) and closes the publisher.
func (c *Client) Wait() {
	c.wg.Wait()
	if c.pub != nil {
		c.pub.close()
	}
}

// ErrNoBroker is what Publish answers when no broker is configured.
var ErrNoBroker = errors.New("no MQTT broker is configured (MQTT_URL)")

// Publishes tells whether a broker is configured, so that downlinks can be
// published.
func (c *Client) Publishes() bool { return c.pub != nil }

// PublishCommand publishes body to ChirpStack's command topic of device
// devEUI of ChirpStack application appID with QoS 1, and returns once the
// broker has acknowledged it.
func (c *Client) PublishCommand(ctx context.Context, appID, devEUI string, body []byte) error {
	if c.pub == nil {
		return ErrNoBroker
	}
	return c.pub.publish(ctx, fmt.Sprintf(commandTopic, appID, devEUI), body)
}

// RetryDelay is the wait after n+1 failed tries: first, doubling with each
// further one, at most limit.
func RetryDelay(n int, first, limit time.Duration) time.Duration {
	d := first
	for i := 0; i < n && d < limit; i++ {
		d *= 2
	}
	return min(d, limit)
}
