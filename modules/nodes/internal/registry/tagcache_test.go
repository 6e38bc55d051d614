package registry

import (
	"maps"
	"slices"
	"testing"

	"github.com/fieldhub/fieldhub/modules/nodes"
)

// TestTagCacheKeepsOneGeneration: tags are found, by DevEUI and by id,
// while the generation they were read in is current; a newer generation
// empties the cache, and a lookup that read an older one neither uses nor
// adds anything.
func TestTagCacheKeepsOneGeneration(t *testing.T) {
	const a, b = "70B3D57ED005A1B2", "0004A30B001C0530"
	ids := map[string]int64{a: 1, b: 2}
	tag := func(eui string) *nodes.Tag { return &nodes.Tag{ID: ids[eui], DevEUI: eui} }
	steps := []struct {
		name        string
		gen         int64
		keep        []*nodes.Tag // kept after the lookup, in gen
		want, found []string     // looked up; found in the cache
	}{
		{name: "empty", gen: 3, want: []string{a, b}, keep: []*nodes.Tag{tag(a)}},
		{name: "kept, in any spelling", gen: 3, want: []string{"70-b3-d5-7e-d0-05-a1-b2", b}, found: []string{a}},
		{name: "an older generation uses nothing", gen: 2, want: []string{a}, keep: []*nodes.Tag{tag(b)}},
		{name: "nor adds anything", gen: 3, want: []string{a, b}, found: []string{a}},
		{name: "a newer one empties the cache", gen: 4, want: []string{a, b}, keep: []*nodes.Tag{tag(b)}},
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
		// The same by id, the ids asked twice.
		var want, found []int64
		for _, eui := range s.want {
			want = append(want, ids[nodes.NormaliseEUI(eui)], ids[nodes.NormaliseEUI(eui)])
		}
		for _, eui := range s.found {
			found = append(found, ids[eui])
		}
		byID := map[int64]*nodes.Tag{}
		missingIDs := c.lookUpIDs(s.gen, want, byID)
		if got := slices.Sorted(maps.Keys(byID)); !slices.Equal(got, slices.Sorted(slices.Values(found))) {
			t.Errorf("%s: found ids %v, want %v", s.name, got, found)
		}
		if len(missingIDs)+len(byID) != len(s.want) {
			t.Errorf("%s: %d ids missing and %d found of %d", s.name, len(missingIDs), len(byID), len(s.want))
		}
		if s.keep != nil {
			c.keep(s.gen, s.keep)
		}
	}
}
