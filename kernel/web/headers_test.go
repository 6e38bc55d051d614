package web

import (
	"net/http"
	"strings"
	"testing"
)

func TestTemplateSource(t *testing.T) {
	for _, c := range []struct{ template, want string }{
		{"https://tile.openstreetmap.org/{z}/{x}/{y}.png", "https://tile.openstreetmap.org"},
		{"https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png", "https://*.tile.openstreetmap.org"},
		{"http://tiles-{s}.example.com:8080/{z}/{x}/{y}", "http://*.example.com:8080"},
		{"https://maps.{s}.example.com/{z}/{x}/{y}", "https:"},
		{"HTTPS://Tiles.Example.COM/{z}/{x}/{y}?key=abc", "https://tiles.example.com"},
		{"https://user:pw@tiles.example.com/{z}", "https://tiles.example.com"},
		{"ftp://tiles.example.com/{z}", ""},
		{"", ""},
	} {
		if got := TemplateSource(c.template); got != c.want {
			t.Errorf("TemplateSource(%q) = %q, want %q", c.template, got, c.want)
		}
	}
}

// TestContentPolicy checks the policy's shape: the nonce on scripts and
// styles, nothing unsafe, framing by nobody unless a route is embeddable,
// and the sources modules add.
func TestContentPolicy(t *testing.T) {
	rt := NewRouter(Options{PublicURL: "https://portal.example", EmbedOrigins: []string{"https://customer.example", "https://*.customer.org"}})
	rt.AllowSources("img-src", "https://*.tile.openstreetmap.org")
	rt.AllowSources("media-src", "https://video.example")
	rt.AllowSources("img-src", "https://*.tile.openstreetmap.org") // once is enough
	csp := rt.sec.contentPolicy("N0nce", false)
	for _, want := range []string{
		"default-src 'self'; ",
		"script-src 'self' 'nonce-N0nce'; ",
		"style-src 'self' 'nonce-N0nce'; ",
		"img-src 'self' data: blob: https://*.tile.openstreetmap.org; ",
		"connect-src 'self' wss://portal.example; ",
		"media-src https://video.example; ",
		"object-src 'none'; ",
		"base-uri 'none'; ",
		"form-action 'self'; ",
	} {
		if !strings.Contains(csp, want) {
			t.Errorf("policy lacks %q: %s", want, csp)
		}
	}
	if strings.Contains(csp, "unsafe") || strings.Count(csp, "tile.openstreetmap") != 1 {
		t.Errorf("policy: %s", csp)
	}
	if !strings.HasSuffix(csp, "; frame-ancestors 'none'") {
		t.Errorf("a page may be framed: %s", csp)
	}
	if embed := rt.sec.contentPolicy("N0nce", true); !strings.HasSuffix(embed, "; frame-ancestors https://customer.example https://*.customer.org") {
		t.Errorf("embeddable: %s", embed)
	}
	if none := NewRouter(Options{}).sec.contentPolicy("x", true); !strings.HasSuffix(none, "; frame-ancestors 'none'") {
		t.Errorf("embeddable without origins: %s", none)
	}
	h := http.Header{}
	rt.sec.setHeaders(h, "N0nce", false)
	if h.Get("Strict-Transport-Security") != "max-age=31536000" || h.Get("X-Content-Type-Options") != "nosniff" ||
		h.Get("Referrer-Policy") != "same-origin" || !strings.Contains(h.Get("Permissions-Policy"), "camera=()") {
		t.Errorf("headers: %v", h)
	}
	h = http.Header{}
	plain := NewRouter(Options{PublicURL: "http://127.0.0.1:8080"})
	plain.sec.setHeaders(h, "x", false)
	if h.Get("Strict-Transport-Security") != "" {
		t.Errorf("HSTS over http: %v", h)
	}
	for _, bad := range [][2]string{{"script-src-elem", "x"}, {"img-src", ""}, {"img-src", "a; script-src *"}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("AllowSources(%q, %q) did not panic", bad[0], bad[1])
				}
			}()
			rt.AllowSources(bad[0], bad[1])
		}()
	}
}
