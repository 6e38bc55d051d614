package devrepo

import (
	"archive/zip"
	"bytes"
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

// TestDiff: numbers agree by value (YAML's 30.8 against 308 * 0.1), keys
// missing or extra are named, and nested objects and arrays are walked.
func TestDiff(t *testing.T) {
	for _, tc := range []struct {
		name      string
		want, got any
		problem   string
	}{
		{"rounding", map[string]any{"t": 30.8}, map[string]any{"t": 308 * 0.1}, ""},
		{"int against float", normal(map[string]any{"n": 5}), normal(map[string]any{"n": 5.0}), ""},
		{"scaled", map[string]any{"tvoc": 7.0}, map[string]any{"tvoc": 0.07}, "data.tvoc: want 7, got 0.07"},
		{"missing", map[string]any{"a": 1.0, "b": 2.0}, map[string]any{"a": 1.0}, "data.b: missing (want 2)"},
		{"extra", map[string]any{"a": 1.0}, map[string]any{"a": 1.0, "c": "x"}, `data.c: unexpected "x"`},
		{"nested array", map[string]any{"l": []any{1.0, map[string]any{"s": "on"}}}, map[string]any{"l": []any{1.0, map[string]any{"s": "off"}}}, `data.l[1].s: want "on", got "off"`},
		{"null", map[string]any{"v": nil}, map[string]any{"v": 0.0}, "data.v: want null, got 0"},
		{"bool", map[string]any{"v": true}, map[string]any{"v": true}, ""},
	} {
		if got := diff("data", tc.want, tc.got); got != tc.problem {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.problem)
		}
	}
}

// TestLocate finds the vendor folder in a checkout, in the folder itself
// and under an archive's top folder.
func TestLocate(t *testing.T) {
	index := &fstest.MapFile{Data: []byte("vendors: []\n")}
	for name, fsys := range map[string]fstest.MapFS{
		"checkout":      {"vendor/index.yaml": index, "README.md": {}},
		"vendor folder": {"index.yaml": index},
		"archive":       {"lorawan-devices-master/vendor/index.yaml": index},
	} {
		dir, ok := Locate(fsys)
		if !ok {
			t.Errorf("%s: not found", name)
			continue
		}
		if _, err := Read(dir); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, ok := Locate(fstest.MapFS{"a/b/index.yaml": index, "c/x": {}}); ok {
		t.Error("found a repository where there is none")
	}
}

// TestOpenArchive keeps the YAML and JavaScript files of a zip, skips the
// rest and refuses what is no archive.
func TestOpenArchive(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range map[string]string{"x/vendor/index.yaml": "vendors: []", "x/vendor/a/c.js": "//", "x/vendor/a/p.png": "png", "../evil.js": "//"} {
		w, _ := zw.Create(name)
		w.Write([]byte(body))
	}
	zw.Close()
	fsys, err := OpenArchive(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	m := fsys.(fstest.MapFS)
	if len(m) != 3 || m["x/vendor/a/p.png"] != nil || m["x/vendor/index.yaml"] == nil || m["evil.js"] == nil {
		t.Errorf("files: %v", m)
	}
	if _, err := OpenArchive([]byte("hello")); !errors.Is(err, ErrArchive) {
		t.Errorf("no archive: %v", err)
	}
	if _, err := OpenArchive([]byte{0x1f, 0x8b, 0, 0}); err == nil || !strings.Contains(err.Error(), "archive") {
		t.Errorf("broken gzip: %v", err)
	}
}
