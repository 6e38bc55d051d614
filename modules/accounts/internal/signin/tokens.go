package signin

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/store"
)

// Answer is the body of a successful login or refresh.
type Answer struct {
	Token        string    `json:"token"`
	Role         auth.Role `json:"role"`
	RefreshToken string    `json:"refreshToken"`
	ExpiresAt    time.Time `json:"expiresAt"`
	UserID       int64     `json:"userId"`
	CompanyID    *int64    `json:"companyId"`
	Message      string    `json:"message"`
}

// startSession stores a new session for u and returns its tokens.
func (s *Service) startSession(ctx context.Context, u *accounts.User, userAgent string) (*Answer, error) {
	refresh := auth.RandomToken(32)
	now := time.Now().UTC()
	sess := &store.Session{
		ID: auth.RandomToken(12), UserID: u.ID, RefreshHash: store.HashToken(refresh),
		ExpiresAt: now.Add(s.cfg.RefreshTokenTTL), CreatedAt: now, UserAgent: truncate(userAgent, 255),
	}
	if err := store.InsertSession(ctx, s.db, sess); err != nil {
		return nil, err
	}
	return s.tokensFor(u, sess.ID, refresh), nil
}

func (s *Service) tokensFor(u *accounts.User, sessionID, refresh string) *Answer {
	expires := time.Now().Add(s.cfg.AccessTokenTTL).UTC().Truncate(time.Second)
	token := s.host.Tokens.Issue(auth.Caller{UserID: u.ID, Role: u.Role, CompanyID: u.Company(), SessionID: sessionID}, expires)
	return &Answer{Token: token, Role: u.Role, RefreshToken: refresh, ExpiresAt: expires, UserID: u.ID, CompanyID: u.CompanyID}
}

// Renew exchanges a refresh token for a new access token, carrying the
// user's current role and company, and a new refresh token. This is how
// clients stay signed in without ever keeping a password. A token rotated
// within the last few seconds still buys an access token (but no new
// refresh token), so that two page loads racing to renew one browser
// session both succeed.
func (s *Service) Renew(ctx context.Context, refresh string) (*Answer, error) {
	if refresh == "" {
		return nil, errs.New(errs.Unauthorized, accounts.MsgRefreshInvalid)
	}
	sess, current, err := store.SessionByRefresh(ctx, s.db, refresh)
	if err != nil {
		return nil, err
	}
	if time.Now().After(sess.ExpiresAt) {
		_ = store.DeleteSession(ctx, s.db, sess.ID)
		return nil, errs.New(errs.Unauthorized, accounts.MsgRefreshInvalid)
	}
	u, err := store.UserByID(ctx, s.db, sess.UserID)
	if err != nil {
		return nil, errs.New(errs.Unauthorized, accounts.MsgRefreshInvalid)
	}
	if !current {
		return s.tokensFor(u, sess.ID, ""), nil
	}
	next := auth.RandomToken(32)
	ok, err := store.RotateSession(ctx, s.db, sess, store.HashToken(next), s.cfg.RefreshTokenTTL)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errs.New(errs.Unauthorized, accounts.MsgRefreshInvalid)
	}
	s.host.Bus.Publish(ctx, signedIn(u, true))
	return s.tokensFor(u, sess.ID, next), nil
}

// signedIn is the event of u's sign-in or session renewal.
func signedIn(u *accounts.User, renewed bool) accounts.UserSignedIn {
	name := strings.TrimSpace(u.FirstName + " " + u.LastName)
	if name == "" {
		name = u.Email
	}
	return accounts.UserSignedIn{UserID: u.ID, CompanyID: u.Company(), Role: u.Role, Name: name, Renewed: renewed, At: time.Now().UTC()}
}

// Reissue gives the caller new tokens on their current session after their
// company changed, as cookies for a browser and as the X-Fieldhub-Token and
// X-Fieldhub-Refresh-Token headers for an API client.
func (s *Service) Reissue(w http.ResponseWriter, r *http.Request, c auth.Caller, companyID int64) error {
	u, err := store.UserByID(r.Context(), s.db, c.UserID)
	if err != nil {
		return err
	}
	u.CompanyID = &companyID
	refresh := auth.RandomToken(32)
	sess := &store.Session{ID: c.SessionID}
	if _, err := store.RotateSession(r.Context(), s.db, sess, store.HashToken(refresh), s.cfg.RefreshTokenTTL); err != nil {
		return err
	}
	ans := s.tokensFor(u, c.SessionID, refresh)
	s.SetCookies(w, ans)
	w.Header().Set("X-Fieldhub-Token", ans.Token)
	w.Header().Set("X-Fieldhub-Refresh-Token", ans.RefreshToken)
	return nil
}

// End ends the caller's session, named by the access token or, when
// that has lapsed, by the refresh cookie; its access tokens are refused
// from now on.
func (s *Service) End(r *http.Request) error {
	ctx := r.Context()
	id := auth.CallerFrom(ctx).SessionID
	if id == "" {
		ck, err := r.Cookie(RefreshCookie)
		if err != nil {
			return nil
		}
		sess, _, err := store.SessionByRefresh(ctx, s.db, ck.Value)
		if err != nil {
			return nil
		}
		id = sess.ID
	}
	ended, err := store.EndSession(ctx, s.db, id)
	if err != nil {
		return err
	}
	s.SessionsEnded(ended)
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
