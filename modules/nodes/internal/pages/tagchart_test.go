package pages

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
)

func TestTagChartProps(t *testing.T) {
	two := 2
	keys := []registry.TagData{
		{Key: nodes.Key{Key: "battery", Unit: "V", Decimals: &two}, Value: 3.6},
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
			map[string]any{"key": "battery", "label": "", "unit": "V", "decimals": 2.0},
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
