package web_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// TestSecurityHeaders checks what every answer tells the browser: a strict
// Content-Security-Policy whose nonce is the page's, framing by nobody but
// the embedding origins on public dashboards, the map tiles' server among
// the picture sources, and HSTS only for an https portal.
func TestSecurityHeaders(t *testing.T) {
	p := kerneltest.Start(t, db.SQLite, map[string]string{
		"FIELDHUB_EMBED_ORIGINS": "https://customer.example, https://*.customer.org",
		"FIELDHUB_MAP_TILE_URL":  "https://tiles.example.net/{z}/{x}/{y}.png?style={s}",
		"FIELDHUB_PUBLIC_URL":    "https://portal.example",
	}, app.Build)
	root := p.SuperAdmin(t)
	acme := p.Company(t, root, "Acme AB", "acme.example")
	token := publicDashboard(t, p.Client, acme.CompanyAdminToken, acme.CompanyID)

	nonceIn := regexp.MustCompile(`'nonce-([A-Za-z0-9+/]+)'`)
	for _, path := range []string{"/login", "/", "/company", "/api/users", "/healthz", "/nope", "/public/" + token} {
		t.Run(path, func(t *testing.T) {
			page := p.Page(t, "GET", path, acme.UserToken, nil)
			h := page.Header
			csp := h.Get("Content-Security-Policy")
			m := nonceIn.FindStringSubmatch(csp)
			if m == nil || !strings.Contains(csp, "script-src 'self' 'nonce-"+m[1]+"'") || !strings.Contains(csp, "style-src 'self' 'nonce-"+m[1]+"'") {
				t.Fatalf("no nonce on scripts and styles: %q", csp)
			}
			if strings.Contains(csp, "unsafe-") {
				t.Errorf("unsafe sources: %q", csp)
			}
			if !strings.Contains(csp, "img-src 'self' data: blob: https://tiles.example.net;") {
				t.Errorf("the map tiles are no picture source: %q", csp)
			}
			wantFrame := "frame-ancestors 'none'"
			if strings.HasPrefix(path, "/public/") {
				wantFrame = "frame-ancestors https://customer.example https://*.customer.org"
			}
			if !strings.HasSuffix(csp, wantFrame) {
				t.Errorf("framing: %q, want it to end in %q", csp, wantFrame)
			}
			if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Permissions-Policy") != web.PermissionsPolicy ||
				h.Get("Strict-Transport-Security") != "max-age=31536000" {
				t.Errorf("headers: %v", h)
			}
			wantRef := "same-origin"
			if strings.HasPrefix(path, "/public/") {
				wantRef = "no-referrer" // the page's own: its address holds the token
			}
			if h.Get("Referrer-Policy") != wantRef {
				t.Errorf("Referrer-Policy %q, want %q", h.Get("Referrer-Policy"), wantRef)
			}
			if page.FullPage() && !strings.Contains(page.Body, `<meta property="csp-nonce" nonce="`+m[1]+`">`) {
				t.Errorf("the page does not hand its nonce to scripts: %s", kerneltest.HTMLTag(t, kerneltest.Response{Body: []byte(page.Body)}))
			}
		})
	}
	if a, b := p.Page(t, "GET", "/login", "", nil), p.Page(t, "GET", "/login", "", nil); a.Header.Get("Content-Security-Policy") == b.Header.Get("Content-Security-Policy") {
		t.Error("two answers with one nonce")
	}

	// Without embedding origins, and over http, nobody frames a public
	// dashboard and there is no HSTS.
	q := kerneltest.Start(t, db.SQLite, nil, app.Build)
	root = q.SuperAdmin(t)
	acme = q.Company(t, root, "Acme AB", "acme.example")
	token = publicDashboard(t, q.Client, acme.CompanyAdminToken, acme.CompanyID)
	h := q.Page(t, "GET", "/public/"+token, "", nil).Header
	if csp := h.Get("Content-Security-Policy"); !strings.HasSuffix(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "img-src 'self' data: blob: https://tile.openstreetmap.org;") {
		t.Errorf("public dashboard by default: %q", csp)
	}
	if h.Get("Strict-Transport-Security") != "" {
		t.Errorf("HSTS over http: %v", h)
	}
}
