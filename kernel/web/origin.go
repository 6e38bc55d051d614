package web

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/errs"
)

// Cross-site request forgery: a browser sends the portal's cookies with
// requests other sites make it send. SameSite=Lax keeps them off most such
// requests, but not off those of sibling sites (another host of the same
// domain), and a state change must not rest on that alone. So a request
// that may change something (any method but GET, HEAD and OPTIONS) and
// carries no Authorization header must name the portal as its origin:
//
//   - Origin, or when it is absent or "null" Referer, must be the portal's
//     own origin, scheme and host: FIELDHUB_PUBLIC_URL's, or the one the
//     request itself was sent to (its Host, https when it came over TLS);
//   - without either, a browser's Sec-Fetch-Site: same-origin will do (a
//     page with Referrer-Policy: no-referrer sends "Origin: null"), and
//     "Origin: null" alone is refused (a sandboxed frame's request);
//   - Sec-Fetch-Site: cross-site or same-site is refused whatever else the
//     request says;
//   - a request with neither that carries cookies is refused: browsers
//     always send one of them, so a cookie without an origin is no
//     browser's own request;
//   - a request with neither and no cookies (a script, a network server)
//     holds nothing of a user's, and passes.
//
// A refused request gets 403 (IDCrossSite) before anything else runs.
// Requests with an Authorization header carry their credentials
// explicitly, which another site cannot make a browser do.

// IDCrossSite is the message of a state-changing request refused because it
// did not come from the portal's own pages.
const IDCrossSite = "error.crossSite"

// crossSite reports whether r must be refused as a forged cross-site
// request.
func (rt *Router) crossSite(r *http.Request) bool {
	if safeMethod(r.Method) || r.Header.Get("Authorization") != "" {
		return false
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "cross-site", "same-site":
		return true
	}
	if origin := r.Header.Get("Origin"); origin != "" && origin != "null" {
		return !rt.ownOrigin(r, origin)
	}
	if ref := r.Header.Get("Referer"); ref != "" {
		return !rt.ownOrigin(r, ref)
	}
	if r.Header.Get("Sec-Fetch-Site") == "same-origin" {
		return false
	}
	if r.Header.Get("Origin") == "null" {
		return true
	}
	return len(r.Header.Values("Cookie")) > 0
}

// refuseCrossSite answers a request crossSite refused.
func (rt *Router) refuseCrossSite(w http.ResponseWriter, r *http.Request) {
	rt.log.Warn("cross-site request refused", "method", r.Method, "origin", r.Header.Get("Origin"),
		"referer_origin", originOf(r.Header.Get("Referer")), "request_id", infoOf(r.Context()).id)
	rt.writeProblem(w, r, http.StatusForbidden, errs.New(errs.Forbidden, IDCrossSite))
}

// SameOrigin reports whether r, a request the router is serving, names the
// portal's own origin in Origin or, when that is absent, Referer (or, with
// neither, comes with Sec-Fetch-Site: same-origin): the check crossSite
// makes, for an authenticator that takes a cookie. A request that names no
// origin is not same-origin.
func SameOrigin(r *http.Request) bool {
	rt := infoOf(r.Context()).router
	if rt == nil {
		return false
	}
	if origin := r.Header.Get("Origin"); origin != "" && origin != "null" {
		return rt.ownOrigin(r, origin)
	}
	if ref := r.Header.Get("Referer"); ref != "" {
		return rt.ownOrigin(r, ref)
	}
	return r.Header.Get("Sec-Fetch-Site") == "same-origin"
}

func safeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

// ownOrigin reports whether address (an Origin or a Referer) has the
// portal's public origin or the origin r was sent to.
func (rt *Router) ownOrigin(r *http.Request, address string) bool {
	got := originOf(address)
	if got == "" {
		return false
	}
	if rt.publicOrigin != "" && got == rt.publicOrigin {
		return true
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return got == canonicalOrigin(scheme, r.Host)
}

// originOf returns the origin of an address, scheme://host[:port] in lower
// case without a default port, or "" when it has none.
func originOf(address string) string {
	u, err := url.Parse(address)
	if err != nil || u.Scheme == "" || u.Host == "" || u.Opaque != "" {
		return ""
	}
	return canonicalOrigin(u.Scheme, u.Host)
}

func canonicalOrigin(scheme, host string) string {
	scheme, host = strings.ToLower(scheme), strings.ToLower(host)
	switch {
	case scheme == "http" && strings.HasSuffix(host, ":80"):
		host = strings.TrimSuffix(host, ":80")
	case scheme == "https" && strings.HasSuffix(host, ":443"):
		host = strings.TrimSuffix(host, ":443")
	}
	return scheme + "://" + host
}
