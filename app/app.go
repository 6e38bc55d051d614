// Package app builds the Fieldhub portal from a configuration: the kernel
// with every module wired in, in dependency order. It is the one place that
// knows all modules; the fieldhub command calls it, and so do the tests that
// need a whole portal. A program that wants only some modules builds them
// itself from their module packages (see examples/embed).
package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"time"
	_ "time/tzdata" // trend buckets in the caller's time zone work without the system's zone files

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/config"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/tsdb/influx"
	"github.com/fieldhub/fieldhub/kernel/tsdb/sqlts"
	"github.com/fieldhub/fieldhub/migrations"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/decoders"
	decodersmodule "github.com/fieldhub/fieldhub/modules/decoders/module"
	"github.com/fieldhub/fieldhub/modules/demo"
	"github.com/fieldhub/fieldhub/modules/events"
	ingestmodule "github.com/fieldhub/fieldhub/modules/ingest/module"
	"github.com/fieldhub/fieldhub/modules/logs"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/settings"
	sitemodule "github.com/fieldhub/fieldhub/modules/site/module"
	"github.com/fieldhub/fieldhub/webapp"
	"github.com/fieldhub/fieldhub/webapp/locales"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// App is the kernel with every module wired in. Build makes it; Serve runs
// it; Close releases the database.
type App struct {
	kernel     *kernel.Kernel
	accounts   accounts.Module
	decoders   decoders.Module
	dashboards dashboards.Module
	series     tsdb.Store
}

// Build opens the kernel on cfg and wires the modules, in dependency order.
func Build(ctx context.Context, cfg *config.Config, log *slog.Logger) (*App, error) {
	k, err := kernel.New(ctx, cfg, log, kernel.Sources{
		Locales:        locales.FS,
		Migrations:     migrations.FS,
		MigrationOrder: migrations.Order,
	})
	if err != nil {
		return nil, err
	}
	a, err := wire(ctx, k, cfg)
	if err != nil {
		k.Close()
		return nil, err
	}
	return a, nil
}

func wire(ctx context.Context, k *kernel.Kernel, cfg *config.Config) (*App, error) {
	host := k.Host()
	assets, err := webapp.Load(cfg.ViteDevURL)
	if err != nil {
		return nil, err
	}
	env := &ui.Env{Assets: assets, Router: host.Router, Catalogs: host.Catalogs,
		Links: ui.Links{APIDocs: "/api", Manual: cfg.ManualURL, Shop: cfg.ShopURL}}
	host.Router.SetPageErrorRenderer(env.ErrorPage)
	k.Mount("GET /assets/", assets.Handler())
	acc := accounts.New(host, accounts.Deps{UI: env})
	k.Add(acc)
	set := settings.New(host, settings.Deps{Accounts: acc, WhiteLabel: func() bool { return cfg.WhiteLabel }, UI: env})
	k.Add(set)
	series, err := openSeries(ctx, cfg, host)
	if err != nil {
		return nil, err
	}
	k.Add(seriesCloser{series}) // added before its users, so it stops after them
	if err := scheduleSeriesJobs(host, cfg, series); err != nil {
		return nil, err
	}
	dec := decodersmodule.New(host, decodersmodule.Deps{Accounts: acc, UI: env})
	k.Add(dec)
	nod := nodes.New(host, nodes.Deps{Accounts: acc, Decoders: dec, UI: env, Series: series})
	k.Add(nod)
	dec.RegisterUsers(nod) // a decoder's nodes: its page, its answer, the refusal to delete it
	dash := dashboards.New(host, dashboards.Deps{Accounts: acc, Nodes: nod, Series: series, Settings: set, UI: env})
	k.Add(dash)
	k.Add(logs.New(host, logs.Deps{Accounts: acc, Series: series})) // before the ingest, so it stops after it
	k.Add(ingestmodule.New(host, ingestmodule.Deps{Nodes: nod, Decoders: dec, TSDB: series, Accounts: acc, UI: env, DecoderPages: dec}))
	k.Add(events.New(host, events.Deps{}))
	k.Add(sitemodule.New(host, sitemodule.Deps{UI: env, Accounts: acc}))
	return &App{kernel: k, accounts: acc, decoders: dec, dashboards: dash, series: series}, nil
}

// scheduleSeriesJobs adds the time-series store's jobs: sealing the hours
// that have ended (SQL store) and the retention (FIELDHUB_TSDB_RETENTION_DAYS).
func scheduleSeriesJobs(host *kernel.Host, cfg *config.Config, series tsdb.Store) error {
	if store, ok := series.(*sqlts.Store); ok {
		seal := func(ctx context.Context) error { return store.SealHours(ctx, time.Now()) }
		if err := host.Scheduler.Every("tsdb", "seal hours", time.Minute, true, seal); err != nil {
			return err
		}
	}
	if days := cfg.TSDBRetentionDays; days > 0 {
		retention := tsdb.Retention{Store: series, Days: days, Log: host.Logger("tsdb")}
		if err := host.Scheduler.Daily("tsdb", "retention", 2, 45, true, retention.Run); err != nil {
			return err
		}
	}
	return nil
}

// openSeries opens the time-series store: InfluxDB when INFLUX_URL is set,
// else the SQL database.
func openSeries(ctx context.Context, cfg *config.Config, host *kernel.Host) (tsdb.Store, error) {
	if cfg.InfluxURL == "" {
		return sqlts.New(host.DB, sqlts.Options{}), nil
	}
	s, err := influx.Open(ctx, cfg.InfluxURL, influx.Options{})
	if err != nil {
		return nil, fmt.Errorf("open InfluxDB (INFLUX_URL): %w", err)
	}
	return s, nil
}

// seriesCloser closes the time-series store when the kernel stops.
type seriesCloser struct{ tsdb.Store }

func (seriesCloser) Name() string                 { return "tsdb" }
func (c seriesCloser) Stop(context.Context) error { return c.Close() }

// Kernel is the kernel the modules run on.
func (a *App) Kernel() *kernel.Kernel { return a.kernel }

// Series is the time-series store the modules share.
func (a *App) Series() tsdb.Store { return a.series }

// Accounts is the accounts module: the first SuperAdmin, the demo company.
func (a *App) Accounts() accounts.Module { return a.accounts }

// Decoders is the decoders module, for tests that decode through it.
func (a *App) Decoders() decoders.Module { return a.decoders }

// CreateSuperAdmin adds a SuperAdmin, or promotes the account of email.
func (a *App) CreateSuperAdmin(ctx context.Context, email, password string) error {
	return a.accounts.CreateSuperAdmin(ctx, email, password)
}

// Close releases the database.
func (a *App) Close() error { return a.kernel.Close() }

// Serve starts the modules and serves HTTP on ln until ctx is done.
func (a *App) Serve(ctx context.Context, ln net.Listener) error { return a.kernel.Serve(ctx, ln) }

// SeedDemo adds the demo company, prints its logins the first time, and
// returns its id; StartDemo then runs the demo's simulator.
func (a *App) SeedDemo(ctx context.Context, stdout io.Writer) (int64, error) {
	id, logins, err := a.accounts.EnsureDemoCompany(ctx)
	if err != nil {
		return 0, err
	}
	if len(logins) == 0 {
		fmt.Fprintln(stdout, "Demo company is in place (its passwords were shown when it was created).")
	} else {
		fmt.Fprintln(stdout, "Demo company created; these passwords are shown only once:")
		for _, l := range logins {
			fmt.Fprintf(stdout, "  %-13s %s  %s\n", l.Role, l.Email, l.Password)
		}
	}
	fmt.Fprintf(stdout, "Demo: %d simulated nodes in the application %q post uplinks every few seconds.\n", len(demo.Nodes()), demo.ApplicationName)
	return id, nil
}

// StartDemo adds the demo module, whose simulator posts uplinks of the
// company SeedDemo made to the portal at baseURL (its own listener). Call it
// before Serve.
func (a *App) StartDemo(company int64, baseURL string) {
	a.kernel.Add(demo.New(a.kernel.Host(), demo.Deps{Accounts: a.accounts, CompanyID: company, BaseURL: baseURL, Dashboards: a.dashboards}))
}
