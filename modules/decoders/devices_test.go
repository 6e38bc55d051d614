package decoders_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/decoders"
)

// fixtureRepo is a small repository in lorawan-devices' published layout:
// three vendors with devices (and one listed without), five codecs, of
// which co2x-codec disagrees with its second example and door-codec has
// encodeDownlink.
const fixtureRepo = "testdata/devrepo"

func codecLine(t *testing.T, r *decoders.ImportReport, key string) decoders.CodecReport {
	t.Helper()
	for _, c := range r.Codecs {
		if c.Key == key {
			return c
		}
	}
	t.Fatalf("no line for %s in %+v", key, r.Codecs)
	return decoders.CodecReport{}
}

// TestDeviceRepositoryImport imports the fixture (from the checkout and
// from its vendor folder), checks the counts, the failing codec, the
// catalog, a node decoding with an imported codec, and a re-import of a
// changed checkout that adds versions without breaking the node.
func TestDeviceRepositoryImport(t *testing.T) {
	t.Parallel()
	kerneltest.ForEachDialect(t, func(t *testing.T, d db.Dialect) {
		t.Parallel()
		e := newEnv(t, d)
		ctx := context.Background()
		r, err := e.dec.ImportDevices(ctx, os.DirFS(fixtureRepo))
		if err != nil {
			t.Fatal(err)
		}
		if r.Vendors != 3 || r.Models != 5 || len(r.Codecs) != 5 || r.Passed != 8 || r.Failed != 1 || r.FailingCodecs() != 1 || len(r.Problems) != 0 {
			t.Fatalf("report: %+v", r)
		}
		co2 := codecLine(t, r, "ttn/brightsens/co2x-codec")
		if co2.Failed != 1 || co2.Passed != 1 || co2.Outcome != decoders.CodecCreated || len(co2.Problems) != 1 || !strings.Contains(co2.Problems[0], "data.tvoc: want 7, got 0.07") {
			t.Errorf("co2x: %+v", co2)
		}
		if door := codecLine(t, r, "ttn/acme/door-codec"); !door.Encoder || door.Passed != 2 || door.Failed != 0 {
			t.Errorf("door: %+v", door)
		}

		cat, err := e.dec.DeviceCatalog(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(cat.Vendors) != 3 || len(cat.Codecs) != 5 {
			t.Fatalf("catalog: %+v", cat)
		}
		th1 := cat.Vendors[0].Models[1] // Acme: Door2, TH1 by name
		if th1.ModelID != "th1" || th1.Picture != "https://raw.githubusercontent.com/TheThingsNetwork/lorawan-devices/master/vendor/acme/th1.png" || len(th1.FirmwareVersions) != 1 ||
			len(th1.FirmwareVersions[0].Profiles) != 2 || th1.FirmwareVersions[0].Profiles[0].DecoderKey != "ttn/acme/th1-codec" {
			t.Errorf("th1: %+v", th1)
		}
		if m, err := e.dec.DeviceModel(ctx, "brightsens", "lux1"); err != nil || m.Name != "BrightSens Lux1" || m.FirmwareVersions[0].Profiles[1].Region != "EU863-870" {
			t.Errorf("lux1: %+v, %v", m, err)
		}
		if _, err := e.dec.DeviceModel(ctx, "brightsens", "nope"); !errs.Is(err, errs.NotFound) {
			t.Errorf("unknown model: %v", err)
		}
		// Every company's nodes may use an imported codec; failing ones are listed, marked.
		list, err := e.dec.Catalog(ctx, e.ID(t, "{beta}"))
		if err != nil {
			t.Fatal(err)
		}
		marked := 0
		for _, en := range list {
			if en.Repo && en.Failing && en.Key == "ttn/brightsens/co2x-codec" && en.Name == "BrightSens: co2x-codec" {
				marked++
			}
		}
		if marked != 1 {
			t.Errorf("failing entries %d in %+v", marked, list)
		}

		const key = "ttn/acme/th1-codec"
		e.UseDecoder(t, "acme", key)
		at := time.Now().UTC().Add(-time.Minute).Truncate(time.Millisecond)
		e.Uplink(t, "acme", at, 1, []byte{0x01, 0x0A, 0x41})
		if p, ok := e.Latest(t, "acme", "temperature"); !ok || p.Value != 26.6 {
			t.Fatalf("imported codec decoded %v, %v", p, ok)
		}

		// The same checkout again changes nothing.
		again, err := e.dec.ImportDevices(ctx, os.DirFS(filepath.Join(fixtureRepo, "vendor")))
		if err != nil {
			t.Fatal(err)
		}
		if l := codecLine(t, again, key); l.Outcome != decoders.CodecUnchanged || l.Version != 1 {
			t.Errorf("unchanged: %+v", l)
		}

		// A newer checkout: th1 reports in hundredths (its examples
		// follow) and lux breaks an example its version 1 passes.
		newer := t.TempDir()
		if err := os.CopyFS(newer, os.DirFS(fixtureRepo)); err != nil {
			t.Fatal(err)
		}
		edit(t, filepath.Join(newer, "vendor/acme/th1.js"), "t / 10", "t / 100")
		edit(t, filepath.Join(newer, "vendor/acme/th1-codec.yaml"), "temperature: 26.6", "temperature: 2.66")
		edit(t, filepath.Join(newer, "vendor/acme/th1-codec.yaml"), "temperature: -1", "temperature: -0.1")
		edit(t, filepath.Join(newer, "vendor/brightsens/lux.js"), "input.bytes[1] }", "input.bytes[1] + 1 }")
		r2, err := e.dec.ImportDevices(ctx, os.DirFS(newer))
		if err != nil {
			t.Fatal(err)
		}
		if l := codecLine(t, r2, key); l.Outcome != decoders.CodecUpdated || l.Version != 2 || l.Failed != 0 {
			t.Errorf("th1 v2: %+v", l)
		}
		if l := codecLine(t, r2, "ttn/brightsens/lux-codec"); l.Outcome != decoders.CodecKept || l.Version != 2 || l.Failed != 1 {
			t.Errorf("lux v2: %+v", l)
		}
		// The node keeps its key and decodes with the new version at once
		// on this instance.
		e.Uplink(t, "acme", at.Add(time.Second), 1, []byte{0x01, 0x0A, 0x41})
		if p, _ := e.Latest(t, "acme", "temperature"); p.Value != 2.66 {
			t.Errorf("after the re-import the node decoded %v", p.Value)
		}
		out, err := e.dec.Decode(ctx, "ttn/brightsens/lux-codec", decoders.Input{Company: e.ID(t, "{beta}"), FPort: 3, Bytes: []byte{1, 44}})
		if err != nil || out.Data["lux"] != 300.0 {
			t.Errorf("lux keeps version 1: %+v, %v", out, err)
		}
	})
}

// TestDeviceImportRefusesAFolderWithoutIndex: no vendor/index.yaml, a
// clear 4xx error, nothing stored.
func TestDeviceImportRefusesAFolderWithoutIndex(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.SQLite)
	_, err := e.dec.ImportDevices(context.Background(), os.DirFS(t.TempDir()))
	if !errs.Is(err, errs.Invalid) {
		t.Fatalf("got %v", err)
	}
}

// TestEncodeDownlink encodes with an imported codec's encodeDownlink and
// refuses a codec without one, and an object the encoder refuses.
func TestEncodeDownlink(t *testing.T) {
	t.Parallel()
	e := newEnv(t, db.SQLite)
	ctx := context.Background()
	if _, err := e.dec.ImportDevices(ctx, os.DirFS(fixtureRepo)); err != nil {
		t.Fatal(err)
	}
	company := e.ID(t, "{acme}")
	got, err := e.dec.EncodeDownlink(ctx, company, "ttn/acme/door-codec", 0, map[string]any{"buzzer": true, "seconds": 5})
	if err != nil || string(got.Bytes) != "\x01\x05" || got.FPort != 10 {
		t.Fatalf("encoded %+v, %v", got, err)
	}
	if _, err := e.dec.EncodeDownlink(ctx, company, "ttn/acme/th1-codec", 0, map[string]any{"x": 1}); !isID(err, decoders.IDNoEncoder) {
		t.Errorf("no encoder: %v", err)
	}
	if _, err := e.dec.EncodeDownlink(ctx, company, "ttn/acme/door-codec", 0, map[string]any{"seconds": 900}); !isID(err, decoders.IDEncodeFailed) {
		t.Errorf("refused object: %v", err)
	}
}

func edit(t *testing.T, file, from, to string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), from) {
		t.Fatalf("%s has no %q", file, from)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(b), from, to, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func isID(err error, id string) bool {
	var e *errs.Error
	return errors.As(err, &e) && e.ID == id
}
