package mqtt

import (
	"crypto/tls"
	"errors"
	"log/slog"
	"net"
	"net/url"
	"sync"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"
)

// The MQTT integration of ChirpStack v4 publishes device events to
// application/{application_id}/device/{dev_eui}/event/{event} (its default
// event_topic) and takes downlinks on .../command/down. The portal's
// sessions subscribe to the event topics as members of one shared
// subscription (sharedEventTopics).
const (
	eventTopics  = "application/+/device/+/event/+"
	commandTopic = "application/%s/device/%s/command/down"
)

// sharedEventTopics is the event topics as a shared subscription of group
// (MQTT_CLIENT_ID): the broker hands each event to one of the group's
// members.
func sharedEventTopics(group string) string { return "$share/" + group + "/" + eventTopics }

const (
	// sessionExpiry is how long the broker keeps a session, and the events
	// that arrive for it, while no instance holds it (MQTT 5 Session
	// Expiry Interval, in seconds): a week of downtime.
	sessionExpiry = 7 * 24 * 60 * 60
	// receiveMaximum bounds the events the broker sends a session before
	// the portal has acknowledged earlier ones: the back-pressure of the
	// subscriber. An event is acknowledged once its group commit is
	// through, tens of milliseconds under load, so each session keeps
	// hundreds in flight, and an instance that holds every session
	// (netservers.MQTTSessions) thousands: enough for the ingest's
	// batches to fill.
	receiveMaximum = 512
	// ackInterval is how often a session sends the acknowledgements that
	// are due, in the order the events came (paho's SendAcksInterval).
	ackInterval = 20 * time.Millisecond
	// keepAlive is the MQTT keep-alive, in seconds.
	keepAlive = 30
)

// mqttConfig is MQTT_URL taken apart.
type mqttConfig struct {
	server   *url.URL // scheme and host:port, without credentials
	username string
	password []byte
	clientID string
}

// parseMQTTURL reads mqtt://user:password@host:port or mqtts://...; the
// port defaults to 1883 and 8883.
func parseMQTTURL(raw, clientID string) (*mqttConfig, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "mqtt" && u.Scheme != "mqtts") || u.Hostname() == "" {
		return nil, errors.New("want mqtt://[user:password@]host[:port] or mqtts://...")
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"mqtt": "1883", "mqtts": "8883"}[u.Scheme]
	}
	c := &mqttConfig{server: &url.URL{Scheme: u.Scheme, Host: net.JoinHostPort(u.Hostname(), port)}, clientID: clientID}
	if u.User != nil {
		c.username = u.User.Username()
		if p, ok := u.User.Password(); ok {
			c.password = []byte(p)
		}
	}
	return c, nil
}

// clientConfig is what the subscriber and the publisher share.
func (c *mqttConfig) clientConfig(clientID string) autopaho.ClientConfig {
	cc := autopaho.ClientConfig{
		ServerUrls:       []*url.URL{c.server},
		KeepAlive:        keepAlive,
		ConnectTimeout:   10 * time.Second,
		ReconnectBackoff: autopaho.NewExponentialBackoff(time.Second, time.Minute, 2*time.Second, 2),
		ConnectUsername:  c.username,
		ConnectPassword:  c.password,
		ClientConfig:     paho.ClientConfig{ClientID: clientID},
	}
	if c.server.Scheme == "mqtts" {
		cc.TlsCfg = &tls.Config{ServerName: c.server.Hostname(), MinVersion: tls.VersionTLS12}
	}
	return cc
}

// connState logs a connection's state changes once each, not every retry.
type connState struct {
	log  *slog.Logger
	what string // "subscriber" or "publisher"
	mu   sync.Mutex
	down bool
}

func (s *connState) up(ca *paho.Connack, broker string) {
	s.mu.Lock()
	s.down = false
	s.mu.Unlock()
	s.log.Info("MQTT "+s.what+" connected", "broker", broker, "session_present", ca.SessionPresent)
}

func (s *connState) lost() bool {
	s.mu.Lock()
	s.down = true
	s.mu.Unlock()
	s.log.Warn("MQTT " + s.what + " lost its connection; reconnecting")
	return true
}

func (s *connState) failed(err error) {
	s.mu.Lock()
	first := !s.down
	s.down = true
	s.mu.Unlock()
	if first {
		s.log.Warn("MQTT "+s.what+" cannot connect; retrying with backoff", "err", err)
	} else {
		s.log.Debug("MQTT "+s.what+" cannot connect", "err", err)
	}
}
