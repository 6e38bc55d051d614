// Command embed is a program that builds some of Fieldhub's modules into
// its own HTTP server, behind its own sign-in, as a partner would: the
// nodes with their decoders, the ingest with the network servers' routes,
// and the dashboards, as JSON APIs under /fieldhub/ beside the program's
// own pages. It shows the module packages' New(host, deps) used outside
// Fieldhub's application package.
//
//	go run ./examples/embed -addr 127.0.0.1:8090 -company "Partner Fleet AB" -user ops:secret123
//	curl -u ops:secret123 http://127.0.0.1:8090/fieldhub/api/tag
//
// Fieldhub's configuration comes from the environment as for the portal
// (DATABASE_URL, FIELDHUB_DATA, MQTT_URL, ...; `fieldhub config` lists
// them).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "embed:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("embed", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8090", "address the program listens on")
	company := fs.String("company", "Partner Fleet AB", "the program's company in Fieldhub")
	user := fs.String("user", "", "a user of the program's sign-in, name:password (required)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	name, password, ok := strings.Cut(*user, ":")
	if !ok || name == "" || password == "" {
		return errors.New("-user name:password is required")
	}
	cfg, err := LoadConfig(os.Getenv, os.Environ())
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	p, err := Build(ctx, cfg, log, *company)
	if err != nil {
		return err
	}
	defer p.Close()
	if err := p.AddUser(ctx, name, password); err != nil {
		return err
	}
	stopModules, err := p.Start(ctx)
	if err != nil {
		return err
	}
	defer stopModules()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: p.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	log.Info("listening", "addr", ln.Addr().String())
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
