// Package recorder records the logs module's entries: those other modules
// hand to Record and those it makes of the events they publish (device
// events, downlink outcomes, sign-ins), queued to the batched writer; and
// it runs the daily retention job.
package recorder

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/audit"
	kevents "github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/kernel/outbox"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/logs"
	"github.com/fieldhub/fieldhub/modules/logs/internal/store"
	"github.com/fieldhub/fieldhub/modules/logs/internal/writer"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// The retention job runs daily at this local time, before the reports of
// 03:00, on one instance.
const (
	retentionJob    = "retention"
	retentionHour   = 2
	retentionMinute = 30
)

// Recorder records entries; it satisfies logs.Service.
type Recorder struct {
	host *kernel.Host
	db   *bun.DB
	// accounts names who made a change and the company it belongs to.
	people logs.Accounts
	log    *slog.Logger
	w      *writer.Writer
	now    func() time.Time
	// retentionDays is FIELDHUB_LOG_RETENTION_DAYS; 0 keeps entries for
	// good.
	retentionDays int
}

// New returns the recorder, subscribed to the events it logs, with its
// writer's metrics registered. Nothing is written before Start.
func New(host *kernel.Host, cfg logs.Config, people logs.Accounts) *Recorder {
	rec := &Recorder{host: host, db: host.DB, people: people, log: host.Logger("logs"), now: time.Now, retentionDays: cfg.RetentionDays}
	dropped := prometheus.NewCounter(prometheus.CounterOpts{
		Name: "fieldhub_logs_dropped_total",
		Help: "Log entries not written: the queue was full, the module was not running, or the database refused the entry.",
	})
	written := prometheus.NewCounter(prometheus.CounterOpts{
		Name: "fieldhub_logs_written_total",
		Help: "Log entries written.",
	})
	host.Router.Registry().MustRegister(dropped, written)
	rec.w = writer.New(host.DB, rec.log, dropped, written, func(e logs.Entry) {
		host.Bus.Publish(context.Background(), logs.EntryWritten{Entry: e})
	})
	host.Bus.Subscribe(ingest.DeviceEvent{}.Topic(), rec.onDeviceEvent)
	host.Bus.Subscribe(netservers.DownlinkOutcome{}.Topic(), rec.onDownlinkOutcome)
	host.Bus.Subscribe(accounts.UserSignedIn{}.Topic(), rec.onSignedIn)
	host.Bus.Subscribe(nodes.DevEUIClaimRefused{}.Topic(), rec.onClaimRefused)
	host.Bus.Subscribe(nodes.TagMoved{}.Topic(), rec.onTagMoved)
	host.Bus.Subscribe(audit.Change{}.Topic(), rec.onChange)
	host.Bus.Subscribe(outbox.Attempt{}.Topic(), rec.onOutboxAttempt)
	return rec
}

// Start runs the writer and schedules the retention job.
func (rec *Recorder) Start(context.Context) error {
	rec.w.Start()
	return rec.host.Scheduler.Daily("logs", retentionJob, retentionHour, retentionMinute, true, rec.retention)
}

// Stop writes what is queued and stops the writer.
func (rec *Recorder) Stop(ctx context.Context) error { return rec.w.Close(ctx) }

// Record queues an entry; see logs.Service.
func (rec *Recorder) Record(e logs.Entry) {
	if !prepare(&e, rec.now()) {
		rec.log.Warn("log entry refused: unknown type or no message", "type", e.Type)
		return
	}
	rec.w.Add(writer.Item{Entry: &e})
}

// onDeviceEvent logs what the ingest learned about a device: at the event's
// level for joins, device status and network server messages (APP, WARNING,
// ERROR).
func (rec *Recorder) onDeviceEvent(_ context.Context, ev kevents.Event) {
	d, ok := ev.(ingest.DeviceEvent)
	if !ok {
		return
	}
	typ := logs.TypeApp
	switch d.Level {
	case ingest.LevelWarning:
		typ = logs.TypeWarning
	case ingest.LevelError:
		typ = logs.TypeError
	}
	data := map[string]any{"kind": d.Kind}
	for k, v := range d.Args {
		data[k] = v
	}
	e := logs.Entry{Type: typ, Message: d.Message, MessageID: d.MessageID, DevEUI: d.DevEUI, Data: data, CreatedAt: d.Time}
	if d.CompanyID > 0 {
		e.CompanyID = &d.CompanyID
	}
	rec.Record(e)
}

// downlinkKind is the data kind of the entries about downlinks, the kind
// they had when the ingest announced them among its device events.
const downlinkKind = "downlink"

// onDownlinkOutcome logs what became of a downlink: APP, or ERROR when it
// failed, with the downlink's id and status (and the gateway or the
// reason) as data.
func (rec *Recorder) onDownlinkOutcome(_ context.Context, ev kevents.Event) {
	o, ok := ev.(netservers.DownlinkOutcome)
	if !ok {
		return
	}
	typ, id := logs.TypeApp, ""
	args := map[string]any{"id": o.DownlinkID, "status": o.Status}
	switch o.Outcome {
	case netservers.OutcomeHandedOver:
		id = logs.IDEntryDownlinkHandedOver
	case netservers.OutcomeTransmitted:
		id = logs.IDEntryDownlinkSent
		if o.Gateway != "" {
			id, args["gateway"] = logs.IDEntryDownlinkSentBy, o.Gateway
		}
	case netservers.OutcomeAcknowledged:
		id = logs.IDEntryDownlinkAcked
	case netservers.OutcomeFailed:
		typ, id, args["reason"] = logs.TypeError, logs.IDEntryDownlinkFailed, o.Reason
	default:
		return
	}
	data := map[string]any{"kind": downlinkKind}
	for k, v := range args {
		data[k] = v
	}
	e := logs.Entry{Type: typ, Message: rec.host.Catalogs.T(i18n.Default, id, args), MessageID: id, DevEUI: o.DevEUI, Data: data, CreatedAt: o.Time}
	if o.CompanyID > 0 {
		e.CompanyID = &o.CompanyID
	}
	rec.Record(e)
}

// onSignedIn notes the user as active and, for a sign-in, logs a LOGIN
// entry in the user's company (the installation's for a user without one).
func (rec *Recorder) onSignedIn(_ context.Context, ev kevents.Event) {
	s, ok := ev.(accounts.UserSignedIn)
	if !ok || s.UserID <= 0 {
		return
	}
	at := s.At
	if at.IsZero() {
		at = rec.now()
	}
	seen := &store.Activity{UserID: s.UserID, LastSeenAt: at.UTC().Truncate(time.Microsecond)}
	if s.CompanyID > 0 {
		company := s.CompanyID
		seen.CompanyID = &company
	}
	it := writer.Item{Seen: seen}
	if !s.Renewed {
		user := s.UserID
		e := logs.Entry{Type: logs.TypeLogin, UserID: &user, CompanyID: seen.CompanyID, MessageID: logs.IDEntryLogin,
			Message:   rec.host.Catalogs.T(i18n.Default, logs.IDEntryLogin, map[string]any{"user": s.Name}),
			Data:      map[string]any{"user": s.Name, "role": string(s.Role)},
			CreatedAt: at}
		if prepare(&e, rec.now()) {
			it.Entry = &e
		}
	}
	rec.w.Add(it)
}

// onClaimRefused logs, for the SuperAdmin, a node registration refused
// because another company's node has the DevEUI: a WARNING of the
// installation (no company's: it names both), with the companies' names
// and ids as data.
func (rec *Recorder) onClaimRefused(_ context.Context, ev kevents.Event) {
	c, ok := ev.(nodes.DevEUIClaimRefused)
	if !ok {
		return
	}
	args := map[string]any{"deveui": c.DevEUI, "company": companyName(c.CompanyName, c.CompanyID), "companyId": c.CompanyID,
		"owner": companyName(c.OwnerName, c.OwnerID), "ownerId": c.OwnerID}
	rec.nodeEntry(logs.TypeWarning, nil, logs.IDEntryDevEUIClaim, "deveuiClaim", c.DevEUI, args, c.Time)
}

// onTagMoved logs a node's move to another company: a USEREVENT of the
// installation that names both companies, and in each company an APP
// entry that names neither, so that neither learns who the other is.
func (rec *Recorder) onTagMoved(_ context.Context, ev kevents.Event) {
	m, ok := ev.(nodes.TagMoved)
	if !ok {
		return
	}
	args := map[string]any{"name": m.Name, "deveui": m.DevEUI, "points": m.Points,
		"from": companyName(m.FromName, m.FromID), "fromId": m.FromID, "to": companyName(m.ToName, m.ToID), "toId": m.ToID, "proven": m.Proven}
	rec.nodeEntry(logs.TypeUserEvent, nil, logs.IDEntryTagMoved, "tagMoved", m.DevEUI, args, m.Time)
	node := map[string]any{"name": m.Name, "deveui": m.DevEUI}
	from, to := m.FromID, m.ToID
	rec.nodeEntry(logs.TypeApp, &from, logs.IDEntryTagMovedAway, "tagMoved", m.DevEUI, node, m.Time)
	here := map[string]any{"name": m.Name, "deveui": m.DevEUI, "points": m.Points}
	rec.nodeEntry(logs.TypeApp, &to, logs.IDEntryTagMovedHere, "tagMoved", m.DevEUI, here, m.Time)
}

// nodeEntry records an entry about a node of the nodes module's events:
// its message in English from the catalog, its arguments and kind as
// data.
func (rec *Recorder) nodeEntry(typ string, company *int64, id, kind, deveui string, args map[string]any, at time.Time) {
	data := map[string]any{"kind": kind}
	for k, v := range args {
		data[k] = v
	}
	rec.Record(logs.Entry{Type: typ, CompanyID: company, Message: rec.host.Catalogs.T(i18n.Default, id, args), MessageID: id,
		DevEUI: deveui, Data: data, CreatedAt: at})
}

// companyName is a company's name for an entry, or its id when the name
// could not be read.
func companyName(name string, id int64) string {
	if name != "" {
		return name
	}
	return "#" + strconv.FormatInt(id, 10)
}

// retention deletes the entries older than FIELDHUB_LOG_RETENTION_DAYS and
// forgets the users not seen within the longest active-user window.
func (rec *Recorder) retention(ctx context.Context) error {
	now := rec.now().UTC()
	var cut time.Time
	if days := rec.retentionDays; days > 0 {
		cut = now.AddDate(0, 0, -days)
	}
	n, err := store.Prune(ctx, rec.db, cut, now.Add(-store.ActiveWindow))
	if err != nil {
		return err
	}
	if n > 0 {
		rec.log.Info("old log entries deleted", "entries", n, "before", cut)
	}
	return nil
}
