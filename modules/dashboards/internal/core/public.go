package core

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// Public links (SPEC.md section 3 "Public dashboard", section 4 "active
// until expiresAt"): a random token that lets anyone read one dashboard,
// its modules and their data, and nothing else, until it expires or is
// removed.

// PublicTokenPrefix starts every public link token, so that one pasted in
// the wrong place is recognised.
const PublicTokenPrefix = "pd_"

// maxLinkLife is the furthest expiry a link may have.
const maxLinkLife = 10 * 366 * 24 * time.Hour

func newPublicToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make public link token: %w", err)
	}
	return PublicTokenPrefix + base64.RawURLEncoding.EncodeToString(b), nil
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
func (m *Module) createPublicLink(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	companyID, err := m.pathCompany(r, true)
	if err != nil {
		return err
	}
	d, err := m.pathDashboard(r, true)
	if err != nil {
		return err
	}
	if d.CompanyID != companyID {
		return errNotFound
	}
	expires, ok := parseExpiry(r.PathValue("expiresAt"))
	if !ok || !expires.After(time.Now()) || expires.After(time.Now().Add(maxLinkLife)) {
		v := errs.Validation{}
		v.Add("expiresAt", msgExpiresAt)
		return v.Err()
	}
	token, err := newPublicToken()
	if err != nil {
		return err
	}
	c := auth.CallerFrom(ctx)
	p := &PublicLink{CompanyID: companyID, DashboardID: d.ID, DashboardName: d.Name, Host: m.host.Config.PublicURL,
		ExpiresAt: expires, Token: token}
	if c.UserID != 0 {
		p.CreatedBy = &c.UserID
	}
	if err := m.store.insertPublicLink(ctx, m.db, p); err != nil {
		return err
	}
	p.Active = true
	return web.Created(w, p)
}

// companyPublicLinks answers GET /dashboards/public/company/{companyId}:
// the company's links with their tokens (for copying), newest first.
func (m *Module) companyPublicLinks(w http.ResponseWriter, r *http.Request) error {
	id, err := m.pathCompany(r, true)
	if err != nil {
		return err
	}
	list, err := m.store.publicLinks(r.Context(), m.db, id)
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
func (m *Module) deletePublicLink(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "publicId")
	if err != nil {
		return err
	}
	p, err := m.store.publicLink(r.Context(), m.db, id)
	if err != nil {
		return err
	}
	if err := scoped(r.Context(), p.CompanyID, true); err != nil {
		return err
	}
	if err := m.store.deletePublicLink(r.Context(), m.db, p.ID); err != nil {
		return err
	}
	return web.NoContent(w)
}

// activeLink returns the link of a token that exists and has not expired;
// anything else is not found.
func (m *Module) activeLink(ctx context.Context, token string) (*PublicLink, error) {
	if len(token) < len(PublicTokenPrefix)+16 || len(token) > 64 {
		return nil, errs.New(errs.NotFound, msgPublicUnknown)
	}
	p, err := m.store.publicLinkByToken(ctx, m.db, token)
	if err != nil {
		if errs.Is(err, errs.NotFound) {
			return nil, errs.New(errs.NotFound, msgPublicUnknown)
		}
		return nil, err
	}
	if !p.ExpiresAt.After(time.Now()) {
		return nil, errs.New(errs.NotFound, msgPublicUnknown)
	}
	p.Active = true
	return p, nil
}

// PublicView is what GET /dashboards/public/{token} answers.
type PublicView struct {
	Dashboard *Dashboard    `json:"dashboard"`
	Modules   []*Widget     `json:"modules"`
	ExpiresAt time.Time     `json:"expiresAt"`
	Company   PublicCompany `json:"company"`
}

// PublicCompany is what a public view tells of the company.
type PublicCompany struct {
	Name string `json:"name"`
}

// publicDashboard answers GET /dashboards/public/{token}, open to anyone.
func (m *Module) publicDashboard(w http.ResponseWriter, r *http.Request) error {
	view, err := m.publicView(r.Context(), r.PathValue("token"))
	if err != nil {
		return err
	}
	return web.OK(w, view)
}

func (m *Module) publicView(ctx context.Context, token string) (*PublicView, error) {
	p, err := m.activeLink(ctx, token)
	if err != nil {
		return nil, err
	}
	d, err := m.store.dashboard(ctx, m.db, p.DashboardID)
	if err != nil {
		return nil, err
	}
	d.Categories = []int64{}
	widgets, err := m.store.widgets(ctx, m.db, d.ID)
	if err != nil {
		return nil, err
	}
	for _, wd := range widgets {
		publicImageURL(wd, token)
	}
	c, err := m.deps.Accounts.Company(ctx, d.CompanyID)
	if err != nil {
		return nil, err
	}
	return &PublicView{Dashboard: d, Modules: widgets, ExpiresAt: p.ExpiresAt, Company: PublicCompany{Name: c.Name}}, nil
}

// publicImageURL points a module's picture at the public route of token.
func publicImageURL(wd *Widget, token string) {
	if wd.ImageVersion != nil {
		url := fmt.Sprintf("/api/dashboards/public/%s/modules/%d/image?v=%s", token, wd.ID, *wd.ImageVersion)
		wd.Image = &url
	}
}

type publicKey struct{}

// publicCaller reports whether a data read comes through a public link.
func publicCaller(ctx context.Context) bool { return ctx.Value(publicKey{}) != nil }

// publicModule loads the path's module if it belongs to the dashboard of
// the path's token; any other module is not found.
func (m *Module) publicModule(r *http.Request) (*Widget, *Dashboard, error) {
	p, err := m.activeLink(r.Context(), r.PathValue("token"))
	if err != nil {
		return nil, nil, err
	}
	id, err := web.PathID(r, "moduleId")
	if err != nil {
		return nil, nil, err
	}
	wd, err := m.store.widget(r.Context(), m.db, id)
	if err != nil {
		return nil, nil, err
	}
	if wd.DashboardID != p.DashboardID {
		return nil, nil, errNotFound
	}
	d, err := m.store.dashboard(r.Context(), m.db, p.DashboardID)
	if err != nil {
		return nil, nil, err
	}
	return wd, d, nil
}

// publicData makes a public route of h.
func (m *Module) publicData(h dataHandler) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		wd, d, err := m.publicModule(r)
		if err != nil {
			return err
		}
		r = r.WithContext(context.WithValue(r.Context(), publicKey{}, true))
		return h(w, r, wd, d)
	}
}

// publicImage answers GET /dashboards/public/{token}/modules/{moduleId}/image.
func (m *Module) publicImage(w http.ResponseWriter, r *http.Request) error {
	wd, _, err := m.publicModule(r)
	if err != nil {
		return err
	}
	return m.serveImage(w, r, wd)
}
