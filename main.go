// Command fieldhub is the Fieldhub portal: one binary with the subcommands
// serve, demo, migrate, admin, config, license, openapi and version. It parses the command
// line; package app builds the portal.
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

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/config"
	"github.com/fieldhub/fieldhub/modules/notifications"
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
  notify --user E --label L --message M [--route R]
                                                  add a notification to the bell of the user of
                                                  e-mail E (R: the portal page it opens, /alarm/7)
  devices import PATH                             import The Things Network's device repository
                                                  (a checkout of lorawan-devices, or its vendor folder):
                                                  vendors, models, codecs verified against their examples
  config                                          list every configuration option
  openapi [--out FILE]                            write the REST API's OpenAPI document (as
                                                  GET /api/openapi.json serves it) without a server
  license verify FILE                             check a license file and print its terms
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
	case "notify":
		return notify(ctx, args[1:], stdout, stderr)
	case "devices":
		return devices(ctx, args[1:], stdout, stderr)
	case "config":
		fmt.Fprint(stdout, "| variable | default | meaning |\n| --- | --- | --- |\n"+config.Help(app.ConfigSections()...))
		return nil
	case "license":
		return licenseCommand(args[1:], stdout)
	case "openapi":
		return openAPICommand(ctx, args[1:], stdout, stderr)
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

func loadConfig(overrides map[string]string) (*config.Config, error) {
	return app.LoadConfig(os.Getenv, os.Environ(), overrides)
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
	a, err := app.Build(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer a.Close()
	email, password, created, err := a.Accounts().EnsureFirstSuperAdmin(ctx)
	if err != nil {
		return err
	}
	if created {
		fmt.Fprintf(stdout, "\nFirst SuperAdmin created; this password is shown only once:\n  e-mail:   %s\n  password: %s\n\n", email, password)
	}
	demoCompany := int64(0)
	if withDemo {
		if demoCompany, err = a.SeedDemo(ctx, stdout); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s (FIELDHUB_ADDR): %w", cfg.Addr, err)
	}
	if withDemo { // the simulator posts to the address just bound
		a.StartDemo(demoCompany, selfURL(ln.Addr()))
	}
	if cfg.PublicURL == "http://"+cfg.Addr { // the default: name the port actually bound
		cfg.PublicURL = "http://" + ln.Addr().String()
	}
	fmt.Fprintf(stdout, "Fieldhub is running at http://%s (public address %s)\n", ln.Addr(), cfg.PublicURL)
	log.Info("listening", "addr", ln.Addr().String(), "database", redactURL(cfg.DatabaseURL), "version", version)
	return a.Serve(ctx, ln)
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
	a, err := app.Build(ctx, cfg, newLogger(cfg, stderr))
	if err != nil {
		return err
	}
	defer a.Close()
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
	a, err := app.Build(ctx, cfg, newLogger(cfg, stderr))
	if err != nil {
		return err
	}
	defer a.Close()
	if err := a.CreateSuperAdmin(ctx, email, password); err != nil {
		return fmt.Errorf("create superadmin: %s", a.Kernel().Describe(err))
	}
	fmt.Fprintf(stdout, "SuperAdmin %s is ready\n", email)
	return nil
}

// notify adds a notification for one user: a running portal shows it in
// the user's open pages within seconds (its dispatcher finds the row).
func notify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var email string
	var n notifications.New
	overrides, err := commonFlags("notify", args, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&email, "user", "", "the e-mail address of the user to notify")
		fs.StringVar(&n.Label, "label", "", "the notification's label, at most 255 characters")
		fs.StringVar(&n.Message, "message", "", "the notification's message")
		fs.StringVar(&n.Route, "route", "", "the page of the portal a click opens, such as /alarm/7 (optional)")
	})
	if err != nil {
		return err
	}
	if email == "" {
		return errors.New("notify: --user is required")
	}
	cfg, err := loadConfig(overrides)
	if err != nil {
		return err
	}
	a, err := app.Build(ctx, cfg, newLogger(cfg, stderr))
	if err != nil {
		return err
	}
	defer a.Close()
	if err := a.NotifyUser(ctx, email, n); err != nil {
		return fmt.Errorf("notify %s: %s", email, a.Kernel().Describe(err))
	}
	fmt.Fprintf(stdout, "%s is notified\n", email)
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
