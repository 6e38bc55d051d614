package netservers

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/config"
)

// Config is the netservers module's part of the configuration: the MQTT
// broker of ChirpStack's MQTT integration, and how old a message may be.
type Config struct {
	// MQTTURL is the broker ChirpStack v4 publishes to; "" turns the MQTT
	// subscriber and the ChirpStack downlinks off.
	MQTTURL string // MQTT_URL
	// MQTTClientID names the subscriber's sessions at the broker
	// (MQTTSessionIDs) and their shared subscription's group.
	MQTTClientID string // MQTT_CLIENT_ID
	// MaxAgeDays is how far back the time of a message from a network
	// server or a device may lie, in days: network servers deliver late,
	// devices post their history; an older time is refused.
	MaxAgeDays int // FIELDHUB_INGEST_MAX_AGE_DAYS
}

// DefaultMaxAgeDays is MaxAgeDays unless configured: a month, generous
// for network servers that deliver what they kept while the portal was
// away.
const DefaultMaxAgeDays = 30

// MaxAge is MaxAgeDays as a duration.
func (c *Config) MaxAge() time.Duration {
	if c.MaxAgeDays <= 0 {
		return DefaultMaxAgeDays * 24 * time.Hour
	}
	return time.Duration(c.MaxAgeDays) * 24 * time.Hour
}

// MQTTSessions is how many MQTT sessions the portal's instances take
// ChirpStack's events in: the members of one MQTT 5 shared subscription
// ($share/<MQTT_CLIENT_ID>/application/+/device/+/event/+), each a
// persistent session under a client id of its own (MQTTSessionIDs). The
// broker hands each event to one member, in turn; the instances divide the
// sessions among themselves, so more than MQTTSessions instances leave the
// extra ones standing by. It is a constant because a member that no
// instance holds any longer would keep its share of the events: lowering
// it needs the sessions beyond the new count taken over and emptied first.
const MQTTSessions = 12

// MQTTSessionIDs returns the client ids of the MQTT sessions for
// MQTT_CLIENT_ID clientID: clientID itself (the client id of the single
// subscriber of earlier versions, whose session is thus taken over), then
// clientID-1 to clientID-11.
func MQTTSessionIDs(clientID string) []string {
	ids := make([]string, MQTTSessions)
	ids[0] = clientID
	for i := 1; i < MQTTSessions; i++ {
		ids[i] = clientID + "-" + strconv.Itoa(i)
	}
	return ids
}

// Section declares the module's options, read into c.
func (c *Config) Section() config.Section {
	return config.Section{Name: "netservers", Options: []config.Option{
		{Name: "MQTT_URL", Help: "MQTT broker of ChirpStack v4, mqtt://user:password@host:1883 or mqtts://host:8883; when set, the portal takes device events from it and sends ChirpStack downlinks through it", Secret: true, Set: func(v string) error {
			if v != "" {
				u, err := url.Parse(v)
				if err != nil || (u.Scheme != "mqtt" && u.Scheme != "mqtts") || u.Hostname() == "" || strings.Trim(u.Path, "/") != "" || u.RawQuery != "" {
					return fmt.Errorf("want mqtt://[user:password@]host[:port] or mqtts://[user:password@]host[:port]")
				}
				if p := u.Port(); p != "" {
					if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
						return fmt.Errorf("want a port from 1 to 65535")
					}
				}
			}
			c.MQTTURL = v
			return nil
		}},
		{Name: "MQTT_CLIENT_ID", Default: "fieldhub", Help: "MQTT client id of the subscriber: the instances take events in 12 sessions, this id and this id with -1 to -11, members of the shared subscription group of this name; the broker keeps the sessions, and the events that arrive while the portal is down, under these ids, so keep it stable (installations sharing a broker need different ids)", Set: func(v string) error {
			if len(v) > 64 || strings.Trim(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") != "" {
				return fmt.Errorf("want 1-64 letters, digits, '-', '_' or '.'")
			}
			c.MQTTClientID = v
			return nil
		}},
		{Name: "FIELDHUB_INGEST_MAX_AGE_DAYS", Default: strconv.Itoa(DefaultMaxAgeDays), Help: "how many days back the time of an uplink (or another message of a network server or device) may lie, for network servers that deliver late and devices that post their history; an older time is refused with 400 (over MQTT the event is acknowledged and logged as refused)", Set: func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 36500 {
				return fmt.Errorf("want a whole number of days from 1 to 36500")
			}
			c.MaxAgeDays = n
			return nil
		}},
	}}
}
