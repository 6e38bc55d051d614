// Package pages draws the gateways module's pages: /gateways (the list, a
// map of clustered markers coloured by state, and the unknown gateways)
// and /gateways/create (a form with a map to place the gateway), both
// drawn by islands over the server's frame.
package pages

import (
	"encoding/json"
	"net/http"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/gateways/internal/registry"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// menuItem is the Gateways entry of the side menu (SPEC section 2:
// SuperAdmin, Admin, CompanyAdmin), after Nodes and Decoders.
var menuItem = web.MenuItem{ID: "gateways", LabelID: "menu.gateways", Href: "/gateways", Icon: "mdi-router-wireless",
	Roles: auth.AdminOrCompanyAdmin, Order: 88}

// Deps is what the pages need.
type Deps struct {
	UI         *ui.Env
	Registry   *registry.Registry
	MapTileURL string
}

// Pages draws the pages.
type Pages struct {
	ui      *ui.Env
	reg     *registry.Registry
	tileURL string
}

// New returns the pages and adds the Gateways entry to the side menu.
func New(host *kernel.Host, deps Deps) *Pages {
	host.Router.AddMenuItem(menuItem)
	return &Pages{ui: deps.UI, reg: deps.Registry, tileURL: deps.MapTileURL}
}

// Routes registers the pages.
func (p *Pages) Routes(r *web.ModuleRoutes) {
	r.Page("GET /gateways", auth.CompanyOrUser, p.listPage)
	r.Page("GET /gateways/create", auth.AdminOrCompanyAdmin, p.createPage)
}

// listProps are the props of the gateway-list island.
type listProps struct {
	CompanyID      int64  `json:"companyId"`
	CanManage      bool   `json:"canManage"`
	TileURL        string `json:"tileUrl"`
	OfflineSeconds int    `json:"offlineSeconds"`
}

// createProps are the props of the gateway-create island.
type createProps struct {
	CompanyID int64  `json:"companyId"`
	TileURL   string `json:"tileUrl"`
	Geocode   bool   `json:"geocode"`
	// EUI fills in the gateway EUI (?eui=, from an unknown gateway).
	EUI string `json:"eui"`
}

func props(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}

// companyOf is the company the viewer works in: their own, or the one a
// SuperAdmin chose in the switcher; 0 for none.
func companyOf(r *http.Request) int64 {
	return web.ViewerFrom(r.Context()).CompanyID
}

func (p *Pages) listPage(w http.ResponseWriter, r *http.Request) error {
	v := web.ViewerFrom(r.Context())
	cid := companyOf(r)
	lp := listProps{CompanyID: cid, CanManage: cid != 0 && v.Caller.CanManageCompany(cid), TileURL: p.tileURL,
		OfflineSeconds: int(p.reg.OfflineAfter().Seconds())}
	return p.ui.Render(w, r, http.StatusOK, "gateways.page.title", listView(cid, lp.CanManage, props(lp)), ui.Options{Islands: true})
}

func (p *Pages) createPage(w http.ResponseWriter, r *http.Request) error {
	cid := companyOf(r)
	cp := createProps{CompanyID: cid, TileURL: p.tileURL, Geocode: p.reg.GeocodeOn(), EUI: r.URL.Query().Get("eui")}
	return p.ui.Render(w, r, http.StatusOK, "gateways.page.create.title", createView(cid, props(cp)), ui.Options{Islands: true})
}
