package core

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// The pages of SPEC.md section 2: the chooser /dashboard with the category
// tree island and the powered-by footer, a dashboard /dashboard/{id} and a
// public dashboard /public/{id}, both drawn by the dashboard island.

// menuItem is the Dashboard entry of the side menu (SPEC.md section 2:
// SuperAdmin, User, Admin, CompanyAdmin), after Settings.
var menuItem = web.MenuItem{ID: "dashboard", LabelID: "dashboards.menu", Href: "/dashboard", Icon: "mdi-view-dashboard",
	Roles: auth.CompanyOrUser, Order: 155}

func (m *Module) pageRoutes(r *web.ModuleRoutes) {
	r.Page("GET /dashboard", auth.CompanyOrUser, m.chooserPage)
	r.Page("GET /dashboard/{dashboardId}", auth.CompanyOrUser, m.dashboardPage)
	r.Page("GET /public/{token}", auth.Open, m.publicPage)
}

// treeProps are the props of the category-tree island.
type treeProps struct {
	CompanyID int64  `json:"companyId"`
	CanEdit   bool   `json:"canEdit"`
	Mode      string `json:"mode"`
}

// dashboardProps are the props of the dashboard island.
type dashboardProps struct {
	DashboardID int64   `json:"dashboardId"`
	CompanyID   int64   `json:"companyId"`
	CanEdit     bool    `json:"canEdit"`
	PublicToken *string `json:"publicToken"`
	TileURL     string  `json:"tileUrl"`
	// Lang is the page's language ("en" or "sv"), TimeZone the IANA zone
	// trend buckets of days and weeks follow ("" lets the browser decide).
	Lang     string `json:"lang"`
	TimeZone string `json:"timeZone"`
	Name     string `json:"name"`
}

func props(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}

// chooser is what the /dashboard page shows.
type chooser struct {
	CompanyID int64
	Props     string
	Tree      []*TreeNode
	Default   *Dashboard
	PoweredBy string
}

// chooserPage draws /dashboard: the viewer's company's category tree, a
// link to their default dashboard, and the powered-by footer.
func (m *Module) chooserPage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	v := web.ViewerFrom(ctx)
	c := chooser{CompanyID: v.CompanyID}
	if c.CompanyID != 0 && v.Caller.CanSeeCompany(c.CompanyID) {
		company, err := m.deps.Accounts.Company(ctx, c.CompanyID)
		if err != nil {
			return err
		}
		c.PoweredBy = company.Name
		if m.deps.Settings != nil {
			global, err := m.deps.Settings.Global(ctx)
			if err != nil {
				return err
			}
			if p := strings.TrimSpace(global["powered_by"]); p != "" {
				c.PoweredBy = p
			}
		}
		if c.Tree, err = m.tree(ctx, c.CompanyID); err != nil {
			return err
		}
		c.Props = props(treeProps{CompanyID: c.CompanyID, CanEdit: v.Caller.CanManageCompany(c.CompanyID), Mode: "page"})
		id, err := m.store.defaultOf(ctx, m.db, v.Caller.UserID, c.CompanyID)
		if err != nil {
			return err
		}
		if id != 0 {
			if c.Default, err = m.store.dashboard(ctx, m.db, id); err != nil {
				return err
			}
		}
	} else {
		c.CompanyID = 0
	}
	return m.ui.Render(w, r, http.StatusOK, "dashboards.page.chooser.title", chooserView(c), ui.Options{Islands: true})
}

// dashboardPage draws /dashboard/{dashboardId}.
func (m *Module) dashboardPage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	d, err := m.pathDashboard(r, false)
	if err != nil {
		return err
	}
	v := web.ViewerFrom(ctx)
	p := dashboardProps{DashboardID: d.ID, CompanyID: d.CompanyID, CanEdit: v.Caller.CanManageCompany(d.CompanyID),
		TileURL: m.host.Config.MapTileURL, Lang: v.Lang, Name: d.Name}
	return m.ui.Render(w, r, http.StatusOK, "dashboards.page.dashboard.title", dashboardView(d.Name, props(p), false), ui.Options{Islands: true})
}

// publicPage draws /public/{token} for anyone with the link; an unknown,
// removed or expired link gets a page that says so.
func (m *Module) publicPage(w http.ResponseWriter, r *http.Request) error {
	token := r.PathValue("token")
	view, err := m.publicView(r.Context(), token)
	if errs.Is(err, errs.NotFound) {
		return m.ui.Render(w, r, http.StatusNotFound, "dashboards.page.public.title", publicGoneView())
	}
	if err != nil {
		return err
	}
	v := web.ViewerFrom(r.Context())
	p := dashboardProps{DashboardID: view.Dashboard.ID, CompanyID: view.Dashboard.CompanyID, PublicToken: &token,
		TileURL: m.host.Config.MapTileURL, Lang: v.Lang, Name: view.Dashboard.Name}
	w.Header().Set("Referrer-Policy", "no-referrer") // the address holds the token
	return m.ui.Render(w, r, http.StatusOK, "dashboards.page.public.title", dashboardView(view.Dashboard.Name, props(p), true), ui.Options{Islands: true})
}
