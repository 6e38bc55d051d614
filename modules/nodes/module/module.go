// Package module builds the nodes module for the application package.
package module

import (
	"net/http"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/bulk"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/httpapi"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/pages"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/tagdata"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Deps is what the nodes module needs beside the kernel.
type Deps struct {
	// Accounts tells whether a company exists. Required; the accounts
	// module satisfies it.
	Accounts nodes.Accounts
	// Decoders validates the decoder key of a tag and lists the decoders.
	// Required; the decoders module satisfies it.
	Decoders nodes.Decoders
	// UI draws the pages of applications, nodes, the node pool and
	// integration tokens. Optional: without it the module serves its API
	// alone, and the sections other modules register (nodes.Pages) are
	// never drawn.
	UI *ui.Env
	// Series reads the stored values a node's details page shows, serves
	// the tag data API, and takes a node's data along when a SuperAdmin
	// moves it to another company. Optional: without it the page shows the
	// latest reported values only, the tag data routes are not served,
	// dataPoints24h stays 0 and a node moves without data.
	Series nodes.Series
	// Models, optional with UI, lists the imported device models that the
	// node create form offers; the decoders module satisfies it.
	Models nodes.DeviceModels
}

// New builds the module. It panics when a required dependency is missing,
// so that a wiring mistake stops the program at start.
func New(host *kernel.Host, deps Deps) nodes.Module {
	if deps.Accounts == nil || deps.Decoders == nil {
		panic("nodes module: Deps.Accounts and Deps.Decoders are required")
	}
	reg := registry.New(host, deps.Decoders, deps.Accounts, deps.Series)
	imports := bulk.New(reg, deps.Decoders)
	m := &module{Registry: reg, bulk: imports, api: httpapi.New(reg, deps.Accounts, deps.Series, imports, host.Router, host.Catalogs)}
	if deps.Series != nil {
		m.data = tagdata.New(host.DB, reg, deps.Accounts, deps.Series)
	}
	if deps.UI != nil {
		m.pages = pages.New(host, deps.UI, reg, deps.Decoders, deps.Series, imports)
		m.pages.UseModels(deps.Models)
	}
	return m
}

// module is the nodes module: the registry answers the roles of the
// contract, and the JSON routes, the tag data routes and the pages are
// served when their dependencies are there.
type module struct {
	*registry.Registry
	bulk  *bulk.Service
	api   *httpapi.API
	data  *tagdata.API // nil without a time series
	pages *pages.Pages // nil without a UI
}

// Name names the module.
func (*module) Name() string { return "nodes" }

// Routes registers the JSON routes, then the tag data routes and the pages
// when they are served.
func (m *module) Routes(r *web.ModuleRoutes) {
	m.api.Routes(r)
	if m.data != nil {
		m.data.Routes(r)
	}
	if m.pages != nil {
		m.pages.Routes(r)
	}
}

// UseProfiles gives the node creation (the registry) and the bulk import
// and export the device profiles; see nodes.Module.
func (m *module) UseProfiles(p nodes.Profiles) {
	m.Registry.UseProfiles(p)
	m.bulk.UseProfiles(p)
}

// RegisterPageSection adds s to the node details pages, if there are any.
func (m *module) RegisterPageSection(s nodes.PageSection) {
	if m.pages != nil {
		m.pages.RegisterPageSection(s)
	}
}

// RegisterApplicationSection adds s to the application pages, if there are
// any.
func (m *module) RegisterApplicationSection(s nodes.ApplicationSection) {
	if m.pages != nil {
		m.pages.RegisterApplicationSection(s)
	}
}

// PageTag is the node a page's path names; see nodes.Pages. Without the UI
// there are no pages: it is not found.
func (m *module) PageTag(r *http.Request) (*nodes.Tag, error) {
	if m.pages == nil {
		return nil, errs.New(errs.NotFound, errs.IDNotFound)
	}
	return m.pages.PageTag(r)
}

// TagPage draws a node's details page around a section; see nodes.Pages.
func (m *module) TagPage(r *http.Request, t *nodes.Tag, s nodes.PageSection) (func(templ.Component) templ.Component, error) {
	if m.pages == nil {
		return nil, errs.New(errs.NotFound, errs.IDNotFound)
	}
	return m.pages.TagPage(r, t, s)
}
