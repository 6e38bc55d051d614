// Package pages implements the site module: the home landing, the contact
// form and the API documentation page, with their routes.
package pages

import (
	"log/slog"
	"sync"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/apidoc"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/site"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Module is the site module.
type Module struct {
	host     *kernel.Host
	log      *slog.Logger
	ui       *ui.Env
	accounts site.Accounts
	docOnce  sync.Once
	doc      *apidoc.Document
}

// menuItems are this module's side menu entries: Home for everyone,
// Contact for signed-in users unless the installation is white-labelled.
var menuItems = []web.MenuItem{
	{ID: "home", LabelID: "menu.home", Href: "/", Icon: "mdi-home", Guest: true, Order: 10},
	{ID: "contact", LabelID: "menu.contact", Href: "/contact", Icon: "mdi-email-outline", Roles: auth.CompanyOrUser, Order: 160, HiddenInWhiteLabel: true},
}

// New builds the module and adds its menu entries.
func New(host *kernel.Host, env *ui.Env, acc site.Accounts) *Module {
	m := &Module{host: host, log: host.Logger("site"), ui: env, accounts: acc}
	for _, item := range menuItems {
		host.Router.AddMenuItem(item)
	}
	return m
}

// Name names the module.
func (m *Module) Name() string { return "site" }

// Routes registers the module's pages. "/{$}" is the root alone: "/" would
// catch every path no other route takes, which must stay a 404.
func (m *Module) Routes(r *web.ModuleRoutes) {
	r.Page("GET /{$}", auth.Open, m.homePage)
	r.Page("GET /contact", auth.Open, m.contactPage)
	r.Page("POST /contact", auth.Open, m.contactSubmit)
	// The page sits at the API's base address, beside (not under) /api/, so
	// that it never shadows an endpoint.
	r.Page("GET /api", auth.Open, m.apiPage)
	r.API("GET /openapi.json", auth.Open, m.openAPI)
	r.Describe(docs)
}
