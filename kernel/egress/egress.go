// Package egress makes the HTTP client for requests to addresses that
// companies chose (The Things Stack downlink URLs), so that a company cannot
// point the portal at its own host or network: loopback, private, link-local
// and other special addresses are refused after DNS resolution, at every
// connection, unless the operator allows private networks
// (FIELDHUB_OUTBOUND_PRIVATE).
package egress

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// RefusedError is a connection refused because of the address it would go
// to; another try cannot mend it.
type RefusedError struct {
	Addr netip.Addr
	Kind string // what the address is, e.g. "a loopback address"
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("%s is %s, which is not allowed for outbound requests to addresses companies configure "+
		"(the portal's operator can allow loopback, private and link-local networks with FIELDHUB_OUTBOUND_PRIVATE=true)", e.Addr, e.Kind)
}

// Client returns a client whose connections go only to addresses Check
// allows, or anywhere when allowPrivate is set. It uses no proxy (the check
// must see the real destination) and follows no redirects; the caller sets
// Timeout and may set CheckRedirect.
func Client(allowPrivate bool) *http.Client {
	d := Dialer(allowPrivate)
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	t.DialContext = d.DialContext
	return &http.Client{Transport: t,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// Dialer returns a dialer whose connections go only to addresses Check
// allows, or anywhere when allowPrivate is set: for the connections other
// than HTTP (MQTT brokers) to addresses companies chose.
func Dialer(allowPrivate bool) *net.Dialer {
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	if !allowPrivate {
		d.Control = control
	}
	return d
}

// control runs after resolution, just before each connect.
func control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("outbound request to %q: %w", address, err)
	}
	return Check(ap.Addr())
}

// special lists the ranges, besides those netip names, that are not the
// public internet.
var special = []struct {
	prefix netip.Prefix
	kind   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), `an address of "this network"`},
	{netip.MustParsePrefix("100.64.0.0/10"), "a carrier-grade NAT (shared) address"},
	{netip.MustParsePrefix("192.0.0.0/24"), "an IETF protocol address"},
	{netip.MustParsePrefix("192.0.2.0/24"), "a documentation address"},
	{netip.MustParsePrefix("198.18.0.0/15"), "a benchmarking address"},
	{netip.MustParsePrefix("198.51.100.0/24"), "a documentation address"},
	{netip.MustParsePrefix("203.0.113.0/24"), "a documentation address"},
	{netip.MustParsePrefix("240.0.0.0/4"), "a reserved or broadcast address"},
	{netip.MustParsePrefix("::/96"), "an IPv4-compatible IPv6 address"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "a local-use NAT64 address"},
	{netip.MustParsePrefix("100::/64"), "a discard-only address"},
	{netip.MustParsePrefix("2001:db8::/32"), "a documentation address"},
	{netip.MustParsePrefix("fec0::/10"), "a site-local address"},
}

var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour = netip.MustParsePrefix("2002::/16")
)

// Check returns a *RefusedError for an address that is not on the public
// internet, nil for one that is. IPv4 addresses written as IPv6 (mapped,
// NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by the IPv4 address they
// hold.
func Check(a netip.Addr) error {
	orig := a.WithZone("")
	a = orig.Unmap()
	if a.Is6() {
		b := a.As16()
		switch {
		case nat64.Contains(a):
			a = netip.AddrFrom4([4]byte(b[12:]))
		case sixToFour.Contains(a):
			a = netip.AddrFrom4([4]byte(b[2:6]))
		}
	}
	kind := ""
	switch {
	case !a.IsValid():
		kind = "no address"
	case a.IsUnspecified():
		kind = "the unspecified address"
	case a.IsLoopback():
		kind = "a loopback address"
	case a.IsPrivate():
		kind = "a private address"
	case a.IsLinkLocalUnicast():
		kind = "a link-local address"
	case a.IsMulticast():
		kind = "a multicast address"
	}
	for _, s := range special {
		if kind == "" && s.prefix.Contains(a) {
			kind = s.kind
		}
	}
	if kind == "" {
		return nil
	}
	return &RefusedError{Addr: orig, Kind: kind}
}
