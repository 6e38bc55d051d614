package ingest_test

import (
	"testing"

	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// TestMessagePlaceholders walks the ingest module's source for messages
// whose placeholders are left unfilled, such as a re-decode refused with
// "There is no decoder {key}".
func TestMessagePlaceholders(t *testing.T) {
	t.Parallel()
	if n := kerneltest.Placeholders(t, "."); n < 10 {
		t.Errorf("the walk judged %d messages; it finds too little", n)
	}
}
