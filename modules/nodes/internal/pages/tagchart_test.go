package pages

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
)

func TestTagChartProps(t *testing.T) {
	two := 2
	at := time.Date(2021, 5, 4, 3, 2, 1, 0, time.UTC)
	keys := []registry.TagData{
		{Key: nodes.Key{Key: "battery", Unit: "V", Decimals: &two}, Value: 3.6, Time: &at},
		{Key: nodes.Key{Key: "note"}, Value: "door open"},
		{Key: nodes.Key{Key: "temperature", Label: "Temperature", Unit: "°C", Default: true}, Value: 21.5},
		{Key: nodes.Key{Key: "humidity", Label: "Humidity"}},
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(tagChartProps(&nodes.Tag{ID: 7}, keys)), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"tagId": 7.0,
		"keys": []any{
			map[string]any{"key": "battery", "label": "", "unit": "V", "decimals": 2.0, "latest": "2021-05-04T03:02:01Z"},
			map[string]any{"key": "temperature", "label": "Temperature", "unit": "°C"},
			map[string]any{"key": "humidity", "label": "Humidity", "unit": ""},
		},
		"defaultKey": "temperature",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	var empty map[string]any
	_ = json.Unmarshal([]byte(tagChartProps(&nodes.Tag{ID: 8}, nil)), &empty)
	if keys, ok := empty["keys"].([]any); !ok || len(keys) != 0 || empty["defaultKey"] != nil {
		t.Errorf("a tag without keys: %v", empty)
	}
}

func TestChartDefaultKey(t *testing.T) {
	key := func(name string, value any, def bool) registry.TagData {
		return registry.TagData{Key: nodes.Key{Key: name, Default: def}, Value: value}
	}
	for _, tc := range []struct {
		name string
		keys []registry.TagData
		want string
	}{
		{"the default key", []registry.TagData{key("battery", 3.6, false), key("humidity", 40.0, false), key("temperature", 21.0, true)}, "temperature"},
		{"the default key even when it is the battery", []registry.TagData{key("battery", 3.6, true), key("temperature", 21.0, false)}, "battery"},
		{"the first measurement past battery and signal", []registry.TagData{
			key("battery", 97.0, false), key("batteryVoltage", 3.6, false), key("rssi", -80.0, false), key("snr", 7.0, false),
			key("temperature", 21.0, false), key("vdd", 3600.0, false)}, "temperature"},
		{"dotted battery and signal keys", []registry.TagData{key("gw.rssi", -80.0, false), key("sensor.battery", 90.0, false), key("sensor.co2", 420.0, false)}, "sensor.co2"},
		{"a measurement with a value before one without", []registry.TagData{key("battery", 3.6, false), key("distance", nil, false), key("level", 12.0, false)}, "level"},
		{"a key without a value when no measurement has one", []registry.TagData{key("battery", 3.6, false), key("distance", nil, false)}, "distance"},
		{"battery and signal only: the first", []registry.TagData{key("battery", 3.6, false), key("rssi", -80.0, false)}, "battery"},
		{"no keys", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := chartDefaultKey(tc.keys); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
