package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/modules/decoders"
)

// devices runs `fieldhub devices import PATH`: the device repository's
// vendors, models and codecs into the decoders module, with a line per
// codec (examples passed and failed) and the totals.
func devices(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "import" {
		fmt.Fprint(stderr, usage)
		return errors.New("devices: want the subcommand import")
	}
	var dir string
	rest := args[1:]
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		dir, rest = rest[0], rest[1:]
	}
	overrides, err := commonFlags("devices import", rest, stderr, nil)
	if err != nil {
		return err
	}
	if dir == "" {
		return errors.New("devices import: give the path of a lorawan-devices checkout or its vendor folder")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("devices import: %s is no folder", dir)
	}
	cfg, err := loadConfig(overrides)
	if err != nil {
		return err
	}
	a, err := app.Build(ctx, cfg, newLogger(cfg, stderr))
	if err != nil {
		return err
	}
	defer a.Close()
	abs, _ := filepath.Abs(dir)
	report, err := a.Decoders().ImportDevices(ctx, os.DirFS(abs))
	if err != nil {
		return fmt.Errorf("devices import: %s", a.Kernel().Describe(err))
	}
	printReport(stdout, report)
	return nil
}

// printReport writes an import report: a line per codec, its problems
// indented below it, then the totals.
func printReport(w io.Writer, r *decoders.ImportReport) {
	for _, c := range r.Codecs {
		mark := "ok     "
		if c.Failed > 0 {
			mark = "FAILING"
		}
		enc := ""
		if c.Encoder {
			enc = ", encoder"
		}
		fmt.Fprintf(w, "%s %s v%d (%s): %d passed, %d failed%s\n", mark, c.Key, c.Version, c.Outcome, c.Passed, c.Failed, enc)
		for _, p := range c.Problems {
			fmt.Fprintf(w, "        %s\n", p)
		}
	}
	for _, p := range r.Problems {
		fmt.Fprintf(w, "skipped: %s\n", p)
	}
	fmt.Fprintf(w, "%d vendors, %d models, %d codecs (%d failing); examples: %d passed, %d failed; took %s\n",
		r.Vendors, r.Models, len(r.Codecs), r.FailingCodecs(), r.Passed, r.Failed, r.Duration.Round(1e6))
}
