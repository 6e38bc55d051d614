// Package dashboards is the contract of the dashboards module: a company's
// dashboard category tree, its dashboards and the modules on them, the
// default dashboard of each user and company, public links that let anyone
// read one dashboard until they expire, the data modules read (tag data,
// trends, latest values, company and node facts, weather forecasts), and
// the pages /dashboard, /dashboard/{id} and /public/{token}.
// docs/api/dashboards.md describes the API. Other modules use the Service
// interface; package module builds the module, and the implementation lives
// in internal/.
package dashboards

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Service is what other modules may ask of dashboards.
type Service interface {
	// Seed makes the dashboard s describes, with its category and modules,
	// unless the category already holds a dashboard of that name; it
	// returns the dashboard's id and whether it was made. The demo calls it
	// once its nodes exist. A module naming a node of another company, an
	// unknown attribute or a bad value is an errs.Invalid error; an unknown
	// company errs.NotFound.
	Seed(ctx context.Context, s SeedDashboard) (dashboardID int64, created bool, err error)
	// SeedNode is Seed inside idb, the caller's transaction, for the
	// dashboard of a node the caller has just made in idb (a device
	// profile's template): the modules may name that node, deveui, alone.
	// The caller vouches that the company exists.
	SeedNode(ctx context.Context, idb bun.IDB, s SeedDashboard, deveui string) (dashboardID int64, created bool, err error)
}

// Module is the dashboards module as the kernel and the application see it.
type Module interface {
	kernel.Module
	kernel.Router
	Service
	// UseAlarmStates gives the module the source of the alarm states its
	// modules show. The alarms module is built after the dashboards, so
	// the application calls it once both exist; until then (or without
	// alarms) an alarm_id is a plain number and shows no state.
	UseAlarmStates(s AlarmStates)
	// UseScripts gives the module the script engine that function buttons
	// of the SCRIPT kind run. The application calls it once the scripts
	// module exists; until then (or without it) pressing such a button
	// answers 503 dashboards.press.noScripts.
	UseScripts(s Scripts)
}

// Accounts is what the module asks of the accounts module: a company's
// facts, for the company info module, the public page's company name and
// the chooser's footer, and to tell that a company exists.
type Accounts interface {
	Company(ctx context.Context, id int64) (*accounts.Company, error)
}

// NodeLookup finds a node by its DevEUI. Checking a module tells with it
// whether a node it names belongs to the dashboard's company.
type NodeLookup interface {
	TagByDevEUI(ctx context.Context, deveui string) (*nodes.Tag, error)
}

// Nodes is what the data reads ask of the nodes module: a node by DevEUI,
// a company's nodes (node overview, map pins) and a node's keys with their
// labels, units and default flag (the series a module shows).
type Nodes interface {
	NodeLookup
	CompanyTags(ctx context.Context, companyID int64) ([]*nodes.Tag, error)
	TagKeys(ctx context.Context, tagID int64) ([]nodes.Key, error)
}

// Series reads the stored tag data; tsdb.Store satisfies it.
type Series interface {
	Range(ctx context.Context, s tsdb.Series, from, to time.Time, maxPoints int) ([]tsdb.Point, error)
	Latest(ctx context.Context, s tsdb.Series) (tsdb.Point, bool, error)
	AggregateEdges(ctx context.Context, s tsdb.Series, edges []time.Time) ([]tsdb.Bucket, error)
	CountByNode(ctx context.Context, company int64, from, to time.Time) (map[string]int64, error)
}

// GlobalSettings reads the global settings: the chooser's footer shows
// powered_by when it is set.
type GlobalSettings interface {
	Global(ctx context.Context) (map[string]string, error)
}

// AlarmState is what a dashboard module naming an alarm (its alarm_id
// attribute) shows of it: whether the rule is active, and its open
// (unacknowledged) firing, if any, with the triggering value and time.
// It reveals nothing else of the rule, because public links show it too.
type AlarmState struct {
	AlarmID   int64      `json:"alarmId"`
	Active    bool       `json:"active"`
	Firing    bool       `json:"firing"`
	Value     *float64   `json:"value"`
	Triggered *time.Time `json:"triggered"`
}

// AlarmStates is what the module asks of the alarms module, which the
// application wires in (see Module.UseAlarmStates): the states of the
// alarms ids names that belong to the company; an id of another company or
// of no alarm is left out of the answer.
type AlarmStates interface {
	AlarmStates(ctx context.Context, companyID int64, ids []int64) (map[int64]AlarmState, error)
}

// Scripts is what the function button module asks of the script engine (modules/scripts), which the
// application registers with Module.UseScripts.
type Scripts interface {
	// InvokedScripts lists the company's scripts of type invoked (1), for the button editor.
	InvokedScripts(ctx context.Context, companyID int64) ([]ScriptRef, error)
	// RunScript runs one of the company's invoked scripts now, for real (a button was pressed), and
	// answers what it returned and the error it stopped with, if any.
	RunScript(ctx context.Context, companyID, scriptID int64) (ScriptRun, error)
}

// ScriptRef names a script.
type ScriptRef struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// ScriptRun is a button press's outcome.
type ScriptRun struct {
	Result string `json:"result"`          // the script's return value as text (JSON for objects)
	Error  string `json:"error,omitempty"` // the engine's message when the script failed
}
