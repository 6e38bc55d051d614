package profiles_test

import (
	"testing"

	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestMessagePlaceholders walks the profiles module's source for messages
// whose placeholders are left unfilled.
func TestMessagePlaceholders(t *testing.T) {
	t.Parallel()
	if n := kerneltest.Placeholders(t, "."); n < 5 {
		t.Errorf("the walk judged %d messages; it finds too little", n)
	}
}
