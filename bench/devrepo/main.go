// Command devrepo times `fieldhub devices import` on a synthetic device
// repository in lorawan-devices' published layout: -codecs codecs (400) with
// -examples examples in all (1,300), spread over vendors of ten codecs, each
// codec a small TLV decoder whose examples it passes. It imports into a fresh
// SQLite database (or FIELDHUB_DATABASE_URL's) and prints the report's totals
// and the time. Results go in docs/performance.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/app"
)

func main() {
	codecs := flag.Int("codecs", 400, "codecs in the repository")
	examples := flag.Int("examples", 1300, "examples in all")
	flag.Parse()
	if err := run(*codecs, *examples); err != nil {
		fmt.Fprintln(os.Stderr, "devrepo:", err)
		os.Exit(1)
	}
}

func run(codecs, examples int) error {
	tmp, err := os.MkdirTemp("", "fieldhub-devrepo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	repo := filepath.Join(tmp, "lorawan-devices")
	if err := generate(repo, codecs, examples); err != nil {
		return err
	}
	cfg, err := app.LoadConfig(os.Getenv, os.Environ(), map[string]string{"FIELDHUB_DATA": filepath.Join(tmp, "data")})
	if err != nil {
		return err
	}
	ctx := context.Background()
	a, err := app.Build(ctx, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer a.Close()
	t0 := time.Now()
	r, err := a.Decoders().ImportDevices(ctx, os.DirFS(repo))
	if err != nil {
		return err
	}
	took := time.Since(t0)
	fmt.Printf("%d vendors, %d models, %d codecs (%d failing); examples %d passed, %d failed; import took %s\n",
		r.Vendors, r.Models, len(r.Codecs), r.FailingCodecs(), r.Passed, r.Failed, took.Round(time.Millisecond))
	t0 = time.Now()
	r, err = a.Decoders().ImportDevices(ctx, os.DirFS(repo))
	if err != nil {
		return err
	}
	fmt.Printf("re-import of the same checkout (verified again, nothing stored): %s\n", time.Since(t0).Round(time.Millisecond))
	return nil
}

// codecJS decodes channel-type-value triplets: type 1 temperature (int16
// tenths), 2 humidity (byte, halves), 3 battery (byte).
const codecJS = `function decodeUplink(input) {
  var b = input.bytes, data = {}, i = 0;
  while (i < b.length) {
    var type = b[i];
    if (type === 1) { var t = (b[i + 1] << 8) | b[i + 2]; if (t > 0x7fff) t -= 0x10000; data.temperature = t / 10; i += 3; }
    else if (type === 2) { data.humidity = b[i + 1] / 2; i += 2; }
    else if (type === 3) { data.battery = b[i + 1]; i += 2; }
    else return { errors: ["unknown channel " + type] };
  }
  return { data: data };
}
`

func generate(root string, codecs, examples int) error {
	vendorDir := filepath.Join(root, "vendor")
	vendors := (codecs + 9) / 10
	var index strings.Builder
	index.WriteString("vendors:\n")
	n, ex := 0, 0
	for v := range vendors {
		id := fmt.Sprintf("vendor-%03d", v)
		fmt.Fprintf(&index, "  - id: %s\n    name: Vendor %d\n", id, v)
		dir := filepath.Join(vendorDir, id)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		var devices strings.Builder
		devices.WriteString("endDevices:\n")
		for c := 0; c < 10 && n < codecs; c++ {
			model := fmt.Sprintf("model-%d", c)
			fmt.Fprintf(&devices, "  - %s\n", model)
			codec := model + "-codec"
			file := fmt.Sprintf("name: Model %d of %s\ndescription: A synthetic sensor.\nfirmwareVersions:\n  - version: \"1.0\"\n    profiles:\n      EU863-870:\n        id: p-eu868\n        codec: %s\n      US902-928:\n        id: p-us915\n        codec: %s\n", c, id, codec, codec)
			// Spread the examples evenly: the first codecs take one more.
			k := examples / codecs
			if n < examples%codecs {
				k++
			}
			var yaml strings.Builder
			fmt.Fprintf(&yaml, "uplinkDecoder:\n  fileName: %s.js\n  examples:\n", model)
			for i := range k {
				temp := (n*7+i*13)%400 - 100
				hum := (n + i) % 200
				u := uint16(int16(temp))
				fmt.Fprintf(&yaml, "    - description: Example %d\n      input:\n        fPort: 1\n        bytes: [1, %d, %d, 2, %d, 3, %d]\n      output:\n        data:\n          temperature: %g\n          humidity: %g\n          battery: %d\n",
					i, u>>8, u&0xff, hum, i+90, float64(temp)/10, float64(hum)/2, i+90)
				ex++
			}
			for name, content := range map[string]string{model + ".yaml": file, codec + ".yaml": yaml.String(), model + ".js": codecJS + fmt.Sprintf("// %s %s\n", id, model)} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					return err
				}
			}
			n++
		}
		if err := os.WriteFile(filepath.Join(dir, "index.yaml"), []byte(devices.String()), 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("generated %d vendors, %d codecs, %d examples\n", vendors, n, ex)
	return os.WriteFile(filepath.Join(vendorDir, "index.yaml"), []byte(index.String()), 0o644)
}
