// Package module builds the logs module for the application package.
package module

import (
	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/logs"
	"github.com/fieldhub/fieldhub/modules/logs/internal/httpapi"
	"github.com/fieldhub/fieldhub/modules/logs/internal/pages"
	"github.com/fieldhub/fieldhub/modules/logs/internal/recorder"
)

// Deps is what the logs module needs beside the kernel. Accounts and
// Series are required.
type Deps struct {
	// Config is the module's part of the configuration.
	Config logs.Config
	// Accounts tells whether a company a caller names exists and names who
	// made a change; the accounts module satisfies it.
	Accounts logs.Accounts
	// Series counts a company's data points for GET /logs/datapoints; the
	// time-series store satisfies it.
	Series logs.Series
	// SuperAdminPage, optional, takes the section of the latest changes
	// for the /superadmin page; the accounts module satisfies it.
	SuperAdminPage accounts.SuperAdminPage
}

// New builds the module, adds its section of the latest changes to the
// /superadmin page when given one, and subscribes it to ingest.DeviceEvent,
// netservers.DownlinkOutcome, accounts.UserSignedIn, nodes.DevEUIClaimRefused,
// nodes.TagMoved and audit.Change. It panics when a dependency is missing, so that a
// wiring mistake stops the program at start.
func New(host *kernel.Host, deps Deps) logs.Module {
	if deps.Accounts == nil || deps.Series == nil {
		panic("logs module: Deps.Accounts and Deps.Series are required")
	}
	if deps.SuperAdminPage != nil {
		deps.SuperAdminPage.RegisterSuperAdminSection(pages.NewSection(host.DB, host.Catalogs))
	}
	return &logsModule{Recorder: recorder.New(host, deps.Config, deps.Accounts), api: httpapi.New(host.DB, deps.Accounts, deps.Series)}
}

// logsModule is the module: the recorder, which other modules call and
// which starts and stops the writer, and the JSON routes.
type logsModule struct {
	*recorder.Recorder
	api *httpapi.API
}

// Name names the module.
func (m *logsModule) Name() string { return "logs" }

// Routes registers the JSON routes.
func (m *logsModule) Routes(r *web.ModuleRoutes) { m.api.Routes(r) }
