package redecode

import (
	"context"
	"fmt"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/store"
)

// run carries out the queued jobs, oldest first, and a job a stopped
// instance left running, until none is left or ctx ends.
func (s *Jobs) run(ctx context.Context) error {
	for ctx.Err() == nil {
		j, found, err := store.Next(ctx, s.db)
		if err != nil {
			return err
		}
		if !found {
			return nil
		}
		if err := s.runJob(ctx, j); err != nil {
			if ctx.Err() != nil {
				return nil // goes on at the next start
			}
			s.log.Error("re-decode job failed", "job_id", j.ID, "err", err)
			s.finish(context.WithoutCancel(ctx), j.ID, ingest.JobFailed, err.Error())
		}
	}
	return nil
}

// runJob decodes a job's uplinks node by node, newest first, keeping the
// progress after every batch. It returns nil when the job is done or was
// cancelled.
func (s *Jobs) runJob(ctx context.Context, j *ingest.RedecodeJob) error {
	ok, err := store.Begin(ctx, s.db, j.ID)
	if err != nil {
		return err
	}
	if !ok {
		return nil // cancelled meanwhile
	}
	ids := j.NodeList()
	for j.NodeIndex < len(ids) {
		to := j.To
		if j.CursorAt != nil {
			to = *j.CursorAt
		}
		b, err := s.deps.Uplinks.Redecode(ctx, j.CompanyID, ids[j.NodeIndex], j.From, to, batchSize)
		switch {
		case errs.Is(err, errs.NotFound):
			// The node went, or moved to another company: nothing of it
			// is this company's to decode any more.
			b = ingest.RedecodeBatch{}
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
		ok, err := store.SaveProgress(context.WithoutCancel(ctx), s.db, j)
		if err != nil {
			return err
		}
		if !ok {
			return nil // cancelled
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	s.finish(ctx, j.ID, ingest.JobDone, "")
	return nil
}

// finish ends a running job.
func (s *Jobs) finish(ctx context.Context, id int64, status, message string) {
	if err := store.Finish(ctx, s.db, id, status, message); err != nil {
		s.log.Error("finish re-decode job", "job_id", id, "err", err)
	}
}
