package web

import (
	"crypto/tls"
	"net/http/httptest"
	"testing"
)

// TestCrossSite is the forgery rule, request by request.
func TestCrossSite(t *testing.T) {
	rt := NewRouter(Options{PublicURL: "https://portal.example"})
	type req struct {
		name    string
		method  string
		host    string
		tls     bool
		headers []string
		refused bool
	}
	for _, c := range []req{
		{"a GET with a foreign origin", "GET", "portal.example", false, []string{"Origin", "https://evil.example", "Cookie", "a=b"}, false},
		{"a POST with the public origin", "POST", "10.0.0.5:8080", false, []string{"Origin", "https://portal.example", "Cookie", "a=b"}, false},
		{"the public origin with its default port", "POST", "10.0.0.5:8080", false, []string{"Origin", "https://PORTAL.example:443", "Cookie", "a=b"}, false},
		{"the request's own origin", "PUT", "127.0.0.1:8080", false, []string{"Origin", "http://127.0.0.1:8080", "Cookie", "a=b"}, false},
		{"the request's own origin over TLS", "PUT", "127.0.0.1:8443", true, []string{"Origin", "https://127.0.0.1:8443", "Cookie", "a=b"}, false},
		{"the host with another scheme", "POST", "127.0.0.1:8080", false, []string{"Origin", "https://127.0.0.1:8080", "Cookie", "a=b"}, true},
		{"the public host with http", "POST", "portal.example", false, []string{"Origin", "http://portal.example", "Cookie", "a=b"}, false},
		{"the public host with http, behind TLS", "POST", "portal.example", true, []string{"Origin", "http://portal.example", "Cookie", "a=b"}, true},
		{"another port", "DELETE", "127.0.0.1:8080", false, []string{"Origin", "http://127.0.0.1:9090", "Cookie", "a=b"}, true},
		{"a foreign origin", "POST", "portal.example", false, []string{"Origin", "https://evil.example", "Cookie", "a=b"}, true},
		{"a foreign origin without cookies", "POST", "portal.example", false, []string{"Origin", "https://evil.example"}, true},
		{"a foreign origin with a token", "POST", "portal.example", false, []string{"Origin", "https://evil.example", "Authorization", "Bearer x"}, false},
		{"the Referer when Origin is absent", "POST", "portal.example", false, []string{"Referer", "https://portal.example/company/edit", "Cookie", "a=b"}, false},
		{"a foreign Referer", "POST", "portal.example", false, []string{"Referer", "https://evil.example/portal.example", "Cookie", "a=b"}, true},
		{"Origin null with our Referer", "POST", "portal.example", false, []string{"Origin", "null", "Referer", "https://portal.example/x", "Cookie", "a=b"}, false},
		{"Origin null alone", "POST", "portal.example", false, []string{"Origin", "null", "Cookie", "a=b"}, true},
		{"Origin null without cookies", "POST", "portal.example", false, []string{"Origin", "null"}, true},
		{"neither, with cookies", "POST", "portal.example", false, []string{"Cookie", "fieldhub_token=x"}, true},
		{"neither, without cookies", "POST", "portal.example", false, nil, false},
		{"neither, the browser says same-origin", "POST", "portal.example", false, []string{"Sec-Fetch-Site", "same-origin", "Cookie", "a=b"}, false},
		{"the browser says cross-site", "POST", "portal.example", false, []string{"Sec-Fetch-Site", "cross-site", "Origin", "https://portal.example", "Cookie", "a=b"}, true},
		{"the browser says same-site", "POST", "portal.example", false, []string{"Sec-Fetch-Site", "same-site", "Cookie", "a=b"}, true},
		{"a Referer that is no address", "POST", "portal.example", false, []string{"Referer", "portal.example", "Cookie", "a=b"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(c.method, "http://"+c.host+"/api/x", nil)
			r.Host = c.host
			if c.tls {
				r.TLS = &tls.ConnectionState{}
			}
			for i := 0; i+1 < len(c.headers); i += 2 {
				r.Header.Set(c.headers[i], c.headers[i+1])
			}
			if got := rt.crossSite(r); got != c.refused {
				t.Errorf("crossSite = %v, want %v", got, c.refused)
			}
		})
	}
}
