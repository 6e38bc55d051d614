package registry

import (
	"maps"
	"slices"
	"testing"

	"github.com/fieldhub/fieldhub/modules/nodes"
)

// TestTagCacheKeepsOneGeneration: tags are found while the generation they
// were read in is current; a newer generation empties the cache, and a
// lookup that read an older one neither uses nor adds anything.
func TestTagCacheKeepsOneGeneration(t *testing.T) {
	const a, b = "70B3D57ED005A1B2", "0004A30B001C0530"
	tag := func(eui string) *nodes.Tag { return &nodes.Tag{DevEUI: eui} }
	steps := []struct {
		name        string
		gen         int64
		keep        map[string]*nodes.Tag // kept after the lookup, in gen
		want, found []string              // looked up; found in the cache
	}{
		{name: "empty", gen: 3, want: []string{a, b}, keep: map[string]*nodes.Tag{a: tag(a)}},
		{name: "kept, in any spelling", gen: 3, want: []string{"70-b3-d5-7e-d0-05-a1-b2", b}, found: []string{a}},
		{name: "an older generation uses nothing", gen: 2, want: []string{a}, keep: map[string]*nodes.Tag{b: tag(b)}},
		{name: "nor adds anything", gen: 3, want: []string{a, b}, found: []string{a}},
		{name: "a newer one empties the cache", gen: 4, want: []string{a, b}, keep: map[string]*nodes.Tag{b: tag(b)}},
		{name: "and keeps what it read", gen: 4, want: []string{a, b}, found: []string{b}},
	}
	var c tagCache
	for _, s := range steps {
		out := map[string]*nodes.Tag{}
		missing := c.lookUp(s.gen, s.want, out)
		if got := slices.Sorted(maps.Keys(out)); !slices.Equal(got, slices.Sorted(slices.Values(s.found))) {
			t.Errorf("%s: found %v, want %v", s.name, got, s.found)
		}
		if len(missing)+len(out) != len(s.want) {
			t.Errorf("%s: %d missing and %d found of %d", s.name, len(missing), len(out), len(s.want))
		}
		if s.keep != nil {
			c.keep(s.gen, s.keep)
		}
	}
}
