// Package kernel is the small core that Fieldhub's modules plug into: it owns
// the process lifecycle, configuration, database and migrations, HTTP router,
// authentication, event bus, scheduler, mail outbox and message catalogs, and
// hands them to modules through a Host. The kernel never imports a module;
// the application package (app) wires them.
package kernel

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/config"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/kernel/license"
	"github.com/fieldhub/fieldhub/kernel/mail"
	"github.com/fieldhub/fieldhub/kernel/scheduler"
	"github.com/fieldhub/fieldhub/kernel/secretbox"
	"github.com/fieldhub/fieldhub/kernel/sms"
	smshost "github.com/fieldhub/fieldhub/kernel/sms/host"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// Module is a feature plugged into the kernel. Beside Name, a module may
// implement Router (to serve routes), Starter and Stopper. Modules are built
// by their module package's New(host, deps) in the application package and
// added in dependency order; they start in that order and stop in reverse.
type Module interface {
	Name() string
}

// Router is implemented by modules that serve HTTP routes.
type Router interface {
	Routes(r *web.ModuleRoutes)
}

// Starter is implemented by modules with jobs or background work. Start must
// not block; a module's long-running loops take ctx and end when it is done.
type Starter interface {
	Start(ctx context.Context) error
}

// Stopper is implemented by modules that must release something at shutdown.
type Stopper interface {
	Stop(ctx context.Context) error
}

// Host is what a module receives from the kernel.
type Host struct {
	Config    *config.Config
	DB        *bun.DB
	Bus       events.Bus
	Scheduler *scheduler.Scheduler
	Mail      *mail.Outbox
	SMS       *sms.Outbox
	// SMSPlugins runs the SMS provider plugins and sends SMS's messages;
	// the application sets its resolver (SetResolver) from the settings.
	SMSPlugins *smshost.Host
	Catalogs   *i18n.Catalogs
	Tokens     *auth.Tokens
	Box        *secretbox.Box
	Router     *web.Router
	// License is the installation's license, read and verified at start.
	License *license.License
	log     *slog.Logger
}

// Logger returns a logger scoped to a module.
func (h *Host) Logger(module string) *slog.Logger { return h.log.With("module", module) }

// Kernel runs the modules.
type Kernel struct {
	host    *Host
	bus     *events.Local
	modules []Module
	metrics http.Handler
}

// Sources are the embedded files the kernel needs: the locale catalogs and
// the migrations with the order of their module folders.
type Sources struct {
	Locales        fs.FS
	Migrations     fs.FS
	MigrationOrder []string
}

// New opens the database, applies migrations and builds the Host.
func New(ctx context.Context, cfg *config.Config, log *slog.Logger, src Sources) (*Kernel, error) {
	lic, err := loadLicense(cfg)
	if err != nil {
		return nil, err
	}
	cat, err := i18n.Load(src.Locales)
	if err != nil {
		return nil, fmt.Errorf("load locales: %w", err)
	}
	bdb, err := db.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*Kernel, error) { bdb.Close(); return nil, err }
	n, err := db.Migrate(ctx, bdb, src.Migrations, src.MigrationOrder)
	if err != nil {
		return fail(err)
	}
	if n > 0 {
		log.Info("database migrated", "applied", n, "dialect", db.DialectOf(bdb))
	}
	secret, err := installationSecret(ctx, bdb, cfg.Secret)
	if err != nil {
		return fail(err)
	}
	sched, err := scheduler.New(bdb, log.With("module", "scheduler"))
	if err != nil {
		return fail(err)
	}
	sender, err := mail.NewSender(cfg.SMTPURL, log.With("module", "mail"))
	if err != nil {
		return fail(err)
	}
	bus := events.NewLocal(log.With("module", "events"))
	router := web.NewRouter(web.Options{Catalogs: cat, Log: log, MaxBodyBytes: cfg.MaxBodyBytes, AccessLog: cfg.AccessLog,
		TrustedProxies: cfg.TrustedProxies, PublicURL: cfg.PublicURL, EmbedOrigins: cfg.EmbedOrigins})
	tokens := auth.NewTokens(secret)
	router.AddAuthenticator(sessionAuthenticator(tokens))
	h := &Host{
		Config: cfg, DB: bdb, Bus: bus, Scheduler: sched, Catalogs: cat, Tokens: tokens,
		Box: secretbox.New(secret), Router: router, License: lic, log: log,
		Mail:       mail.NewOutbox(bdb, sender, cfg.MailFrom, log.With("module", "mail")),
		SMS:        sms.NewOutbox(bdb),
		SMSPlugins: smshost.New(smshost.Options{Dir: cfg.PluginDir, Log: log.With("module", "sms")}),
	}
	h.SMS.SetSender(h.SMSPlugins)
	h.SMS.SetBus(bus, log.With("module", "sms"))
	h.Mail.SetBus(bus)
	k := &Kernel{host: h, bus: bus}
	k.kernelRoutes()
	return k, nil
}

// Host returns what modules are built with.
func (k *Kernel) Host() *Host { return k.host }

// Add registers a module and its routes.
func (k *Kernel) Add(m Module) {
	k.modules = append(k.modules, m)
	if r, ok := m.(Router); ok {
		r.Routes(k.host.Router.Module(m.Name()))
	}
}

// Mount serves a plain handler (static files) at pattern, open to anyone.
func (k *Kernel) Mount(pattern string, h http.Handler) {
	k.host.Router.Module("kernel").Raw(pattern, auth.Open, func(w http.ResponseWriter, r *http.Request) error {
		h.ServeHTTP(w, r)
		return nil
	})
}

// Handler serves every route.
func (k *Kernel) Handler() http.Handler { return k.host.Router }

// Metrics serves the Prometheus metrics of the kernel and the modules. It is
// not a route of Handler: Serve serves it on FIELDHUB_METRICS_ADDR, apart
// from the portal, since the metrics are not authenticated.
func (k *Kernel) Metrics() http.Handler { return k.metrics }

// Start starts the modules in order, then the scheduler, the mail and SMS
// outboxes and the SMS plugins' health checks.
// The returned stop function stops everything in reverse order.
func (k *Kernel) Start(ctx context.Context) (stop func(), err error) {
	runCtx, cancel := context.WithCancel(ctx)
	var started []Module
	// The outboxes record the attempt in flight before the plugins stop,
	// so that a shutdown does not leave it looking interrupted.
	var outboxes sync.WaitGroup
	stopAll := func() {
		cancel()
		outboxes.Wait()
		k.host.SMSPlugins.Close() // no plugin process outlives the portal
		_ = k.host.Scheduler.Stop()
		for i := len(started) - 1; i >= 0; i-- {
			if s, ok := started[i].(Stopper); ok {
				stopCtx, c := context.WithTimeout(context.Background(), 10*time.Second)
				if err := s.Stop(stopCtx); err != nil {
					k.host.log.Error("module stop failed", "module", started[i].Name(), "err", err)
				}
				c()
			}
		}
		k.bus.Close()
	}
	for _, m := range k.modules {
		if s, ok := m.(Starter); ok {
			if err := s.Start(runCtx); err != nil {
				stopAll()
				return nil, fmt.Errorf("start module %s: %w", m.Name(), err)
			}
		}
		started = append(started, m)
	}
	k.host.Scheduler.Start()
	outboxes.Add(2)
	go func() { defer outboxes.Done(); k.host.Mail.Run(runCtx) }()
	go func() { defer outboxes.Done(); k.host.SMS.Run(runCtx) }()
	go k.host.SMSPlugins.Run(runCtx)
	return stopAll, nil
}

// Close releases the database.
func (k *Kernel) Close() error { return k.host.DB.Close() }

// Serve starts the modules and serves HTTP on ln until ctx is done, then shuts
// down gracefully. With FIELDHUB_METRICS_ADDR set it also serves GET
// /metrics there.
func (k *Kernel) Serve(ctx context.Context, ln net.Listener) error {
	var metricsLn net.Listener
	if addr := k.host.Config.MetricsAddr; addr != "" {
		var err error
		if metricsLn, err = net.Listen("tcp", addr); err != nil {
			return fmt.Errorf("listen on %s (FIELDHUB_METRICS_ADDR): %w", addr, err)
		}
		k.host.log.Info("metrics listening", "addr", metricsLn.Addr().String())
	}
	stop, err := k.Start(ctx)
	if err != nil {
		if metricsLn != nil {
			metricsLn.Close()
		}
		// A stop asked for while the modules started (a module's start
		// then ends with the context's error) is a stop, not a failure.
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	defer stop()
	srv := k.httpServer(k.Handler())
	servers := []*http.Server{srv}
	errc := make(chan error, 2)
	go func() { errc <- srv.Serve(ln) }()
	if metricsLn != nil {
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", k.Metrics())
		msrv := k.httpServer(mux)
		servers = append(servers, msrv)
		go func() { errc <- msrv.Serve(metricsLn) }()
	}
	var failed error
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			failed = fmt.Errorf("http server: %w", err)
		}
	case <-ctx.Done():
	}
	shutCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	for _, s := range servers {
		if err := s.Shutdown(shutCtx); err != nil && failed == nil {
			failed = err
		}
	}
	return failed
}

func (k *Kernel) httpServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		Protocols:         ServerProtocols(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(k.host.log.Handler(), slog.LevelWarn),
	}
}

func (k *Kernel) kernelRoutes() {
	r := k.host.Router.Module("kernel")
	r.Raw("GET /healthz", auth.Open, func(w http.ResponseWriter, req *http.Request) error {
		ctx, cancel := context.WithTimeout(req.Context(), 2*time.Second)
		defer cancel()
		if err := k.host.DB.PingContext(ctx); err != nil {
			web.JSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "database": err.Error()})
			return nil
		}
		return web.OK(w, map[string]string{"status": "ok", "database": string(db.DialectOf(k.host.DB))})
	})
	reg := k.host.Router.Registry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	k.metrics = promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
}

// Describe renders err for a console: a domain error in English from the
// catalogs, field by field; any other error as it is.
func (k *Kernel) Describe(err error) string {
	var e *errs.Error
	if !errors.As(err, &e) {
		return err.Error()
	}
	if len(e.Fields) == 0 {
		return k.host.Catalogs.T(i18n.Default, e.ID, e.Args)
	}
	var parts []string
	for _, f := range e.Fields {
		parts = append(parts, f.Field+": "+k.host.Catalogs.T(i18n.Default, f.ID, f.Args))
	}
	return strings.Join(parts, "; ")
}

// loadLicense reads FIELDHUB_LICENSE_FILE, verified with
// FIELDHUB_LICENSE_PUBLIC_KEY or the built-in key; a file that does not
// verify stops start-up.
func loadLicense(cfg *config.Config) (*license.License, error) {
	key := cfg.LicenseKey
	if key == "" {
		key = license.BuiltInKey
	}
	pub, err := license.ParseKey(key)
	if err != nil {
		return nil, fmt.Errorf("license public key: %w", err)
	}
	return license.Load(cfg.LicenseFile, pub)
}

// ServerProtocols are what the portal's server speaks: HTTP/1.1, and HTTP/2
// without TLS (h2c with prior knowledge), which gRPC clients of the partner
// API use when TLS ends at a proxy in front of the portal or there is none.
func ServerProtocols() *http.Protocols {
	p := new(http.Protocols)
	p.SetHTTP1(true)
	p.SetUnencryptedHTTP2(true)
	return p
}
