// Package module builds the decoders module for the application package.
package module

import (
	"context"
	"net/http"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/decoding"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/httpapi"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/pages"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Deps is what the decoders module needs from the rest of the portal. All
// are optional, so that a program or a test can build it bare: without
// them the module decodes and lists decoders, and the parts that need them
// are left out as each field says. The modules that use decoders register
// with the module once built (decoders.Registry, decoders.Pages) rather
// than being given here.
type Deps struct {
	// Accounts checks that a company exists before a decoder is made for
	// it and names the author of a version; without it neither is done.
	// The accounts module satisfies it.
	Accounts decoders.Accounts
	// UI draws the decoder pages; without it there are none (and no
	// sections of other modules).
	UI *ui.Env
	// Limits are the limits of a company that has none of its own; zero
	// fields take the sandbox's defaults (50 ms, 16 MiB).
	Limits sandbox.Limits
	// Config is the module's part of the configuration: each company's
	// decode budget and the switch-off of a decoder that keeps breaking
	// its limits. Its zero value takes the defaults, but never switches a
	// decoder off: read it with its Section for the documented defaults.
	Config decoders.Config
}

// New builds the module on the built-in codecs of decoders.CatalogFS.
func New(host *kernel.Host, deps Deps) decoders.Module {
	svc := decoding.New(host, decoders.CatalogFS(), deps.Accounts, deps.Limits, deps.Config)
	m := &module{Service: svc, api: httpapi.New(svc)}
	if deps.UI != nil {
		m.pages = pages.New(host, deps.UI, svc)
	}
	return m
}

// module ties the service, the JSON routes and the pages together as the
// kernel and the other modules see them.
type module struct {
	*decoding.Service
	api   *httpapi.API
	pages *pages.Pages // nil without the UI
}

// Name names the module.
func (m *module) Name() string { return "decoders" }

// Routes registers the module's API and pages.
func (m *module) Routes(r *web.ModuleRoutes) {
	m.api.Routes(r)
	if m.pages != nil {
		m.pages.Routes(r)
	}
}

// Start starts the sandbox.
func (m *module) Start(ctx context.Context) error { return m.Service.Start(ctx) }

// Stop closes the sandbox.
func (m *module) Stop(ctx context.Context) error { return m.Service.Stop(ctx) }

// RegisterPageSection adds s to the decoder pages, if there are any.
func (m *module) RegisterPageSection(s decoders.PageSection) {
	if m.pages != nil {
		m.pages.RegisterPageSection(s)
	}
}

// DecoderPage draws a decoder's page around a section; see decoders.Pages.
func (m *module) DecoderPage(r *http.Request, d *decoders.Decoder, s decoders.PageSection) (func(templ.Component) templ.Component, error) {
	if m.pages == nil {
		return nil, errs.New(errs.NotFound, errs.IDNotFound)
	}
	return m.pages.DecoderPage(r, d, s)
}
