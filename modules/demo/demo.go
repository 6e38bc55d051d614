// Package demo is the contract of the demo module: what `fieldhub demo`
// (and `fieldhub serve --demo`) adds beside the demo company that the
// accounts module creates. Once the portal listens, the module makes sure
// the demo company has an application "Demo field" with a dozen nodes of
// different kinds (room climate, a freezer, a door, a water tank, CO2, a GPS
// tracker, an energy meter, a soil probe, a weather station, a parking
// sensor with a draining battery), and an integration token for itself;
// then, until the portal stops, it posts plausible, slowly varying uplinks
// for each node every few seconds to POST /api/ingest/generic, the same
// route and code path as a real device, so a new user sees data arrive
// within seconds.
//
// It touches no other module's internals: it finds the demo company's
// CompanyAdmin through accounts.Service, acts as them with a short-lived
// access token signed by the kernel, and does everything else through the
// portal's HTTP API (applications, tags, integration tokens, ingest).
// Nodes that exist already (by DevEUI) are kept; a demo node a user deleted
// is made again at the next demo start. The integration token is replaced
// at every start, since a token is shown only when it is made.
package demo

import (
	"context"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/demo/internal/core"
)

// Node is one simulated node of the demo: its name, DevEUI and the keys
// its uplinks carry.
type Node = core.Node

// Nodes lists the demo's nodes.
func Nodes() []Node { return core.Catalog() }

// ApplicationName is the name of the demo's application.
const ApplicationName = core.ApplicationName

// TokenLabel is the label of the integration token the simulator uses.
const TokenLabel = core.TokenLabel

// Accounts is the part of accounts.Service the demo uses: the users of the
// demo company, to act as its CompanyAdmin.
type Accounts interface {
	CompanyUsers(ctx context.Context, companyID int64) ([]accounts.User, error)
}

// Dashboards makes the demo's dashboard; the dashboards module satisfies
// it.
type Dashboards interface {
	Seed(ctx context.Context, s dashboards.SeedDashboard) (int64, bool, error)
}

// DashboardName and DashboardCategory name the demo's dashboard: a chart,
// a gauge, a latest value, a map and a fill level over the demo's nodes.
const (
	DashboardName     = core.DashboardName
	DashboardCategory = core.DashboardCategory
)

// Deps is what the demo module needs. All but Dashboards are required.
type Deps struct {
	// Accounts finds the demo company's CompanyAdmin.
	Accounts Accounts
	// CompanyID is the demo company (accounts.Module.EnsureDemoCompany).
	CompanyID int64
	// BaseURL is the portal's own address as this process reaches it
	// (http://127.0.0.1:8080), known once it listens.
	BaseURL string
	// Dashboards makes the demo's dashboard once its nodes exist. Optional:
	// without it the demo has nodes and data only.
	Dashboards Dashboards
}

// Module is the demo module as the kernel and main.go see it: Start sets up
// the demo's nodes and runs the uplink simulator in the background until
// the kernel stops.
type Module interface {
	kernel.Module
	kernel.Starter
	kernel.Stopper
}

// New builds the module. It panics when a dependency is missing, so that a
// wiring mistake in main.go stops the program at start.
func New(host *kernel.Host, deps Deps) Module {
	if deps.Accounts == nil || deps.CompanyID <= 0 || deps.BaseURL == "" {
		panic("demo.New: Deps.Accounts, Deps.CompanyID and Deps.BaseURL are required")
	}
	return core.New(host, core.Deps{Accounts: deps.Accounts, CompanyID: deps.CompanyID, BaseURL: deps.BaseURL, Dashboards: deps.Dashboards})
}
