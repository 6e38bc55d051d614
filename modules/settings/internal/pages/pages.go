// Package pages draws the settings module's server pages, /settings (a
// user's own settings) and /superadmin/settings (the installation's), and
// dresses every page's frame in the viewer's language, theme and the
// installation's brand.
package pages

import (
	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/settings/internal/values"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Pages is the module's pages and the frame's settings.
type Pages struct {
	host   *kernel.Host
	values *values.Service
	ui     *ui.Env
}

// MenuItem is the side menu's entry of /settings.
var MenuItem = web.MenuItem{ID: "settings", LabelID: "menu.settings", Href: "/settings", Icon: "mdi-cog", Roles: auth.CompanyOrUser, Order: 150}

// New returns the pages, which store through v. Without env there are no
// pages; EnrichViewer still dresses the frame of other modules' pages.
func New(host *kernel.Host, v *values.Service, env *ui.Env) *Pages {
	return &Pages{host: host, values: v, ui: env}
}

// Routes registers the pages, none without a ui.Env.
func (p *Pages) Routes(r *web.ModuleRoutes) {
	if p.ui == nil {
		return
	}
	r.Page("GET /settings", auth.CompanyOrUser, p.settingsPage)
	r.Page("POST /settings", auth.CompanyOrUser, p.settingsSubmit)
	r.Page("GET /superadmin/settings", auth.SuperAdminOnly, p.globalPage)
	r.Page("POST /superadmin/settings", auth.SuperAdminOnly, p.globalSubmit)
	r.Page("POST /superadmin/settings/logo", auth.SuperAdminOnly, p.logoUpload, web.MaxBody(web.ImageBodyLimit))
	r.Page("GET /superadmin/settings/logo/delete", auth.SuperAdminOnly, p.logoDeletePage)
	r.Page("POST /superadmin/settings/logo/delete", auth.SuperAdminOnly, p.logoDeleteSubmit)
}
