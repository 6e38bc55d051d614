// Package module builds the gateways module for the application package.
package module

import (
	"context"
	"time"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/gateways"
	"github.com/fieldhub/fieldhub/modules/gateways/internal/geocode"
	"github.com/fieldhub/fieldhub/modules/gateways/internal/httpapi"
	"github.com/fieldhub/fieldhub/modules/gateways/internal/pages"
	"github.com/fieldhub/fieldhub/modules/gateways/internal/registry"
	"github.com/fieldhub/fieldhub/modules/gateways/internal/stats"
	"github.com/fieldhub/fieldhub/modules/gateways/internal/store"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Deps is what the gateways module needs beside the kernel. Accounts and
// Applications are required.
type Deps struct {
	Config gateways.Config
	// Accounts tells whether a company exists; the accounts module
	// satisfies it.
	Accounts gateways.Accounts
	// Applications finds the application a gateway is registered under;
	// the nodes module satisfies it.
	Applications gateways.Applications
	// UI draws the pages; without it the module serves only its API.
	UI *ui.Env
	// MapTileURL is the tile address of the maps (FIELDHUB_MAP_TILE_URL,
	// the dashboards module's option).
	MapTileURL string
}

// New builds the module and subscribes it to ingest.UplinkReceived. It
// panics when a dependency is missing.
func New(host *kernel.Host, deps Deps) gateways.Module {
	if deps.Accounts == nil || deps.Applications == nil {
		panic("gateways module: Deps.Accounts and Deps.Applications are required")
	}
	offline := deps.Config.OfflineAfter
	if offline <= 0 {
		offline = 10 * time.Minute
	}
	agg := stats.New(host.DB, host.Logger("gateways"))
	reg := registry.New(host, deps.Accounts, deps.Applications, agg, geocode.New(deps.Config.GeocodeURL), offline)
	m := &module{host: host, agg: agg, api: httpapi.New(reg, host.Router)}
	if deps.UI != nil {
		m.pages = pages.New(host, pages.Deps{UI: deps.UI, Registry: reg, MapTileURL: deps.MapTileURL})
		if tiles := web.TemplateSource(deps.MapTileURL); tiles != "" {
			host.Router.AllowSources("img-src", tiles)
		}
	}
	host.Bus.Subscribe(ingest.UplinkReceived{}.Topic(), func(_ context.Context, e events.Event) {
		if u, ok := e.(ingest.UplinkReceived); ok {
			agg.Observe(u)
		}
	})
	return m
}

// module is the gateways module: the aggregation of the uplinks'
// receptions, its flushing loop and the routes and pages.
type module struct {
	host  *kernel.Host
	agg   *stats.Aggregator
	api   *httpapi.API
	pages *pages.Pages
	stop  context.CancelFunc
	done  chan struct{}
}

func (m *module) Name() string { return "gateways" }

func (m *module) Routes(r *web.ModuleRoutes) {
	m.api.Routes(r)
	if m.pages != nil {
		m.pages.Routes(r)
	}
}

func (m *module) Registered(ctx context.Context, companyID int64) ([]*gateways.Gateway, error) {
	return store.CompanyGateways(ctx, m.host.DB, companyID)
}

// Start runs the flushing loop and schedules the daily pruning of old
// statistics.
func (m *module) Start(ctx context.Context) error {
	prune := func(ctx context.Context) error { return store.Prune(ctx, m.host.DB, time.Now()) }
	if err := m.host.Scheduler.Daily("gateways", "prune statistics", 3, 20, true, prune); err != nil {
		return err
	}
	lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	m.stop, m.done = cancel, make(chan struct{})
	go m.agg.Run(lctx, m.done)
	return nil
}

// Stop adds what was counted since the last flush and ends the loop.
func (m *module) Stop(ctx context.Context) error {
	if m.stop == nil {
		return nil
	}
	m.stop()
	select {
	case <-m.done:
	case <-ctx.Done():
	}
	return nil
}
