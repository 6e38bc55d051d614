// Package module builds the settings module for the application package.
package module

import (
	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/settings"
	"github.com/fieldhub/fieldhub/modules/settings/internal/httpapi"
	"github.com/fieldhub/fieldhub/modules/settings/internal/pages"
	"github.com/fieldhub/fieldhub/modules/settings/internal/values"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Deps is what the settings module needs beside the kernel.
type Deps struct {
	// WhiteLabel reports whether the license allows white-label branding;
	// only then may the branding, powered_by and brand_icon global settings
	// change, and only then does the frame show the branding. Required.
	WhiteLabel func() bool
	// Accounts answers which company a caller belongs to (its country picks
	// the default language) and whether a user or company still exists.
	// Required; the accounts module satisfies it.
	Accounts settings.Accounts
	// UI draws the /settings and /superadmin/settings pages. Optional:
	// without it the module serves its API alone, and still draws every
	// other page in the viewer's language and theme.
	UI *ui.Env
}

// New builds the module and hooks it into the page frame: every page is
// drawn in the viewer's language and theme. It panics when a required
// dependency is missing, so that a wiring mistake stops the program at
// start.
func New(host *kernel.Host, deps Deps) settings.Module {
	if deps.WhiteLabel == nil || deps.Accounts == nil {
		panic("settings module: Deps.WhiteLabel and Deps.Accounts are required")
	}
	v := values.New(host, deps.Accounts, deps.WhiteLabel)
	p := pages.New(host, v, deps.UI)
	host.Router.AddViewerEnricher(p.EnrichViewer)
	if deps.UI != nil {
		host.Router.AddMenuItem(pages.MenuItem)
	}
	return &settingsModule{Service: v, api: httpapi.New(host, v, deps.Accounts), pages: p}
}

// settingsModule is the module: its JSON routes, its pages, and the
// settings other modules read.
type settingsModule struct {
	*values.Service
	api   *httpapi.API
	pages *pages.Pages
}

// Name names the module.
func (m *settingsModule) Name() string { return "settings" }

// Routes registers the JSON routes, then the pages.
func (m *settingsModule) Routes(r *web.ModuleRoutes) {
	m.api.Routes(r)
	m.pages.Routes(r)
}
