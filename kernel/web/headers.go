package web

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
)

// The headers every answer carries tell the browser what not to allow: a
// Content-Security-Policy that lets pages run only the portal's own scripts
// and styles (and inline ones only with the answer's nonce), be framed by
// nobody (a route marked Embeddable by the configured embedding origins),
// and never sniff a content type, leak the address to other sites or use
// the camera and the like; HSTS when the public address is https.

// directives is the order in which the policy's directives are written.
var directives = []string{
	"default-src", "script-src", "style-src", "img-src", "font-src", "connect-src",
	"media-src", "frame-src", "worker-src", "manifest-src", "object-src", "base-uri", "form-action",
}

// basePolicy is what the pages need from the portal itself. img-src takes
// data: and blob: for the pictures a form previews and the icons stylesheets
// inline. The nonce is added to script-src and style-src per answer.
var basePolicy = map[string][]string{
	"default-src":  {"'self'"},
	"script-src":   {"'self'"},
	"style-src":    {"'self'"},
	"img-src":      {"'self'", "data:", "blob:"},
	"font-src":     {"'self'"},
	"connect-src":  {"'self'"},
	"media-src":    {"'none'"},
	"frame-src":    {"'self'"},
	"worker-src":   {"'self'"},
	"manifest-src": {"'self'"},
	"object-src":   {"'none'"},
	"base-uri":     {"'none'"},
	"form-action":  {"'self'"},
}

// PermissionsPolicy turns off the browser features no page uses.
const PermissionsPolicy = "accelerometer=(), autoplay=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), " +
	"magnetometer=(), microphone=(), midi=(), payment=(), publickey-credentials-get=(), screen-wake-lock=(), usb=(), xr-spatial-tracking=()"

// ReferrerPolicy sends the full address only to the portal itself, so that
// addresses with ids or tokens do not reach map tiles or framed pages, while
// the portal's own requests keep their Origin (see sameOrigin).
const ReferrerPolicy = "same-origin"

// hstsMaxAge is a year, as browsers' preload lists ask.
const hstsMaxAge = 31536000

// security holds what the headers are made of.
type security struct {
	policy map[string][]string // directive -> sources, beside basePolicy
	embed  string              // frame-ancestors of Embeddable routes
	hsts   bool
	// parts is the policy written out around its two nonces, made on first
	// use: the policy changes only while the portal is built.
	parts atomic.Pointer[[3]string]
}

func newSecurity(publicURL string, embedOrigins []string) *security {
	s := &security{policy: map[string][]string{}, embed: "'none'"}
	for k, v := range basePolicy {
		s.policy[k] = slices.Clone(v)
	}
	if len(embedOrigins) > 0 {
		s.embed = strings.Join(embedOrigins, " ")
	}
	if u, err := url.Parse(publicURL); err == nil && u.Scheme == "https" {
		s.hsts = true
		// Browsers before CSP level 3 do not count wss: as 'self'.
		s.policy["connect-src"] = append(s.policy["connect-src"], "wss://"+u.Host)
	} else if err == nil && u.Host != "" {
		s.policy["connect-src"] = append(s.policy["connect-src"], "ws://"+u.Host)
	}
	return s
}

// AllowSources adds sources to a directive of the pages'
// Content-Security-Policy, for what a module's pages load from elsewhere
// (map tiles, framed pages, a development server). Call it while building,
// before serving.
func (rt *Router) AllowSources(directive string, sources ...string) {
	if _, ok := basePolicy[directive]; !ok {
		panic(fmt.Sprintf("web: %q is not a directive the policy has", directive))
	}
	for _, src := range sources {
		if src == "" || strings.ContainsAny(src, ";,\n\r") {
			panic(fmt.Sprintf("web: bad source %q for %s", src, directive))
		}
		if list := rt.sec.policy[directive]; !slices.Contains(list, src) {
			// 'none' alone means nothing; with a source it is an error.
			list = slices.DeleteFunc(list, func(s string) bool { return s == "'none'" })
			rt.sec.policy[directive] = append(list, src)
		}
	}
	rt.sec.parts.Store(nil)
}

// Embeddable lets other sites frame a page: the origins of
// FIELDHUB_EMBED_ORIGINS, none when it is unset. Every other page may be
// framed by nobody, not even the portal itself.
func Embeddable() RouteOption { return func(r *Route) { r.Embeddable = true } }

// contentPolicy is the Content-Security-Policy of an answer with nonce.
func (s *security) contentPolicy(nonce string, embeddable bool) string {
	p := s.parts.Load()
	if p == nil {
		p = s.writeParts()
		s.parts.Store(p)
	}
	ancestors := "'none'"
	if embeddable {
		ancestors = s.embed
	}
	return p[0] + nonce + p[1] + nonce + p[2] + ancestors
}

// writeParts writes the policy out: the text before the script nonce,
// between it and the style nonce, and after that up to frame-ancestors.
func (s *security) writeParts() *[3]string {
	var parts [3]string
	var b strings.Builder
	i := 0
	for _, d := range directives {
		b.WriteString(d)
		for _, src := range s.policy[d] {
			b.WriteByte(' ')
			b.WriteString(src)
		}
		if d == "script-src" || d == "style-src" {
			b.WriteString(" 'nonce-")
			parts[i], i = b.String(), i+1
			b.Reset()
			b.WriteByte('\'')
		}
		b.WriteString("; ")
	}
	b.WriteString("frame-ancestors ")
	parts[i] = b.String()
	return &parts
}

// The values of the headers that are the same on every answer, in the
// canonical form http.Header keeps (set without Header.Set's work; a
// handler's Set or Add replaces the one-element slice, never changes it).
var (
	nosniff     = []string{"nosniff"}
	referrer    = []string{ReferrerPolicy}
	permissions = []string{PermissionsPolicy}
	hsts        = []string{fmt.Sprintf("max-age=%d", hstsMaxAge)}
)

// setHeaders sets the security headers of an answer; a handler may still
// change them (the public dashboard page sends no referrer at all).
func (s *security) setHeaders(h http.Header, nonce string, embeddable bool) {
	h["Content-Security-Policy"] = []string{s.contentPolicy(nonce, embeddable)}
	h["X-Content-Type-Options"] = nosniff
	h["Referrer-Policy"] = referrer
	h["Permissions-Policy"] = permissions
	if s.hsts {
		h["Strict-Transport-Security"] = hsts
	}
}

// newNonce returns 128 random bits for a Content-Security-Policy nonce.
func newNonce() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawStdEncoding.EncodeToString(b)
}

// Nonce returns the Content-Security-Policy nonce of the answer to the
// request in ctx: an inline <script> or <style> of a page must carry it
// (nonce="..."), or the browser refuses it.
func Nonce(ctx context.Context) string { return infoOf(ctx).nonce }

// TemplateSource returns the Content-Security-Policy source that covers
// every address of a URL template whose placeholders ({s}, {z}, ...) may
// stand in its host: the template's scheme and host, a host with a
// placeholder in its first label as *.rest ({s}.tile.example.org ->
// https://*.tile.example.org), and the scheme alone (https:) when a
// placeholder sits deeper in the host. "" for a template that is no http(s)
// address.
func TemplateSource(template string) string {
	scheme, rest, ok := strings.Cut(template, "://")
	scheme = strings.ToLower(scheme)
	if !ok || (scheme != "http" && scheme != "https") {
		return ""
	}
	host := rest
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:]
	}
	host = strings.ToLower(host)
	if host == "" {
		return ""
	}
	if !strings.ContainsAny(host, "{}") {
		return scheme + "://" + host
	}
	first, after, dotted := strings.Cut(host, ".")
	if dotted && strings.ContainsAny(first, "{}") && !strings.ContainsAny(after, "{}") {
		return scheme + "://*." + after
	}
	return scheme + ":"
}
