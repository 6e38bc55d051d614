package access

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/store"
)

// A public link is a random token that lets anyone read one dashboard, its
// modules and their data, and nothing else, while it is active: until it
// expires or is removed.

func publicUnknown() error { return errs.New(errs.NotFound, dashboards.IDPublicUnknown) }

// ActiveLink returns the link of a token that exists and has not expired;
// anything else is not found.
func (g *Guard) ActiveLink(ctx context.Context, token string) (*dashboards.PublicLink, error) {
	if len(token) < len(dashboards.PublicTokenPrefix)+16 || len(token) > 64 {
		return nil, publicUnknown()
	}
	p, err := store.PublicLinkByToken(ctx, g.db, token)
	if err != nil {
		if errs.Is(err, errs.NotFound) {
			return nil, publicUnknown()
		}
		return nil, err
	}
	if !p.ExpiresAt.After(time.Now()) {
		return nil, publicUnknown()
	}
	p.Active = true
	return p, nil
}

// PublicView is what GET /dashboards/public/{token} answers and the public
// page draws.
type PublicView struct {
	Dashboard *dashboards.Dashboard `json:"dashboard"`
	Modules   []*dashboards.Widget  `json:"modules"`
	ExpiresAt time.Time             `json:"expiresAt"`
	Company   PublicCompany         `json:"company"`
}

// PublicCompany is what a public view tells of the company.
type PublicCompany struct {
	Name string `json:"name"`
	// Timezone is the company's IANA time zone, the one visitors of its
	// public dashboards see times and days in.
	Timezone string `json:"timezone"`
}

// PublicView returns the dashboard of an active link with its modules,
// whose pictures point at the link's own picture route. Function buttons
// are left out: a public link only reads, and their settings (a script, a
// downlink) are the company's own.
func (g *Guard) PublicView(ctx context.Context, token string) (*PublicView, error) {
	p, err := g.ActiveLink(ctx, token)
	if err != nil {
		return nil, err
	}
	d, err := store.Dashboard(ctx, g.db, p.DashboardID)
	if err != nil {
		return nil, err
	}
	d.Categories = []int64{}
	widgets, err := store.Widgets(ctx, g.db, d.ID)
	if err != nil {
		return nil, err
	}
	shown := widgets[:0]
	for _, wd := range widgets {
		if wd.Type == dashboards.TypeFunction {
			continue
		}
		publicImageURL(wd, token)
		shown = append(shown, wd)
	}
	widgets = shown
	c, err := g.accounts.Company(ctx, d.CompanyID)
	if err != nil {
		return nil, err
	}
	return &PublicView{Dashboard: d, Modules: widgets, ExpiresAt: p.ExpiresAt, Company: PublicCompany{Name: c.Name, Timezone: c.Zone()}}, nil
}

// publicImageURL points a module's picture at the public route of token.
func publicImageURL(wd *dashboards.Widget, token string) {
	if wd.ImageVersion != nil {
		url := fmt.Sprintf("/api/dashboards/public/%s/modules/%d/image?v=%s", token, wd.ID, *wd.ImageVersion)
		wd.Image = &url
	}
}

// PublicWidget loads the path's module if it belongs to the dashboard of
// the path's token and is not a function button (which a public view does
// not show); any other module is not found.
func (g *Guard) PublicWidget(r *http.Request) (*dashboards.Widget, *dashboards.Dashboard, error) {
	p, err := g.ActiveLink(r.Context(), r.PathValue("token"))
	if err != nil {
		return nil, nil, err
	}
	id, err := web.PathID(r, "moduleId")
	if err != nil {
		return nil, nil, err
	}
	wd, err := store.Widget(r.Context(), g.db, id)
	if err != nil {
		return nil, nil, err
	}
	if wd.DashboardID != p.DashboardID || wd.Type == dashboards.TypeFunction {
		return nil, nil, notFound()
	}
	d, err := store.Dashboard(r.Context(), g.db, p.DashboardID)
	if err != nil {
		return nil, nil, err
	}
	return wd, d, nil
}
