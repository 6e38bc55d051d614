// Package core implements the logs module: the log entries, their batched
// writer, the routes that list and count, and the retention job.
package core

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	kevents "github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/ingest"
)

// Accounts tells whether a company exists; see logs.Accounts.
type Accounts interface {
	Company(ctx context.Context, id int64) (*accounts.Company, error)
}

// Series counts data points; see logs.Series.
type Series interface {
	Count(ctx context.Context, company int64, from, to time.Time) (int64, error)
}

// Deps are the module's dependencies; see logs.Deps.
type Deps struct {
	Accounts Accounts
	Series   Series
}

// The retention job runs daily at this local time, before the reports of
// 03:00, on one instance.
const (
	retentionJob    = "retention"
	retentionHour   = 2
	retentionMinute = 30
	// activeWindow is the longest window GET /logs/activeusers counts in;
	// a user not seen for longer is forgotten.
	activeWindow = 30 * 24 * time.Hour
)

// Module is the logs module.
type Module struct {
	host *kernel.Host
	db   *bun.DB
	log  *slog.Logger
	deps Deps
	w    *writer
	now  func() time.Time
}

// New builds the module and subscribes it to the events it logs.
func New(host *kernel.Host, deps Deps) *Module {
	m := &Module{host: host, db: host.DB, log: host.Logger("logs"), deps: deps, now: time.Now}
	dropped := prometheus.NewCounter(prometheus.CounterOpts{
		Name: "fieldhub_logs_dropped_total",
		Help: "Log entries not written: the queue was full, the module was not running, or the database refused the entry.",
	})
	written := prometheus.NewCounter(prometheus.CounterOpts{
		Name: "fieldhub_logs_written_total",
		Help: "Log entries written.",
	})
	host.Router.Registry().MustRegister(dropped, written)
	m.w = newWriter(host.DB, m.log, dropped, written, func(e Entry) {
		host.Bus.Publish(context.Background(), EntryWritten{Entry: e})
	})
	host.Bus.Subscribe(ingest.DeviceEvent{}.Topic(), m.onDeviceEvent)
	host.Bus.Subscribe(accounts.UserSignedIn{}.Topic(), m.onSignedIn)
	return m
}

// Name names the module.
func (m *Module) Name() string { return "logs" }

// Routes registers SPEC.md section 7 "Logs and notifications" (the logs).
func (m *Module) Routes(r *web.ModuleRoutes) {
	r.API("GET /logs", auth.CompanyOrUser, m.list)
	r.API("GET /logs/activeusers", auth.CompanyOrUser, m.activeUsers)
	r.API("GET /logs/datapoints", auth.CompanyOrUser, m.dataPoints)
}

// Start runs the writer and schedules the retention job.
func (m *Module) Start(context.Context) error {
	m.w.start()
	return m.host.Scheduler.Daily("logs", retentionJob, retentionHour, retentionMinute, true, m.retention)
}

// Stop writes what is queued and stops the writer.
func (m *Module) Stop(ctx context.Context) error { return m.w.close(ctx) }

// Record queues an entry; see logs.Service.
func (m *Module) Record(e Entry) {
	if !e.normalise(m.now()) {
		m.log.Warn("log entry refused: unknown type or no message", "type", e.Type)
		return
	}
	m.w.add(item{entry: &e})
}

// onDeviceEvent logs what the ingest learned about a device: at the event's
// level for joins, device status and network server messages (APP, WARNING,
// ERROR).
func (m *Module) onDeviceEvent(_ context.Context, ev kevents.Event) {
	d, ok := ev.(ingest.DeviceEvent)
	if !ok {
		return
	}
	typ := TypeApp
	switch d.Level {
	case ingest.LevelWarning:
		typ = TypeWarning
	case ingest.LevelError:
		typ = TypeError
	}
	data := map[string]any{"kind": d.Kind}
	for k, v := range d.Args {
		data[k] = v
	}
	e := Entry{Type: typ, Message: d.Message, MessageID: d.MessageID, DevEUI: d.DevEUI, Data: data, CreatedAt: d.Time}
	if d.CompanyID > 0 {
		e.CompanyID = &d.CompanyID
	}
	m.Record(e)
}

// onSignedIn notes the user as active and, for a sign-in, logs a LOGIN
// entry in the user's company (the installation's for a user without one).
func (m *Module) onSignedIn(_ context.Context, ev kevents.Event) {
	s, ok := ev.(accounts.UserSignedIn)
	if !ok || s.UserID <= 0 {
		return
	}
	at := s.At
	if at.IsZero() {
		at = m.now()
	}
	seen := &activity{UserID: s.UserID, LastSeenAt: at.UTC().Truncate(time.Microsecond)}
	if s.CompanyID > 0 {
		company := s.CompanyID
		seen.CompanyID = &company
	}
	it := item{seen: seen}
	if !s.Renewed {
		user := s.UserID
		e := Entry{Type: TypeLogin, UserID: &user, CompanyID: seen.CompanyID, MessageID: idEntryLogin,
			Message:   m.host.Catalogs.T(i18n.Default, idEntryLogin, map[string]any{"user": s.Name}),
			Data:      map[string]any{"user": s.Name, "role": string(s.Role)},
			CreatedAt: at}
		if e.normalise(m.now()) {
			it.entry = &e
		}
	}
	m.w.add(it)
}

// idEntryLogin is the message of a LOGIN entry.
const idEntryLogin = "logs.entry.login"

// retention deletes the entries older than FIELDHUB_LOG_RETENTION_DAYS and
// forgets the users not seen within the longest active-user window.
func (m *Module) retention(ctx context.Context) error {
	now := m.now().UTC()
	var cut time.Time
	if days := m.host.Config.LogRetentionDays; days > 0 {
		cut = now.AddDate(0, 0, -days)
	}
	n, err := prune(ctx, m.db, cut, now.Add(-activeWindow))
	if err != nil {
		return err
	}
	if n > 0 {
		m.log.Info("old log entries deleted", "entries", n, "before", cut)
	}
	return nil
}
