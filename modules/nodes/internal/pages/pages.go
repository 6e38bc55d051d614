// Package pages draws the server pages of the nodes module: applications
// (/application, /company/applications), nodes (/tag, /tag/create, the
// bulk import /tag/import with its export, and the node details page
// /tagdetails/{deveui}), the node pool (/tag/pool) and
// integration tokens (/company/tokens). They act on the viewer's company
// (the caller's own, or the one a SuperAdmin chose) and reach the data
// through the registry, as the JSON routes do, so that the rules are the
// API's. Other modules add sections to the node details page
// (nodes.PageSection) and to the application page
// (nodes.ApplicationSection), sections.go.
package pages

import (
	"fmt"
	"log/slog"
	"net/http"
	"sync"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/access"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/bulk"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Pages holds the page handlers.
type Pages struct {
	host     *kernel.Host
	log      *slog.Logger
	ui       *ui.Env
	reg      *registry.Registry
	decoders nodes.Decoders
	// series reads the stored values the node details page shows; nil
	// leaves the page with the latest reported values only.
	series nodes.Series
	// bulk imports and exports the company's nodes as a file (/tag/import).
	bulk *bulk.Service
	// models are the imported device models the create form offers; nil
	// offers none.
	models nodes.DeviceModels

	mu          sync.RWMutex
	sections    []nodes.PageSection        // of other modules, on the node details page
	appSections []nodes.ApplicationSection // of other modules, on the application page
}

// New builds the pages and adds the module's side menu entries; series may
// be nil.
func New(host *kernel.Host, env *ui.Env, reg *registry.Registry, decoders nodes.Decoders, series nodes.Series, imports *bulk.Service) *Pages {
	for _, item := range menuItems {
		host.Router.AddMenuItem(item)
	}
	return &Pages{host: host, log: host.Logger("nodes"), ui: env, reg: reg, decoders: decoders, series: series, bulk: imports}
}

// menuItems are this module's side menu entries.
var menuItems = []web.MenuItem{
	{ID: "application", LabelID: "menu.application", Href: "/application", Icon: "mdi-apps", Roles: auth.AdminOrCompanyAdmin, Order: 70},
	{ID: "tag", LabelID: "menu.tag", Href: "/tag", Icon: "mdi-access-point", Roles: auth.AdminOrCompanyAdmin, Order: 80},
	{ID: "tagPool", LabelID: "menu.tagPool", Href: "/tag/pool", Icon: "mdi-tray-full", Roles: auth.SuperAdminOnly, Order: 130},
}

// Routes registers the pages: a list is open to the company's Users, what
// changes nodes to its CompanyAdmins (and Admins), the node pool to
// SuperAdmins; the steps under a page (its forms, confirmations) share its
// access.
func (pg *Pages) Routes(r *web.ModuleRoutes) {
	r.Page("GET /application", auth.CompanyOrUser, pg.applicationsPage)
	r.Page("GET /company/applications", auth.CompanyOrUser, pg.companyApplicationsPage)
	r.Page("GET /application/create", auth.AdminOrCompanyAdmin, pg.applicationCreatePage)
	r.Page("POST /application/create", auth.AdminOrCompanyAdmin, pg.applicationCreateSubmit)
	r.Page("GET /application/{applicationId}", auth.AdminOrCompanyAdmin, pg.applicationPage)
	r.Page("POST /application/{applicationId}", auth.AdminOrCompanyAdmin, pg.applicationSubmit)
	r.Page("GET /application/{applicationId}/delete", auth.AdminOrCompanyAdmin, pg.applicationDeletePage)
	r.Page("POST /application/{applicationId}/delete", auth.AdminOrCompanyAdmin, pg.applicationDeleteSubmit)

	r.Page("GET /tag", auth.CompanyOrUser, pg.tagsPage)
	r.Page("GET /tag/create", auth.AdminOrCompanyAdmin, pg.tagCreatePage)
	r.Page("GET /tag/create/{deveui}", auth.AdminOrCompanyAdmin, pg.tagCreatePage)
	r.Page("POST /tag/create", auth.AdminOrCompanyAdmin, pg.tagCreateSubmit)
	r.Page("POST /tag/create/{deveui}", auth.AdminOrCompanyAdmin, pg.tagCreateSubmit)
	r.Page("GET /tag/import", auth.AdminOrCompanyAdmin, pg.importPage)
	r.Page("POST /tag/import", auth.AdminOrCompanyAdmin, pg.importSubmit, web.MaxBody(bulk.BodyLimit))
	r.Page("GET /tag/export", auth.AdminOrCompanyAdmin, pg.exportFile)

	r.Page("GET /tagdetails/{deveui}", auth.AdminOrCompanyAdmin, pg.tagDetailsPage)
	r.Page("POST /tagdetails/{deveui}", auth.AdminOrCompanyAdmin, pg.tagEditSubmit)
	r.Page("POST /tagdetails/{deveui}/image", auth.AdminOrCompanyAdmin, pg.tagImageUpload, web.MaxBody(web.ImageBodyLimit))
	r.Page("GET /tagdetails/{deveui}/image/delete", auth.AdminOrCompanyAdmin, pg.tagImageDeletePage)
	r.Page("POST /tagdetails/{deveui}/image/delete", auth.AdminOrCompanyAdmin, pg.tagImageDeleteSubmit)
	r.Page("POST /tagdetails/{deveui}/keys", auth.AdminOrCompanyAdmin, pg.keySubmit)
	r.Page("POST /tagdetails/{deveui}/keys/default", auth.AdminOrCompanyAdmin, pg.keyDefaultSubmit)
	r.Page("GET /tagdetails/{deveui}/data.csv", auth.AdminOrCompanyAdmin, pg.exportCSV)
	r.Page("GET /tagdetails/{deveui}/delete", auth.AdminOrCompanyAdmin, pg.tagDeletePage)
	r.Page("POST /tagdetails/{deveui}/delete", auth.AdminOrCompanyAdmin, pg.tagDeleteSubmit)
	r.Page("POST /tagdetails/{deveui}/move", auth.SuperAdminOnly, pg.tagMoveSubmit)

	r.Page("GET /tag/pool", auth.SuperAdminOnly, pg.poolPage)
	r.Page("POST /tag/pool/{poolId}", auth.SuperAdminOnly, pg.poolSubmit)

	r.Page("GET /company/tokens", auth.AdminOrCompanyAdmin, pg.tokensPage)
	r.Page("POST /company/tokens", auth.AdminOrCompanyAdmin, pg.tokenCreateSubmit)
	r.Page("GET /company/tokens/{tokenId}/delete", auth.AdminOrCompanyAdmin, pg.tokenDeletePage)
	r.Page("POST /company/tokens/{tokenId}/delete", auth.AdminOrCompanyAdmin, pg.tokenDeleteSubmit)
}

// t translates id in the language of the page being answered.
func (pg *Pages) t(r *http.Request, id string, pairs ...any) string {
	args := map[string]any{}
	for i := 0; i+1 < len(pairs); i += 2 {
		args[fmt.Sprint(pairs[i])] = pairs[i+1]
	}
	return pg.host.Catalogs.T(web.ViewerFrom(r.Context()).Lang, id, args)
}

// viewedCompany is the company the pages show: the caller's own, or the one
// a SuperAdmin chose; 0 when the viewer has none, for the empty state.
func viewedCompany(r *http.Request) int64 { return web.ViewerFrom(r.Context()).CompanyID }

// managedCompany is the viewed company when the caller may change its
// nodes; without one the answer is "You must register a company first to
// create applications".
func managedCompany(r *http.Request) (int64, error) {
	id := viewedCompany(r)
	if id == 0 {
		return 0, errs.New(errs.Invalid, nodes.IDAppNoCompany)
	}
	return id, access.Scoped(r.Context(), id, true)
}
