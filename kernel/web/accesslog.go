package web

import (
	"net/http"
	"strings"
)

// secretWildcards are the names of path wildcards whose values are secrets:
// a public dashboard's token (/public/{token}), a password reset's id
// (/forgot/{guid}) and the address a reset is asked for
// (/api/users/forgot/{email}). A module that puts a secret in a path names
// its wildcard so, and the access log never writes the value.
var secretWildcards = map[string]bool{"token": true, "guid": true, "email": true}

// masked stands for a secret in the access log, as the query string (which
// may hold ?token=) is left out altogether.
const masked = "***"

// logPath is the path the access log writes for r: its escaped path with
// the values of secret wildcards masked, matched against the route pattern
// that serves r or, for a method the path does not allow, the pattern of
// another method. A path no route has is written as it came.
func (rt *Router) logPath(r *http.Request, pattern string) string {
	if pattern == "" {
		pattern = rt.patternOfPath(r)
	}
	return maskPath(pattern, r.URL.EscapedPath())
}

// patternOfPath returns the pattern of a route at r's path under any method.
func (rt *Router) patternOfPath(r *http.Request) string {
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := rt.mux.Handler(probe); pattern != "" {
			return pattern
		}
	}
	return ""
}

// maskPath replaces the segments of path that pattern (a ServeMux pattern,
// "GET /public/{token}" or "/public/{token}") matches with a secret wildcard
// by "***". This is the one masking function of the access log: the path is
// the only part of the address it writes.
func maskPath(pattern, path string) string {
	if pattern == "" {
		return path
	}
	if _, rest, ok := strings.Cut(pattern, " "); ok {
		pattern = rest
	}
	if i := strings.IndexByte(pattern, '/'); i > 0 { // a host before the path
		pattern = pattern[i:]
	}
	pat := strings.Split(pattern, "/")
	segs := strings.Split(path, "/")
	changed := false
	for i, p := range pat {
		if i >= len(segs) {
			break
		}
		if !strings.HasPrefix(p, "{") || !strings.HasSuffix(p, "}") {
			continue
		}
		name := strings.TrimSuffix(strings.TrimSuffix(p[1:len(p)-1], "..."), "$")
		if !secretWildcards[name] {
			continue
		}
		if strings.HasSuffix(p, "...}") { // the rest of the path
			segs = append(segs[:i], masked)
			changed = true
			break
		}
		if segs[i] != "" {
			segs[i] = masked
			changed = true
		}
	}
	if !changed {
		return path
	}
	return strings.Join(segs, "/")
}
