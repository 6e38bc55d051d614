// Package feed is the events module's live feed: the WebSocket route, the
// hub of this instance's connections, and the fan-out of events between
// instances through PostgreSQL's LISTEN/NOTIFY.
package feed

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/db"
	kevents "github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/events"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/logs"
)

// Options tune the feed; the zero value is what production uses.
type Options struct {
	// QueueSize is how many messages may wait for one connection before it
	// is dropped as too slow (default 256).
	QueueSize int
	// PingInterval is how often the server pings each connection
	// (default 30 s).
	PingInterval time.Duration
	// MaxPerUser and MaxPerCompany cap the open connections of one user
	// and of one company's users (the module's Config; defaults 16 and
	// 500).
	MaxPerUser, MaxPerCompany int
}

// Defaults of Options.
const (
	defaultQueueSize     = 256
	defaultPingInterval  = 30 * time.Second
	defaultMaxPerUser    = 16
	defaultMaxPerCompany = 500
)

// Feed is the live feed; it satisfies events.Module.
type Feed struct {
	host *kernel.Host
	log  *slog.Logger
	opts Options
	hub  *hub
	// uplinks are the subscribers of events.Uplinks.
	uplinks *uplinkSubs
	fanout  *pgFanout // nil on SQLite: one instance, nothing to share
	limit   limiter
	pgLim   *pgLimiter // the limit on PostgreSQL, whose rows need a heartbeat

	// ctx ends when the module stops; connections then close with 1001.
	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	closed bool
	conns  sync.WaitGroup
	// limiterDone is closed when the PostgreSQL limiter's loop has ended.
	limiterDone chan struct{}

	connections prometheus.Gauge
	dropped     *prometheus.CounterVec
	refused     prometheus.Counter
}

// New builds the feed and subscribes it to the uplinks the ingest stores
// and the log entries the logs module writes.
func New(host *kernel.Host, opts Options) *Feed {
	if opts.QueueSize <= 0 {
		opts.QueueSize = defaultQueueSize
	}
	if opts.PingInterval <= 0 {
		opts.PingInterval = defaultPingInterval
	}
	if opts.MaxPerUser <= 0 {
		opts.MaxPerUser = defaultMaxPerUser
	}
	if opts.MaxPerCompany <= 0 {
		opts.MaxPerCompany = defaultMaxPerCompany
	}
	m := &Feed{host: host, log: host.Logger("events"), opts: opts, hub: newHub(), uplinks: newUplinkSubs()}
	m.ctx, m.cancel = context.WithCancel(context.Background())
	m.connections = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "fieldhub_events_connections",
		Help: "Open connections to the live event feed on this instance.",
	})
	m.dropped = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "fieldhub_events_dropped_total",
		Help: "Live events not delivered: slow_client counts connections dropped for falling behind, fanout_full events not shared with other instances.",
	}, []string{"reason"})
	m.refused = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "fieldhub_events_refused_total",
		Help: "Live feed connections closed at once (4029) because their user or company held as many as they may.",
	})
	host.Router.Registry().MustRegister(m.connections, m.dropped, m.refused)
	c := caps{perUser: opts.MaxPerUser, perCompany: opts.MaxPerCompany}
	if db.DialectOf(host.DB) == db.Postgres {
		m.fanout = newPGFanout(host.DB, host.Config.DatabaseURL, m.log, m.hub, m.uplinks, m.dropped.WithLabelValues("fanout_full"))
		m.fanout.deliver = m.deliver
		m.fanout.deliverUsers = m.deliverUsers
		m.pgLim = newPGLimiter(c, host.DB, m.log)
		m.limit = m.pgLim
	} else {
		m.limit = newLocalLimiter(c)
	}
	host.Router.AddAuthenticator(m.queryToken)
	host.Bus.Subscribe(ingest.UplinkReceived{}.Topic(), m.onUplink)
	host.Bus.Subscribe(logs.EntryWritten{}.Topic(), m.onLogEntry)
	host.Bus.Subscribe(kevents.ToUsers{}.Topic(), m.onToUsers)
	return m
}

// Name names the module.
func (m *Feed) Name() string { return "events" }

// Routes registers the feed.
func (m *Feed) Routes(r *web.ModuleRoutes) {
	r.Describe(docs)
	r.API("GET /events", auth.CompanyOrUser, m.serve)
}

// Start connects the fan-out's listener, so that an instance that has
// started receives the other instances' events.
func (m *Feed) Start(ctx context.Context) error {
	context.AfterFunc(ctx, m.cancel)
	if m.fanout != nil {
		m.fanout.start(m.ctx)
	}
	if m.pgLim != nil {
		m.limiterDone = make(chan struct{})
		go func() { defer close(m.limiterDone); m.pgLim.run(m.ctx) }()
	}
	return nil
}

// Stop closes every connection (1001, going away) and waits for them.
func (m *Feed) Stop(ctx context.Context) error {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.cancel()
	done := make(chan struct{})
	go func() {
		m.conns.Wait()
		if m.fanout != nil {
			m.fanout.wait()
		}
		if m.limiterDone != nil {
			<-m.limiterDone
		}
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return errors.New("live feed connections did not close in time")
	}
}

// SubscribeUplinks hands fn every uplink of company that any instance
// stores (events.Uplinks).
func (m *Feed) SubscribeUplinks(company int64, fn func(ingest.UplinkReceived)) (cancel func()) {
	return m.uplinks.subscribe(company, fn)
}

// onUplink pushes an uplink to this instance's connections and uplink
// subscribers at once, and hands it to the fan-out for the other
// instances. It never waits on a client or on the database, so the ingest
// is never slowed by the feed.
func (m *Feed) onUplink(_ context.Context, e kevents.Event) {
	u, ok := e.(ingest.UplinkReceived)
	if !ok {
		return
	}
	m.uplinks.deliver(u)
	body, err := encodeEvent(eventOf(u))
	if err != nil {
		m.log.Error("live event not sent", "company_id", u.CompanyID, "err", err)
		return
	}
	m.deliver(u.CompanyID, "", body)
	if m.fanout == nil {
		return
	}
	radio, err := encodeRadio(u)
	if err != nil {
		m.log.Error("live uplink not shared with other instances", "company_id", u.CompanyID, "err", err)
		return
	}
	m.fanout.publish(outgoing{company: u.CompanyID, event: body, radio: radio})
}

// onLogEntry pushes a written log entry to the connections of its company
// (an entry of the installation to those of SuperAdmins who have chosen no
// company), here and, through the fan-out, on the other instances; an
// entry of the audit trail only to those of the company's administrators
// and to the SuperAdmins who have chosen no company. Like onUplink it
// never waits.
func (m *Feed) onLogEntry(_ context.Context, e kevents.Event) {
	w, ok := e.(logs.EntryWritten)
	if !ok {
		return
	}
	body, err := encodeEntry(w.Entry)
	if err != nil {
		m.log.Error("live log entry not sent", "company_id", w.Entry.Company(), "err", err)
		return
	}
	kind := events.MessageLogEntry
	if w.Entry.Type == logs.TypeUserEvent {
		kind = auditEntry
	}
	company := w.Entry.Company()
	if company == 0 {
		company = installation
	}
	m.send(company, kind, body)
	if kind == auditEntry && company != installation {
		// The SuperAdmin who has chosen no company follows every
		// company's audit trail, as GET /logs lists it.
		m.send(installation, kind, body)
	}
}

// onToUsers pushes a message that a module addresses to some users (the
// kernel's events.ToUsers: their notifications changed) to their
// connections, here and, through the fan-out, on the other instances. Like
// onUplink it never waits.
func (m *Feed) onToUsers(_ context.Context, e kevents.Event) {
	u, ok := e.(kevents.ToUsers)
	if !ok || len(u.UserIDs) == 0 {
		return
	}
	if len(u.Message) > kevents.MaxUserMessage || !json.Valid(u.Message) {
		m.log.Error("message to users not sent: not a small JSON object", "bytes", len(u.Message))
		return
	}
	m.deliverUsers(u.UserIDs, u.Message)
	if m.fanout != nil {
		// In groups, so that each notification stays inline (maxInline).
		for users := range slices.Chunk(u.UserIDs, usersPerNotify) {
			m.fanout.publish(outgoing{kind: kindUsers, users: users, event: u.Message})
		}
	}
}

// usersPerNotify is how many users one notification between instances
// names: 200 ids and a message of MaxUserMessage bytes stay well below
// maxInline.
const usersPerNotify = 200

// deliverUsers sends a message to this instance's connections of users.
func (m *Feed) deliverUsers(users []int64, msg []byte) {
	if n := m.hub.toUsers(users, msg); n > 0 {
		m.dropped.WithLabelValues("slow_client").Add(float64(n))
		m.log.Warn("live feed connections dropped for falling behind", "users", len(users), "connections", n)
	}
}

// auditEntry is the fan-out kind of a log entry of the audit trail, which
// goes only to the connections that receive it (hub.broadcast).
const auditEntry = "AuditEntry"

// send delivers to this instance's connections of company and hands the
// message to the fan-out for the other instances.
func (m *Feed) send(company int64, kind string, body []byte) {
	m.deliver(company, kind, body)
	if m.fanout != nil {
		m.fanout.publish(outgoing{company: company, kind: kind, event: body})
	}
}

// deliver sends an encoded event (kind "") or log entry
// (events.MessageLogEntry, or auditEntry for the audit trail's) to this
// instance's connections of company.
func (m *Feed) deliver(company int64, kind string, event []byte) {
	msg := frame(event)
	if kind == events.MessageLogEntry || kind == auditEntry {
		msg = frameEntry(event)
	}
	if n := m.hub.broadcast(company, kind == auditEntry, msg); n > 0 {
		m.dropped.WithLabelValues("slow_client").Add(float64(n))
		m.log.Warn("live feed connections dropped for falling behind", "company_id", company, "connections", n)
	}
}

// queryToken authenticates the feed by ?token=, for clients that can set
// neither a header nor a cookie on a WebSocket. Other routes never take a
// token in the address, where it would end up in logs.
func (m *Feed) queryToken(r *http.Request) (auth.Caller, bool) {
	if r.URL.Path != events.Route {
		return auth.Caller{}, false
	}
	token := r.URL.Query().Get("token")
	if token == "" {
		return auth.Caller{}, false
	}
	c, err := m.host.Tokens.Verify(token)
	return c, err == nil
}
