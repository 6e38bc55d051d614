package webapp

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestAssetsServeTheBuild needs the Vite build (the test recipe makes it).
func TestAssetsServeTheBuild(t *testing.T) {
	a, err := Load("")
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	tags := string(a.Tags("n0nce", EntryPage, EntryIslands))
	if !strings.Contains(tags, `<script type="module" src="/assets/page-`) || !strings.Contains(tags, `rel="stylesheet"`) {
		t.Fatalf("tags: %s", tags)
	}
	js := a.manifest[EntryPage].File
	h := a.Handler()

	req := httptest.NewRequest("GET", "/assets/"+js, nil)
	req.Header.Set("Accept-Encoding", "gzip, br")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "gzip" || !strings.Contains(rec.Header().Get("Cache-Control"), "immutable") {
		t.Fatalf("gzip answer: %d %v", rec.Code, rec.Header())
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(zr)
	if len(body) == 0 {
		t.Errorf("empty script")
	}

	for _, p := range []string{"/assets/.vite/manifest.json", "/assets/nope.js"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		if rec.Code != http.StatusNotFound {
			t.Errorf("%s: %d", p, rec.Code)
		}
	}
}

func TestDevModeLoadsFromVite(t *testing.T) {
	a, err := Load("http://localhost:5173/")
	if err != nil {
		t.Fatal(err)
	}
	tags := string(a.Tags("n0nce", EntryPage))
	if !strings.Contains(tags, `src="http://localhost:5173/assets/@vite/client"`) || !strings.Contains(tags, `src="http://localhost:5173/assets/src/page/main.ts"`) {
		t.Errorf("dev tags: %s", tags)
	}
	// The inline preamble and the styles Vite injects carry the answer's
	// nonce, or the Content-Security-Policy refuses them.
	if !strings.Contains(tags, `<script type="module" nonce="n0nce">import RefreshRuntime`) {
		t.Errorf("dev tags without the nonce: %s", tags)
	}
}
