package ingest_test

import (
	"encoding/json"
	"os"
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

func TestDownlinkRef(t *testing.T) {
	t.Parallel()
	for _, id := range []int64{1, 42, 1 << 40} {
		ref := ingest.DownlinkRef(id)
		if len(ref) != 36 || strings.Count(ref, "-") != 4 {
			t.Errorf("DownlinkRef(%d) = %q, not a UUID", id, ref)
		}
		for _, s := range []string{ref, strings.ToUpper(ref), "fieldhub:downlink:" + ref} {
			if got, ok := ingest.ParseDownlinkRef(s); !ok || got != id {
				t.Errorf("ParseDownlinkRef(%q) = %d, %v", s, got, ok)
			}
		}
	}
	for _, s := range []string{"", "1bbcab1d-6ec6-4136-b3f5-d63be1dc08de", "f1e1d000-0000-4000-8000-000000000000", "f1e1d000-0000-4000-8000-00000000002g"} {
		if id, ok := ingest.ParseDownlinkRef(s); ok {
			t.Errorf("ParseDownlinkRef(%q) = %d", s, id)
		}
	}
}

// fixture reads a published example body from testdata.
func fixture(tb testing.TB, name string) []byte {
	tb.Helper()
	raw, err := os.ReadFile("testdata/" + name)
	if err != nil {
		tb.Fatal(err)
	}
	return raw
}

// variant returns a fixture changed by edit, which gets the body as a JSON
// tree.
func variant(tb testing.TB, name string, edit func(m map[string]any)) []byte {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal(fixture(tb, name), &m); err != nil {
		tb.Fatal(err)
	}
	edit(m)
	raw, err := json.Marshal(m)
	if err != nil {
		tb.Fatal(err)
	}
	return raw
}

// sub returns the object at a path of keys in a JSON tree.
func sub(m map[string]any, path ...string) map[string]any {
	for _, k := range path {
		m = m[k].(map[string]any)
	}
	return m
}
