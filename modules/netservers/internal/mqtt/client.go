// Package mqtt is the netservers module's link to ChirpStack's MQTT
// integration: the subscriber of its device events (subscriber.go, holding
// the subscription on one instance at a time: lead.go), which hands each
// event to the dispatcher, and the publisher of downlink commands
// (publisher.go), which the downlink worker sends through.
package mqtt

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

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
}

// New builds the client; nothing connects before Start.
func New(host *kernel.Host, deps Deps) *Client {
	return &Client{host: host, log: host.Logger("netservers"), deps: deps, now: time.Now}
}

// Start starts the subscriber and readies the publisher of broker (the
// value of MQTT_URL) under clientID (MQTT_CLIENT_ID); without a broker it
// does nothing. Both end when ctx is done.
func (c *Client) Start(ctx context.Context, broker, clientID string) error {
	if broker == "" {
		return nil
	}
	cfg, err := parseMQTTURL(broker, clientID)
	if err != nil {
		return fmt.Errorf("MQTT_URL: %w", err)
	}
	c.pub = newPublisher(ctx, cfg, c.log)
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		if err := c.runSubscriber(ctx, cfg); err != nil {
			c.log.Error("MQTT subscriber stopped", "err", err)
		}
	}()
	return nil
}

// Wait waits for the subscriber to disconnect (the kernel has cancelled
// the context of Start) and closes the publisher.
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
