package httpapi

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/access"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/store"
)

// Public links: a random token that lets anyone read one dashboard, its
// modules and their data, and nothing else, until it expires or is
// removed. These routes make, list and remove them; package access says
// what a token reaches.

// maxLinkLife is the furthest expiry a link may have.
const maxLinkLife = 10 * 366 * 24 * time.Hour

func newPublicToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make public link token: %w", err)
	}
	return dashboards.PublicTokenPrefix + base64.RawURLEncoding.EncodeToString(b), nil
}

// parseExpiry reads an expiry given as RFC 3339 or as Unix milliseconds.
func parseExpiry(raw string) (time.Time, bool) {
	if t, err := time.Parse(time.RFC3339Nano, raw); err == nil {
		return t.UTC(), true
	}
	if ms, err := strconv.ParseInt(raw, 10, 64); err == nil && ms > 0 && ms < 1<<53 {
		return time.UnixMilli(ms).UTC(), true
	}
	return time.Time{}, false
}

// createPublicLink answers POST /dashboards/public/{companyId}/{dashboardId}/{expiresAt}.
func (a *API) createPublicLink(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	companyID, err := a.guard.PathCompany(r, true)
	if err != nil {
		return err
	}
	d, err := a.guard.PathDashboard(r, true)
	if err != nil {
		return err
	}
	if d.CompanyID != companyID {
		return errNotFound
	}
	expires, ok := parseExpiry(r.PathValue("expiresAt"))
	if !ok || !expires.After(time.Now()) || expires.After(time.Now().Add(maxLinkLife)) {
		v := errs.Validation{}
		v.Add("expiresAt", dashboards.IDExpiresAt)
		return v.Err()
	}
	token, err := newPublicToken()
	if err != nil {
		return err
	}
	c := auth.CallerFrom(ctx)
	p := &dashboards.PublicLink{CompanyID: companyID, DashboardID: d.ID, DashboardName: d.Name, Host: a.host.Config.PublicURL,
		ExpiresAt: expires, Token: token}
	if c.UserID != 0 {
		p.CreatedBy = &c.UserID
	}
	if err := store.InsertPublicLink(ctx, a.db, p); err != nil {
		return err
	}
	a.announce(ctx, companyID, dashboards.AuditLinkCreated, map[string]any{"name": d.Name, "expiresAt": expires.UTC().Format(time.RFC3339)}, nil, nil)
	p.Active = true
	return web.Created(w, p)
}

// companyPublicLinks answers GET /dashboards/public/company/{companyId}:
// the company's links with their tokens (for copying), newest first.
func (a *API) companyPublicLinks(w http.ResponseWriter, r *http.Request) error {
	id, err := a.guard.PathCompany(r, true)
	if err != nil {
		return err
	}
	list, err := store.PublicLinks(r.Context(), a.db, id)
	if err != nil {
		return err
	}
	now := time.Now()
	for _, p := range list {
		p.Active = p.ExpiresAt.After(now)
	}
	return web.OK(w, list)
}

// deletePublicLink answers DELETE /dashboards/public/{publicId}.
func (a *API) deletePublicLink(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "publicId")
	if err != nil {
		return err
	}
	p, err := store.PublicLink(r.Context(), a.db, id)
	if err != nil {
		return err
	}
	if err := access.Scoped(r.Context(), p.CompanyID, true); err != nil {
		return err
	}
	if err := store.DeletePublicLink(r.Context(), a.db, p.ID); err != nil {
		return err
	}
	a.announce(r.Context(), p.CompanyID, dashboards.AuditLinkDeleted, map[string]any{"name": p.DashboardName}, nil, nil)
	return web.NoContent(w)
}

// publicDashboard answers GET /dashboards/public/{token}, open to anyone.
func (a *API) publicDashboard(w http.ResponseWriter, r *http.Request) error {
	view, err := a.guard.PublicView(r.Context(), r.PathValue("token"))
	if err != nil {
		return err
	}
	return web.OK(w, view)
}

// publicImage answers GET /dashboards/public/{token}/modules/{moduleId}/image.
func (a *API) publicImage(w http.ResponseWriter, r *http.Request) error {
	wd, _, err := a.guard.PublicWidget(r)
	if err != nil {
		return err
	}
	return a.serveImage(w, r, wd)
}
