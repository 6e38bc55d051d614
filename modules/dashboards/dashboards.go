// Package dashboards is the contract of the dashboards module: a company's
// dashboard category tree, its dashboards and their modules (SPEC.md
// section 3 "Dashboard", "Dashboard category", "Dashboard module", "Module
// settings"), the default dashboards, public links, the data modules read
// (tag data, trends, latest values, company and node facts, weather
// forecasts), and the pages /dashboard, /dashboard/{id} and /public/{id}
// (SPEC.md sections 2 and 7 "Dashboards" and "Modules";
// docs/api/dashboards.md is the API). Other modules use the Service
// interface; the implementation lives in internal/.
package dashboards

import (
	"context"
	"net/http"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/core"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// SeedDashboard describes a dashboard for Service.Seed: a category of a
// company (found by title among the root categories, made when missing)
// holding a dashboard (found by name in it) with modules.
type SeedDashboard = core.SeedDashboard

// SeedModule is a module of a SeedDashboard; the API's rules apply to it.
type SeedModule = core.SeedModule

// LatLng is a position, such as a map module's centre.
type LatLng = core.LatLng

// Module types (SPEC.md section 3 "Dashboard module types").
const (
	TypeChart        = core.TypeChart
	TypeGauge        = core.TypeGauge
	TypeText         = core.TypeText
	TypeImage        = core.TypeImage
	TypeMap          = core.TypeMap
	TypeCompanyInfo  = core.TypeCompanyInfo
	TypeIframe       = core.TypeIframe
	TypeWeather      = core.TypeWeather
	TypeLatest       = core.TypeLatest
	TypeRawTable     = core.TypeRawTable
	TypeMultiChart   = core.TypeMultiChart
	TypeImageMap     = core.TypeImageMap
	TypeFunction     = core.TypeFunction
	TypeNodeInfo     = core.TypeNodeInfo
	TypeTrend        = core.TypeTrend
	TypeNodeOverview = core.TypeNodeOverview
	TypeTilt         = core.TypeTilt
	TypeFillLevel    = core.TypeFillLevel
)

// PublicTokenPrefix starts every public link token.
const PublicTokenPrefix = core.PublicTokenPrefix

// Service is what other modules may ask of dashboards.
type Service interface {
	// Seed makes the dashboard s describes, with its category and modules,
	// unless the category already holds a dashboard of that name; it
	// returns the dashboard's id and whether it was made. The demo calls it
	// once its nodes exist. A module naming a node of another company, an
	// unknown attribute or a bad value is an errs.Invalid error; an unknown
	// company errs.NotFound.
	Seed(ctx context.Context, s SeedDashboard) (dashboardID int64, created bool, err error)
}

// Module is the dashboards module as the kernel and main.go see it.
type Module interface {
	kernel.Module
	kernel.Router
	Service
}

// Deps is what the dashboards module needs from the rest of the portal.
type Deps struct {
	// Accounts tells a company's facts. Required; the accounts module
	// satisfies it.
	Accounts core.Accounts
	// Nodes lists a company's nodes, finds a node by DevEUI and tells its
	// keys (labels, units, the default key). Required; the nodes module
	// satisfies it.
	Nodes core.Nodes
	// Series reads the stored tag data. Required; the tsdb.Store main.go
	// opens satisfies it.
	Series core.Series
	// Settings reads the global powered_by setting for the chooser's
	// footer. Optional: without it the footer shows the company's name.
	Settings core.GlobalSettings
	// UI draws the pages. Optional: without it the module serves its API
	// alone (as in its own tests).
	UI *ui.Env
	// HTTP fetches weather forecasts. Optional: a client with a 10 s
	// timeout. The services' addresses are the options
	// FIELDHUB_WEATHER_SMHI_URL and FIELDHUB_WEATHER_METNO_URL.
	HTTP *http.Client
}

// New builds the module. It panics when a required dependency is missing,
// so that a wiring mistake in main.go stops the program at start.
func New(host *kernel.Host, deps Deps) Module {
	if deps.Accounts == nil || deps.Nodes == nil || deps.Series == nil {
		panic("dashboards.New: Deps.Accounts, Deps.Nodes and Deps.Series are required")
	}
	return core.New(host, core.Deps{Accounts: deps.Accounts, Nodes: deps.Nodes, Series: deps.Series,
		Settings: deps.Settings, UI: deps.UI, HTTP: deps.HTTP})
}
