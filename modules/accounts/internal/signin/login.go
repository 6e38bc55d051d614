package signin

import (
	"context"
	"math"
	"net/http"
	"time"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/store"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/validate"
)

// The login rate limit slows down the client that fails, for the account it
// fails on, instead of locking the account: failures are counted per
// account and client address over failureWindow; after freePerPair of them
// the client waits firstWait after its latest failure before it may try
// that account again, twice as long after each further failure, at most
// maxWait. A client that fails on many accounts is slowed the same way
// after freePerClient failures in all. A client without failures is never
// kept waiting, so the owner gets in while someone else guesses.
const (
	failureWindow = time.Hour
	freePerPair   = 5
	freePerClient = 100
	firstWait     = time.Second
	maxWait       = 15 * time.Minute
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
	ip := s.host.Router.ClientAddr(r)
	now := time.Now().UTC()
	// The attempt is noted as a failure before the password is checked, so
	// that attempts sent at once see each other and cannot all slip under
	// the limit; it is forgotten if it is refused unchecked or succeeds.
	attempt, err := store.RecordLoginFailure(ctx, s.db, email, ip, now)
	if err != nil {
		return nil, err
	}
	if err := s.checkRateLimit(ctx, email, ip, attempt, now); err != nil {
		if ferr := store.ForgetLoginFailure(ctx, s.db, attempt); ferr != nil {
			return nil, ferr
		}
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
		return nil, errs.New(errs.Unauthorized, accounts.MsgLoginFailed)
	}
	if err := store.ClearLoginFailures(ctx, s.db, email, ip); err != nil {
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

// checkRateLimit refuses a login attempt that comes too soon after the
// failures noted before it, with the seconds to wait.
func (s *Service) checkRateLimit(ctx context.Context, email, ip string, attempt int64, now time.Time) error {
	pair, client, err := store.LoginFailuresBefore(ctx, s.db, email, ip, attempt, now.Add(-failureWindow))
	if err != nil {
		return err
	}
	left := max(waitLeft(pair, freePerPair, now), waitLeft(client, freePerClient, now))
	if left <= 0 {
		return nil
	}
	seconds := int(math.Ceil(left.Seconds()))
	return errs.New(errs.TooMany, errs.IDTooManyLogins).With("seconds", seconds).With("retryAfter", seconds)
}

// wait is how long a client waits after its latest failure when it has
// failed n times and free are allowed without waiting.
func wait(n, free int64) time.Duration {
	if n < free {
		return 0
	}
	doublings := n - free
	if doublings >= 30 {
		return maxWait
	}
	return min(firstWait<<doublings, maxWait)
}

// waitLeft is what remains at now of the wait that failures impose.
func waitLeft(f store.Failures, free int64, now time.Time) time.Duration {
	if f.N == 0 {
		return 0
	}
	return f.Last.Add(wait(f.N, free)).Sub(now)
}
