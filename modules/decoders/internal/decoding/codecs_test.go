package decoding

import "testing"

// TestALoadThatBeganBeforeADropIsNotStored: a decode loaded a decoder from
// its row while another's switch-off dropped it; what the first loaded is
// the decoder as it was before, and kept, a decode that waited behind the
// switch-off found it on again (CI: a looping decoder ran a fourth time).
func TestALoadThatBeganBeforeADropIsNotStored(t *testing.T) {
	var c codecCache
	c.init()
	stale := c.drops
	c.dropCustom(7) // the switch-off
	c.storeCustom(7, &loaded{id: 7}, stale)
	if c.custom[7] != nil {
		t.Fatal("a load that began before the drop was stored")
	}
	c.storeCustom(7, &loaded{id: 7}, c.drops)
	if c.custom[7] == nil {
		t.Fatal("a load that began after the drop was not stored")
	}
}
