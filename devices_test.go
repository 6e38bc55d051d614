package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestDevicesImportCommand runs `fieldhub devices import` on the fixture
// repository twice: the first reports every codec created with its counts
// and the failing one marked, the second the codecs unchanged.
func TestDevicesImportCommand(t *testing.T) {
	t.Setenv("FIELDHUB_DATA", t.TempDir())
	ctx := context.Background()
	const repo = "modules/decoders/testdata/devrepo"
	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"devices", "import", repo}, &out, &errOut); err != nil {
		t.Fatalf("import: %v\n%s", err, errOut.String())
	}
	for _, want := range []string{
		"3 vendors, 5 models, 5 codecs (1 failing); examples: 8 passed, 1 failed",
		"FAILING ttn/brightsens/co2x-codec v1 (created): 1 passed, 1 failed",
		`uplink example "TVOC reading": data.tvoc: want 7, got 0.07`,
		"ok      ttn/acme/door-codec v1 (created): 2 passed, 0 failed, encoder",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := run(ctx, []string{"devices", "import", repo + "/vendor"}, &out, &errOut); err != nil {
		t.Fatalf("again: %v", err)
	}
	if !strings.Contains(out.String(), "ttn/acme/th1-codec v1 (unchanged)") {
		t.Errorf("second import:\n%s", out.String())
	}
	if err := run(ctx, []string{"devices", "import", t.TempDir()}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "vendor/index.yaml is missing") {
		t.Errorf("a folder without the repository: %v", err)
	}
	if err := run(ctx, []string{"devices", "import"}, &out, &errOut); err == nil {
		t.Error("no path accepted")
	}
}
