package core

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// Re-decoding: a job decodes the kept uplinks (UplinkKey) of a company's
// nodes that use a decoder, or of one of them, in a time window, again
// with each node's current decoder, and the values replace the stored ones.
// Jobs are rows of redecode_jobs, carried out by the scheduler job
// decoders.redecode on one instance at a time, which keeps the progress in
// the row after every batch of uplinks, so that the decoder page shows it
// and a job left by a stopped instance goes on where it was.

// The statuses of a job.
const (
	jobQueued    = "queued"
	jobRunning   = "running"
	jobDone      = "done"
	jobFailed    = "failed"
	jobCancelled = "cancelled"
)

const (
	redecodeJob     = "redecode"
	redecodeEvery   = 10 * time.Second
	redecodeBatch   = 500 // uplinks per Redecode call, between progress updates
	maxJobsListed   = 50
	msgTagNotUsing  = "decoders.redecode.tagNotUsing"
	msgNoNodes      = "decoders.redecode.noNodes"
	msgRangeInvalid = "decoders.redecode.range"
)

// Job is a re-decode job.
type Job struct {
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
	// from 0 to 1.
	Nodes    int     `bun:"-" json:"nodes"`
	Progress float64 `bun:"-" json:"progress"`
}

func (j *Job) nodeIDs() []int64 {
	var ids []int64
	_ = json.Unmarshal([]byte(j.NodeIDs), &ids)
	return ids
}

// fill derives Nodes and Progress.
func (j *Job) fill() {
	n := len(j.nodeIDs())
	j.Nodes = n
	switch {
	case j.Status == jobDone:
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

func (m *Module) uplinks() Uplinks {
	if m.deps.Uplinks == nil {
		return nil
	}
	return m.deps.Uplinks()
}

// canRedecode tells whether the module was given what re-decoding needs.
func (m *Module) canRedecode() bool { return m.deps.Uplinks != nil && m.deps.Nodes != nil }

func (m *Module) redecodeRoutes(r *web.ModuleRoutes) {
	if !m.canRedecode() {
		return
	}
	r.API("GET /companies/{companyId}/redecode", auth.AdminOrCompanyAdmin, m.listJobs)
	r.API("POST /companies/{companyId}/redecode", auth.AdminOrCompanyAdmin, m.createJob)
	r.API("GET /redecode/{jobId}", auth.AdminOrCompanyAdmin, m.getJob)
	r.API("POST /redecode/{jobId}/cancel", auth.AdminOrCompanyAdmin, m.cancelJob)
}

// startJobs schedules the re-decode job.
func (m *Module) startJobs() error {
	if !m.canRedecode() {
		return nil
	}
	return m.host.Scheduler.Every("decoders", redecodeJob, redecodeEvery, true, m.runJobs)
}

// jobs lists a company's jobs, newest first; decoderKey "" for all.
func (m *Module) jobs(ctx context.Context, company int64, decoderKey string) ([]Job, error) {
	list := []Job{}
	q := m.db.NewSelect().Model(&list).Where("company_id = ?", company)
	if decoderKey != "" {
		q = q.Where("decoder_key = ?", decoderKey)
	}
	if err := q.Order("id DESC").Limit(maxJobsListed).Scan(ctx); err != nil {
		return nil, fmt.Errorf("list re-decode jobs of company %d: %w", company, err)
	}
	for i := range list {
		list[i].fill()
	}
	return list, nil
}

func (m *Module) job(ctx context.Context, id int64) (*Job, error) {
	j := new(Job)
	err := m.db.NewSelect().Model(j).Where("id = ?", id).Scan(ctx)
	if db.IsNoRows(err) {
		return nil, errs.New(errs.NotFound, errs.IDNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("load re-decode job %d: %w", id, err)
	}
	j.fill()
	return j, nil
}

// listJobs answers GET /companies/{companyId}/redecode[?decoder=key].
func (m *Module) listJobs(w http.ResponseWriter, r *http.Request) error {
	company, err := m.pathCompany(r, true)
	if err != nil {
		return err
	}
	list, err := m.jobs(r.Context(), company, r.URL.Query().Get("decoder"))
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

// jobInput is the body of POST /companies/{companyId}/redecode.
type jobInput struct {
	Decoder *string    `json:"decoder"`
	TagID   *int64     `json:"tagId"`
	From    *time.Time `json:"from"`
	To      *time.Time `json:"to"`
}

// createJob answers POST /companies/{companyId}/redecode.
func (m *Module) createJob(w http.ResponseWriter, r *http.Request) error {
	company, err := m.pathCompany(r, true)
	if err != nil {
		return err
	}
	var in jobInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	j, err := m.createRedecode(r.Context(), company, in)
	if err != nil {
		return err
	}
	return web.Created(w, j)
}

// createRedecode validates in and queues the job: the nodes of company
// that use the decoder (or the one named), over [from, to).
func (m *Module) createRedecode(ctx context.Context, company int64, in jobInput) (*Job, error) {
	v := &errs.Validation{}
	key := ""
	if in.Decoder == nil || *in.Decoder == "" {
		v.Add("decoder", errs.IDRequired)
	} else {
		key = *in.Decoder
		ok, err := m.Has(ctx, company, key)
		if err != nil {
			return nil, err
		}
		if !ok {
			v.Add("decoder", IDUnknown)
		}
	}
	if in.From == nil {
		v.Add("from", errs.IDRequired)
	}
	if in.To == nil {
		v.Add("to", errs.IDRequired)
	}
	if in.From != nil && in.To != nil && !in.From.Before(*in.To) {
		v.Add("to", msgRangeInvalid)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	users, err := m.nodes().DecoderNodes(ctx, company, key)
	if err != nil {
		return nil, fmt.Errorf("nodes of decoder %s: %w", key, err)
	}
	ids := make([]int64, 0, len(users))
	for _, n := range users {
		if in.TagID == nil || n.ID == *in.TagID {
			ids = append(ids, n.ID)
		}
	}
	switch {
	case in.TagID != nil && len(ids) == 0:
		v.Add("tagId", msgTagNotUsing)
	case len(ids) == 0:
		v.Add("decoder", msgNoNodes)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	slices.Sort(ids)
	idsJSON, _ := json.Marshal(ids)
	now := time.Now().UTC()
	j := &Job{CompanyID: company, DecoderKey: key, TagID: in.TagID, From: in.From.UTC(), To: in.To.UTC(), Status: jobQueued,
		NodeIDs: string(idsJSON), CreatedAt: now, UpdatedAt: now}
	if c := auth.CallerFrom(ctx); c.UserID != 0 {
		j.CreatedBy = &c.UserID
	}
	if _, err := m.db.NewInsert().Model(j).Returning("id").Exec(ctx); err != nil {
		return nil, fmt.Errorf("insert re-decode job: %w", err)
	}
	if err := m.host.Scheduler.RunNow("decoders", redecodeJob); err != nil {
		m.log.Debug("re-decode job not nudged; its next round takes the job", "err", err)
	}
	j.fill()
	return j, nil
}

// pathJob loads the path's job if the caller manages its company.
func (m *Module) pathJob(r *http.Request) (*Job, error) {
	id, err := web.PathID(r, "jobId")
	if err != nil {
		return nil, err
	}
	j, err := m.job(r.Context(), id)
	if err != nil {
		return nil, err
	}
	if err := scoped(r.Context(), j.CompanyID, true); err != nil {
		return nil, err
	}
	return j, nil
}

// getJob answers GET /redecode/{jobId}: the job with its progress.
func (m *Module) getJob(w http.ResponseWriter, r *http.Request) error {
	j, err := m.pathJob(r)
	if err != nil {
		return err
	}
	return web.OK(w, j)
}

// cancelJob answers POST /redecode/{jobId}/cancel: a queued or running job
// stops after the batch under way (what it stored stays).
func (m *Module) cancelJob(w http.ResponseWriter, r *http.Request) error {
	j, err := m.pathJob(r)
	if err != nil {
		return err
	}
	if err := m.cancel(r.Context(), j.ID); err != nil {
		return err
	}
	if j, err = m.job(r.Context(), j.ID); err != nil {
		return err
	}
	return web.OK(w, j)
}

func (m *Module) cancel(ctx context.Context, id int64) error {
	now := time.Now().UTC()
	_, err := m.db.NewUpdate().Model((*Job)(nil)).Set("status = ?, finished_at = ?, updated_at = ?", jobCancelled, now, now).
		Where("id = ? AND status IN (?)", id, bun.In([]string{jobQueued, jobRunning})).Exec(ctx)
	if err != nil {
		return fmt.Errorf("cancel re-decode job %d: %w", id, err)
	}
	return nil
}

// runJobs carries out the queued jobs, oldest first, and a job a stopped
// instance left running, until none is left or ctx ends.
func (m *Module) runJobs(ctx context.Context) error {
	up := m.uplinks()
	if up == nil {
		return nil
	}
	for ctx.Err() == nil {
		j := new(Job)
		err := m.db.NewSelect().Model(j).Where("status IN (?)", bun.In([]string{jobQueued, jobRunning})).Order("id").Limit(1).Scan(ctx)
		if db.IsNoRows(err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("next re-decode job: %w", err)
		}
		if err := m.runJob(ctx, up, j); err != nil {
			if ctx.Err() != nil {
				return nil // goes on at the next start
			}
			m.log.Error("re-decode job failed", "job_id", j.ID, "err", err)
			m.finish(context.WithoutCancel(ctx), j.ID, jobFailed, err.Error())
		}
	}
	return nil
}

// runJob decodes a job's uplinks node by node, newest first, keeping the
// progress after every batch. It returns nil when the job is done or was
// cancelled.
func (m *Module) runJob(ctx context.Context, up Uplinks, j *Job) error {
	now := time.Now().UTC()
	res, err := m.db.NewUpdate().Model((*Job)(nil)).Set("status = ?, started_at = COALESCE(started_at, ?), updated_at = ?", jobRunning, now, now).
		Where("id = ? AND status IN (?)", j.ID, bun.In([]string{jobQueued, jobRunning})).Exec(ctx)
	if err != nil {
		return fmt.Errorf("start re-decode job %d: %w", j.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil // cancelled meanwhile
	}
	ids := j.nodeIDs()
	for j.NodeIndex < len(ids) {
		to := j.To
		if j.CursorAt != nil {
			to = *j.CursorAt
		}
		b, err := up.Redecode(ctx, j.CompanyID, ids[j.NodeIndex], j.From, to, redecodeBatch)
		switch {
		case errs.Is(err, errs.NotFound):
			// The node went, or moved to another company: nothing of it
			// is this company's to decode any more.
			b = RedecodeBatch{}
		case err != nil:
			return fmt.Errorf("node %d: %w", ids[j.NodeIndex], err)
		}
		if b.Uplinks == 0 {
			j.NodeIndex++
			j.CursorAt = nil
		} else {
			oldest := b.Oldest.UTC()
			j.CursorAt = &oldest
			j.Uplinks += int64(b.Uplinks)
			j.Failed += int64(b.Failed)
		}
		res, err := m.db.NewUpdate().Model((*Job)(nil)).
			Set("node_index = ?, cursor_at = ?, uplinks = ?, failed = ?, updated_at = ?", j.NodeIndex, j.CursorAt, j.Uplinks, j.Failed, time.Now().UTC()).
			Where("id = ? AND status = ?", j.ID, jobRunning).Exec(context.WithoutCancel(ctx))
		if err != nil {
			return fmt.Errorf("record progress of re-decode job %d: %w", j.ID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil // cancelled
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	m.finish(ctx, j.ID, jobDone, "")
	return nil
}

// finish ends a running job.
func (m *Module) finish(ctx context.Context, id int64, status, message string) {
	now := time.Now().UTC()
	_, err := m.db.NewUpdate().Model((*Job)(nil)).Set("status = ?, message = ?, finished_at = ?, updated_at = ?", status, message, now, now).
		Where("id = ? AND status = ?", id, jobRunning).Exec(ctx)
	if err != nil {
		m.log.Error("finish re-decode job", "job_id", id, "err", err)
	}
}
