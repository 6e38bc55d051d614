package registry

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/access"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/store"
)

// hashToken is what is stored of a token.
func hashToken(t string) string {
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])
}

// tokenHintLength is how much of a token is kept in clear (the prefix and
// four random characters): enough to tell tokens apart, far too little to
// guess the rest.
const tokenHintLength = len(nodes.TokenPrefix) + 4

// TokenInput is the body of POST /integration/tokens/{companyId}.
type TokenInput struct {
	Label     string `json:"label"`
	IsCompany bool   `json:"isCompany"`
}

// CompanyTokens lists the integration tokens of a company, newest first.
func (g *Registry) CompanyTokens(ctx context.Context, companyID int64) ([]nodes.Token, error) {
	return store.CompanyTokens(ctx, g.db, companyID)
}

// AddToken makes a new integration token of companyID, which the caller
// manages, and returns it with the secret set, the one time it is known. A
// company token stays when its maker leaves; a personal one (isCompany
// false) goes with them. The API and the /company/tokens page both use it.
func (g *Registry) AddToken(ctx context.Context, companyID int64, in TokenInput) (*nodes.Token, error) {
	v := &errs.Validation{}
	in.Label = strings.TrimSpace(in.Label)
	checkText(v, "label", in.Label, MaxName, true)
	if err := v.Err(); err != nil {
		return nil, err
	}
	secret := nodes.TokenPrefix + auth.RandomToken(32)
	t := &nodes.Token{CompanyID: companyID, Label: in.Label, IsCompany: in.IsCompany, Hash: hashToken(secret),
		Hint: secret[:tokenHintLength], CreatedAt: store.Now()}
	if !in.IsCompany {
		uid := auth.CallerFrom(ctx).UserID
		t.UserID = &uid
	}
	if err := store.InsertToken(ctx, g.db, t); err != nil {
		return nil, err
	}
	g.announce(ctx, companyID, nodes.AuditTokenCreated, map[string]any{"label": t.Label, "isCompany": t.IsCompany}, nil, nil)
	t.Token = secret
	return t, nil
}

// ManagedToken loads integration token id if the caller manages its
// company; another company's token is not found.
func (g *Registry) ManagedToken(ctx context.Context, id int64) (*nodes.Token, error) {
	t, err := store.TokenByID(ctx, g.db, id)
	if err != nil {
		return nil, err
	}
	if err := access.Scoped(ctx, t.CompanyID, true); err != nil {
		return nil, err
	}
	return t, nil
}

// RemoveToken deletes t; integrations presenting it are refused from then on
// (by other instances once their token cache lets it go).
func (g *Registry) RemoveToken(ctx context.Context, t *nodes.Token) error {
	if err := store.DeleteToken(ctx, g.db, t.ID); err != nil {
		return err
	}
	g.tokens.drop(t.Hash)
	g.announce(ctx, t.CompanyID, nodes.AuditTokenRevoked, map[string]any{"label": t.Label, "isCompany": t.IsCompany}, nil, nil)
	return nil
}

// TokenCompany returns the company of a presented integration token, and
// notes its use. An unknown or deleted token is errs.Unauthorized; a token
// deleted on another instance may still be taken for tokenCacheFor.
func (g *Registry) TokenCompany(ctx context.Context, token string) (int64, error) {
	token = strings.TrimSpace(token)
	if !strings.HasPrefix(token, nodes.TokenPrefix) || len(token) > 128 {
		return 0, errs.New(errs.Unauthorized, nodes.IDTokenInvalid)
	}
	hash := hashToken(token)
	at := time.Now()
	c, ok := g.tokens.get(hash, at)
	if !ok {
		t, err := store.TokenByHash(ctx, g.db, hash)
		if err != nil {
			if db.IsNoRows(err) {
				return 0, errs.New(errs.Unauthorized, nodes.IDTokenInvalid)
			}
			return 0, fmt.Errorf("look up integration token: %w", err)
		}
		c = &cachedToken{id: t.ID, company: t.CompanyID, until: at.Add(tokenCacheFor)}
		if t.LastUsedAt != nil {
			c.noted = *t.LastUsedAt
		}
		g.tokens.put(hash, c)
	}
	if g.tokens.due(c, at) {
		if err := store.NoteTokenUse(ctx, g.db, c.id, at); err != nil {
			g.log.Warn("note integration token use failed", "token_id", c.id, "err", err)
		}
	}
	return c.company, nil
}
