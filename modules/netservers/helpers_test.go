package netservers_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/modules/netservers"
)

func TestDownlinkRef(t *testing.T) {
	t.Parallel()
	for _, id := range []int64{1, 42, 1 << 40} {
		ref := netservers.DownlinkRef(id)
		if len(ref) != 36 || strings.Count(ref, "-") != 4 {
			t.Errorf("DownlinkRef(%d) = %q, not a UUID", id, ref)
		}
		for _, s := range []string{ref, strings.ToUpper(ref), "fieldhub:downlink:" + ref} {
			if got, ok := netservers.ParseDownlinkRef(s); !ok || got != id {
				t.Errorf("ParseDownlinkRef(%q) = %d, %v", s, got, ok)
			}
		}
	}
	for _, s := range []string{"", "1bbcab1d-6ec6-4136-b3f5-d63be1dc08de", "f1e1d000-0000-4000-8000-000000000000", "f1e1d000-0000-4000-8000-00000000002g"} {
		if id, ok := netservers.ParseDownlinkRef(s); ok {
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
