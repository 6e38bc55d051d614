package pages

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
)

// chartKey is one key the tag-chart island offers (webapp/src/features/nodes).
// Latest is the time of the key's latest value: when the default range holds
// no data (a device whose clock is years off), the chart shows the time up to
// it instead.
type chartKey struct {
	Key      string     `json:"key"`
	Label    string     `json:"label"`
	Unit     string     `json:"unit"`
	Decimals *int       `json:"decimals,omitempty"`
	Latest   *time.Time `json:"latest,omitempty"`
}

// tagChartProps are the props of the tag-chart island of a tag, as JSON for
// its data-props attribute: {tagId, keys: [{key, label, unit, decimals?,
// latest?}], defaultKey?}. keys are the tag's keys with their latest values
// (tagData); a key whose latest value is a text is left out, since the chart
// draws numbers. defaultKey is the key the chart opens with (chartDefaultKey).
func tagChartProps(t *nodes.Tag, keys []registry.TagData) string {
	props := struct {
		TagID      int64      `json:"tagId"`
		Keys       []chartKey `json:"keys"`
		DefaultKey string     `json:"defaultKey,omitempty"`
	}{TagID: t.ID, Keys: []chartKey{}}
	var charted []registry.TagData
	for _, k := range keys {
		if _, text := k.Value.(string); text {
			continue
		}
		charted = append(charted, k)
		props.Keys = append(props.Keys, chartKey{Key: k.Key.Key, Label: k.Label, Unit: k.Unit, Decimals: k.Decimals, Latest: k.Time})
	}
	props.DefaultKey = chartDefaultKey(charted)
	raw, _ := json.Marshal(props) // plain strings and numbers: cannot fail
	return string(raw)
}

// chartDefaultKey is the key a node's chart opens with: its default key,
// else the first measurement (a key with a number) that is not battery or
// signal, which every node reports and few people open the page for; else
// the first key. keys are in the page's order (by name).
func chartDefaultKey(keys []registry.TagData) string {
	for _, k := range keys {
		if k.Default {
			return k.Key.Key
		}
	}
	for _, k := range keys {
		if _, number := k.Value.(float64); number && !housekeeping(k.Key.Key) {
			return k.Key.Key
		}
	}
	for _, k := range keys {
		if !housekeeping(k.Key.Key) {
			return k.Key.Key
		}
	}
	if len(keys) > 0 {
		return keys[0].Key.Key
	}
	return ""
}

// housekeepingKeys are the names (the last part of a dotted key, in lower
// case) of the battery and radio values a node reports beside what it
// measures.
var housekeepingKeys = map[string]bool{
	"battery": true, "batteryvoltage": true, "batterylevel": true, "vdd": true,
	"rssi": true, "snr": true, "margin": true,
}

func housekeeping(key string) bool {
	return housekeepingKeys[strings.ToLower(key[strings.LastIndex(key, ".")+1:])]
}
