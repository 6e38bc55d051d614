package sandbox_test

import (
	"testing"

	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/kernel/sandbox/sandboxtest"
)

// TestDifferentialWithNode runs the codecs of testdata/codecs, written in the
// styles found in the wild, under the sandbox and under Node, and passes only
// when both give the same JSON for every case.
func TestDifferentialWithNode(t *testing.T) {
	t.Parallel()
	e := newEngine(t, sandbox.Options{LoadTimeout: sandboxtest.LoadTimeout})
	sandboxtest.Differential(t, e, "testdata/codecs")
}
