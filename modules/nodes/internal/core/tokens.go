package core

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// hashToken is what is stored of a token.
func hashToken(t string) string {
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])
}

// tokenHintLength is how much of a token is kept in clear (the prefix and
// four random characters): enough to tell tokens apart, far too little to
// guess the rest.
const tokenHintLength = len(TokenPrefix) + 4

// lastUseEvery is how often a token's last use is written, so that a busy
// integration does not write on every call.
const lastUseEvery = time.Minute

// listTokens answers GET /integration/tokens/{companyId}; the tokens
// themselves are never shown again, only their hints.
func (m *Module) listTokens(w http.ResponseWriter, r *http.Request) error {
	id, err := m.managedCompanyID(r.Context(), r)
	if err != nil {
		return err
	}
	list, err := m.companyTokens(r.Context(), id)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

// companyTokens lists the integration tokens of a company, newest first.
func (m *Module) companyTokens(ctx context.Context, companyID int64) ([]Token, error) {
	list := []Token{}
	if err := m.db.NewSelect().Model(&list).Where("company_id = ?", companyID).Order("created_at DESC", "id DESC").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list integration tokens of company %d: %w", companyID, err)
	}
	return list, nil
}

// tokenInput is the body of POST /integration/tokens/{companyId}.
type tokenInput struct {
	Label     string `json:"label"`
	IsCompany bool   `json:"isCompany"`
}

// createToken answers POST /integration/tokens/{companyId} with {label,
// isCompany}. The answer is the one time the token is shown.
func (m *Module) createToken(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, err := m.managedCompanyID(ctx, r)
	if err != nil {
		return err
	}
	var in tokenInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	t, err := m.addToken(ctx, id, in)
	if err != nil {
		return err
	}
	return web.Created(w, t)
}

// addToken makes a new integration token of companyID, which the caller
// manages, and returns it with the secret set, the one time it is known. A
// company token stays when its maker leaves; a personal one (isCompany
// false) goes with them. The API and the /company/tokens page both use it.
func (m *Module) addToken(ctx context.Context, companyID int64, in tokenInput) (*Token, error) {
	v := &errs.Validation{}
	in.Label = strings.TrimSpace(in.Label)
	checkText(v, "label", in.Label, maxName, true)
	if err := v.Err(); err != nil {
		return nil, err
	}
	secret := TokenPrefix + auth.RandomToken(32)
	t := &Token{CompanyID: companyID, Label: in.Label, IsCompany: in.IsCompany, Hash: hashToken(secret),
		Hint: secret[:tokenHintLength], CreatedAt: now()}
	if !in.IsCompany {
		uid := auth.CallerFrom(ctx).UserID
		t.UserID = &uid
	}
	if _, err := m.db.NewInsert().Model(t).Returning("id").Exec(ctx); err != nil {
		return nil, fmt.Errorf("insert integration token: %w", err)
	}
	t.Token = secret
	return t, nil
}

// deleteToken answers DELETE /integration/tokens/{tokenId}.
func (m *Module) deleteToken(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "tokenId")
	if err != nil {
		return err
	}
	t, err := m.managedToken(r.Context(), id)
	if err != nil {
		return err
	}
	if err := m.removeToken(r.Context(), t); err != nil {
		return err
	}
	return web.NoContent(w)
}

// managedToken loads integration token id if the caller manages its
// company; another company's token is not found.
func (m *Module) managedToken(ctx context.Context, id int64) (*Token, error) {
	t := new(Token)
	if err := m.db.NewSelect().Model(t).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load integration token %d", id)
	}
	if err := scoped(ctx, t.CompanyID, true); err != nil {
		return nil, err
	}
	return t, nil
}

// removeToken deletes t; integrations presenting it are refused from then on
// (by other instances once their token cache lets it go).
func (m *Module) removeToken(ctx context.Context, t *Token) error {
	if _, err := m.db.NewDelete().Model((*Token)(nil)).Where("id = ?", t.ID).Exec(ctx); err != nil {
		return fmt.Errorf("delete integration token %d: %w", t.ID, err)
	}
	m.tokens.drop(t.Hash)
	return nil
}

// TokenCompany returns the company of a presented integration token, and
// notes its use. An unknown or deleted token is errs.Unauthorized; a token
// deleted on another instance may still be taken for tokenCacheFor.
func (m *Module) TokenCompany(ctx context.Context, token string) (int64, error) {
	token = strings.TrimSpace(token)
	if !strings.HasPrefix(token, TokenPrefix) || len(token) > 128 {
		return 0, errs.New(errs.Unauthorized, msgTokenInvalid)
	}
	hash := hashToken(token)
	at := time.Now()
	c, ok := m.tokens.get(hash, at)
	if !ok {
		t := new(Token)
		if err := m.db.NewSelect().Model(t).Column("id", "company_id", "last_used_at").Where("token_hash = ?", hash).Scan(ctx); err != nil {
			if db.IsNoRows(err) {
				return 0, errs.New(errs.Unauthorized, msgTokenInvalid)
			}
			return 0, fmt.Errorf("look up integration token: %w", err)
		}
		c = &cachedToken{id: t.ID, company: t.CompanyID, until: at.Add(tokenCacheFor)}
		if t.LastUsedAt != nil {
			c.noted = *t.LastUsedAt
		}
		m.tokens.put(hash, c)
	}
	if m.tokens.due(c, at) {
		if _, err := m.db.NewUpdate().Model((*Token)(nil)).Set("last_used_at = ?", at.UTC()).Where("id = ?", c.id).Exec(ctx); err != nil {
			m.log.Warn("note integration token use failed", "token_id", c.id, "err", err)
		}
	}
	return c.company, nil
}

// tokenCacheFor is how long a looked-up integration token is taken without
// asking the database again. A few tokens carry all the uplinks, so nearly
// every ingest request is spared a query; the price is that a token deleted
// on another instance still works for up to this long (on the instance
// that deletes it, at once).
const tokenCacheFor = 5 * time.Second

// tokenCacheSize bounds the cache: beyond it the cache starts afresh.
const tokenCacheSize = 10_000

// tokenCache keeps recently presented integration tokens by hash. Unknown
// tokens are not kept, so that guessing cannot fill it.
type tokenCache struct {
	mu sync.Mutex
	m  map[string]*cachedToken
}

type cachedToken struct {
	id, company int64
	until       time.Time // the entry's end
	noted       time.Time // the last use written to the database (guarded by the cache's mu)
}

func (c *tokenCache) get(hash string, at time.Time) (*cachedToken, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.m[hash]
	if !ok || !at.Before(t.until) {
		return nil, false
	}
	return t, true
}

func (c *tokenCache) put(hash string, t *cachedToken) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= tokenCacheSize {
		c.m = map[string]*cachedToken{}
	}
	c.m[hash] = t
}

// drop forgets a token, as when it is deleted.
func (c *tokenCache) drop(hash string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, hash)
}

// due reports whether t's use at at should be written, at most once per
// lastUseEvery for each token, and claims the write when so.
func (c *tokenCache) due(t *cachedToken, at time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if at.Sub(t.noted) <= lastUseEvery {
		return false
	}
	t.noted = at
	return true
}
