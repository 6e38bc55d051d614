// Package redecode carries out the re-decode jobs: a job decodes the kept
// uplinks (ingest.UplinkKey) of a company's nodes that use a decoder, or of
// one of them, in a time window, again with each node's current decoder,
// and the values replace the stored ones. Jobs are rows of redecode_jobs,
// carried out by the scheduler job ingest.redecode on one instance at a
// time, which keeps the progress in the row after every batch of uplinks,
// so that the decoder page shows it and a job left by a stopped instance
// goes on where it was.
package redecode

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/audit"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/store"
)

const (
	// schedulerJob is the scheduler job's name, under the module "ingest".
	schedulerJob = "redecode"
	every        = 10 * time.Second
	batchSize    = 500 // uplinks per Redecode call, between progress updates
	maxListed    = 50
)

// Uplinks decodes the kept uplinks of one node of a company again: the
// pipeline.
type Uplinks interface {
	Redecode(ctx context.Context, company, tagID int64, from, to time.Time, limit int) (ingest.RedecodeBatch, error)
}

// Deps are what the jobs need.
type Deps struct {
	// Users are the nodes that use a decoder; Keys check a job's decoder.
	Users ingest.DecoderUsers
	Keys  ingest.DecoderKeys
	// Uplinks decodes a node's uplinks.
	Uplinks Uplinks
	// Companies, when set, tells whether the company of a route exists.
	Companies ingest.Companies
}

// Jobs makes, lists, cancels and carries out re-decode jobs.
type Jobs struct {
	host *kernel.Host
	db   *bun.DB
	log  *slog.Logger
	deps Deps
}

// New returns the jobs service.
func New(host *kernel.Host, deps Deps) *Jobs {
	return &Jobs{host: host, db: host.DB, log: host.Logger("ingest"), deps: deps}
}

// Schedule adds the scheduler job that carries out the jobs, every 10
// seconds and when a job is made, on one instance at a time.
func (s *Jobs) Schedule() error {
	return s.host.Scheduler.Every("ingest", schedulerJob, every, true, s.run)
}

// List lists a company's jobs, newest first (the last 50); decoderKey ""
// for all decoders.
func (s *Jobs) List(ctx context.Context, company int64, decoderKey string) ([]ingest.RedecodeJob, error) {
	return store.Jobs(ctx, s.db, company, decoderKey, maxListed)
}

// Job loads job id, whoever's it is.
func (s *Jobs) Job(ctx context.Context, id int64) (*ingest.RedecodeJob, error) {
	return store.Job(ctx, s.db, id)
}

// Input is a job to make, the body of POST
// /api/companies/{companyId}/redecode.
type Input struct {
	Decoder *string    `json:"decoder"`
	TagID   *int64     `json:"tagId"`
	From    *time.Time `json:"from"`
	To      *time.Time `json:"to"`
}

// Create validates in and queues the job: the nodes of company that use
// the decoder (or the one named), over [from, to).
func (s *Jobs) Create(ctx context.Context, company int64, in Input) (*ingest.RedecodeJob, error) {
	v := &errs.Validation{}
	key := ""
	if in.Decoder == nil || *in.Decoder == "" {
		v.Add("decoder", errs.IDRequired)
	} else {
		key = *in.Decoder
		ok, err := s.deps.Keys.Has(ctx, company, key)
		if err != nil {
			return nil, err
		}
		if !ok {
			v.AddArgs("decoder", decoders.IDUnknown, map[string]any{"key": key})
		}
	}
	if in.From == nil {
		v.Add("from", errs.IDRequired)
	}
	if in.To == nil {
		v.Add("to", errs.IDRequired)
	}
	if in.From != nil && in.To != nil && !in.From.Before(*in.To) {
		v.Add("to", ingest.IDRedecodeRange)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	users, err := s.deps.Users.DecoderNodes(ctx, company, key)
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
		v.Add("tagId", ingest.IDRedecodeTagNotUsing)
	case len(ids) == 0:
		v.Add("decoder", ingest.IDRedecodeNoNodes)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	slices.Sort(ids)
	idsJSON, _ := json.Marshal(ids)
	now := time.Now().UTC()
	j := &ingest.RedecodeJob{CompanyID: company, DecoderKey: key, TagID: in.TagID, From: in.From.UTC(), To: in.To.UTC(), Status: ingest.JobQueued,
		NodeIDs: string(idsJSON), CreatedAt: now, UpdatedAt: now}
	if c := auth.CallerFrom(ctx); c.UserID != 0 {
		j.CreatedBy = &c.UserID
	}
	if err := store.Insert(ctx, s.db, j); err != nil {
		return nil, err
	}
	if err := s.host.Scheduler.RunNow("ingest", schedulerJob); err != nil {
		s.log.Debug("re-decode job not nudged; its next round takes the job", "err", err)
	}
	j.Fill()
	audit.Announce(ctx, s.host.Bus, audit.Change{CompanyID: company, MessageID: ingest.AuditRedecodeQueued,
		Args: map[string]any{"id": j.ID, "decoder": key, "nodes": len(ids), "from": j.From.Format(time.RFC3339), "to": j.To.Format(time.RFC3339)}})
	return j, nil
}

// Cancel cancels j, a queued or running job: it stops after the batch
// under way (what it stored stays).
func (s *Jobs) Cancel(ctx context.Context, j *ingest.RedecodeJob) error {
	if err := store.Cancel(ctx, s.db, j.ID); err != nil {
		return err
	}
	audit.Announce(ctx, s.host.Bus, audit.Change{CompanyID: j.CompanyID, MessageID: ingest.AuditRedecodeCancelled,
		Args: map[string]any{"id": j.ID, "decoder": j.DecoderKey}})
	return nil
}

// Scoped lets the caller at company id: another company's things are not
// found; manage asks for the right to change them.
func Scoped(ctx context.Context, id int64, manage bool) error {
	c := auth.CallerFrom(ctx)
	if !c.CanSeeCompany(id) {
		return errs.New(errs.NotFound, errs.IDNotFound)
	}
	if manage && !c.CanManageCompany(id) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	return nil
}

// PathCompany is the path's {companyId} if the caller manages it and, with
// Deps.Companies, it exists.
func (s *Jobs) PathCompany(r *http.Request) (int64, error) {
	id, err := web.PathID(r, "companyId")
	if err != nil {
		return 0, err
	}
	if err := Scoped(r.Context(), id, true); err != nil {
		return 0, err
	}
	if s.deps.Companies != nil {
		if _, err := s.deps.Companies.Company(r.Context(), id); err != nil {
			return 0, err
		}
	}
	return id, nil
}

// PathJob loads the path's {jobId} if the caller manages its company.
func (s *Jobs) PathJob(r *http.Request) (*ingest.RedecodeJob, error) {
	id, err := web.PathID(r, "jobId")
	if err != nil {
		return nil, err
	}
	j, err := store.Job(r.Context(), s.db, id)
	if err != nil {
		return nil, err
	}
	if err := Scoped(r.Context(), j.CompanyID, true); err != nil {
		return nil, err
	}
	return j, nil
}
