// Package store holds the ingest's queries on its table redecode_jobs (made
// by the migration under migrations/decoders, from the time the decoders
// module ran re-decoding). Each function takes the bun.IDB to run on.
package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/ingest"
)

// open are the statuses of a job still to be carried out.
var open = []string{ingest.JobQueued, ingest.JobRunning}

// Jobs lists a company's jobs, newest first, at most limit; decoderKey ""
// for all decoders.
func Jobs(ctx context.Context, idb bun.IDB, company int64, decoderKey string, limit int) ([]ingest.RedecodeJob, error) {
	list := []ingest.RedecodeJob{}
	q := idb.NewSelect().Model(&list).Where("company_id = ?", company)
	if decoderKey != "" {
		q = q.Where("decoder_key = ?", decoderKey)
	}
	if err := q.Order("id DESC").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("list re-decode jobs of company %d: %w", company, err)
	}
	for i := range list {
		list[i].Fill()
	}
	return list, nil
}

// Job loads job id; an unknown one is an errs.NotFound error.
func Job(ctx context.Context, idb bun.IDB, id int64) (*ingest.RedecodeJob, error) {
	j := new(ingest.RedecodeJob)
	err := idb.NewSelect().Model(j).Where("id = ?", id).Scan(ctx)
	if db.IsNoRows(err) {
		return nil, errs.New(errs.NotFound, errs.IDNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("load re-decode job %d: %w", id, err)
	}
	j.Fill()
	return j, nil
}

// Insert adds j and sets its id.
func Insert(ctx context.Context, idb bun.IDB, j *ingest.RedecodeJob) error {
	if _, err := idb.NewInsert().Model(j).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert re-decode job: %w", err)
	}
	return nil
}

// Cancel cancels job id if it is queued or running.
func Cancel(ctx context.Context, idb bun.IDB, id int64) error {
	now := time.Now().UTC()
	_, err := idb.NewUpdate().Model((*ingest.RedecodeJob)(nil)).Set("status = ?, finished_at = ?, updated_at = ?", ingest.JobCancelled, now, now).
		Where("id = ? AND status IN (?)", id, bun.In(open)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("cancel re-decode job %d: %w", id, err)
	}
	return nil
}

// Next loads the oldest job queued or running; found is false for none.
func Next(ctx context.Context, idb bun.IDB) (j *ingest.RedecodeJob, found bool, err error) {
	j = new(ingest.RedecodeJob)
	err = idb.NewSelect().Model(j).Where("status IN (?)", bun.In(open)).Order("id").Limit(1).Scan(ctx)
	if db.IsNoRows(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("next re-decode job: %w", err)
	}
	return j, true, nil
}

// Begin marks job id running (started now, unless it had started before);
// ok is false when it was cancelled meanwhile.
func Begin(ctx context.Context, idb bun.IDB, id int64) (ok bool, err error) {
	now := time.Now().UTC()
	res, err := idb.NewUpdate().Model((*ingest.RedecodeJob)(nil)).Set("status = ?, started_at = COALESCE(started_at, ?), updated_at = ?", ingest.JobRunning, now, now).
		Where("id = ? AND status IN (?)", id, bun.In(open)).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("start re-decode job %d: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// SaveProgress records a running job's progress: its node index, cursor
// and counts; ok is false when it is no longer running (cancelled).
func SaveProgress(ctx context.Context, idb bun.IDB, j *ingest.RedecodeJob) (ok bool, err error) {
	res, err := idb.NewUpdate().Model((*ingest.RedecodeJob)(nil)).
		Set("node_index = ?, cursor_at = ?, uplinks = ?, failed = ?, updated_at = ?", j.NodeIndex, j.CursorAt, j.Uplinks, j.Failed, time.Now().UTC()).
		Where("id = ? AND status = ?", j.ID, ingest.JobRunning).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("record progress of re-decode job %d: %w", j.ID, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// Finish ends a running job with status and message.
func Finish(ctx context.Context, idb bun.IDB, id int64, status, message string) error {
	now := time.Now().UTC()
	_, err := idb.NewUpdate().Model((*ingest.RedecodeJob)(nil)).Set("status = ?, message = ?, finished_at = ?, updated_at = ?", status, message, now, now).
		Where("id = ? AND status = ?", id, ingest.JobRunning).Exec(ctx)
	return err
}
