package ingest_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/modules/ingest"
)

func TestFlatten(t *testing.T) {
	t.Parallel()
	got, err := ingest.Flatten(map[string]any{
		"temperature": 21.5, "count": 3, "ok": true, "off": false, "label": "a\x00b", "none": nil,
		"position": map[string]any{"lat": 57.7, "lng": json.Number("11.97")}, "bytes": []any{1.0, 2.0},
		"Temp (°C)": 20.0, "": 1.0, strings.Repeat("k", 80): 1.0,
	})
	want := map[string]any{
		"temperature": 21.5, "count": 3.0, "ok": 1.0, "off": 0.0, "label": "ab",
		"position.lat": 57.7, "position.lng": 11.97, "bytes.0": 1.0, "bytes.1": 2.0,
		"Temp___C_": 20.0, "_": 1.0, strings.Repeat("k", 64): 1.0,
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Flatten = %v, %v\nwant %v", got, err, want)
	}
}
