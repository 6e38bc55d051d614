// Package logs is the contract of the logs module: the log entries of
// SPEC.md section 3 ("Log types: SMS, APP, WARNING, ERROR, USEREVENT,
// LOGIN"), the counts of active users and data points, and the routes of
// section 7 "Logs and notifications":
//
//   - GET /api/logs?type=&from=&to=&deveui=&limit= lists entries, newest
//     first: type is one type or several separated by commas, from and to
//     RFC 3339 times (from included, to not), deveui a node's DevEUI, limit
//     1 to 1000 (default 200, the live log list's length).
//   - GET /api/logs/activeusers counts the users seen in the last 24 hours,
//     7 days and 30 days: a user is seen when they sign in and whenever a
//     session of theirs renews its access token, which a client in use does
//     at least every FIELDHUB_ACCESS_TOKEN_TTL.
//   - GET /api/logs/datapoints counts the data points stored in the last 24
//     hours, in total and per clock hour.
//
// The routes are open to CompanyOrUser roles and answer for one company:
// the caller's own. A caller may name it as ?companyId=; another company's
// id is not found, except for a SuperAdmin, who may name any company and
// otherwise gets the company chosen in the company switcher, else the
// installation (the entries that belong to no company; the active users of
// every company; data points need a company). A user without a company gets
// empty answers.
//
// The module writes entries for the facts other modules publish:
// ingest.DeviceEvent (joins, device status and the network servers' log
// messages as APP, WARNING or ERROR by their level; downlinks, decoders and
// the node pool) and accounts.UserSignedIn (LOGIN; a session renewal only
// counts the user as active). Other modules add entries with
// Service.Record. Entries are written in batches by one goroutine, so that
// the module that records one never waits for the database; each written
// entry is announced as EntryWritten, which the live feed forwards to the
// clients of its company. A daily job deletes the entries older than
// FIELDHUB_LOG_RETENTION_DAYS (0 keeps them).
package logs

import (
	"context"
	"time"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/logs/internal/core"
)

// Entry is one log entry.
type Entry = core.Entry

// The log types of SPEC.md section 3.
const (
	TypeSMS       = core.TypeSMS
	TypeApp       = core.TypeApp
	TypeWarning   = core.TypeWarning
	TypeError     = core.TypeError
	TypeUserEvent = core.TypeUserEvent
	TypeLogin     = core.TypeLogin
)

// Types lists the log types in the order of SPEC.md.
var Types = core.Types

// EntryWritten is published after an entry is stored, with its id.
type EntryWritten = core.EntryWritten

// Limits of an entry and of a list.
const (
	MaxMessage   = core.MaxMessage   // characters of a message; longer ones are cut
	MaxData      = core.MaxData      // bytes of an entry's data as JSON; larger data is dropped
	DefaultLimit = core.DefaultLimit // entries GET /logs lists without ?limit
	MaxLimit     = core.MaxLimit     // the largest ?limit
)

// Service is what other modules may ask of logs.
type Service interface {
	// Record queues an entry to be written: Type is one of the types,
	// Message is required; CreatedAt defaults to now; a DevEUI is stored
	// upper case, and one that is not 16 hexadecimal digits is left out.
	// It never waits: when the queue is full (the database is far behind)
	// the entry is dropped and counted in the metrics. Before Start and
	// after Stop nothing is queued.
	Record(e Entry)
}

// Accounts is the part of accounts.Service that logs uses: whether a
// company exists. It returns an errs.NotFound error for an unknown id.
type Accounts interface {
	Company(ctx context.Context, id int64) (*accounts.Company, error)
}

// Series is the part of tsdb.Store that logs reads: how many data points a
// company's series hold in a window, as tsdb.Store documents.
type Series interface {
	Count(ctx context.Context, company int64, from, to time.Time) (int64, error)
}

// Deps is what the logs module needs. Accounts and Series are required.
type Deps struct {
	Accounts Accounts
	Series   Series
}

// Module is the logs module as the kernel and main.go see it. Start begins
// the writer; Stop writes what is queued and ends it.
type Module interface {
	kernel.Module
	kernel.Router
	kernel.Starter
	kernel.Stopper
	Service
}

// New builds the module and subscribes it to ingest.DeviceEvent and
// accounts.UserSignedIn. It panics when a dependency is missing, so that a
// wiring mistake in main.go stops the program at start.
func New(host *kernel.Host, deps Deps) Module {
	if deps.Accounts == nil || deps.Series == nil {
		panic("logs.New: Deps.Accounts and Deps.Series are required")
	}
	return core.New(host, core.Deps{Accounts: deps.Accounts, Series: deps.Series})
}
