package core

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// RefreshCookie carries a browser's refresh token.
const RefreshCookie = "fieldhub_refresh"

// Login rate limits: failed attempts counted over a window, per account and
// per client address.
const (
	failureWindow   = 15 * time.Minute
	maxFailsPerUser = 10
	maxFailsPerIP   = 100
)

// tokenAnswer is the body of a successful login or refresh.
type tokenAnswer struct {
	Token        string    `json:"token"`
	Role         auth.Role `json:"role"`
	RefreshToken string    `json:"refreshToken"`
	ExpiresAt    time.Time `json:"expiresAt"`
	UserID       int64     `json:"userId"`
	CompanyID    *int64    `json:"companyId"`
	Message      string    `json:"message"`
}

type loginFailure struct {
	bun.BaseModel `bun:"table:login_failures"`
	ID            int64     `bun:"id,pk,autoincrement"`
	Email         string    `bun:"email"`
	IP            string    `bun:"ip"`
	At            time.Time `bun:"at"`
}

// authenticate answers POST /users/authenticate with tokens, and sets them as
// HttpOnly cookies for browsers.
func (m *Module) authenticate(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Email    string `json:"email"`
		Password string `json:"password"`
	}
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	ans, err := m.login(r, in.Email, in.Password)
	if err != nil {
		return err
	}
	m.setCookies(w, ans)
	return web.OK(w, ans)
}

// login checks credentials, within the rate limit, and starts a session.
// The API and the login page both use it.
func (m *Module) login(r *http.Request, email, password string) (*tokenAnswer, error) {
	ctx := r.Context()
	email = normaliseEmail(email)
	v := &errs.Validation{}
	checkLength(v, "email", email, maxEmail, true)
	checkLength(v, "password", password, 1024, true)
	if err := v.Err(); err != nil {
		return nil, err
	}
	ip := clientIP(r)
	if err := m.checkRateLimit(ctx, email, ip); err != nil {
		return nil, err
	}
	u, err := m.store.userByEmail(ctx, m.db, email)
	if err != nil && !errs.Is(err, errs.NotFound) {
		return nil, err
	}
	if u == nil {
		auth.BurnPasswordCheck(password)
	}
	if u == nil || !auth.CheckPassword(u.PasswordHash, password) {
		now := time.Now().UTC()
		if _, err := m.db.NewInsert().Model(&loginFailure{Email: email, IP: ip, At: now}).Exec(ctx); err != nil {
			return nil, fmt.Errorf("record login failure: %w", err)
		}
		return nil, errs.New(errs.Unauthorized, msgLoginFailed)
	}
	if _, err := m.db.NewDelete().Model((*loginFailure)(nil)).Where("email = ?", email).Exec(ctx); err != nil {
		return nil, fmt.Errorf("clear login failures: %w", err)
	}
	ans, err := m.startSession(ctx, u, r.UserAgent())
	if err != nil {
		return nil, err
	}
	m.host.Bus.Publish(ctx, signedIn(u, false))
	ans.Message = m.host.Catalogs.T(m.lang(r), msgLoggedIn, nil)
	return ans, nil
}

func (m *Module) checkRateLimit(ctx context.Context, email, ip string) error {
	since := time.Now().UTC().Add(-failureWindow)
	byUser, err := m.db.NewSelect().Model((*loginFailure)(nil)).Where("email = ? AND at > ?", email, since).Count(ctx)
	if err != nil {
		return fmt.Errorf("count login failures: %w", err)
	}
	byIP, err := m.db.NewSelect().Model((*loginFailure)(nil)).Where("ip = ? AND at > ?", ip, since).Count(ctx)
	if err != nil {
		return fmt.Errorf("count login failures: %w", err)
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

// startSession stores a new session for u and returns its tokens.
func (m *Module) startSession(ctx context.Context, u *User, userAgent string) (*tokenAnswer, error) {
	refresh := auth.RandomToken(32)
	now := time.Now().UTC()
	s := &session{
		ID: auth.RandomToken(12), UserID: u.ID, RefreshHash: hashToken(refresh),
		ExpiresAt: now.Add(m.host.Config.RefreshTokenTTL), CreatedAt: now, UserAgent: truncate(userAgent, 255),
	}
	if err := m.store.insertSession(ctx, m.db, s); err != nil {
		return nil, err
	}
	return m.tokensFor(u, s.ID, refresh), nil
}

func (m *Module) tokensFor(u *User, sessionID, refresh string) *tokenAnswer {
	expires := time.Now().Add(m.host.Config.AccessTokenTTL).UTC().Truncate(time.Second)
	token := m.host.Tokens.Issue(auth.Caller{UserID: u.ID, Role: u.Role, CompanyID: u.Company(), SessionID: sessionID}, expires)
	return &tokenAnswer{Token: token, Role: u.Role, RefreshToken: refresh, ExpiresAt: expires, UserID: u.ID, CompanyID: u.CompanyID}
}

// refresh answers POST /users/refresh: a refresh token (in the body or the
// cookie) buys a new access token carrying the user's current role and
// company, and is replaced by a new refresh token. This is how clients stay
// signed in without ever keeping a password.
func (m *Module) refresh(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		RefreshToken string `json:"refreshToken"`
	}
	if r.ContentLength != 0 {
		if err := web.Decode(r, &in); err != nil {
			return err
		}
	}
	if in.RefreshToken == "" {
		if c, err := r.Cookie(RefreshCookie); err == nil {
			in.RefreshToken = c.Value
		}
	}
	ans, err := m.renew(r.Context(), in.RefreshToken)
	if err != nil {
		return err
	}
	m.setCookies(w, ans)
	return web.OK(w, ans)
}

// renew exchanges a refresh token for a new access token and a new refresh
// token. A token rotated within the last few seconds still buys an access
// token (but no new refresh token), so that two page loads racing to renew
// one browser session both succeed.
func (m *Module) renew(ctx context.Context, refresh string) (*tokenAnswer, error) {
	if refresh == "" {
		return nil, errs.New(errs.Unauthorized, msgRefreshInvalid)
	}
	s, current, err := m.store.sessionByRefresh(ctx, m.db, refresh)
	if err != nil {
		return nil, err
	}
	if time.Now().After(s.ExpiresAt) {
		_ = m.store.deleteSession(ctx, m.db, s.ID)
		return nil, errs.New(errs.Unauthorized, msgRefreshInvalid)
	}
	u, err := m.store.userByID(ctx, m.db, s.UserID)
	if err != nil {
		return nil, errs.New(errs.Unauthorized, msgRefreshInvalid)
	}
	if !current {
		return m.tokensFor(u, s.ID, ""), nil
	}
	next := auth.RandomToken(32)
	ok, err := m.store.rotateSession(ctx, m.db, s, hashToken(next), m.host.Config.RefreshTokenTTL)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errs.New(errs.Unauthorized, msgRefreshInvalid)
	}
	m.host.Bus.Publish(ctx, signedIn(u, true))
	return m.tokensFor(u, s.ID, next), nil
}

// signedIn is the event of u's sign-in or session renewal.
func signedIn(u *User, renewed bool) UserSignedIn {
	name := strings.TrimSpace(u.FirstName + " " + u.LastName)
	if name == "" {
		name = u.Email
	}
	return UserSignedIn{UserID: u.ID, CompanyID: u.Company(), Role: u.Role, Name: name, Renewed: renewed, At: time.Now().UTC()}
}

// refreshBrowser is the kernel's Refresher: a page load whose access cookie
// has lapsed is served after renewing the session from the refresh cookie.
func (m *Module) refreshBrowser(w http.ResponseWriter, r *http.Request) (auth.Caller, bool) {
	c, err := r.Cookie(RefreshCookie)
	if err != nil {
		return auth.Caller{}, false
	}
	ans, err := m.renew(r.Context(), c.Value)
	if err != nil {
		return auth.Caller{}, false
	}
	m.setCookies(w, ans)
	caller, err := m.host.Tokens.Verify(ans.Token)
	return caller, err == nil
}

// reissue gives the caller new tokens on their current session after their
// company changed, as cookies for a browser.
func (m *Module) reissue(w http.ResponseWriter, r *http.Request, c auth.Caller, companyID int64) error {
	u, err := m.store.userByID(r.Context(), m.db, c.UserID)
	if err != nil {
		return err
	}
	u.CompanyID = &companyID
	refresh := auth.RandomToken(32)
	s := &session{ID: c.SessionID}
	if _, err := m.store.rotateSession(r.Context(), m.db, s, hashToken(refresh), m.host.Config.RefreshTokenTTL); err != nil {
		return err
	}
	ans := m.tokensFor(u, c.SessionID, refresh)
	m.setCookies(w, ans)
	w.Header().Set("X-Fieldhub-Token", ans.Token)
	w.Header().Set("X-Fieldhub-Refresh-Token", ans.RefreshToken)
	return nil
}

// logout answers POST /users/logout: the session ends and the cookies clear.
func (m *Module) logout(w http.ResponseWriter, r *http.Request) error {
	if err := m.endSession(r); err != nil {
		return err
	}
	m.clearCookies(w)
	return web.NoContent(w)
}

// endSession deletes the caller's session, named by the access token or,
// when that has lapsed, by the refresh cookie.
func (m *Module) endSession(r *http.Request) error {
	ctx := r.Context()
	if c := auth.CallerFrom(ctx); c.SessionID != "" {
		return m.store.deleteSession(ctx, m.db, c.SessionID)
	}
	if ck, err := r.Cookie(RefreshCookie); err == nil {
		if s, _, err := m.store.sessionByRefresh(ctx, m.db, ck.Value); err == nil {
			return m.store.deleteSession(ctx, m.db, s.ID)
		}
	}
	return nil
}

func (m *Module) secureCookies() bool { return strings.HasPrefix(m.host.Config.PublicURL, "https://") }

func (m *Module) setCookies(w http.ResponseWriter, a *tokenAnswer) {
	secure := m.secureCookies()
	http.SetCookie(w, &http.Cookie{Name: kernel.TokenCookie, Value: a.Token, Path: "/", HttpOnly: true, Secure: secure,
		SameSite: http.SameSiteLaxMode, MaxAge: int(m.host.Config.AccessTokenTTL.Seconds())})
	if a.RefreshToken != "" {
		http.SetCookie(w, &http.Cookie{Name: RefreshCookie, Value: a.RefreshToken, Path: "/", HttpOnly: true, Secure: secure,
			SameSite: http.SameSiteLaxMode, MaxAge: int(m.host.Config.RefreshTokenTTL.Seconds())})
	}
}

func (m *Module) clearCookies(w http.ResponseWriter) {
	for _, name := range []string{kernel.TokenCookie, RefreshCookie} {
		http.SetCookie(w, &http.Cookie{Name: name, Value: "", Path: "/", HttpOnly: true, Secure: m.secureCookies(),
			SameSite: http.SameSiteLaxMode, MaxAge: -1})
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
