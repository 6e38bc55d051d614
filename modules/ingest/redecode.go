package ingest

import (
	"encoding/json"
	"time"

	"github.com/uptrace/bun"
)

// The statuses of a RedecodeJob.
const (
	JobQueued    = "queued"
	JobRunning   = "running"
	JobDone      = "done"
	JobFailed    = "failed"
	JobCancelled = "cancelled"
)

// Message IDs (locale catalog keys) of the re-decode jobs' field errors.
// They keep the decoders' names, under which the decoder page showed them
// first.
const (
	// IDRedecodeTagNotUsing: the node named does not use the decoder.
	IDRedecodeTagNotUsing = "decoders.redecode.tagNotUsing"
	// IDRedecodeNoNodes: no node of the company uses the decoder.
	IDRedecodeNoNodes = "decoders.redecode.noNodes"
	// IDRedecodeRange: the window ends before it starts, or a date is
	// not one.
	IDRedecodeRange = "decoders.redecode.range"
)

// RedecodeJob is a re-decode job, a row of redecode_jobs: the kept uplinks
// (UplinkKey) of a company's nodes that use a decoder, or of one of them,
// in [From, To), decoded again with each node's current decoder. The table
// was made by the decoders module, which ran re-decoding first; its
// migration stays under migrations/decoders.
type RedecodeJob struct {
	bun.BaseModel `bun:"table:redecode_jobs,alias:j" json:"-"`

	ID         int64      `bun:"id,pk,autoincrement" json:"id"`
	CompanyID  int64      `bun:"company_id" json:"companyId"`
	DecoderKey string     `bun:"decoder_key" json:"decoder"`
	TagID      *int64     `bun:"tag_id" json:"tagId"`
	From       time.Time  `bun:"from_at" json:"from"`
	To         time.Time  `bun:"to_at" json:"to"`
	Status     string     `bun:"status" json:"status"`
	NodeIDs    string     `bun:"node_ids" json:"-"`
	NodeIndex  int        `bun:"node_index" json:"nodesDone"`
	CursorAt   *time.Time `bun:"cursor_at" json:"-"`
	Uplinks    int64      `bun:"uplinks" json:"uplinks"`
	Failed     int64      `bun:"failed" json:"failed"`
	Message    string     `bun:"message" json:"message"`
	CreatedBy  *int64     `bun:"created_by" json:"createdBy"`
	CreatedAt  time.Time  `bun:"created_at" json:"createdAt"`
	StartedAt  *time.Time `bun:"started_at" json:"startedAt"`
	FinishedAt *time.Time `bun:"finished_at" json:"finishedAt"`
	UpdatedAt  time.Time  `bun:"updated_at" json:"updatedAt"`

	// Nodes is how many nodes the job covers; Progress is the part done,
	// from 0 to 1. Fill sets both.
	Nodes    int     `bun:"-" json:"nodes"`
	Progress float64 `bun:"-" json:"progress"`
}

// NodeList is the ids of the tags the job covers, in the order it takes
// them (NodeIDs holds them as a JSON array).
func (j *RedecodeJob) NodeList() []int64 {
	var ids []int64
	_ = json.Unmarshal([]byte(j.NodeIDs), &ids)
	return ids
}

// Fill derives Nodes and Progress from the stored columns.
func (j *RedecodeJob) Fill() {
	n := len(j.NodeList())
	j.Nodes = n
	switch {
	case j.Status == JobDone:
		j.Progress = 1
	case n == 0:
		j.Progress = 0
	default:
		part := 0.0
		if j.CursorAt != nil && j.To.After(j.From) {
			part = float64(j.To.Sub(*j.CursorAt)) / float64(j.To.Sub(j.From))
			part = min(max(part, 0), 1)
		}
		j.Progress = min((float64(j.NodeIndex)+part)/float64(n), 1)
	}
}

// Running tells whether the job is still to be carried out: queued or
// running.
func (j *RedecodeJob) Running() bool { return j.Status == JobQueued || j.Status == JobRunning }

// RedecodeBatch is what decoding one node's kept uplinks again did, one
// batch of a re-decode job.
type RedecodeBatch struct {
	// Uplinks is how many stored uplinks were decoded again; 0 when none
	// were left in the window.
	Uplinks int
	// Failed is how many of them the decoder failed on or reported
	// errors for.
	Failed int
	// Oldest is the time of the oldest uplink decoded: the next batch's
	// end.
	Oldest time.Time
}

// Message ids of the audit trail's entries about re-decoding (audit.Change):
// a job queued ({id}, {decoder}, {nodes}, {from}, {to}) and one cancelled.
const (
	AuditRedecodeQueued    = "audit.redecode.queued"
	AuditRedecodeCancelled = "audit.redecode.cancelled"
)
