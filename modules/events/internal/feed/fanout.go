package feed

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
)

// The fan-out shares events between instances on PostgreSQL. Each instance
// delivers its own events to its own connections at once, and NOTIFYs the
// others on one channel; every instance LISTENs on a connection of its own
// and delivers the others' events to its connections of that company.
//
// A NOTIFY payload holds at most 8000 bytes. Most uplinks are far smaller
// and travel inline; a larger one (an uplink may hold 256 values) is
// written to the UNLOGGED table live_events and the notification carries
// only its row id, which each interested instance reads. An uplink's
// notification carries, beside its feed event, its radio part (the node's
// id, fCnt, spreading factor, receptions), from which the other instances
// rebuild it for the subscribers of events.Uplinks; a spilled uplink's row
// holds it in its column radio. Rows are deleted
// after a few minutes. Events are not replayed: an instance whose listener
// reconnects misses what was sent meanwhile, as a client that reconnects
// does.
const (
	channel = "fieldhub_events"
	// maxInline leaves room below PostgreSQL's 8000-byte limit.
	maxInline = 7900
	// pendingSize bounds the events waiting to be sent; beyond it an event
	// is not shared (and counted) rather than slow down the ingest.
	pendingSize = 4096
	// batchSize is how many notifications go in one statement.
	batchSize = 200
	// spillTTL is how long a large event's row is kept for the listeners.
	spillTTL = 5 * time.Minute
)

// envelope is a notification: the origin instance, the company, the kind
// of message ("" for an uplink's event, else events.MessageLogEntry, or
// kindUsers for a message to the users Users, whose company is 0), the
// event itself (with an uplink's radio part) or the live_events row that
// holds them.
type envelope struct {
	Origin  string          `json:"o"`
	Company int64           `json:"c"`
	Kind    string          `json:"t,omitempty"`
	Users   []int64         `json:"u,omitempty"`
	Event   json.RawMessage `json:"e,omitempty"`
	Radio   json.RawMessage `json:"w,omitempty"`
	Row     int64           `json:"r,omitempty"`
}

// kindUsers is the fan-out kind of a message to users (events.ToUsers).
const kindUsers = "Users"

type outgoing struct {
	company int64
	kind    string
	users   []int64
	event   []byte
	radio   []byte // an uplink's (encodeRadio)
}

type pgFanout struct {
	db      *bun.DB
	url     string
	origin  string
	log     *slog.Logger
	hub     *hub
	uplinks *uplinkSubs
	pending chan outgoing
	full    prometheus.Counter
	wg      sync.WaitGroup
	// deliver sends an event received from another instance to this
	// instance's connections; the module sets it.
	deliver func(company int64, kind string, event []byte)
	// deliverUsers sends a message to users received from another instance
	// to this instance's connections of those users; the module sets it.
	deliverUsers func(users []int64, msg []byte)
}

func newPGFanout(bdb *bun.DB, url string, log *slog.Logger, h *hub, uplinks *uplinkSubs, full prometheus.Counter) *pgFanout {
	return &pgFanout{db: bdb, url: url, origin: auth.RandomToken(9), log: log, hub: h, uplinks: uplinks,
		pending: make(chan outgoing, pendingSize), full: full}
}

// publish queues a message for the other instances without waiting: an
// uplink's feed event with its radio part, a log entry (kind), or a
// message to users (kindUsers). A full queue drops it, counted.
func (f *pgFanout) publish(o outgoing) {
	select {
	case f.pending <- o:
	default:
		f.full.Inc()
	}
}

// start connects the listener (once, synchronously, so that an instance
// that has started hears the others) and runs the sender and the listener
// until ctx ends.
func (f *pgFanout) start(ctx context.Context) {
	connectCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	conn, err := f.listen(connectCtx)
	cancel()
	if err != nil {
		f.log.Error("live feed cannot LISTEN yet; events of other instances wait until it can", "err", err)
	}
	f.wg.Add(2)
	go func() { defer f.wg.Done(); f.receive(ctx, conn) }()
	go func() { defer f.wg.Done(); f.send(ctx) }()
}

// wait returns once the sender and the listener have ended.
func (f *pgFanout) wait() { f.wg.Wait() }

// send sends the queued events in batches until ctx ends, and deletes old
// rows of large events.
func (f *pgFanout) send(ctx context.Context) {
	prune := time.NewTicker(time.Minute)
	defer prune.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-prune.C:
			if _, err := f.db.NewRaw("DELETE FROM live_events WHERE created_at < ?", time.Now().Add(-spillTTL)).Exec(ctx); err != nil && ctx.Err() == nil {
				f.log.Warn("old live events not deleted", "err", err)
			}
		case first := <-f.pending:
			batch := []outgoing{first}
		more:
			for len(batch) < batchSize {
				select {
				case o := <-f.pending:
					batch = append(batch, o)
				default:
					break more
				}
			}
			if err := f.notify(ctx, batch); err != nil && ctx.Err() == nil {
				f.log.Warn("live events not shared with other instances", "events", len(batch), "err", err)
			}
		}
	}
}

// notify sends a batch in order: the small events in one statement, each
// large one through its row. The payloads go as a text array, which pgx
// sends as it is, where a JSON array of them had every quote of every event
// escaped here and unescaped by PostgreSQL.
func (f *pgFanout) notify(ctx context.Context, batch []outgoing) error {
	var inline []string
	flush := func() error {
		if len(inline) == 0 {
			return nil
		}
		_, err := f.db.DB.ExecContext(ctx, "SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p", channel, inline)
		inline = inline[:0]
		return err
	}
	for _, o := range batch {
		if payload := f.inline(o); len(payload) <= maxInline {
			inline = append(inline, payload)
			continue
		}
		if err := flush(); err != nil {
			return err
		}
		var radio *string
		if o.radio != nil {
			radio = new(string(o.radio))
		}
		if _, err := f.db.NewRaw(`WITH row AS (INSERT INTO live_events (company_id, body, radio, created_at) VALUES (?, ?, ?, ?) RETURNING id)
			SELECT pg_notify(?, json_build_object('o', ?::text, 'c', ?::bigint, 't', ?::text, 'r', id)::text) FROM row`,
			o.company, string(o.event), radio, time.Now(), channel, f.origin, o.company, o.kind).Exec(ctx); err != nil {
			return err
		}
	}
	return flush()
}

// inline is the notification of an event that travels inline: the
// envelope as json.Marshal writes it, but with the event copied as it is,
// since the events module encoded it (json.Marshal would parse it again).
func (f *pgFanout) inline(o outgoing) string {
	var b strings.Builder
	b.Grow(len(o.event) + len(o.radio) + len(f.origin) + 56)
	b.WriteString(`{"o":"`)
	b.WriteString(f.origin) // letters, digits, - and _ (auth.RandomToken)
	b.WriteString(`","c":`)
	b.WriteString(strconv.FormatInt(o.company, 10))
	if o.kind != "" {
		kind, _ := json.Marshal(o.kind)
		b.WriteString(`,"t":`)
		b.Write(kind)
	}
	if len(o.users) > 0 {
		b.WriteString(`,"u":[`)
		for i, u := range o.users {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatInt(u, 10))
		}
		b.WriteByte(']')
	}
	if len(o.event) > 0 {
		b.WriteString(`,"e":`)
		b.Write(o.event)
	}
	if len(o.radio) > 0 {
		b.WriteString(`,"w":`)
		b.Write(o.radio)
	}
	b.WriteByte('}')
	return b.String()
}

// listen opens the listener's own connection (LISTEN holds a connection
// for good, so it is not taken from the pool).
func (f *pgFanout) listen(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.Connect(ctx, f.url)
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, "LISTEN "+channel); err != nil {
		conn.Close(context.Background())
		return nil, err
	}
	return conn, nil
}

// receive delivers the other instances' events until ctx ends, connecting
// again (with growing pauses) whenever the connection is lost.
func (f *pgFanout) receive(ctx context.Context, conn *pgx.Conn) {
	pause := 500 * time.Millisecond
	for {
		if conn == nil {
			select {
			case <-ctx.Done():
				return
			case <-time.After(pause):
			}
			var err error
			if conn, err = f.listen(ctx); err != nil {
				if ctx.Err() == nil {
					f.log.Warn("live feed cannot LISTEN; trying again", "err", err, "pause", pause.String())
				}
				pause = min(pause*2, 30*time.Second)
				continue
			}
			f.log.Info("live feed listening again")
		}
		pause = 500 * time.Millisecond
		err := f.loop(ctx, conn)
		conn.Close(context.Background())
		conn = nil
		if ctx.Err() != nil {
			return
		}
		f.log.Warn("live feed lost its LISTEN connection; events of other instances are missed until it is back", "err", err)
	}
}

// fromHere reports whether a notification is one this instance sent, which
// every listener hears too, by the start of its inline envelope (Origin is
// its first field), so that the instance's own events, all of them when it
// runs alone, are dropped without being decoded.
func (f *pgFanout) fromHere(payload string) bool {
	return strings.HasPrefix(payload, `{"o":"`+f.origin+`",`)
}

func (f *pgFanout) loop(ctx context.Context, conn *pgx.Conn) error {
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		if f.fromHere(n.Payload) {
			continue
		}
		var env envelope
		if err := json.Unmarshal([]byte(n.Payload), &env); err != nil {
			f.log.Warn("unreadable live event notification", "err", err)
			continue
		}
		if env.Origin == f.origin {
			continue
		}
		if env.Kind == kindUsers {
			// Always inline (onToUsers keeps them small).
			if f.hub.hasUser(env.Users) && len(env.Event) > 0 && json.Valid(env.Event) {
				f.deliverUsers(env.Users, env.Event)
			}
			continue
		}
		feed := f.hub.has(env.Company)
		watched := env.Kind == "" && f.uplinks.has(env.Company)
		if !feed && !watched {
			continue
		}
		if env.Row != 0 {
			var body string
			var radio *string
			err := f.db.NewRaw("SELECT body, radio FROM live_events WHERE id = ?", env.Row).Scan(ctx, &body, &radio)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				f.log.Warn("large live event not read", "row", env.Row, "err", err)
				continue
			}
			env.Event = json.RawMessage(body)
			if radio != nil {
				env.Radio = json.RawMessage(*radio)
			}
		}
		if len(env.Event) == 0 || !json.Valid(env.Event) {
			continue
		}
		if feed {
			f.deliver(env.Company, env.Kind, env.Event)
		}
		// An instance that runs an older version sends no radio part: its
		// uplinks reach the feed, not the subscribers.
		if watched && len(env.Radio) > 0 {
			u, err := uplinkOf(env.Company, env.Event, env.Radio)
			if err != nil {
				f.log.Warn("live uplink of another instance not read", "company_id", env.Company, "err", err)
				continue
			}
			f.uplinks.deliver(u)
		}
	}
}
