package kernel

import (
	"net/http"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// TokenCookie is the HttpOnly cookie that carries a browser's access token.
const TokenCookie = "fieldhub_token"

// sessionAuthenticator recognises an access token given as
// "Authorization: Bearer" (API clients) or in the session cookie (browsers).
// A cookie only authenticates a state-changing request from the portal's own
// origin, which with SameSite=Lax cookies keeps other sites from acting as the
// user.
func sessionAuthenticator(tokens *auth.Tokens) func(r *http.Request) (auth.Caller, bool) {
	return func(r *http.Request) (auth.Caller, bool) {
		if h := r.Header.Get("Authorization"); h != "" {
			scheme, token, _ := strings.Cut(h, " ")
			if !strings.EqualFold(scheme, "Bearer") {
				return auth.Caller{}, false
			}
			c, err := tokens.Verify(strings.TrimSpace(token))
			return c, err == nil
		}
		cookie, err := r.Cookie(TokenCookie)
		if err != nil {
			return auth.Caller{}, false
		}
		if !safeMethod(r.Method) && !sameOrigin(r) {
			return auth.Caller{}, false
		}
		c, err := tokens.Verify(cookie.Value)
		return c, err == nil
	}
}

func safeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

// sameOrigin reports whether the request names the portal's own origin,
// scheme and host, in Origin or, failing that, Referer (web.SameOrigin). The
// router has refused a state-changing request with cookies that does not
// already; this keeps the cookie from authenticating one all the same.
func sameOrigin(r *http.Request) bool { return web.SameOrigin(r) }
