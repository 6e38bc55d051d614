// Package pages draws the dashboards module's pages: the chooser
// /dashboard with the category tree island and the powered-by footer, a
// dashboard /dashboard/{id} and a public dashboard /public/{token}, both
// drawn by the dashboard island.
package pages

import (
	"encoding/json"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/access"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// menuItem is the Dashboard entry of the side menu, for everyone who works
// in a company (SuperAdmin, Admin, CompanyAdmin, User), after Settings.
var menuItem = web.MenuItem{ID: "dashboard", LabelID: "dashboards.menu", Href: "/dashboard", Icon: "mdi-view-dashboard",
	Roles: auth.CompanyOrUser, Order: 155}

// Pages draws the module's pages.
type Pages struct {
	host     *kernel.Host
	db       *bun.DB
	ui       *ui.Env
	guard    *access.Guard
	accounts dashboards.Accounts
	settings dashboards.GlobalSettings
	tileURL  string
}

// Deps is what the pages need.
type Deps struct {
	// UI draws the pages. Required.
	UI *ui.Env
	// Guard loads the dashboards and public links the pages show within
	// the caller's reach. Required.
	Guard *access.Guard
	// Accounts tells the company's name for the chooser's footer. Required.
	Accounts dashboards.Accounts
	// Settings reads the global powered_by text. Optional: without it the
	// footer shows the company's name.
	Settings dashboards.GlobalSettings
	// MapTileURL is the map tile address the dashboard island's map
	// modules load (FIELDHUB_MAP_TILE_URL).
	MapTileURL string
}

// New returns the pages of the module on host and adds the Dashboard entry
// to the side menu.
func New(host *kernel.Host, deps Deps) *Pages {
	host.Router.AddMenuItem(menuItem)
	return &Pages{host: host, db: host.DB, ui: deps.UI, guard: deps.Guard, accounts: deps.Accounts, settings: deps.Settings, tileURL: deps.MapTileURL}
}

// Routes registers the pages.
func (p *Pages) Routes(r *web.ModuleRoutes) {
	r.Page("GET /dashboard", auth.CompanyOrUser, p.chooserPage)
	r.Page("GET /dashboard/{dashboardId}", auth.CompanyOrUser, p.dashboardPage)
	r.Page("GET /public/{token}", auth.Open, p.publicPage, web.Embeddable()) // FIELDHUB_EMBED_ORIGINS may frame it
}

// treeProps are the props of the category-tree island.
type treeProps struct {
	CompanyID int64  `json:"companyId"`
	CanEdit   bool   `json:"canEdit"`
	Mode      string `json:"mode"`
}

// dashboardProps are the props of the dashboard island.
type dashboardProps struct {
	DashboardID int64 `json:"dashboardId"`
	CompanyID   int64 `json:"companyId"`
	CanEdit     bool  `json:"canEdit"`
	// CanRun lets the island's function buttons act (see dashboardProps'
	// use in dashboardPage); never on a public page.
	CanRun      bool    `json:"canRun"`
	PublicToken *string `json:"publicToken"`
	TileURL     string  `json:"tileUrl"`
	// Lang is the page's language ("en" or "sv"), TimeZone the IANA zone
	// the viewer sees times in and trend buckets of days and weeks follow.
	Lang     string `json:"lang"`
	TimeZone string `json:"timeZone"`
	Name     string `json:"name"`
}

func props(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}
