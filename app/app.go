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
	_ "time/tzdata" // times in each company's time zone, and its trend buckets, work without the system's zone files

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/config"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/tsdb/influx"
	"github.com/fieldhub/fieldhub/kernel/tsdb/sqlts"
	"github.com/fieldhub/fieldhub/migrations"
	"github.com/fieldhub/fieldhub/modules/accounts"
	accountsmodule "github.com/fieldhub/fieldhub/modules/accounts/module"
	"github.com/fieldhub/fieldhub/modules/alarms"
	alarmsmodule "github.com/fieldhub/fieldhub/modules/alarms/module"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	dashboardsmodule "github.com/fieldhub/fieldhub/modules/dashboards/module"
	"github.com/fieldhub/fieldhub/modules/decoders"
	decodersmodule "github.com/fieldhub/fieldhub/modules/decoders/module"
	"github.com/fieldhub/fieldhub/modules/demo"
	demomodule "github.com/fieldhub/fieldhub/modules/demo/module"
	"github.com/fieldhub/fieldhub/modules/events"
	eventsmodule "github.com/fieldhub/fieldhub/modules/events/module"
	forwardingmodule "github.com/fieldhub/fieldhub/modules/forwarding/module"
	"github.com/fieldhub/fieldhub/modules/gateways"
	gatewaysmodule "github.com/fieldhub/fieldhub/modules/gateways/module"
	ingestmodule "github.com/fieldhub/fieldhub/modules/ingest/module"
	licensemodule "github.com/fieldhub/fieldhub/modules/license/module"
	"github.com/fieldhub/fieldhub/modules/logs"
	logsmodule "github.com/fieldhub/fieldhub/modules/logs/module"
	"github.com/fieldhub/fieldhub/modules/netservers"
	netserversmodule "github.com/fieldhub/fieldhub/modules/netservers/module"
	"github.com/fieldhub/fieldhub/modules/news"
	newsmodule "github.com/fieldhub/fieldhub/modules/news/module"
	"github.com/fieldhub/fieldhub/modules/nodes"
	nodesmodule "github.com/fieldhub/fieldhub/modules/nodes/module"
	"github.com/fieldhub/fieldhub/modules/notifications"
	notificationsmodule "github.com/fieldhub/fieldhub/modules/notifications/module"
	partnerapimodule "github.com/fieldhub/fieldhub/modules/partnerapi/module"
	profilesmodule "github.com/fieldhub/fieldhub/modules/profiles/module"
	"github.com/fieldhub/fieldhub/modules/reports"
	reportsmodule "github.com/fieldhub/fieldhub/modules/reports/module"
	scriptsmodule "github.com/fieldhub/fieldhub/modules/scripts/module"
	"github.com/fieldhub/fieldhub/modules/settings"
	settingsmodule "github.com/fieldhub/fieldhub/modules/settings/module"
	signaltestsmodule "github.com/fieldhub/fieldhub/modules/signaltests/module"
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
	settings   settings.Service
	logs       logs.Service
	nodes      nodes.Module
	netservers netservers.Module
	alarms     alarms.Module
	reports    reports.Module
	series     tsdb.Store
	notify     notifications.Module
}

// moduleConfig holds the parts of the configuration that modules (and the
// web shell) declare for themselves.
type moduleConfig struct {
	webapp     webapp.Config
	accounts   accounts.Config
	dashboards dashboards.Config
	logs       logs.Config
	netservers netservers.Config
	events     events.Config
	decoders   decoders.Config
	gateways   gateways.Config
	news       news.Config
	alarms     alarms.Config
}

// sections are the modules' options, read into m.
func (m *moduleConfig) sections() []config.Section {
	return []config.Section{m.webapp.Section(), m.accounts.Section(), m.dashboards.Section(), m.logs.Section(), m.netservers.Section(),
		m.events.Section(), m.decoders.Section(), m.gateways.Section(), m.news.Section(), m.alarms.Section()}
}

// ConfigSections are the options the modules declare, beside the kernel's:
// config.Load takes them to know every option's name, and config.Help to
// list them.
func ConfigSections() []config.Section { return new(moduleConfig).sections() }

// LoadConfig reads the kernel's configuration and learns the modules'
// option names; Build reads the modules' values.
func LoadConfig(getenv func(string) string, environ []string, overrides map[string]string) (*config.Config, error) {
	return config.Load(getenv, environ, overrides, ConfigSections()...)
}

// Build reads the modules' options from cfg, then opens the kernel on cfg
// and wires the modules, in dependency order. A bad option stops it before
// the database is touched.
func Build(ctx context.Context, cfg *config.Config, log *slog.Logger) (*App, error) {
	return Options{}.Build(ctx, cfg, log)
}

// Options change what Build makes; the zero value builds the portal as the
// fieldhub command runs it.
type Options struct {
	// WrapSeries, when set, wraps the time-series store the modules write
	// and read through, for example to watch or refuse writes in a test.
	// The store's own jobs (sealing, retention) run on the store itself.
	WrapSeries func(tsdb.Store) tsdb.Store
}

// Build is the package's Build with these options.
func (o Options) Build(ctx context.Context, cfg *config.Config, log *slog.Logger) (*App, error) {
	var mc moduleConfig
	if err := cfg.Apply(mc.sections()...); err != nil {
		return nil, err
	}
	k, err := kernel.New(ctx, cfg, log, kernel.Sources{
		Locales:        locales.FS,
		Migrations:     migrations.FS,
		MigrationOrder: migrations.Order,
	})
	if err != nil {
		return nil, err
	}
	a, err := o.wire(ctx, k, cfg, &mc)
	if err != nil {
		k.Close()
		return nil, err
	}
	return a, nil
}

func (o Options) wire(ctx context.Context, k *kernel.Kernel, cfg *config.Config, mc *moduleConfig) (*App, error) {
	host := k.Host()
	assets, err := webapp.Load(mc.webapp.ViteDevURL)
	if err != nil {
		return nil, err
	}
	env := &ui.Env{Assets: assets, Router: host.Router, Catalogs: host.Catalogs,
		Links: ui.Links{APIDocs: "/api", Manual: mc.webapp.ManualURL, Shop: mc.webapp.ShopURL}}
	host.Router.SetPageErrorRenderer(env.ErrorPage)
	assets.AllowIn(host.Router) // the Vite dev server, in development
	k.Mount("GET /assets/", assets.Handler())
	acc := accountsmodule.New(host, accountsmodule.Deps{Config: mc.accounts, UI: env, Companies: host.License})
	k.Add(acc)
	k.Add(licensemodule.New(host, licensemodule.Deps{SuperAdminPage: acc, Companies: acc}))
	set := settingsmodule.New(host, settingsmodule.Deps{Accounts: acc, WhiteLabel: func() bool { return host.License.WhiteLabel }, UI: env})
	k.Add(set)
	host.SMSPlugins.SetResolver(smsResolver(set)) // the SMS provider and its credentials come from the settings
	series, err := OpenSeries(ctx, k, cfg)
	if err != nil {
		return nil, err
	}
	if o.WrapSeries != nil {
		series = o.WrapSeries(series)
	}
	dec := decodersmodule.New(host, decodersmodule.Deps{Config: mc.decoders, Accounts: acc, UI: env})
	k.Add(dec)
	nod := nodesmodule.New(host, nodesmodule.Deps{Accounts: acc, Decoders: dec, UI: env, Series: series, Models: dec})
	k.Add(nod)
	dec.RegisterUsers(nod) // a decoder's nodes: its page, its answer, the refusal to delete it
	dash := dashboardsmodule.New(host, dashboardsmodule.Deps{Config: mc.dashboards, Accounts: acc, Nodes: nod, Series: series, Settings: set, UI: env})
	k.Add(dash)
	lg := logsmodule.New(host, logsmodule.Deps{Config: mc.logs, Accounts: acc, Series: series, SuperAdminPage: acc})
	k.Add(lg) // before the ingest and the network servers, so it stops after them
	// Before the ingest, so that it stops after it and counts the last uplinks.
	gw := gatewaysmodule.New(host, gatewaysmodule.Deps{Config: mc.gateways, Accounts: acc, Applications: nod, UI: env, MapTileURL: mc.dashboards.MapTileURL})
	k.Add(gw)
	// Before the ingest, so that it stops after it: the last uplinks'
	// points are still written.
	k.Add(signaltestsmodule.New(host, signaltestsmodule.Deps{Nodes: nod, Gateways: gatewayNames{gw}, UI: env, MapTileURL: mc.dashboards.MapTileURL}))
	ing := ingestmodule.New(host, ingestmodule.Deps{Nodes: nod, Decoders: dec, TSDB: series, Accounts: acc, UI: env, DecoderPages: dec})
	k.Add(ing) // before the network servers, so its committers run while they hand messages on
	ns := netserversmodule.New(host, netserversmodule.Deps{Config: mc.netservers, Nodes: nod, Ingest: ing, UI: env, TagPages: nod, Encoder: dec})
	k.Add(ns)
	notify := notificationsmodule.New(host, notificationsmodule.Deps{Accounts: acc})
	k.Add(notify)
	alm := alarmsmodule.New(host, alarmsmodule.Deps{Config: mc.alarms, Accounts: acc, Tags: nod, Settings: set,
		Notifier: alarmNotifier{notify}, AlarmStates: nod, UI: env, TagPages: nod})
	k.Add(alm)
	dash.UseAlarmStates(alarmStates{alm}) // the alarm_id of dashboard modules
	// Its recorder queues the ingest's stored uplinks in their batch.
	k.Add(forwardingmodule.New(host, forwardingmodule.Deps{Applications: nod, Ingest: ing, Notifier: notify, Pages: nod}))
	ev := eventsmodule.New(host, eventsmodule.Deps{Config: mc.events})
	k.Add(ev)
	k.Add(sitemodule.New(host, sitemodule.Deps{UI: env, Accounts: acc}))
	rep := reportsmodule.New(host, reportsmodule.Deps{Accounts: acc, Nodes: nod, Series: series, Logs: lg, UI: env})
	k.Add(rep)
	k.Add(newsmodule.New(host, newsmodule.Deps{Config: mc.news, UI: env}))
	prof := profilesmodule.New(host, profilesmodule.Deps{Accounts: acc, Nodes: nod, Decoders: dec, Alarms: alm, Dashboards: dash, UI: env})
	k.Add(prof)
	nod.UseProfiles(prof) // a node created with a profile gets its settings
	// After the ingest, the network servers and the notifications, so that
	// it stops before them: its last runs still write and send.
	scr := scriptsmodule.New(host, scriptsmodule.Deps{Nodes: nod, Series: series, Values: ing, Downlinks: ns, Notifier: notify, Logs: lg, UI: env})
	k.Add(scr)
	dash.UseScripts(scriptButtons{scr}) // the SCRIPT kind of function buttons
	// The partner API answers its calls through the routes above; its
	// Watch hears every instance's uplinks through the live feed's fan-out.
	k.Add(partnerapimodule.New(host, partnerapimodule.Deps{Portal: host.Router, Uplinks: ev}))
	return &App{kernel: k, accounts: acc, decoders: dec, dashboards: dash, settings: set, logs: lg, nodes: nod, netservers: ns, alarms: alm, reports: rep, series: series, notify: notify}, nil
}

// OpenSeries opens the time-series store the modules share (InfluxDB when
// INFLUX_URL is set, else the SQL database), closes it when the kernel
// stops, and schedules its jobs on the kernel's scheduler. Call it before
// adding the modules that use it, so that it stops after them.
func OpenSeries(ctx context.Context, k *kernel.Kernel, cfg *config.Config) (tsdb.Store, error) {
	series, err := openSeries(ctx, cfg, k.Host())
	if err != nil {
		return nil, err
	}
	k.Add(seriesCloser{series})
	if err := scheduleSeriesJobs(k.Host(), cfg, series); err != nil {
		return nil, err
	}
	return series, nil
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

// Settings is the settings module's service: the global and company
// settings with their secrets opened.
func (a *App) Settings() settings.Service { return a.settings }

// Logs is the logs module's service, through which modules record entries.
func (a *App) Logs() logs.Service { return a.logs }

// Nodes is the nodes module: its tags, states, pool and tokens, for tests
// that check what other modules ask of it.
func (a *App) Nodes() nodes.Module { return a.nodes }

// NetServers is the netservers module: its downlink queue, for tests that
// check what the downlink worker and the network servers' reports do.
func (a *App) NetServers() netservers.Module { return a.netservers }

// Notifications is the notifications module, through which modules (and
// the fieldhub notify command) notify users.
func (a *App) Notifications() notifications.Module { return a.notify }

// NotifyUser adds n for the user of email (the fieldhub notify command).
func (a *App) NotifyUser(ctx context.Context, email string, n notifications.New) error {
	u, err := a.accounts.UserByEmail(ctx, email)
	if err != nil {
		return err
	}
	return a.notify.NotifyUsers(ctx, a.kernel.Host().DB, []int64{u.ID}, n)
}

// Alarms is the alarms module: its sweep and inactivity scan, for tests
// that run them at a chosen time.
func (a *App) Alarms() alarms.Module { return a.alarms }

// Reports is the reports module: its schedule's run at a given time, for
// tests.
func (a *App) Reports() reports.Module { return a.reports }

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
	a.kernel.Add(demomodule.New(a.kernel.Host(), demomodule.Deps{Accounts: a.accounts, CompanyID: company, BaseURL: baseURL, Dashboards: a.dashboards}))
}
