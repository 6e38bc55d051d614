// Package webapp serves the browser assets that Vite builds from webapp/src
// (embedded in the binary) and names them for the pages through Vite's
// manifest. In development the pages load them from the Vite dev server
// instead, with hot reload.
package webapp

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/fieldhub/fieldhub/kernel/web"
)

//go:embed all:dist
var dist embed.FS

// Entry names of vite.config.ts.
const (
	EntryPage    = "src/page/main.ts"
	EntryIslands = "src/islands/index.ts"
)

// Assets knows the built files.
type Assets struct {
	files    fs.FS
	manifest map[string]manifestEntry
	devURL   string
	gz       sync.Map // name -> gzipped bytes
}

type manifestEntry struct {
	File    string   `json:"file"`
	CSS     []string `json:"css"`
	Imports []string `json:"imports"`
}

// Load reads the embedded build. With devURL set (FIELDHUB_VITE_DEV_URL) the
// build is not needed: pages point at the dev server.
func Load(devURL string) (*Assets, error) {
	files, err := fs.Sub(dist, "dist")
	if err != nil {
		return nil, err
	}
	a := &Assets{files: files, devURL: strings.TrimRight(devURL, "/")}
	if a.devURL != "" {
		return a, nil
	}
	raw, err := fs.ReadFile(files, ".vite/manifest.json")
	if err != nil {
		return nil, fmt.Errorf("the web assets are not built (run `npm run build` in webapp/, which `just run` does): %w", err)
	}
	if err := json.Unmarshal(raw, &a.manifest); err != nil {
		return nil, fmt.Errorf("read vite manifest: %w", err)
	}
	for _, e := range []string{EntryPage, EntryIslands} {
		if _, ok := a.manifest[e]; !ok {
			return nil, fmt.Errorf("vite manifest lacks the entry %s", e)
		}
	}
	return a, nil
}

// Handler serves /assets/*: hashed names, so they may be cached for good.
// Text files go gzipped to clients that accept it, compressed once and kept.
func (a *Assets) Handler() http.Handler {
	fileServer := http.StripPrefix("/assets/", http.FileServer(http.FS(a.files)))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/assets/")
		if strings.HasPrefix(name, ".vite/") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Add("Vary", "Accept-Encoding")
		if ct, ok := compressible[path.Ext(name)]; ok && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			if gz, err := a.gzipped(name); err == nil {
				w.Header().Set("Content-Type", ct)
				w.Header().Set("Content-Encoding", "gzip")
				w.Header().Set("Content-Length", strconv.Itoa(len(gz)))
				_, _ = w.Write(gz)
				return
			}
		}
		fileServer.ServeHTTP(w, r)
	})
}

var compressible = map[string]string{
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".json": "application/json",
	".svg":  "image/svg+xml",
	".ttf":  "font/ttf",
	".eot":  "application/vnd.ms-fontobject",
}

func (a *Assets) gzipped(name string) ([]byte, error) {
	if v, ok := a.gz.Load(name); ok {
		return v.([]byte), nil
	}
	raw, err := fs.ReadFile(a.files, name)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(raw)
	zw.Close()
	a.gz.Store(name, buf.Bytes())
	return buf.Bytes(), nil
}

// Tags returns the <link> and <script> tags that load the given entries.
// nonce is the answer's Content-Security-Policy nonce (web.Nonce): the
// build loads nothing inline, but in development the React plugin's
// preamble is an inline script. (The styles that Vite's client and React
// Aria inject take the nonce from the page's csp-nonce meta tag.)
func (a *Assets) Tags(nonce string, entries ...string) template.HTML {
	var b strings.Builder
	if a.devURL != "" {
		n := template.HTMLEscapeString(nonce)
		// The React plugin's preamble must run before any island in dev mode.
		fmt.Fprintf(&b, `<script type="module" nonce="%s">import RefreshRuntime`, n)
		fmt.Fprintf(&b, ` from "%s/assets/@react-refresh";RefreshRuntime.injectIntoGlobalHook(window);window.$RefreshReg$=()=>{};window.$RefreshSig$=()=>(type)=>type;window.__vite_plugin_react_preamble_installed__=true;</script>`, a.devURL)
		fmt.Fprintf(&b, `<script type="module" src="%s/assets/@vite/client"></script>`, a.devURL)
		for _, e := range entries {
			fmt.Fprintf(&b, `<script type="module" src="%s/assets/%s"></script>`, a.devURL, e)
		}
		return template.HTML(b.String())
	}
	seen := map[string]bool{}
	for _, e := range entries {
		a.cssOf(e, seen, &b)
	}
	for _, e := range entries {
		m := a.manifest[e]
		for _, imp := range m.Imports {
			fmt.Fprintf(&b, `<link rel="modulepreload" href="/assets/%s">`, a.manifest[imp].File)
		}
		fmt.Fprintf(&b, `<script type="module" src="/assets/%s"></script>`, m.File)
	}
	return template.HTML(b.String())
}

// AllowIn adds to the pages' Content-Security-Policy what they load from
// the Vite dev server in development (scripts, styles, fonts, pictures, and
// its hot-reload WebSocket); in production, where everything comes from
// /assets, nothing.
func (a *Assets) AllowIn(rt *web.Router) {
	if a.devURL == "" {
		return
	}
	u, err := url.Parse(a.devURL)
	if err != nil || u.Host == "" {
		return
	}
	origin, ws := u.Scheme+"://"+u.Host, "ws://"+u.Host
	if u.Scheme == "https" {
		ws = "wss://" + u.Host
	}
	for _, d := range []string{"script-src", "style-src", "img-src", "font-src"} {
		rt.AllowSources(d, origin)
	}
	rt.AllowSources("connect-src", origin, ws)
}

func (a *Assets) cssOf(entry string, seen map[string]bool, b *strings.Builder) {
	m := a.manifest[entry]
	for _, imp := range m.Imports {
		a.cssOf(imp, seen, b)
	}
	for _, css := range m.CSS {
		if !seen[css] {
			seen[css] = true
			fmt.Fprintf(b, `<link rel="stylesheet" href="/assets/%s">`, css)
		}
	}
}
