package sandbox_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/sandbox"
)

// roomy are the limits of calls that test something else than limits: the
// machines the tests run on are shared, and a normal decode can take longer
// than 50 ms there now and then.
var roomy = sandbox.Limits{Time: 2 * time.Second}

// newEngine starts an engine that the test closes. A binary built without
// quickjs.wasm fails the test: CI runs `just assets` before the tests.
func newEngine(tb testing.TB, opts sandbox.Options) *sandbox.Engine {
	tb.Helper()
	e, err := sandbox.New(context.Background(), opts)
	if errors.Is(err, sandbox.ErrAssetsMissing) {
		tb.Fatalf("%v", err)
	}
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := e.Close(); err != nil {
			tb.Errorf("close engine: %v", err)
		}
	})
	return e
}

func mustCodec(tb testing.TB, e *sandbox.Engine, source string) *sandbox.Codec {
	tb.Helper()
	c, err := e.Codec(context.Background(), source)
	if err != nil {
		tb.Fatalf("load codec: %v", err)
	}
	return c
}
