// Package module builds the news module for the application package.
package module

import (
	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/news"
	"github.com/fieldhub/fieldhub/modules/news/internal/board"
	"github.com/fieldhub/fieldhub/modules/news/internal/feed"
	"github.com/fieldhub/fieldhub/modules/news/internal/httpapi"
	"github.com/fieldhub/fieldhub/modules/news/internal/pages"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Deps is what the news module needs beside the kernel.
type Deps struct {
	// Config is the module's part of the configuration.
	Config news.Config
	// UI draws the pages. Optional: without it only the JSON routes are
	// served.
	UI *ui.Env
}

// New builds the module and adds its menu entry (with the pages). The news
// belongs to the installation, so it needs no other module.
func New(host *kernel.Host, deps Deps) news.Module {
	cache := feed.NewCache(deps.Config.FeedURL, deps.Config.Refresh, feed.Client(), host.Logger("news"))
	b := board.New(host.DB, host.Bus, cache)
	m := &newsModule{api: httpapi.New(b, host.Router, host.Catalogs)}
	if deps.UI != nil {
		m.pages = pages.New(b, deps.UI, host.Catalogs)
		host.Router.AddMenuItem(pages.MenuItem)
	}
	return m
}

type newsModule struct {
	api   *httpapi.API
	pages *pages.Pages
}

// Name names the module.
func (m *newsModule) Name() string { return "news" }

// Routes registers the JSON routes and the pages.
func (m *newsModule) Routes(r *web.ModuleRoutes) {
	m.api.Routes(r)
	if m.pages != nil {
		m.pages.Routes(r)
	}
}
