package netservers_test

import (
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/config"
	"github.com/fieldhub/fieldhub/modules/netservers"
)

// load reads the module's options from env as the application does:
// config.Load learns their names, Apply reads their values.
func load(env map[string]string) (netservers.Config, error) {
	var cfg netservers.Config
	c, err := config.Load(func(k string) string { return env[k] }, nil, nil, cfg.Section())
	if err != nil {
		return cfg, err
	}
	return cfg, c.Apply(cfg.Section())
}

func TestLoadDefaults(t *testing.T) {
	c, err := load(nil)
	if err != nil || c.MQTTURL != "" || c.MQTTClientID != "fieldhub" {
		t.Errorf("defaults: %+v, %v", c, err)
	}
}

func TestMQTTOptions(t *testing.T) {
	for _, v := range []string{"mqtt://127.0.0.1:1883", "mqtts://user:p%40ss@broker.example.com", "mqtt://broker/"} {
		c, err := load(map[string]string{"MQTT_URL": v, "MQTT_CLIENT_ID": "fieldhub-eu.1"})
		if err != nil || c.MQTTURL != v || c.MQTTClientID != "fieldhub-eu.1" {
			t.Errorf("%s: %+v, %v", v, c, err)
		}
	}
}

// TestBadValueNamesTheOption checks that every refused value stops start-up
// with a line that names the option.
func TestBadValueNamesTheOption(t *testing.T) {
	cases := []struct {
		name, value string
	}{
		{"MQTT_URL", "tcp://broker:1883"},
		{"MQTT_URL", "mqtt://:1883"},
		{"MQTT_URL", "mqtt://broker:1883/topic"},
		{"MQTT_URL", "mqtt://broker:99999"},
		{"MQTT_CLIENT_ID", "two words"},
		{"MQTT_CLIENT_ID", "a/b"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := load(map[string]string{tc.name: tc.value})
			if err == nil || !strings.Contains(err.Error(), tc.name) || strings.Contains(err.Error(), "\n") {
				t.Errorf("got %v, want one line naming %s", err, tc.name)
			}
		})
	}
}

func TestMQTTSessionIDs(t *testing.T) {
	ids := netservers.MQTTSessionIDs("fieldhub-eu")
	if len(ids) != netservers.MQTTSessions || ids[0] != "fieldhub-eu" || ids[1] != "fieldhub-eu-1" || ids[11] != "fieldhub-eu-11" {
		t.Errorf("got %v", ids)
	}
}
