package signin

import (
	"net/http"
	"strings"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
)

// RefreshCookie carries a browser's refresh token.
const RefreshCookie = "fieldhub_refresh"

// SecureCookies tells whether cookies are for HTTPS only: when the portal's
// public address is an https one.
func (s *Service) SecureCookies() bool { return strings.HasPrefix(s.host.Config.PublicURL, "https://") }

// SetCookies gives a browser the tokens of a, as HttpOnly cookies.
func (s *Service) SetCookies(w http.ResponseWriter, a *Answer) {
	secure := s.SecureCookies()
	http.SetCookie(w, &http.Cookie{Name: kernel.TokenCookie, Value: a.Token, Path: "/", HttpOnly: true, Secure: secure,
		SameSite: http.SameSiteLaxMode, MaxAge: int(s.cfg.AccessTokenTTL.Seconds())})
	if a.RefreshToken != "" {
		http.SetCookie(w, &http.Cookie{Name: RefreshCookie, Value: a.RefreshToken, Path: "/", HttpOnly: true, Secure: secure,
			SameSite: http.SameSiteLaxMode, MaxAge: int(s.cfg.RefreshTokenTTL.Seconds())})
	}
}

// ClearCookies removes the browser's tokens.
func (s *Service) ClearCookies(w http.ResponseWriter) {
	for _, name := range []string{kernel.TokenCookie, RefreshCookie} {
		http.SetCookie(w, &http.Cookie{Name: name, Value: "", Path: "/", HttpOnly: true, Secure: s.SecureCookies(),
			SameSite: http.SameSiteLaxMode, MaxAge: -1})
	}
}

// RefreshBrowser is the kernel's Refresher: a page load whose access cookie
// has lapsed is served after renewing the session from the refresh cookie.
func (s *Service) RefreshBrowser(w http.ResponseWriter, r *http.Request) (auth.Caller, bool) {
	c, err := r.Cookie(RefreshCookie)
	if err != nil {
		return auth.Caller{}, false
	}
	ans, err := s.Renew(r.Context(), c.Value)
	if err != nil {
		return auth.Caller{}, false
	}
	s.SetCookies(w, ans)
	caller, err := s.host.Tokens.Verify(ans.Token)
	return caller, err == nil
}
