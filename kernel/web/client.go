package web

import (
	"net/http"
	"net/netip"
	"strings"
)

// ClientAddr returns the address of the client that sent r, for limits
// that count per client (the login rate limit). It is the connection's
// address, unless that is one of the trusted reverse proxies
// (FIELDHUB_TRUSTED_PROXIES): then X-Forwarded-For is read from the right,
// past the trusted proxies, to the first address that is not one, which is
// as far back as anyone vouches for. A header from a connection that is not
// a trusted proxy is ignored, since any client can write one.
func (rt *Router) ClientAddr(r *http.Request) string {
	remote, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	addr := remote.Addr().Unmap()
	if !rt.trusted(addr) {
		return addr.String()
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break // a garbled entry: the last proxy that wrote a good one is the client as far as we know
		}
		addr = hop.Unmap()
		if !rt.trusted(addr) {
			break
		}
	}
	return addr.String()
}

func (rt *Router) trusted(a netip.Addr) bool {
	for _, p := range rt.proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
