// Package queue is the downlink queue: the messages people queue for a
// node (the JSON routes and the node details page both add and take back
// through it), which the downlink worker hands to the network servers and
// whose outcome it records, and what the network servers then report about
// them (reports.go). It checks the caller's reach itself, as the nodes
// module does for its tags: another company's downlinks are not found.
package queue

import (
	"context"
	"log/slog"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/audit"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/store"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// maxQueued bounds one read of the downlink queue.
const maxQueued = 1000

// Queue is the downlink queue; it satisfies netservers.Downlinks.
type Queue struct {
	host *kernel.Host
	db   *bun.DB
	log  *slog.Logger
	tags netservers.Tags
	enc  decoders.Encoder // nil: JSON payloads are queued unencoded
}

// New builds the queue on the host's database; tags finds the tags the
// routes name.
func New(host *kernel.Host, tags netservers.Tags, enc decoders.Encoder) *Queue {
	return &Queue{host: host, db: host.DB, log: host.Logger("netservers"), tags: tags, enc: enc}
}

func now() time.Time { return time.Now().UTC() }

// ErrNotFound is the answer for a downlink or tag that does not exist or
// is out of the caller's reach.
var ErrNotFound = errs.New(errs.NotFound, errs.IDNotFound)

// scoped checks that the caller may see (and, with manage, change) what
// belongs to companyID.
func scoped(ctx context.Context, companyID int64, manage bool) error {
	c := auth.CallerFrom(ctx)
	if !c.CanSeeCompany(companyID) {
		return ErrNotFound
	}
	if manage && !c.CanManageCompany(companyID) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	return nil
}

// ScopedTag loads tag id if the caller may see it (and, with manage,
// change its downlinks).
func (q *Queue) ScopedTag(ctx context.Context, id int64, manage bool) (*nodes.Tag, error) {
	t, err := q.tags.Tag(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := scoped(ctx, t.CompanyID, manage); err != nil {
		return nil, err
	}
	return t, nil
}

// OfTag lists the downlinks of t, newest first.
func (q *Queue) OfTag(ctx context.Context, t *nodes.Tag) ([]netservers.Downlink, error) {
	return store.OfTag(ctx, q.db, t.ID)
}

// Add validates in and queues it for t, a tag the caller manages, for the
// downlink worker, and announces it. The API and the node details page
// both use it.
func (q *Queue) Add(ctx context.Context, t *nodes.Tag, in Input) (*netservers.Downlink, error) {
	d, err := newDownlink(t, in)
	if err != nil {
		return nil, err
	}
	if err := q.encode(ctx, t, d); err != nil {
		return nil, err
	}
	if uid := auth.CallerFrom(ctx).UserID; uid != 0 {
		d.CreatedBy = &uid
	}
	d.CreatedAt, d.UpdatedAt = now(), now()
	if err := store.Insert(ctx, q.db, d); err != nil {
		return nil, err
	}
	q.host.Bus.Publish(ctx, netservers.DownlinkCreated{DownlinkID: d.ID, TagID: d.TagID, CompanyID: d.CompanyID, ApplicationID: d.ApplicationID})
	audit.Announce(ctx, q.host.Bus, audit.Change{CompanyID: d.CompanyID, MessageID: netservers.AuditDownlinkQueued,
		Args: map[string]any{"id": d.ID, "name": t.Name, "deveui": t.DevEUI, "port": d.Port, "payload": d.Payload,
			"payloadType": d.PayloadType, "confirmed": d.Confirmed}})
	return d, nil
}

// QueueDownlink queues a downlink for tag tagID of companyID on behalf of
// the portal (a script): no caller's reach is checked, the company is.
func (q *Queue) QueueDownlink(ctx context.Context, companyID, tagID int64, r netservers.DownlinkRequest) (*netservers.Downlink, error) {
	t, err := q.tags.Tag(ctx, tagID)
	if err != nil {
		return nil, err
	}
	if t.CompanyID != companyID {
		return nil, errs.New(errs.NotFound, errs.IDNotFound)
	}
	return q.Add(ctx, t, Input{Port: r.Port, Payload: r.Payload, PayloadType: r.PayloadType, Confirmed: r.Confirmed})
}

// Remove takes back downlink id, of a tag the caller manages. Only a
// downlink still queued can be taken back; one the worker has handed on is
// a conflict.
func (q *Queue) Remove(ctx context.Context, id int64) error {
	d, err := store.ByID(ctx, q.db, id)
	if err != nil {
		return err
	}
	if err := scoped(ctx, d.CompanyID, true); err != nil {
		return err
	}
	removed, err := store.DeleteQueued(ctx, q.db, id)
	if err != nil {
		return err
	}
	if !removed {
		return errs.New(errs.Conflict, netservers.IDDownlinkNotQueued)
	}
	audit.Announce(ctx, q.host.Bus, audit.Change{CompanyID: d.CompanyID, MessageID: netservers.AuditDownlinkRemoved,
		Args: map[string]any{"id": d.ID, "deveui": d.DevEUI}})
	return nil
}

// Queued returns up to limit queued downlinks that are due (never tried,
// or past their RetryAt), oldest first; with networkServers, only those of
// applications that name one of them.
func (q *Queue) Queued(ctx context.Context, limit int, networkServers ...string) ([]netservers.Downlink, error) {
	if limit <= 0 || limit > maxQueued {
		limit = maxQueued
	}
	return store.Due(ctx, q.db, limit, networkServers)
}

// Downlink returns a downlink by id, whoever asks.
func (q *Queue) Downlink(ctx context.Context, id int64) (*netservers.Downlink, error) {
	return store.ByID(ctx, q.db, id)
}

// SetDownlinkStatus records what became of a downlink: sent, acknowledged,
// failed (with detail saying why) or queued again for another attempt.
func (q *Queue) SetDownlinkStatus(ctx context.Context, id int64, status, detail string) error {
	if status != netservers.DownlinkQueued && status != netservers.DownlinkSent && status != netservers.DownlinkAcknowledged && status != netservers.DownlinkFailed {
		return errs.New(errs.Invalid, netservers.IDDownlinkStatus).With("status", status)
	}
	return store.SetStatus(ctx, q.db, id, status, cleanDetail(detail))
}

// RecordDownlinkAttempt counts one try of the downlink worker and records
// its outcome. The outcome changes only a downlink that is still queued: a
// network server's report that arrived meanwhile (a txack right after the
// publish) is newer and stays.
func (q *Queue) RecordDownlinkAttempt(ctx context.Context, id int64, a netservers.DownlinkAttempt) error {
	if a.Status != netservers.DownlinkQueued && a.Status != netservers.DownlinkSent && a.Status != netservers.DownlinkFailed {
		return errs.New(errs.Invalid, netservers.IDDownlinkStatus).With("status", a.Status)
	}
	var retryAt *time.Time
	if a.Status == netservers.DownlinkQueued {
		t := a.RetryAt.UTC()
		retryAt = &t
	}
	return store.RecordAttempt(ctx, q.db, id, a.Status, cleanDetail(a.Detail), retryAt)
}
