package core

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// maxQueued bounds one read of the downlink queue.
const maxQueued = 1000

// downlinkInput is the body of POST /downlink/{tagId}. Payload is a string;
// a JSON payload may also be given as the object itself.
type downlinkInput struct {
	Port        int             `json:"port"`
	Payload     json.RawMessage `json:"payload"`
	PayloadType string          `json:"payloadType"`
	Confirmed   bool            `json:"confirmed"`
}

// newDownlink validates in into a queued downlink for tag.
func newDownlink(t *Tag, in downlinkInput) (*Downlink, error) {
	v := &errs.Validation{}
	switch {
	case in.Port <= 0:
		v.Add("port", msgPortMin)
	case in.Port > maxPort:
		v.AddArgs("port", msgPortMax, map[string]any{"max": maxPort})
	}
	kind := strings.ToLower(strings.TrimSpace(in.PayloadType))
	if kind != "hex" && kind != "base64" && kind != "json" {
		v.Add("payloadType", msgPayloadType)
	}
	var payload string
	raw := strings.TrimSpace(string(in.Payload))
	shaped := true
	switch {
	case raw == "" || raw == "null":
	case strings.HasPrefix(raw, `"`):
		shaped = json.Unmarshal([]byte(raw), &payload) == nil
	case kind == "json":
		payload = raw
	default:
		shaped = false
	}
	switch {
	case v.Has("payloadType"):
	case !shaped:
		v.Add("payload", payloadMessage[kind])
	default:
		payload = checkPayload(v, kind, payload)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return &Downlink{TagID: t.ID, DevEUI: t.DevEUI, ApplicationID: t.ApplicationID, CompanyID: t.CompanyID,
		Port: in.Port, Payload: payload, PayloadType: kind, Confirmed: in.Confirmed, Status: DownlinkQueued}, nil
}

// listDownlinks answers GET /downlink/tag/{tagId}, newest first.
func (m *Module) listDownlinks(w http.ResponseWriter, r *http.Request) error {
	t, err := m.pathTag(r.Context(), r, false)
	if err != nil {
		return err
	}
	list, err := m.tagDownlinks(r.Context(), t)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

// tagDownlinks lists the downlinks of t, newest first.
func (m *Module) tagDownlinks(ctx context.Context, t *Tag) ([]Downlink, error) {
	list := []Downlink{}
	if err := downlinkQuery(m.db, &list).Where("dl.tag_id = ?", t.ID).OrderExpr("dl.created_at DESC, dl.id DESC").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list downlinks of tag %d: %w", t.ID, err)
	}
	return list, nil
}

// createDownlink answers POST /downlink/{tagId}.
func (m *Module) createDownlink(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := m.pathTag(ctx, r, true)
	if err != nil {
		return err
	}
	var in downlinkInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	d, err := m.queueDownlink(ctx, t, in)
	if err != nil {
		return err
	}
	return web.Created(w, d)
}

// queueDownlink validates in and queues it for t, a tag the caller manages,
// for the downlink worker. The API and the /tagdetails page both use it.
func (m *Module) queueDownlink(ctx context.Context, t *Tag, in downlinkInput) (*Downlink, error) {
	d, err := newDownlink(t, in)
	if err != nil {
		return nil, err
	}
	uid := auth.CallerFrom(ctx).UserID
	d.CreatedBy = &uid
	d.CreatedAt, d.UpdatedAt = now(), now()
	if _, err := m.db.NewInsert().Model(d).Returning("id").Exec(ctx); err != nil {
		return nil, fmt.Errorf("queue downlink: %w", err)
	}
	m.host.Bus.Publish(ctx, DownlinkCreated{DownlinkID: d.ID, TagID: d.TagID, CompanyID: d.CompanyID, ApplicationID: d.ApplicationID})
	return d, nil
}

// deleteDownlink answers DELETE /downlink/{downlinkId}.
func (m *Module) deleteDownlink(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "downlinkId")
	if err != nil {
		return err
	}
	if err := m.removeDownlink(r.Context(), id); err != nil {
		return err
	}
	return web.NoContent(w)
}

// removeDownlink takes back downlink id, of a tag the caller manages. Only a
// downlink still queued can be taken back; one the worker has handed on is a
// conflict.
func (m *Module) removeDownlink(ctx context.Context, id int64) error {
	d, err := m.store.downlink(ctx, m.db, id)
	if err != nil {
		return err
	}
	if err := scoped(ctx, d.CompanyID, true); err != nil {
		return err
	}
	res, err := m.db.NewDelete().Model((*Downlink)(nil)).Where("id = ? AND status = ?", id, DownlinkQueued).Exec(ctx)
	if err != nil {
		return fmt.Errorf("delete downlink %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errs.New(errs.Conflict, msgDownlinkNotQueued)
	}
	return nil
}

// Queued returns up to limit queued downlinks that are due (never tried,
// or past their RetryAt), oldest first; with networkServers, only those of
// applications that name one of them.
func (m *Module) Queued(ctx context.Context, limit int, networkServers ...string) ([]Downlink, error) {
	if limit <= 0 || limit > maxQueued {
		limit = maxQueued
	}
	list := []Downlink{}
	q := downlinkQuery(m.db, &list).Where("dl.status = ?", DownlinkQueued).
		Where("dl.retry_at IS NULL OR dl.retry_at <= ?", now())
	if len(networkServers) > 0 {
		q = q.Join("JOIN applications AS app ON app.id = tag.application_id").Where("app.network_server IN (?)", bun.In(networkServers))
	}
	err := q.OrderExpr("dl.created_at, dl.id").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("read downlink queue: %w", err)
	}
	return list, nil
}

// Downlink returns a downlink by id, whoever asks.
func (m *Module) Downlink(ctx context.Context, id int64) (*Downlink, error) {
	return m.store.downlink(ctx, m.db, id)
}

// SetDownlinkStatus records what became of a downlink: sent, acknowledged,
// failed (with detail saying why) or queued again for another attempt.
func (m *Module) SetDownlinkStatus(ctx context.Context, id int64, status, detail string) error {
	if status != DownlinkQueued && status != DownlinkSent && status != DownlinkAcknowledged && status != DownlinkFailed {
		return errs.New(errs.Invalid, msgDownlinkStatus).With("status", status)
	}
	q := m.db.NewUpdate().Model((*Downlink)(nil)).
		Set("status = ?", status).Set("detail = ?", cleanDetail(detail)).
		Set("updated_at = ?", now()).Where("id = ?", id)
	if status == DownlinkQueued {
		// Queued again: the worker starts over, now.
		q = q.Set("attempts = 0").Set("retry_at = NULL")
	}
	res, err := q.Exec(ctx)
	if err != nil {
		return fmt.Errorf("set status of downlink %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errNotFound
	}
	return nil
}

// RecordDownlinkAttempt counts one try of the downlink worker and records
// its outcome. The outcome changes only a downlink that is still queued: a
// network server's report that arrived meanwhile (a txack right after the
// publish) is newer and stays.
func (m *Module) RecordDownlinkAttempt(ctx context.Context, id int64, a DownlinkAttempt) error {
	if a.Status != DownlinkQueued && a.Status != DownlinkSent && a.Status != DownlinkFailed {
		return errs.New(errs.Invalid, msgDownlinkStatus).With("status", a.Status)
	}
	var retryAt *time.Time
	if a.Status == DownlinkQueued {
		t := a.RetryAt.UTC()
		retryAt = &t
	}
	res, err := m.db.NewUpdate().Model((*Downlink)(nil)).
		Set("attempts = attempts + 1").
		Set("status = CASE WHEN status = ? THEN ? ELSE status END", DownlinkQueued, a.Status).
		Set("detail = CASE WHEN status = ? THEN ? ELSE detail END", DownlinkQueued, cleanDetail(a.Detail)).
		Set("retry_at = ?", retryAt).
		Set("updated_at = ?", now()).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("record attempt of downlink %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errNotFound
	}
	return nil
}

// cleanDetail makes a network server's words storable text.
func cleanDetail(s string) string {
	return strings.ToValidUTF8(strings.ReplaceAll(s, "\x00", ""), "")
}
