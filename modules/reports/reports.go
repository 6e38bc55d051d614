// Package reports is the contract of the reports module: report
// subscriptions (a named selection of nodes and keys, a type and a tempo,
// mailed to its contacts as a spreadsheet after every day, week or month in
// the company's time zone) and exports on demand. Its routes
// (docs/api/reports.md):
//
//   - GET /api/report/{id}; GET /api/report/company/{companyId}; POST
//     /api/report; PUT and DELETE /api/report/{id}: the subscriptions.
//   - POST /api/report/{id}/send: send the last finished period now.
//   - POST /api/report/preview: the first rows a report would hold.
//   - POST /api/report/multiexport (?companyId= for a SuperAdmin): the
//     nodes and keys of a window as an .xlsx (or .csv) download; 404 with
//     IDNoData when the window holds no value.
//
// All are open to AdminOrCompanyAdmin and act within the caller's company
// (a SuperAdmin's: ?companyId=, else the company switcher's, else their
// own). Another company's report is not found.
//
// A job every minute finds the reports whose period has ended (daily at
// 03:00 for the day before, weekly on Mondays at 03:00 for the week before,
// monthly on the 1st at 03:00 for the month before, in the company's time
// zone) and sends each period once: it claims (report, period) with a
// unique row in the transaction that queues the mail in the kernel's
// outbox, so that several instances, or one that restarts, never send a
// period twice; after a pause only the latest period is sent. Package
// module builds the module; the implementation lives in internal/.
package reports

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/logs"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Report types (SPEC.md section 3).
const (
	TypeRegular = "regular" // every stored value
	TypeTrend   = "trend"   // min, max, mean and last per hour or day
)

// Tempos: how often a report is sent (SPEC.md section 3).
const (
	TempoDaily   = 0
	TempoWeekly  = 1
	TempoMonthly = 2
)

// Resolutions of a trend report's buckets.
const (
	ResolutionHour = "hour"
	ResolutionDay  = "day"
)

// Export formats.
const (
	FormatXLSX = "xlsx"
	FormatCSV  = "csv"
)

// Limits of a report.
const (
	MaxName     = 255
	MaxNodes    = 500
	MaxKeys     = 50
	MaxContacts = 50
	// PreviewRows is how many rows POST /report/preview answers.
	PreviewRows = 20
	// SendHour is the local hour at which a finished period is sent.
	SendHour = 3
)

// Report is a report subscription. The JSON names are SPEC.md's
// (refrenceDate as spelled there).
type Report struct {
	bun.BaseModel `bun:"table:reports,alias:rep" json:"-"`

	ID        int64  `bun:"id,pk,autoincrement" json:"id"`
	CompanyID int64  `bun:"company_id" json:"companyId"`
	Name      string `bun:"name" json:"name"`
	Type      string `bun:"type" json:"type"`
	Tempo     int    `bun:"tempo" json:"tempo"`
	// RefrenceDate (YYYY-MM-DD in the company's time zone) is the first
	// day the report covers: periods that end on or before it are not sent.
	RefrenceDate string `bun:"reference_date" json:"refrenceDate"`
	// ReportContacts are the e-mail addresses it is sent to.
	ReportContacts []string `bun:"report_contacts,type:text" json:"reportContacts"`
	// Nodes are the ids of the tags it covers, Keys the keys of each.
	Nodes []int64  `bun:"node_ids,type:text" json:"nodes"`
	Keys  []string `bun:"report_keys,type:text" json:"keys"`
	// Resolution is a trend report's bucket: hour or day.
	Resolution string     `bun:"resolution" json:"resolution"`
	CreatedAt  time.Time  `bun:"created_at" json:"createdAt"`
	UpdatedAt  time.Time  `bun:"updated_at" json:"updatedAt"`
	LastSent   *time.Time `bun:"last_sent" json:"lastSent"`
}

// Spec is what a file is made of: the nodes and keys of a window, its type
// and, for a trend, its resolution.
type Spec struct {
	Company    int64
	Nodes      []int64
	Keys       []string
	Type       string
	Resolution string
	From, To   time.Time
	Location   *time.Location
}

// Nodes is what the module asks of the nodes module: a company's nodes with
// their names, and the labels and units of their keys.
type Nodes interface {
	CompanyTags(ctx context.Context, companyID int64) ([]*nodes.Tag, error)
	TagKeys(ctx context.Context, tagID int64) ([]nodes.Key, error)
}

// Accounts is what the module asks of accounts: a company (its time zone
// and language).
type Accounts interface {
	Company(ctx context.Context, id int64) (*accounts.Company, error)
}

// Series is the part of the time-series store reports read.
type Series interface {
	Range(ctx context.Context, s tsdb.Series, from, to time.Time, maxPoints int) ([]tsdb.Point, error)
	AggregateEdges(ctx context.Context, s tsdb.Series, edges []time.Time) ([]tsdb.Bucket, error)
}

// Logs records the outcome of a send; the logs module satisfies it.
type Logs interface {
	Record(e logs.Entry)
}

// Module is the reports module as the kernel and the application see it.
type Module interface {
	kernel.Module
	kernel.Router
	kernel.Starter
	// RunDue is one run of the schedule as at now: it sends every
	// report's latest due period that is not sent yet and returns how many
	// it sent. The job calls it every minute; tests call it with a clock
	// of their own.
	RunDue(ctx context.Context, now time.Time) (int, error)
}
