// Package downlinks is the queue of downlinks of the nodes module: the
// messages people queue for a node, which the ingest's downlink worker
// hands to the network server and whose outcome it records. It keeps its
// own queries and validation, apart from the tags, so that the queue can
// become a module of its own; its JSON routes are in httpapi/downlinks.go
// and its part of the node details page in pages/downlinks.go.
package downlinks

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/access"
)

// maxQueued bounds one read of the downlink queue.
const maxQueued = 1000

// Queue is the downlink queue.
type Queue struct {
	host *kernel.Host
	db   *bun.DB
}

// New builds the queue on the host's database.
func New(host *kernel.Host) *Queue { return &Queue{host: host, db: host.DB} }

func now() time.Time { return time.Now().UTC() }

// OfTag lists the downlinks of t, newest first.
func (q *Queue) OfTag(ctx context.Context, t *nodes.Tag) ([]nodes.Downlink, error) {
	return ofTag(ctx, q.db, t.ID)
}

// Add validates in and queues it for t, a tag the caller manages, for the
// downlink worker, and announces it. The API and the /tagdetails page both
// use it.
func (q *Queue) Add(ctx context.Context, t *nodes.Tag, in Input) (*nodes.Downlink, error) {
	d, err := newDownlink(t, in)
	if err != nil {
		return nil, err
	}
	uid := auth.CallerFrom(ctx).UserID
	d.CreatedBy = &uid
	d.CreatedAt, d.UpdatedAt = now(), now()
	if err := insert(ctx, q.db, d); err != nil {
		return nil, err
	}
	q.host.Bus.Publish(ctx, nodes.DownlinkCreated{DownlinkID: d.ID, TagID: d.TagID, CompanyID: d.CompanyID, ApplicationID: d.ApplicationID})
	return d, nil
}

// Remove takes back downlink id, of a tag the caller manages. Only a
// downlink still queued can be taken back; one the worker has handed on is
// a conflict.
func (q *Queue) Remove(ctx context.Context, id int64) error {
	d, err := byID(ctx, q.db, id)
	if err != nil {
		return err
	}
	if err := access.Scoped(ctx, d.CompanyID, true); err != nil {
		return err
	}
	removed, err := deleteQueued(ctx, q.db, id)
	if err != nil {
		return err
	}
	if !removed {
		return errs.New(errs.Conflict, nodes.IDDownlinkNotQueued)
	}
	return nil
}

// Queued returns up to limit queued downlinks that are due (never tried,
// or past their RetryAt), oldest first; with networkServers, only those of
// applications that name one of them.
func (q *Queue) Queued(ctx context.Context, limit int, networkServers ...string) ([]nodes.Downlink, error) {
	if limit <= 0 || limit > maxQueued {
		limit = maxQueued
	}
	return due(ctx, q.db, limit, networkServers)
}

// Downlink returns a downlink by id, whoever asks.
func (q *Queue) Downlink(ctx context.Context, id int64) (*nodes.Downlink, error) {
	return byID(ctx, q.db, id)
}

// SetDownlinkStatus records what became of a downlink: sent, acknowledged,
// failed (with detail saying why) or queued again for another attempt.
func (q *Queue) SetDownlinkStatus(ctx context.Context, id int64, status, detail string) error {
	if status != nodes.DownlinkQueued && status != nodes.DownlinkSent && status != nodes.DownlinkAcknowledged && status != nodes.DownlinkFailed {
		return errs.New(errs.Invalid, nodes.IDDownlinkStatus).With("status", status)
	}
	return setStatus(ctx, q.db, id, status, cleanDetail(detail))
}

// RecordDownlinkAttempt counts one try of the downlink worker and records
// its outcome. The outcome changes only a downlink that is still queued: a
// network server's report that arrived meanwhile (a txack right after the
// publish) is newer and stays.
func (q *Queue) RecordDownlinkAttempt(ctx context.Context, id int64, a nodes.DownlinkAttempt) error {
	if a.Status != nodes.DownlinkQueued && a.Status != nodes.DownlinkSent && a.Status != nodes.DownlinkFailed {
		return errs.New(errs.Invalid, nodes.IDDownlinkStatus).With("status", a.Status)
	}
	var retryAt *time.Time
	if a.Status == nodes.DownlinkQueued {
		t := a.RetryAt.UTC()
		retryAt = &t
	}
	return recordAttempt(ctx, q.db, id, a.Status, cleanDetail(a.Detail), retryAt)
}
