// Package module builds the signal tests module for the application
// package.
package module

import (
	"context"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/signaltests"
	"github.com/fieldhub/fieldhub/modules/signaltests/internal/collect"
	"github.com/fieldhub/fieldhub/modules/signaltests/internal/httpapi"
	"github.com/fieldhub/fieldhub/modules/signaltests/internal/pages"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Deps is what the signal tests module needs beside the kernel.
type Deps struct {
	// Nodes finds the node a test is started on. Required; the nodes
	// module satisfies it.
	Nodes signaltests.Nodes
	// Gateways names the gateways that heard a point, with their
	// positions. Optional: without it a reception shows the gateway's id.
	// The gateways module satisfies it.
	Gateways signaltests.GatewayNames
	// UI draws the pages. Optional: without it the module serves its API
	// alone, and adds no menu entry.
	UI *ui.Env
	// MapTileURL is the tile address of the test's map, the one the
	// dashboards' map modules use (FIELDHUB_MAP_TILE_URL); "" draws the
	// points on a plain background.
	MapTileURL string
}

// New builds the module and subscribes it to ingest.UplinkReceived: while
// a node has an active test, each of its stored uplinks adds a point. It
// panics when a required dependency is missing, so that a wiring mistake
// stops the program at start.
func New(host *kernel.Host, deps Deps) signaltests.Module {
	if deps.Nodes == nil {
		panic("signaltests module: Deps.Nodes is required")
	}
	m := &module{collector: collect.New(host.DB, host.Bus, host.Logger("signaltests")), api: httpapi.New(host.DB, host.Bus, deps.Nodes, deps.Gateways)}
	if deps.UI != nil {
		m.pages = pages.New(host, deps.UI, deps.MapTileURL)
		if tiles := web.TemplateSource(deps.MapTileURL); tiles != "" {
			host.Router.AllowSources("img-src", tiles)
		}
	}
	return m
}

// module is the signal tests module: the collector of points, its API
// and its pages. Added before the ingest, it stops after it, so that the
// points of the last uplinks are still written.
type module struct {
	collector *collect.Collector
	api       *httpapi.API
	pages     *pages.Pages
}

func (m *module) Start(ctx context.Context) error { return m.collector.Start(ctx) }
func (m *module) Stop(ctx context.Context) error  { return m.collector.Stop(ctx) }

func (m *module) Name() string { return "signaltests" }

func (m *module) Routes(r *web.ModuleRoutes) {
	m.api.Routes(r)
	if m.pages != nil {
		m.pages.Routes(r)
	}
}
