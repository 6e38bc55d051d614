package sandbox_test

import (
	"testing"

	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/kernel/sandbox/sandboxtest"
)

// FuzzDecodeUplink feeds arbitrary payloads to the test codecs: a call
// returns a result or the codec's own throw, never anything else (a crash, a
// limit, a result that is not JSON). Run it with
//
//	go test ./kernel/sandbox -run '^$' -fuzz FuzzDecodeUplink -fuzztime 1m
func FuzzDecodeUplink(f *testing.F) {
	e := newEngine(f, sandbox.Options{})
	codecs, err := sandboxtest.Load("testdata/codecs")
	if err != nil {
		f.Fatal(err)
	}
	// Some test codecs throw on purpose, or return a shape the sandbox
	// refuses (Decoder returning nothing for a port it does not know).
	sandboxtest.Fuzz(f, e, codecs, sandbox.KindThrown, sandbox.KindResult)
}
