package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// Tokens signs and verifies access tokens. An access token is the caller's
// claims, base64url JSON, and an HMAC-SHA256 of them: verifying one needs no
// database, which keeps every authenticated request to the queries it asks
// for. It is short-lived; the session behind it lives on as a refresh token
// that the accounts module stores and can revoke. A session that ends
// (logout, password reset, role change) refuses its access tokens at once
// through the SessionCheck the accounts module hands in.
type Tokens struct {
	key      []byte
	now      func() time.Time
	sessions SessionCheck
}

// SessionCheck tells whether the session an access token names has ended
// before the token lapses. The kernel cannot know: the accounts module owns
// the sessions and provides the check. It is asked on every authenticated
// request, so it must answer from memory, without waiting on anything.
type SessionCheck interface {
	Ended(sessionID string) bool
}

// CheckSessions makes Verify refuse the tokens of sessions that check says
// have ended. It is called once, while the portal is built, before any
// request is served.
func (t *Tokens) CheckSessions(check SessionCheck) { t.sessions = check }

// NewTokens returns a signer keyed by secret.
func NewTokens(secret []byte) *Tokens {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte("fieldhub access token v1"))
	return &Tokens{key: mac.Sum(nil), now: time.Now}
}

type claims struct {
	UserID    int64  `json:"u"`
	Role      Role   `json:"r"`
	CompanyID int64  `json:"c,omitempty"`
	SessionID string `json:"s"`
	Expires   int64  `json:"e"`
}

// ErrBadToken is returned for a token that is malformed, forged or expired,
// or whose session has ended.
var ErrBadToken = errors.New("invalid or expired token")

// Issue returns a token for c valid until expires.
func (t *Tokens) Issue(c Caller, expires time.Time) string {
	payload, _ := json.Marshal(claims{UserID: c.UserID, Role: c.Role, CompanyID: c.CompanyID, SessionID: c.SessionID, Expires: expires.Unix()})
	body := base64.RawURLEncoding.EncodeToString(payload)
	return body + "." + base64.RawURLEncoding.EncodeToString(t.sign(body))
}

// Verify returns the caller a token stands for.
func (t *Tokens) Verify(token string) (Caller, error) {
	body, sig, ok := strings.Cut(token, ".")
	if !ok {
		return Caller{}, ErrBadToken
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, t.sign(body)) {
		return Caller{}, ErrBadToken
	}
	payload, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil {
		return Caller{}, ErrBadToken
	}
	var c claims
	if err := json.Unmarshal(payload, &c); err != nil || c.UserID == 0 {
		return Caller{}, ErrBadToken
	}
	if t.now().Unix() >= c.Expires {
		return Caller{}, ErrBadToken
	}
	if _, ok := ParseRole(string(c.Role)); !ok {
		return Caller{}, ErrBadToken
	}
	if t.sessions != nil && c.SessionID != "" && t.sessions.Ended(c.SessionID) {
		return Caller{}, ErrBadToken
	}
	return Caller{UserID: c.UserID, Role: c.Role, CompanyID: c.CompanyID, SessionID: c.SessionID, Expires: time.Unix(c.Expires, 0)}, nil
}

func (t *Tokens) sign(body string) []byte {
	mac := hmac.New(sha256.New, t.key)
	mac.Write([]byte(body))
	return mac.Sum(nil)
}
