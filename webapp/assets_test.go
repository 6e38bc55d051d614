package webapp

import (
	"compress/gzip"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/webapp/locales"
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

// TestDevServerInThePolicy checks that in development the pages may load
// from the Vite dev server and reach its hot-reload WebSocket, and that the
// build adds nothing to the policy.
func TestDevServerInThePolicy(t *testing.T) {
	policy := func(devURL string) string {
		a, err := Load(devURL)
		if err != nil {
			t.Fatal(err)
		}
		cat, err := i18n.Load(locales.FS)
		if err != nil {
			t.Fatal(err)
		}
		rt := web.NewRouter(web.Options{Catalogs: cat, Log: slog.New(slog.DiscardHandler)})
		a.AllowIn(rt)
		rec := httptest.NewRecorder()
		rt.ServeHTTP(rec, httptest.NewRequest("GET", "/nope", nil))
		return rec.Header().Get("Content-Security-Policy")
	}
	dev := policy("http://localhost:5173")
	for _, want := range []string{"script-src 'self' http://localhost:5173 'nonce-", "style-src 'self' http://localhost:5173 'nonce-",
		"connect-src 'self' http://localhost:5173 ws://localhost:5173;", "font-src 'self' http://localhost:5173;"} {
		if !strings.Contains(dev, want) {
			t.Errorf("dev policy lacks %q: %s", want, dev)
		}
	}
	if build := policy(""); strings.Contains(build, "5173") || !strings.Contains(build, "script-src 'self' 'nonce-") {
		t.Errorf("build policy: %s", build)
	}
}
