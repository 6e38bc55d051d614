// Package module builds the profiles module for the application package.
package module

import (
	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/profiles"
	"github.com/fieldhub/fieldhub/modules/profiles/internal/httpapi"
	"github.com/fieldhub/fieldhub/modules/profiles/internal/pages"
	"github.com/fieldhub/fieldhub/modules/profiles/internal/registry"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Deps is what the profiles module needs beside the kernel. Accounts,
// Nodes and Decoders are required.
type Deps struct {
	// Accounts tells whether a company exists; the accounts module
	// satisfies it.
	Accounts profiles.Accounts
	// Nodes sets nodes up as their profiles describe; the nodes module
	// satisfies it.
	Nodes profiles.Nodes
	// Decoders checks a profile's decoder and finds the device models;
	// the decoders module satisfies it.
	Decoders profiles.Decoders
	// Alarms, optional, makes the rules of the alarm templates; the
	// alarms module satisfies it. Without it the templates make nothing.
	Alarms profiles.Alarms
	// Dashboards, optional, makes the nodes' dashboards of the dashboard
	// templates; the dashboards module satisfies it.
	Dashboards profiles.Dashboards
	// UI draws the pages; without it the module serves only its API.
	UI *ui.Env
}

// New builds the module and adds its menu entry (with the pages). The
// application then registers it with the nodes (nodes.Module.UseProfiles).
// It panics when a required dependency is missing.
func New(host *kernel.Host, deps Deps) profiles.Module {
	if deps.Accounts == nil || deps.Nodes == nil || deps.Decoders == nil {
		panic("profiles module: Deps.Accounts, Deps.Nodes and Deps.Decoders are required")
	}
	reg := registry.New(host, registry.Deps{Accounts: deps.Accounts, Nodes: deps.Nodes, Decoders: deps.Decoders,
		Alarms: deps.Alarms, Dashboards: deps.Dashboards})
	m := &module{Registry: reg, api: httpapi.New(reg)}
	if deps.UI != nil {
		m.pages = pages.New(reg, deps.UI)
		host.Router.AddMenuItem(pages.MenuItem)
	}
	return m
}

// module is the profiles module: the registry answers the nodes module's
// questions, and the routes and pages are served.
type module struct {
	*registry.Registry
	api   *httpapi.API
	pages *pages.Pages // nil without a UI
}

// Name names the module.
func (*module) Name() string { return "profiles" }

// Routes registers the JSON routes and the pages.
func (m *module) Routes(r *web.ModuleRoutes) {
	m.api.Routes(r)
	if m.pages != nil {
		m.pages.Routes(r)
	}
}
