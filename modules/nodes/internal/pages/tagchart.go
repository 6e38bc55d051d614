package pages

import (
	"encoding/json"

	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
)

// chartKey is one key the tag-chart island offers (webapp/src/islands/tag-chart).
type chartKey struct {
	Key      string `json:"key"`
	Label    string `json:"label"`
	Unit     string `json:"unit"`
	Decimals *int   `json:"decimals,omitempty"`
}

// tagChartProps are the props of the tag-chart island of a tag, as JSON for
// its data-props attribute: {tagId, keys: [{key, label, unit, decimals?}],
// defaultKey?}. keys are the tag's keys with their latest values (tagData);
// a key whose latest value is a text is left out, since the chart draws
// numbers.
func tagChartProps(t *nodes.Tag, keys []registry.TagData) string {
	props := struct {
		TagID      int64      `json:"tagId"`
		Keys       []chartKey `json:"keys"`
		DefaultKey string     `json:"defaultKey,omitempty"`
	}{TagID: t.ID, Keys: []chartKey{}}
	for _, k := range keys {
		if _, text := k.Value.(string); text {
			continue
		}
		props.Keys = append(props.Keys, chartKey{Key: k.Key.Key, Label: k.Label, Unit: k.Unit, Decimals: k.Decimals})
		if k.Default {
			props.DefaultKey = k.Key.Key
		}
	}
	raw, _ := json.Marshal(props) // plain strings and numbers: cannot fail
	return string(raw)
}
