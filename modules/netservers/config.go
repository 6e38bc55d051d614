package netservers

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/config"
)

// Config is the netservers module's part of the configuration: the MQTT
// broker of ChirpStack's MQTT integration.
type Config struct {
	// MQTTURL is the broker ChirpStack v4 publishes to; "" turns the MQTT
	// subscriber and the ChirpStack downlinks off.
	MQTTURL string // MQTT_URL
	// MQTTClientID is the subscriber's client id, under which the broker
	// keeps its session.
	MQTTClientID string // MQTT_CLIENT_ID
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
		{Name: "MQTT_CLIENT_ID", Default: "fieldhub", Help: "MQTT client id of the subscriber; the broker keeps its session, and the events that arrive while the portal is down, under this id, so keep it stable (installations sharing a broker need different ids)", Set: func(v string) error {
			if len(v) > 64 || strings.Trim(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") != "" {
				return fmt.Errorf("want 1-64 letters, digits, '-', '_' or '.'")
			}
			c.MQTTClientID = v
			return nil
		}},
	}}
}
