// Command fieldhub is the Fieldhub portal: one binary with the subcommands
// serve, migrate, admin, config and version. This file is the one place that
// builds the kernel and wires the modules into it, in dependency order.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/signal"
	"syscall"
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
	"github.com/fieldhub/fieldhub/modules/demo"
	"github.com/fieldhub/fieldhub/modules/events"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/logs"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/settings"
	"github.com/fieldhub/fieldhub/modules/site"
	"github.com/fieldhub/fieldhub/webapp"
	"github.com/fieldhub/fieldhub/webapp/locales"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "fieldhub:", err)
		os.Exit(1)
	}
}

const usage = `usage: fieldhub <command> [flags]

commands:
  serve [--addr 127.0.0.1:8080] [--data ./data] [--demo]
                                                  run the portal (--demo adds a demo company)
  demo [--addr 127.0.0.1:8080] [--data ./data]    run the portal with a demo company whose nodes
                                                  send simulated uplinks (serve --demo)
  migrate                                         apply database migrations and exit
  admin create-superadmin --email E --password P  add a SuperAdmin (or promote an account)
  config                                          list every configuration option
  version                                         print the version
`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	switch args[0] {
	case "serve":
		return serve(ctx, args[1:], stdout, stderr)
	case "demo":
		return serve(ctx, append([]string{"--demo"}, args[1:]...), stdout, stderr)
	case "migrate":
		return migrate(ctx, args[1:], stdout, stderr)
	case "admin":
		return admin(ctx, args[1:], stdout, stderr)
	case "config":
		fmt.Fprint(stdout, "| variable | default | meaning |\n| --- | --- | --- |\n"+config.Help())
		return nil
	case "version":
		fmt.Fprintln(stdout, "fieldhub", version)
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

// commonFlags parses the flags every command shares into configuration
// overrides.
func commonFlags(name string, args []string, stderr io.Writer, extra func(*flag.FlagSet)) (map[string]string, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "", "listen address (FIELDHUB_ADDR)")
	data := fs.String("data", "", "data folder (FIELDHUB_DATA)")
	if extra != nil {
		extra(fs)
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("%s: unexpected argument %q", name, fs.Arg(0))
	}
	overrides := map[string]string{}
	if *addr != "" {
		overrides["FIELDHUB_ADDR"] = *addr
	}
	if *data != "" {
		overrides["FIELDHUB_DATA"] = *data
	}
	return overrides, nil
}

func newLogger(cfg *config.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "text" {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

// app is the kernel with every module wired in.
type app struct {
	kernel     *kernel.Kernel
	accounts   accounts.Module
	dashboards dashboards.Module
}

// build opens the kernel and wires the modules, in dependency order.
func build(ctx context.Context, cfg *config.Config, log *slog.Logger) (*app, error) {
	k, err := kernel.New(ctx, cfg, log, kernel.Sources{
		Locales:        locales.FS,
		Migrations:     migrations.FS,
		MigrationOrder: migrations.Order,
	})
	if err != nil {
		return nil, err
	}
	host := k.Host()
	assets, err := webapp.Load(cfg.ViteDevURL)
	if err != nil {
		k.Close()
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
		k.Close()
		return nil, err
	}
	k.Add(seriesCloser{series}) // added before its users, so it stops after them
	if store, ok := series.(*sqlts.Store); ok {
		seal := func(ctx context.Context) error { return store.SealHours(ctx, time.Now()) }
		if err := host.Scheduler.Every("tsdb", "seal hours", time.Minute, true, seal); err != nil {
			k.Close()
			return nil, err
		}
	}
	if days := cfg.TSDBRetentionDays; days > 0 {
		retention := tsdb.Retention{Store: series, Days: days, Log: host.Logger("tsdb")}
		if err := host.Scheduler.Daily("tsdb", "retention", 2, 45, true, retention.Run); err != nil {
			k.Close()
			return nil, err
		}
	}
	// The decoders module asks the nodes and ingest modules, which are
	// built after it because they use it, once they exist.
	var nod nodes.Module
	var ing ingest.Module
	dec := decoders.New(host, decoders.Deps{Accounts: acc, UI: env,
		Nodes:   func() decoders.Nodes { return nod },
		Uplinks: func() decoders.Uplinks { return ing }})
	k.Add(dec)
	nod = nodes.New(host, nodes.Deps{Accounts: acc, Decoders: dec, UI: env, Series: series})
	k.Add(nod)
	dash := dashboards.New(host, dashboards.Deps{Accounts: acc, Nodes: nod, Series: series, Settings: set, UI: env})
	k.Add(dash)
	k.Add(logs.New(host, logs.Deps{Accounts: acc, Series: series})) // before the ingest, so it stops after it
	ing = ingest.New(host, ingest.Deps{Nodes: nod, Decoders: dec, TSDB: series})
	k.Add(ing)
	k.Add(events.New(host, events.Deps{}))
	k.Add(site.New(host, site.Deps{UI: env, Accounts: acc}))
	return &app{kernel: k, accounts: acc, dashboards: dash}, nil
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

func loadConfig(overrides map[string]string) (*config.Config, error) {
	return config.Load(os.Getenv, os.Environ(), overrides)
}

func serve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var withDemo bool
	overrides, err := commonFlags("serve", args, stderr, func(fs *flag.FlagSet) {
		fs.BoolVar(&withDemo, "demo", false, "add a demo company with logins (shown once)")
	})
	if err != nil {
		return err
	}
	cfg, err := loadConfig(overrides)
	if err != nil {
		return err
	}
	log := newLogger(cfg, stderr)
	a, err := build(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer a.kernel.Close()
	email, password, created, err := a.accounts.EnsureFirstSuperAdmin(ctx)
	if err != nil {
		return err
	}
	if created {
		fmt.Fprintf(stdout, "\nFirst SuperAdmin created; this password is shown only once:\n  e-mail:   %s\n  password: %s\n\n", email, password)
	}
	demoCompany := int64(0)
	if withDemo {
		if demoCompany, err = seedDemo(ctx, a, stdout); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s (FIELDHUB_ADDR): %w", cfg.Addr, err)
	}
	if withDemo { // the simulator posts to the address just bound
		a.kernel.Add(demo.New(a.kernel.Host(), demo.Deps{Accounts: a.accounts, CompanyID: demoCompany, BaseURL: selfURL(ln.Addr()), Dashboards: a.dashboards}))
	}
	if cfg.PublicURL == "http://"+cfg.Addr { // the default: name the port actually bound
		cfg.PublicURL = "http://" + ln.Addr().String()
	}
	fmt.Fprintf(stdout, "Fieldhub is running at http://%s (public address %s)\n", ln.Addr(), cfg.PublicURL)
	log.Info("listening", "addr", ln.Addr().String(), "database", redactURL(cfg.DatabaseURL), "version", version)
	return a.kernel.Serve(ctx, ln)
}

func migrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	overrides, err := commonFlags("migrate", args, stderr, nil)
	if err != nil {
		return err
	}
	cfg, err := loadConfig(overrides)
	if err != nil {
		return err
	}
	a, err := build(ctx, cfg, newLogger(cfg, stderr))
	if err != nil {
		return err
	}
	defer a.kernel.Close()
	fmt.Fprintln(stdout, "database is up to date")
	return nil
}

func admin(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "create-superadmin" {
		fmt.Fprint(stderr, usage)
		return errors.New("admin: want the subcommand create-superadmin")
	}
	var email, password string
	overrides, err := commonFlags("admin create-superadmin", args[1:], stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&email, "email", "", "the SuperAdmin's e-mail address")
		fs.StringVar(&password, "password", "", "the SuperAdmin's password, at least 8 characters")
	})
	if err != nil {
		return err
	}
	if email == "" || password == "" {
		return errors.New("admin create-superadmin: --email and --password are required")
	}
	cfg, err := loadConfig(overrides)
	if err != nil {
		return err
	}
	a, err := build(ctx, cfg, newLogger(cfg, stderr))
	if err != nil {
		return err
	}
	defer a.kernel.Close()
	if err := a.accounts.CreateSuperAdmin(ctx, email, password); err != nil {
		return fmt.Errorf("create superadmin: %s", a.kernel.Describe(err))
	}
	fmt.Fprintf(stdout, "SuperAdmin %s is ready\n", email)
	return nil
}

// redactURL hides a password in a database URL for the log.
func redactURL(s string) string {
	if u, err := url.Parse(s); err == nil && u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "***")
			return u.String()
		}
	}
	return s
}

// seedDemo adds the demo company, prints its logins the first time, and
// returns its id.
func seedDemo(ctx context.Context, a *app, stdout io.Writer) (int64, error) {
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

// selfURL is the address this process reaches its own listener at: the
// loopback address when it listens on all interfaces.
func selfURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}
