// Package module builds the accounts module for the application package.
package module

import (
	"context"
	"time"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/directory"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/httpapi"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/pages"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/revoked"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/signin"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Deps is what the accounts module needs beside the kernel.
type Deps struct {
	// Config is the module's part of the configuration.
	Config accounts.Config
	// UI draws the module's pages. Optional: without it the JSON routes,
	// sessions and the page frame's viewer work, but the module's pages
	// cannot be drawn; tests of other modules that call only the API leave
	// it out.
	UI *ui.Env
	// Companies, optional, limits how many companies the installation may
	// have; the kernel's license satisfies it. Without it there is no
	// limit.
	Companies accounts.CompanyLimit
}

// New builds the module and hooks it into the kernel and the page frame:
// it hands the kernel the list of ended sessions, whose access tokens are
// refused, renews lapsed browser sessions, tells the frame who is looking
// and adds its menu entries. Accounts needs no other module, so nothing can
// be missing.
func New(host *kernel.Host, deps Deps) accounts.Module {
	postgresURL := ""
	if host.Config.IsPostgres() {
		postgresURL = host.Config.DatabaseURL
	}
	ended := revoked.New(host.DB, postgresURL, deps.Config.AccessTokenTTL, host.Logger("accounts"))
	host.Tokens.CheckSessions(ended)
	sign := signin.New(host, deps.Config, ended)
	dir := directory.New(host, sign, deps.Config.OpenRegistration, deps.Companies)
	host.Router.SetRefresher(sign.RefreshBrowser)
	return &module{
		Directory: dir,
		signin:    sign,
		ended:     ended,
		api:       httpapi.New(host, dir, sign),
		pages:     pages.New(host, deps.UI, dir, sign),
		host:      host,
	}
}

// module is the accounts module: the directory is its service, the JSON
// routes and the pages are its routes.
type module struct {
	*directory.Directory
	signin *signin.Service
	ended  *revoked.List
	api    *httpapi.API
	pages  *pages.Pages
	host   *kernel.Host
}

// Name names the module.
func (m *module) Name() string { return "accounts" }

// RegisterSuperAdminSection adds s to the /superadmin page; see
// accounts.SuperAdminPage.
func (m *module) RegisterSuperAdminSection(s accounts.SuperAdminSection) {
	m.pages.RegisterSuperAdminSection(s)
}

// Routes registers the JSON routes and the pages.
func (m *module) Routes(r *web.ModuleRoutes) {
	m.api.Routes(r)
	m.pages.Routes(r)
}

// Start reads the sessions that ended recently, so that their access
// tokens are refused from the first request on, listens for those that
// other instances end, and schedules the hourly pruning of expired
// sessions, reset links, login failures and ended sessions.
func (m *module) Start(ctx context.Context) error {
	if err := m.ended.Start(ctx); err != nil {
		return err
	}
	return m.host.Scheduler.Every("accounts", "prune", time.Hour, true, m.signin.Prune)
}

// Stop waits for the listener of ended sessions, which ends with Start's
// context.
func (m *module) Stop(context.Context) error {
	m.ended.Wait()
	return nil
}
