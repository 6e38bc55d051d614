package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/config"
	"github.com/fieldhub/fieldhub/migrations"
	"github.com/fieldhub/fieldhub/modules/accounts"
	accountsmodule "github.com/fieldhub/fieldhub/modules/accounts/module"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	dashboardsmodule "github.com/fieldhub/fieldhub/modules/dashboards/module"
	decodersmodule "github.com/fieldhub/fieldhub/modules/decoders/module"
	ingestmodule "github.com/fieldhub/fieldhub/modules/ingest/module"
	"github.com/fieldhub/fieldhub/modules/netservers"
	netserversmodule "github.com/fieldhub/fieldhub/modules/netservers/module"
	nodesmodule "github.com/fieldhub/fieldhub/modules/nodes/module"
	"github.com/fieldhub/fieldhub/webapp/locales"
)

// Portal is the part of Fieldhub this program runs: the nodes with their
// decoders, the ingest with the network servers' routes, and the
// dashboards, as JSON APIs without Fieldhub's pages. Its accounts module
// keeps the program's company and users (the modules' tables refer to
// them) but serves no routes: the program signs its users in itself.
type Portal struct {
	kernel   *kernel.Kernel
	accounts accounts.Module
	company  *accounts.Company
	login    *Login
}

// moduleConfig is the configuration of the modules the program runs.
type moduleConfig struct {
	netservers netservers.Config
	dashboards dashboards.Config
}

func (m *moduleConfig) sections() []config.Section {
	return []config.Section{m.netservers.Section(), m.dashboards.Section()}
}

// LoadConfig reads Fieldhub's configuration (the kernel's options and those
// of the modules the program runs) from the environment.
func LoadConfig(getenv func(string) string, environ []string) (*config.Config, error) {
	return config.Load(getenv, environ, nil, new(moduleConfig).sections()...)
}

// Build opens the database, applies the migrations and builds the modules,
// in dependency order, with the program's company; Start runs them.
func Build(ctx context.Context, cfg *config.Config, log *slog.Logger, company string) (*Portal, error) {
	var mc moduleConfig
	if err := cfg.Apply(mc.sections()...); err != nil {
		return nil, err
	}
	k, err := kernel.New(ctx, cfg, log, kernel.Sources{Locales: locales.FS, Migrations: migrations.FS, MigrationOrder: migrations.Order})
	if err != nil {
		return nil, err
	}
	p, err := build(ctx, k, cfg, &mc, company)
	if err != nil {
		k.Close()
		return nil, err
	}
	return p, nil
}

func build(ctx context.Context, k *kernel.Kernel, cfg *config.Config, mc *moduleConfig, company string) (*Portal, error) {
	host := k.Host()
	// Built, not added: no routes of its own, only the company directory.
	acc := accountsmodule.New(host, accountsmodule.Deps{})
	co, err := acc.EnsureCompany(ctx, company, "")
	if err != nil {
		return nil, fmt.Errorf("company %q: %w", company, err)
	}
	series, err := app.OpenSeries(ctx, k, cfg)
	if err != nil {
		return nil, err
	}
	dec := decodersmodule.New(host, decodersmodule.Deps{Accounts: acc})
	k.Add(dec)
	nod := nodesmodule.New(host, nodesmodule.Deps{Accounts: acc, Decoders: dec, Series: series})
	k.Add(nod)
	dec.RegisterUsers(nod)
	k.Add(dashboardsmodule.New(host, dashboardsmodule.Deps{Config: mc.dashboards, Accounts: acc, Nodes: nod, Series: series}))
	ing := ingestmodule.New(host, ingestmodule.Deps{Nodes: nod, Decoders: dec, TSDB: series, Accounts: acc})
	k.Add(ing)
	k.Add(netserversmodule.New(host, netserversmodule.Deps{Config: mc.netservers, Nodes: nod, Ingest: ing}))
	p := &Portal{kernel: k, accounts: acc, company: co, login: newLogin()}
	host.Router.AddAuthenticator(p.login.authenticate)
	return p, nil
}

// AddUser lets name sign in with password as a CompanyAdmin of the
// program's company; the first time, it makes them a member of it in
// Fieldhub.
func (p *Portal) AddUser(ctx context.Context, name, password string) error {
	u, err := p.accounts.EnsureMember(ctx, p.company.ID, name+"@users.partner.invalid", name, "", auth.CompanyAdmin)
	if err != nil {
		return fmt.Errorf("user %q: %w", name, err)
	}
	p.login.add(name, password, auth.Caller{UserID: u.ID, Role: u.Role, CompanyID: p.company.ID})
	return nil
}

// CompanyID is the program's company in Fieldhub.
func (p *Portal) CompanyID() int64 { return p.company.ID }

// Start runs the modules' background work (decoder sandbox, group commit,
// downlink worker, jobs); the returned function stops it.
func (p *Portal) Start(ctx context.Context) (stop func(), err error) { return p.kernel.Start(ctx) }

// Close releases the database.
func (p *Portal) Close() error { return p.kernel.Close() }

// Handler is the program's own mux: its home page at /, and Fieldhub's API
// under /fieldhub/ (for example /fieldhub/api/tag).
func (p *Portal) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/fieldhub/", http.StripPrefix("/fieldhub", p.kernel.Handler()))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintf(w, "Partner fleet portal of %s.\nFieldhub's API: /fieldhub/api/ (HTTP Basic sign-in).\n", p.company.Name)
	})
	return mux
}
