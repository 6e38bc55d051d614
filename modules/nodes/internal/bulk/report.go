package bulk

import "github.com/fieldhub/fieldhub/kernel/i18n"

// Action is what an import does with a row.
type Action string

// The actions of a row: a new node, an existing node of the company that
// the row changes or leaves as it is, and a row that is refused.
const (
	Created   Action = "created"
	Changed   Action = "changed"
	Unchanged Action = "unchanged"
	Refused   Action = "refused"
)

// Reason is why a row is refused: a field (a column) and the message of a
// locale catalog with its arguments.
type Reason struct {
	Field   string         `json:"field"`
	ID      string         `json:"id"`
	Args    map[string]any `json:"args,omitempty"`
	Message string         `json:"message"`
}

// RowReport is what an import does with one row. Row is the row's number
// as a spreadsheet shows it (the header is row 1); Changes names the
// columns a changed row changes.
type RowReport struct {
	Row     int      `json:"row"`
	DevEUI  string   `json:"devEUI"`
	Name    string   `json:"name"`
	Action  Action   `json:"action"`
	Changes []string `json:"changes,omitempty"`
	Reasons []Reason `json:"reasons,omitempty"`
}

// Counts are the rows of each action.
type Counts struct {
	Created   int `json:"created"`
	Changed   int `json:"changed"`
	Unchanged int `json:"unchanged"`
	Refused   int `json:"refused"`
}

// Report is the answer of an import: per row what it does (a dry run) or
// did (Applied). An import with refused rows is not applied: ID and
// Message say so.
type Report struct {
	DryRun  bool        `json:"dryRun"`
	Applied bool        `json:"applied"`
	Counts  Counts      `json:"counts"`
	Rows    []RowReport `json:"rows"`
	ID      string      `json:"id,omitempty"`
	Message string      `json:"message,omitempty"`
}

func (r *Report) add(row RowReport) {
	switch row.Action {
	case Created:
		r.Counts.Created++
	case Changed:
		r.Counts.Changed++
	case Unchanged:
		r.Counts.Unchanged++
	case Refused:
		r.Counts.Refused++
	}
	r.Rows = append(r.Rows, row)
}

// Translate fills the report's messages in lang.
func (r *Report) Translate(cat *i18n.Catalogs, lang string) {
	if r.ID != "" {
		r.Message = cat.T(lang, r.ID, map[string]any{"count": r.Counts.Refused})
	}
	for i := range r.Rows {
		for j := range r.Rows[i].Reasons {
			reason := &r.Rows[i].Reasons[j]
			reason.Message = cat.T(lang, reason.ID, reason.Args)
		}
	}
}
