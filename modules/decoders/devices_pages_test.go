package decoders_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io/fs"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
)

// fixtureArchive packs the fixture repository under prefix (as GitHub's
// archives do: lorawan-devices-master/vendor/...), as .tar.gz or .zip.
func fixtureArchive(t *testing.T, prefix string, zipped bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	var add func(name string, b []byte)
	var finish func()
	if zipped {
		zw := zip.NewWriter(&buf)
		add = func(name string, b []byte) {
			w, err := zw.Create(name)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(b)
		}
		finish = func() { zw.Close() }
	} else {
		gz := gzip.NewWriter(&buf)
		tw := tar.NewWriter(gz)
		add = func(name string, b []byte) {
			tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg})
			tw.Write(b)
		}
		finish = func() { tw.Close(); gz.Close() }
	}
	root := os.DirFS(fixtureRepo)
	err := fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(root, p)
		if err != nil {
			return err
		}
		add(path.Join(prefix, p), b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	add(path.Join(prefix, "vendor/acme/th1.png"), []byte("\x89PNG not read")) // photos are skipped
	finish()
	return buf.Bytes()
}

// TestDevicePages: the SuperAdmin's /devices page imports an uploaded
// archive and shows the report with the failing codec marked; the JSON
// import takes a .zip; the others who create nodes see the catalog (with its
// search, model pages and JSON API) but may not import; a User sees none of
// it; a file that is no archive is a field error.
func TestDevicePages(t *testing.T) {
	t.Parallel()
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")

	if p := ta.Page(t, "GET", "/devices", acme.UserToken, nil); p.Status != http.StatusSeeOther {
		t.Errorf("User on /devices: %d", p.Status)
	}
	if p := ta.Page(t, "GET", "/devices", acme.CompanyAdminToken, nil); p.Status != http.StatusOK ||
		!strings.Contains(p.Body, "No device repository has been imported yet") || !strings.Contains(p.Body, "ask yours") || strings.Contains(p.Body, `name="archive"`) {
		t.Errorf("CompanyAdmin on the empty catalog: %d", p.Status)
	}
	empty := ta.Page(t, "GET", "/devices", root, nil)
	if empty.Status != http.StatusOK || !strings.Contains(empty.Body, "No device repository has been imported yet") || !strings.Contains(empty.Body, "fieldhub devices import PATH") {
		t.Fatalf("empty page: %d", empty.Status)
	}

	upload := func(name string, data []byte) kerneltest.Page {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		w, _ := mw.CreateFormFile("archive", name)
		w.Write(data)
		mw.Close()
		req, _ := http.NewRequest("POST", ta.URL+"/devices/import", &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Origin", ta.URL)
		return ta.SendPage(t, req, root)
	}
	p := upload("lorawan-devices.tar.gz", fixtureArchive(t, "lorawan-devices-master", false))
	if p.Status != http.StatusOK {
		t.Fatalf("upload: %d %s", p.Status, p.Body)
	}
	for _, want := range []string{"Import report", "3 vendors, 5 device models, 5 codecs (1 failing); examples: 8 passed, 1 failed",
		"ttn/brightsens/co2x-codec", "data.tvoc: want 7, got 0.07", "Failing", "downlink encoder"} {
		if !strings.Contains(p.Body, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if bad := upload("notes.txt", []byte("hello")); bad.Status != http.StatusBadRequest || !strings.Contains(bad.Body, "Upload a .tar.gz or .zip archive") {
		t.Errorf("no archive: %d", bad.Status)
	}

	zipped := fixtureArchive(t, "", true)
	if r := ta.Call(t, "POST", "/api/devices/import", acme.CompanyAdminToken, zipped); r.Status != http.StatusForbidden {
		t.Errorf("CompanyAdmin imports: %d", r.Status)
	}
	r := ta.Call(t, "POST", "/api/devices/import", root, zipped, "Content-Type", "application/zip")
	if r.Status != http.StatusOK || r.Num("vendors") != 3 || r.Num("failed") != 1 {
		t.Fatalf("JSON import: %d %s", r.Status, r.Body)
	}
	if c := ta.Call(t, "GET", "/api/devices", acme.CompanyAdminToken, nil); c.Status != http.StatusOK || !strings.Contains(string(c.Body), `"key":"ttn/acme/door-codec"`) {
		t.Errorf("catalog: %d %s", c.Status, c.Body)
	}
	testCatalogSearch(t, ta.Client, acme.CompanyAdminToken)
}

// testCatalogSearch searches the imported fixture as a CompanyAdmin: by
// page (whole and as the htmx fragment), by API, and opens a model.
func testCatalogSearch(t *testing.T, ta *kerneltest.Client, token string) {
	t.Helper()
	all := ta.Page(t, "GET", "/devices", token, nil)
	for _, want := range []string{"3 vendors, 5 device models, 5 codecs", `id="model-acme-th1"`, `data-model-actions`,
		"https://raw.githubusercontent.com/TheThingsNetwork/lorawan-devices/master/vendor/acme/th1.png", "EU863-870, US902-928",
		"Failing: 1 passed, 1 failed", "TVOC reading: data.tvoc: want 7, got 0.07"} {
		if !strings.Contains(all.Body, want) {
			t.Errorf("the catalog lacks %q", want)
		}
	}
	cases := []struct {
		q          string
		want, lack []string
	}{
		{"buzzer", []string{`id="model-acme-door2"`, "1 of 5 device models match"}, []string{`id="model-acme-th1"`, "ttn/brightsens"}},
		{"brightsens", []string{`id="model-brightsens-co2x"`, `id="model-brightsens-lux1"`}, []string{`id="model-acme-th1"`}},
		{"acme humidity", []string{`id="model-acme-th1"`}, []string{`id="model-acme-door2"`}},
		{"nothing-like-this", []string{"No device model matches"}, []string{`id="model-`}},
	}
	for _, c := range cases {
		p := ta.Page(t, "GET", "/devices?q="+url.QueryEscape(c.q), token, nil, "HX-Request", "true", "HX-Target", "device-results")
		if p.Status != http.StatusOK || !strings.HasPrefix(strings.TrimSpace(p.Body), `<div id="device-results">`) {
			t.Errorf("search %q: %d %.80s", c.q, p.Status, p.Body)
		}
		for _, w := range c.want {
			if !strings.Contains(p.Body, w) {
				t.Errorf("search %q lacks %q", c.q, w)
			}
		}
		for _, l := range c.lack {
			if strings.Contains(p.Body, l) {
				t.Errorf("search %q shows %q", c.q, l)
			}
		}
	}
	if r := ta.Call(t, "GET", "/api/devices?q=buzzer", token, nil); r.Status != http.StatusOK ||
		!strings.Contains(string(r.Body), `"id":"door2"`) || strings.Contains(string(r.Body), `"id":"th1"`) || strings.Contains(string(r.Body), "co2x-codec") {
		t.Errorf("API search: %d %s", r.Status, r.Body)
	}
	model := ta.Page(t, "GET", "/devices/brightsens/co2x", token, nil)
	for _, want := range []string{"BrightSens CO2X", "co2x-eu868", `id="codec-ttn/brightsens/co2x-codec"`, "CO2 reading", "data.tvoc: want 7, got 0.07", "Failed"} {
		if !strings.Contains(model.Body, want) {
			t.Errorf("the model page lacks %q", want)
		}
	}
	if p := ta.Page(t, "GET", "/devices/brightsens/nope", token, nil); p.Status != http.StatusNotFound {
		t.Errorf("unknown model page: %d", p.Status)
	}
	if r := ta.Call(t, "GET", "/api/devices/acme/door2", token, nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"key":"ttn/acme/door-codec"`) ||
		!strings.Contains(string(r.Body), `"description":"Buzzer on for 5 seconds"`) {
		t.Errorf("API model: %d %s", r.Status, r.Body)
	}
	if r := ta.Call(t, "GET", "/api/devices/acme/nope", token, nil); r.Status != http.StatusNotFound {
		t.Errorf("API unknown model: %d", r.Status)
	}
}

// TestDeviceCatalogPaging imports a repository of 120 models (written
// here, in the published layout) and pages through it as an Admin: 50
// models a page under their vendors' headings, the paging keeps the query,
// and a page past the end shows the last.
func TestDeviceCatalogPaging(t *testing.T) {
	t.Parallel()
	ta := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root := ta.SuperAdmin(t)
	acme := ta.EnglishCompany(t, root, "Acme AB", "acme.example")
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, "vendor", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	index := "vendors:\n"
	for v := range 3 {
		vendor := fmt.Sprintf("vendor%d", v)
		index += fmt.Sprintf("  - id: %s\n    name: Vendor %d\n", vendor, v)
		devices := "endDevices:\n"
		for m := range 40 {
			model := fmt.Sprintf("m%02d", m)
			devices += "  - " + model + "\n"
			write(vendor+"/"+model+".yaml", fmt.Sprintf("name: Model %d-%02d\ndescription: Sensor number %d.\nfirmwareVersions:\n  - version: \"1.0\"\n    profiles:\n      EU863-870:\n        id: p\n        codec: c\n", v, m, m))
		}
		write(vendor+"/index.yaml", devices)
		write(vendor+"/c.yaml", "uplinkDecoder:\n  fileName: c.js\n")
		write(vendor+"/c.js", "function decodeUplink(input) { return { data: { n: input.bytes[0] } }; }\n")
	}
	write("index.yaml", index)
	if _, err := ta.App.Decoders().ImportDevices(context.Background(), os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	rows := func(body string) int { return strings.Count(body, "data-model-actions") }
	first := ta.Page(t, "GET", "/devices", acme.AdminToken, nil)
	if rows(first.Body) != 50 || !strings.Contains(first.Body, "Page 1 of 3") || !strings.Contains(first.Body, `href="/devices?page=2"`) ||
		!strings.Contains(first.Body, `id="vendor-vendor0"`) || !strings.Contains(first.Body, `id="vendor-vendor1"`) || strings.Contains(first.Body, `id="vendor-vendor2"`) {
		t.Errorf("page 1: %d rows", rows(first.Body))
	}
	last := ta.Page(t, "GET", "/devices?page=9", acme.AdminToken, nil)
	if rows(last.Body) != 20 || !strings.Contains(last.Body, "Page 3 of 3") || !strings.Contains(last.Body, `rel="prev"`) || strings.Contains(last.Body, `rel="next"`) {
		t.Errorf("last page: %d rows", rows(last.Body))
	}
	// "number 3" matches models 03, 13, 23 and 30-39 of each vendor: 39, one page.
	found := ta.Page(t, "GET", "/devices?q=number+3", acme.AdminToken, nil)
	if rows(found.Body) != 39 || strings.Contains(found.Body, "Page 1 of") {
		t.Errorf("search: %d rows", rows(found.Body))
	}
	// "vendor" matches every vendor: the paging keeps the query.
	if all := ta.Page(t, "GET", "/devices?q=vendor", acme.AdminToken, nil); !strings.Contains(all.Body, `href="/devices?page=2&q=vendor"`) {
		i := strings.Index(all.Body, `rel="next"`)
		t.Errorf("the paging drops the query: %s", all.Body[max(0, i-120):i])
	}
}
