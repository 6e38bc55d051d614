package signin

import (
	"context"
	"net"
	"net/http"
	"time"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/store"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/validate"
)

// Login rate limits: failed attempts counted over a window, per account and
// per client address.
const (
	failureWindow   = 15 * time.Minute
	maxFailsPerUser = 10
	maxFailsPerIP   = 100
)

// Login checks credentials, within the rate limit, and starts a session.
// The API and the login page both use it.
func (s *Service) Login(r *http.Request, email, password string) (*Answer, error) {
	ctx := r.Context()
	email = validate.NormaliseEmail(email)
	v := &errs.Validation{}
	validate.Length(v, "email", email, validate.MaxEmail, true)
	validate.Length(v, "password", password, 1024, true)
	if err := v.Err(); err != nil {
		return nil, err
	}
	ip := clientIP(r)
	if err := s.checkRateLimit(ctx, email, ip); err != nil {
		return nil, err
	}
	u, err := store.UserByEmail(ctx, s.db, email)
	if err != nil && !errs.Is(err, errs.NotFound) {
		return nil, err
	}
	if u == nil {
		auth.BurnPasswordCheck(password)
	}
	if u == nil || !auth.CheckPassword(u.PasswordHash, password) {
		if err := store.RecordLoginFailure(ctx, s.db, email, ip, time.Now().UTC()); err != nil {
			return nil, err
		}
		return nil, errs.New(errs.Unauthorized, accounts.MsgLoginFailed)
	}
	if err := store.ClearLoginFailures(ctx, s.db, email); err != nil {
		return nil, err
	}
	ans, err := s.startSession(ctx, u, r.UserAgent())
	if err != nil {
		return nil, err
	}
	s.host.Bus.Publish(ctx, signedIn(u, false))
	ans.Message = s.host.Catalogs.T(s.lang(r), accounts.MsgLoggedIn, nil)
	return ans, nil
}

// checkRateLimit refuses a login when the account or the client address
// failed too often within the window, with the minutes to wait.
func (s *Service) checkRateLimit(ctx context.Context, email, ip string) error {
	since := time.Now().UTC().Add(-failureWindow)
	byUser, byIP, err := store.CountLoginFailures(ctx, s.db, email, ip, since)
	if err != nil {
		return err
	}
	if byUser >= maxFailsPerUser || byIP >= maxFailsPerIP {
		minutes := int(failureWindow.Minutes())
		return errs.New(errs.TooMany, errs.IDTooManyLogins).With("minutes", minutes).With("retryAfter", minutes*60)
	}
	return nil
}

func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
