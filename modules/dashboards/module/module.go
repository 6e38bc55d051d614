// Package module builds the dashboards module for the application package.
package module

import (
	"context"
	"net/http"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/access"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/alarmstate"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/httpapi"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/pages"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/scriptsource"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/seed"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/validate"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/weather"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/widgetdata"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Deps is what the dashboards module needs beside the kernel.
type Deps struct {
	// Config is the module's part of the configuration: the forecast
	// services and the map tiles.
	Config dashboards.Config
	// Accounts tells a company's facts. Required; the accounts module
	// satisfies it.
	Accounts dashboards.Accounts
	// Nodes finds a node by DevEUI, lists a company's nodes and tells a
	// node's keys (labels, units, the default key). Required; the nodes
	// module satisfies it.
	Nodes dashboards.Nodes
	// Series reads the stored tag data. Required; the application's
	// tsdb.Store satisfies it.
	Series dashboards.Series
	// Settings reads the global powered_by setting for the chooser's
	// footer. Optional: without it the footer shows the company's name.
	// The settings module satisfies it.
	Settings dashboards.GlobalSettings
	// UI draws the pages. Optional: without it the module serves its API
	// alone, and adds no menu entry.
	UI *ui.Env
	// HTTP fetches weather forecasts. Optional: without it a client with a
	// 10 s timeout. The services' addresses are the options
	// FIELDHUB_WEATHER_SMHI_URL and FIELDHUB_WEATHER_METNO_URL.
	HTTP *http.Client
}

// New builds the module. It panics when a required dependency is missing,
// so that a wiring mistake stops the program at start.
func New(host *kernel.Host, deps Deps) dashboards.Module {
	if deps.Accounts == nil || deps.Nodes == nil || deps.Series == nil {
		panic("dashboards module: Deps.Accounts, Deps.Nodes and Deps.Series are required")
	}
	guard := access.New(host.DB, deps.Accounts)
	alarms := &alarmstate.Source{}
	scripts := &scriptsource.Source{}
	check := validate.New(host.DB, deps.Nodes).WithAlarms(alarms).WithScripts(scripts)
	m := &dashboardsModule{
		alarms:  alarms,
		scripts: scripts,
		api: httpapi.New(host, httpapi.Deps{Guard: guard, Check: check, Alarms: alarms, Scripts: scripts,
			Data:    widgetdata.New(deps.Accounts, deps.Nodes, deps.Series),
			Weather: weather.New(deps.Config, host.Config.PublicURL, host.Config.ContactEmail, deps.HTTP, host.Logger("dashboards"))}),
		seeder: seed.New(host.DB, deps.Accounts, check),
	}
	if deps.UI != nil {
		m.pages = pages.New(host, pages.Deps{MapTileURL: deps.Config.MapTileURL, UI: deps.UI, Guard: guard, Accounts: deps.Accounts, Settings: deps.Settings})
		// The pages' Content-Security-Policy: map modules load their tiles
		// from the tile server, and web page modules frame any page.
		if tiles := web.TemplateSource(deps.Config.MapTileURL); tiles != "" {
			host.Router.AllowSources("img-src", tiles)
		}
		host.Router.AllowSources("frame-src", "https:", "http:")
	}
	return m
}

// dashboardsModule is the dashboards module: its API, its pages (when it
// has a UI) and the seed other modules call.
type dashboardsModule struct {
	api     *httpapi.API
	pages   *pages.Pages
	seeder  *seed.Seeder
	alarms  *alarmstate.Source
	scripts *scriptsource.Source
}

func (m *dashboardsModule) UseAlarmStates(s dashboards.AlarmStates) { m.alarms.Set(s) }

func (m *dashboardsModule) UseScripts(s dashboards.Scripts) { m.scripts.Set(s) }

func (m *dashboardsModule) Name() string { return "dashboards" }

func (m *dashboardsModule) Routes(r *web.ModuleRoutes) {
	m.api.Routes(r)
	if m.pages != nil {
		m.pages.Routes(r)
	}
}

func (m *dashboardsModule) SeedNode(ctx context.Context, idb bun.IDB, s dashboards.SeedDashboard, deveui string) (int64, bool, error) {
	return m.seeder.SeedNode(ctx, idb, s, deveui)
}

func (m *dashboardsModule) Seed(ctx context.Context, s dashboards.SeedDashboard) (int64, bool, error) {
	return m.seeder.Seed(ctx, s)
}
