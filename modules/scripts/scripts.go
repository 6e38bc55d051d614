// Package scripts is the contract of the script engine: a company's
// JavaScript scripts, run in the same wazero sandbox as decoders (QuickJS),
// that compute, react and act (SPEC.md section 7, "Scripts"):
//
//   - GET /api/script/company/{cid} lists the company's scripts.
//   - GET, PUT and DELETE /api/script/{id} read, change and remove one.
//   - POST /api/script/{cid} creates one.
//   - POST /api/script/test/{cid} runs a script's content once against the
//     company's real data without side effects: its writes and sends are
//     recorded and answered, not done. It answers valid, or invalid with
//     the engine's message and line.
//   - GET /api/script/run/{id} runs a script now, for real.
//   - GET /api/script/{id}/runs lists its last runs (the run history).
//
// The routes are AdminOrCompanyAdmin's (SuperAdmin included), for the
// caller's own company: another company's scripts are not found.
//
// Types: looping (TypeLooping) runs every Interval seconds, once across
// instances (the kernel scheduler's job claims each due script with a
// compare-and-swap of its next run); invoked (TypeInvoked) runs only when
// called (the run route, a function button, RunScript); triggered
// (TypeTriggered) runs on every stored uplink of its BoundTag, after the
// uplink's commit, in order per node (ingest.UplinkReceived, through a
// queue per node so that the bus never waits). Values that scripts or
// people write (ingest.UplinkReceived.Source set) trigger nothing, so that
// scripts cannot chase each other in circles.
//
// Each run keeps LastRun, LastResult and LastError on the script and a row
// of the run history (the newest MaxRuns per script). A script that fails
// FailuresToSwitchOff times in a row is switched off (Enabled false), with a
// log entry and a notification to the company's administrators. A run
// refused only by a company-wide ceiling (MaxCompanyWritesPerMinute,
// MaxCompanySendsPerMinute) is recorded with its reason but is not a
// failure of the script.
//
// The host API the JavaScript sees (docs/decisions.md, "Scripts") is
// described in HostAPI; its limits are the Limit constants. Package module
// builds the module; the implementation lives in internal/.
package scripts

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/logs"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/notifications"
)

// The script types (SPEC.md section 3).
const (
	TypeLooping   = 0
	TypeInvoked   = 1
	TypeTriggered = 2
)

// Script is a company's script, as the routes answer it.
type Script struct {
	bun.BaseModel `bun:"table:scripts,alias:sc" json:"-"`

	ID        int64  `bun:"id,pk,autoincrement" json:"id"`
	CompanyID int64  `bun:"company_id" json:"companyId"`
	Name      string `bun:"name" json:"name"`
	Type      int    `bun:"type" json:"type"`
	// Interval is the seconds between the runs of a looping script.
	Interval int        `bun:"interval_s" json:"interval"`
	LastRun  *time.Time `bun:"last_run" json:"lastRun"`
	Enabled  bool       `bun:"enabled" json:"enabled"`
	// BoundTag is the node whose uplinks trigger a triggered script.
	BoundTag *int64 `bun:"bound_tag" json:"boundTag"`
	Content  string `bun:"content" json:"content"`
	// Module is a compiled script (WebAssembly, the ABI of package
	// github.com/fieldhub/fieldhub/sdk/script), run instead of Content when
	// set; base64 in JSON.
	Module []byte `bun:"module" json:"module,omitempty"`
	// LastResult is what the last run returned (JSON), LastError what it
	// failed with ("" when it did not).
	LastResult string `bun:"last_result" json:"lastResult"`
	LastError  string `bun:"last_error" json:"lastError"`
	// Failures counts the runs that failed in a row.
	Failures int `bun:"failures" json:"failures"`
	// NextRun is when a looping script is due.
	NextRun   *time.Time `bun:"next_run" json:"-"`
	CreatedAt time.Time  `bun:"created_at" json:"createdAt"`
	UpdatedAt time.Time  `bun:"updated_at" json:"updatedAt"`
}

// Run is one run of a script, in its history.
type Run struct {
	bun.BaseModel `bun:"table:script_runs,alias:sr" json:"-"`

	ID        int64     `bun:"id,pk,autoincrement" json:"id"`
	ScriptID  int64     `bun:"script_id" json:"scriptId"`
	CompanyID int64     `bun:"company_id" json:"-"`
	StartedAt time.Time `bun:"started_at" json:"startedAt"`
	// DurationMS is how long the run took, sandbox and actions.
	DurationMS int64 `bun:"duration_ms" json:"durationMs"`
	// Cause is what started it: CauseLoop, CauseInvoke, CauseTrigger.
	Cause  string `bun:"cause" json:"cause"`
	Result string `bun:"result" json:"result"`
	Error  string `bun:"error" json:"error"`
	// Actions counts the writes and sends it did.
	Actions int `bun:"actions" json:"actions"`
}

// What started a run.
const (
	CauseLoop    = "loop"
	CauseInvoke  = "invoke"
	CauseTrigger = "trigger"
)

// Input is the body of POST /script/{cid} and PUT /script/{id}.
type Input struct {
	Name     *string `json:"name"`
	Type     *int    `json:"type"`
	Interval *int    `json:"interval"`
	Enabled  *bool   `json:"enabled"`
	BoundTag *int64  `json:"boundTag"`
	Content  *string `json:"content"`
	// Module replaces the compiled script; an empty one removes it.
	Module *[]byte `json:"module"`
}

// TestInput is the body of POST /script/test/{cid}: the content to run and,
// for a triggered script, the node whose latest uplink is the trigger.
type TestInput struct {
	Content  string `json:"content"`
	Module   []byte `json:"module"`
	BoundTag *int64 `json:"boundTag"`
}

// Outcome is what a run (or a test) did: what it returned, the engine's
// message and line when it failed, the actions it did (a test: would do)
// and its console output.
type Outcome struct {
	Valid   bool     `json:"valid"`
	Result  any      `json:"result"`
	Error   string   `json:"error,omitempty"`
	Line    int      `json:"line,omitempty"`
	Actions []Action `json:"actions"`
	Log     []string `json:"log"`
}

// Action is a write or a send a script asked for.
type Action struct {
	// Kind is one of the Action kinds.
	Kind string `json:"kind"`
	// TagID names the node of a write or a downlink.
	TagID int64 `json:"tagId,omitempty"`
	// Values are a write's, by key; Time its time ("" for now).
	Values map[string]any `json:"values,omitempty"`
	Time   string         `json:"time,omitempty"`
	// Port, Payload (hex) and Confirmed are a downlink's.
	Port      int    `json:"port,omitempty"`
	Payload   string `json:"payload,omitempty"`
	Confirmed bool   `json:"confirmed,omitempty"`
	// To, Subject and Text are a mail's, an SMS's (To, Text), a
	// notification's (Subject is its label, Text its message) or a log
	// entry's (Text).
	To      []string `json:"to,omitempty"`
	Subject string   `json:"subject,omitempty"`
	Text    string   `json:"text,omitempty"`
}

// The kinds of Action.
const (
	ActionWrite    = "write"
	ActionDownlink = "downlink"
	ActionNotify   = "notify"
	ActionMail     = "mail"
	ActionSMS      = "sms"
	ActionLog      = "log"
)

// Limits of scripts (docs/decisions.md, "Scripts").
const (
	// MaxContent is the longest script, in bytes.
	MaxContent = 64 << 10
	// MaxModule is the largest compiled script, in bytes.
	MaxModule = 8 << 20
	// MaxName is the longest name, in characters.
	MaxName = 255
	// RunTime and RunMemory bound each pass of a run in the sandbox.
	RunTime   = 500 * time.Millisecond
	RunMemory = 16 << 20
	// MaxPasses is how many times a run may be started again to fetch
	// what it reads (HostAPI).
	MaxPasses = 4
	// MaxReads is how many reads one run may make.
	MaxReads = 50
	// MaxRangePoints is the most points a range read answers (downsampled).
	MaxRangePoints = 500
	// MaxWritesPerRun and MaxSendsPerRun bound one run's actions: writes
	// (and log entries), and sends (downlinks, notifications, mails, SMS).
	MaxWritesPerRun = 20
	MaxSendsPerRun  = 5
	// MaxScriptWritesPerMinute and MaxScriptSendsPerMinute bound one
	// script's writes and sends in a minute, counted across instances: an
	// action past them fails the run, which counts towards switching the
	// script off. A virtual sensor on a node that sends every 6 s writes 10
	// times a minute; one on a node that sends 10 times a second, 600.
	MaxScriptWritesPerMinute = 1200
	MaxScriptSendsPerMinute  = 10
	// MaxCompanyWritesPerMinute and MaxCompanySendsPerMinute bound a
	// company's scripts together in a minute, counted across instances: an
	// action past them is refused (the run says why) without being held
	// against the script, which may have done nothing wrong. The writes'
	// ceiling is twice a virtual sensor for every uplink at 1,000 uplinks a
	// second; sends cost money and stay few.
	MaxCompanyWritesPerMinute = 120_000
	MaxCompanySendsPerMinute  = 30
	// FailuresToSwitchOff is how many failed runs in a row switch a
	// script off.
	FailuresToSwitchOff = 5
	// MaxRuns is how many runs the history keeps per script.
	MaxRuns = 50
	// MaxLog is how many console lines a run keeps.
	MaxLog = 50
)

// Message ids (locale catalog keys) of the module.
const (
	IDIntervalRequired = "scripts.interval.required" // "This field must be filled"
	IDIntervalMin      = "scripts.interval.min"      // "The minimum value for the interval is 0"
	IDTypeInvalid      = "scripts.type.invalid"
	IDBoundTagRequired = "scripts.boundTag.required"
	IDBoundTagUnknown  = "scripts.boundTag.unknown"
	IDContentTooLong   = "scripts.content.tooLong"
	IDModuleTooLarge   = "scripts.module.tooLarge"
	IDNotInvoked       = "scripts.notInvoked"
	// IDSwitchedOff is the log entry and notification of a script switched
	// off for failing again and again ({name}, {failures}, {error}).
	IDSwitchedOff      = "scripts.switchedOff"
	IDSwitchedOffLabel = "scripts.switchedOff.label"
	// IDCompanyWrites and IDCompanySends are the WARNING log entry of a
	// company whose scripts reached the company-wide ceiling of writes or
	// sends this minute ({max}).
	IDCompanyWrites = "scripts.limit.companyWrites"
	IDCompanySends  = "scripts.limit.companySends"
	// IDLogEntry is a script's own log entry ({name}: {text}).
	IDLogEntry = "scripts.logEntry"
	// Audit trail entries.
	AuditCreated = "audit.script.created"
	AuditUpdated = "audit.script.updated"
	AuditDeleted = "audit.script.deleted"
)

// Ref names a script; RunOutcome is a run's result for a function button.
// They are the look-alikes of dashboards.ScriptRef and dashboards.ScriptRun.
type Ref struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// RunOutcome is what a button press answers.
type RunOutcome struct {
	Result string `json:"result"`
	Error  string `json:"error,omitempty"`
}

// Service is what other modules may ask of the script engine.
type Service interface {
	// InvokedScripts lists the company's scripts of type invoked.
	InvokedScripts(ctx context.Context, companyID int64) ([]Ref, error)
	// RunScript runs one of the company's invoked scripts now, for real.
	// Another company's, or one of another type, is errs.NotFound.
	RunScript(ctx context.Context, companyID, scriptID int64) (RunOutcome, error)
}

// Module is the scripts module as the kernel and the application see it.
type Module interface {
	kernel.Module
	kernel.Router
	kernel.Starter
	kernel.Stopper
	Service
}

// Tags finds the nodes scripts name; an unknown id is errs.NotFound.
type Tags interface {
	Tag(ctx context.Context, id int64) (*nodes.Tag, error)
}

// Nodes lists a company's nodes, for the editor's choice of the
// triggering node; the nodes module satisfies it.
type Nodes interface {
	Tags
	CompanyTags(ctx context.Context, companyID int64) ([]*nodes.Tag, error)
}

// Series reads the values scripts read.
type Series interface {
	Range(ctx context.Context, s tsdb.Series, from, to time.Time, maxPoints int) ([]tsdb.Point, error)
	Latest(ctx context.Context, s tsdb.Series) (tsdb.Point, bool, error)
}

// Downlinks queues a script's downlink for a node of the company; the
// netservers module satisfies it.
type Downlinks interface {
	QueueDownlink(ctx context.Context, companyID, tagID int64, d netservers.DownlinkRequest) (*netservers.Downlink, error)
}

// Notifier adds notifications; the notifications module satisfies it.
type Notifier interface {
	NotifyCompany(ctx context.Context, idb bun.IDB, companyID int64, n notifications.New) error
}

// Logs records log entries; the logs module satisfies it.
type Logs interface {
	Record(e logs.Entry)
}

// Values writes a script's values; the ingest module satisfies it.
type Values = ingest.Values
