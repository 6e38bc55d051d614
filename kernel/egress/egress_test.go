package egress

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
)

func TestCheck(t *testing.T) {
	cases := []struct {
		addr string
		kind string // "" when allowed
	}{
		// IPv4
		{"127.0.0.1", "loopback"},
		{"127.8.9.10", "loopback"},
		{"10.1.2.3", "private"},
		{"172.16.0.1", "private"},
		{"172.31.255.255", "private"},
		{"192.168.1.1", "private"},
		{"169.254.169.254", "link-local"},
		{"0.0.0.0", "unspecified"},
		{"0.1.2.3", "this network"},
		{"100.64.0.1", "carrier-grade NAT"},
		{"100.127.255.254", "carrier-grade NAT"},
		{"224.0.0.1", "multicast"},
		{"255.255.255.255", "broadcast"},
		{"192.0.2.10", "documentation"},
		{"198.18.0.1", "benchmarking"},
		{"203.0.113.5", "documentation"},
		// IPv6
		{"::1", "loopback"},
		{"::", "unspecified"},
		{"fc00::1", "private"},
		{"fd12:3456::1", "private"},
		{"fe80::1", "link-local"},
		{"fe80::1%eth0", "link-local"},
		{"ff02::1", "multicast"},
		{"2001:db8::1", "documentation"},
		{"fec0::1", "site-local"},
		// IPv4 in IPv6 clothing
		{"::ffff:127.0.0.1", "loopback"},
		{"::ffff:10.0.0.1", "private"},
		{"::ffff:169.254.169.254", "link-local"},
		{"::ffff:0.0.0.0", "unspecified"},
		{"::127.0.0.1", "IPv4-compatible"},
		{"64:ff9b::a9fe:a9fe", "link-local"}, // NAT64 of 169.254.169.254
		{"64:ff9b::7f00:1", "loopback"},
		{"2002:c0a8:0101::1", "private"}, // 6to4 of 192.168.1.1
		// public
		{"1.1.1.1", ""},
		{"8.8.8.8", ""},
		{"52.212.223.226", ""},
		{"100.128.0.1", ""},
		{"172.32.0.1", ""},
		{"::ffff:8.8.8.8", ""},
		{"64:ff9b::808:808", ""},
		{"2606:4700:4700::1111", ""},
		{"2a05:d018::1", ""},
	}
	for _, tc := range cases {
		t.Run(tc.addr, func(t *testing.T) {
			err := Check(netip.MustParseAddr(tc.addr))
			if tc.kind == "" {
				if err != nil {
					t.Errorf("refused a public address: %v", err)
				}
				return
			}
			var re *RefusedError
			if !errors.As(err, &re) || !strings.Contains(re.Kind, tc.kind) {
				t.Fatalf("got %v, want a refusal as %s", err, tc.kind)
			}
			if msg := err.Error(); !strings.Contains(msg, "not allowed for outbound requests") || !strings.Contains(msg, "FIELDHUB_OUTBOUND_PRIVATE=true") {
				t.Errorf("message %q", msg)
			}
		})
	}
}

// TestClient: the refusal happens at the connection, and the option lets
// the same request through.
func TestClient(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	for _, url := range []string{srv.URL, strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)} {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, url, nil)
		_, err := Client(false).Do(req)
		var re *RefusedError
		if !errors.As(err, &re) {
			t.Errorf("%s: got %v, want a RefusedError", url, err)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the server got %d requests", n)
	}
	res, err := Client(true).Post(srv.URL, "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if n := hits.Load(); n != 1 {
		t.Errorf("with private addresses allowed: %d requests", n)
	}
}
