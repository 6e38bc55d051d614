package web

import (
	"net/http/httptest"
	"net/netip"
	"testing"
)

func TestClientAddr(t *testing.T) {
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	cases := []struct {
		name, remote string
		forwarded    []string
		trust        bool
		want         string
	}{
		{"the connection's address", "192.0.2.7:5000", nil, true, "192.0.2.7"},
		{"a header from an untrusted client is ignored", "192.0.2.7:5000", []string{"198.51.100.1"}, true, "192.0.2.7"},
		{"nothing is trusted by default", "10.0.0.2:5000", []string{"198.51.100.1"}, false, "10.0.0.2"},
		{"a trusted proxy names the client", "10.0.0.2:5000", []string{"198.51.100.1"}, true, "198.51.100.1"},
		{"a chain of trusted proxies", "[::1]:5000", []string{"203.0.113.5, 198.51.100.1, 10.0.0.9"}, true, "198.51.100.1"},
		{"what the client wrote itself is not believed", "10.0.0.2:5000", []string{"1.2.3.4, 198.51.100.1"}, true, "198.51.100.1"},
		{"several headers are one list", "10.0.0.2:5000", []string{"1.2.3.4", "198.51.100.1"}, true, "198.51.100.1"},
		{"a garbled entry stops the walk", "10.0.0.2:5000", []string{"198.51.100.1, nonsense"}, true, "10.0.0.2"},
		{"a trusted proxy without the header", "10.0.0.2:5000", nil, true, "10.0.0.2"},
		{"IPv4 in IPv6", "[::ffff:192.0.2.7]:5000", nil, true, "192.0.2.7"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := Options{}
			if tc.trust {
				o.TrustedProxies = proxies
			}
			rt := NewRouter(o)
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tc.remote
			for _, f := range tc.forwarded {
				r.Header.Add("X-Forwarded-For", f)
			}
			if got := rt.ClientAddr(r); got != tc.want {
				t.Errorf("ClientAddr = %s, want %s", got, tc.want)
			}
		})
	}
}
