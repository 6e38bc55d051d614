// Package revoked is the list of sessions that ended while access tokens of
// theirs may still be unexpired: the kernel asks it about every token
// (auth.SessionCheck) and refuses the tokens of an ended session.
//
// The list lives in memory, so that the question costs a map lookup and no
// query. The table ended_sessions is its shared copy: an instance reads it
// when it starts, so that it knows the sessions that ended before, and on
// PostgreSQL every instance LISTENs for the ids that the others announce
// when a session ends (store.EndedChannel), reading the table again
// whenever its listening connection is (re)made, so that nothing announced
// while it was down is missed, and every minute besides. The instance that
// ends a session adds it itself, at once.
package revoked

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/modules/accounts/internal/store"
)

// Leeway is added to the access token lifetime for how long an ended
// session is kept: the instances' clocks may differ a little.
const Leeway = time.Minute

// sweepEvery is how often entries whose tokens have all lapsed are dropped.
const sweepEvery = time.Minute

// List is the ended sessions, by id, with when they ended.
type List struct {
	db  *bun.DB
	url string // the PostgreSQL database to LISTEN on; "" on SQLite
	// Keep is how long after its end a session can still have an
	// unexpired access token: the token lifetime and Leeway.
	keep time.Duration
	log  *slog.Logger
	now  func() time.Time

	mu    sync.RWMutex
	ended map[string]time.Time

	wg sync.WaitGroup
}

// New returns an empty list on bdb; postgresURL is the database's address
// on PostgreSQL, where the instances share what ends, else "".
// tokenTTL is the lifetime of an access token.
func New(bdb *bun.DB, postgresURL string, tokenTTL time.Duration, log *slog.Logger) *List {
	return &List{db: bdb, url: postgresURL, keep: tokenTTL + Leeway, log: log, now: time.Now, ended: map[string]time.Time{}}
}

// Keep is how long an ended session must be remembered.
func (l *List) Keep() time.Duration { return l.keep }

// Ended tells whether session id has ended (auth.SessionCheck). An entry
// that has outlived every token of its session may still be there until
// the next sweep; it then only matches tokens that have lapsed anyway.
func (l *List) Ended(id string) bool {
	l.mu.RLock()
	_, ok := l.ended[id]
	l.mu.RUnlock()
	return ok
}

// Add notes sessions that this instance ended, once their ending is
// committed.
func (l *List) Add(ids []string) {
	if len(ids) == 0 {
		return
	}
	now := l.now().UTC()
	l.mu.Lock()
	for _, id := range ids {
		if id != "" {
			l.ended[id] = now
		}
	}
	l.mu.Unlock()
}

// Start reads the sessions that ended recently and, on PostgreSQL, starts
// listening for those the other instances end; it returns once the list is
// loaded, and the background work ends with ctx.
func (l *List) Start(ctx context.Context) error {
	var conn *pgx.Conn
	if l.url != "" {
		// LISTEN before reading, so that nothing ended in between is missed.
		connectCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
		var err error
		conn, err = l.listen(connectCtx)
		cancel()
		if err != nil {
			l.log.Error("cannot LISTEN for sessions ended on other instances yet; trying again", "err", err)
		}
	}
	if err := l.load(ctx); err != nil {
		if conn != nil {
			conn.Close(context.Background())
		}
		return err
	}
	l.wg.Add(1)
	go func() { defer l.wg.Done(); l.sweep(ctx) }()
	if l.url != "" {
		l.wg.Add(1)
		go func() { defer l.wg.Done(); l.receive(ctx, conn) }()
	}
	return nil
}

// Wait returns once the background work has ended.
func (l *List) Wait() { l.wg.Wait() }

// load reads the sessions that ended within the keep period into the list.
func (l *List) load(ctx context.Context) error {
	ended, err := store.EndedSince(ctx, l.db, l.now().UTC().Add(-l.keep))
	if err != nil {
		return err
	}
	l.mu.Lock()
	for id, at := range ended {
		l.ended[id] = at
	}
	l.mu.Unlock()
	return nil
}

// sweep, every minute until ctx ends, drops the sessions whose access
// tokens have all lapsed and reads the table again: what a command run
// beside the server ended (on SQLite, where nothing is announced), or an
// announcement lost with a connection, is known within the minute.
func (l *List) sweep(ctx context.Context) {
	t := time.NewTicker(sweepEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			l.drop(l.now().UTC().Add(-l.keep))
			if err := l.load(ctx); err != nil && ctx.Err() == nil {
				l.log.Warn("ended sessions not read again", "err", err)
			}
		}
	}
}

// drop forgets the sessions that ended before cutoff.
func (l *List) drop(cutoff time.Time) {
	l.mu.Lock()
	for id, at := range l.ended {
		if at.Before(cutoff) {
			delete(l.ended, id)
		}
	}
	l.mu.Unlock()
}

// listen opens the listening connection (LISTEN holds a connection for
// good, so it is not taken from the pool).
func (l *List) listen(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.Connect(ctx, l.url)
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, "LISTEN "+store.EndedChannel); err != nil {
		conn.Close(context.Background())
		return nil, err
	}
	return conn, nil
}

// receive adds the sessions the instances announce until ctx ends,
// connecting again (with growing pauses) whenever the connection is lost,
// and reading the table after each new connection.
func (l *List) receive(ctx context.Context, conn *pgx.Conn) {
	pause := 500 * time.Millisecond
	for {
		if conn == nil {
			select {
			case <-ctx.Done():
				return
			case <-time.After(pause):
			}
			var err error
			if conn, err = l.listen(ctx); err != nil {
				if ctx.Err() == nil {
					l.log.Warn("cannot LISTEN for sessions ended on other instances; trying again", "err", err, "pause", pause.String())
				}
				pause = min(pause*2, 30*time.Second)
				continue
			}
			if err := l.load(ctx); err != nil && ctx.Err() == nil {
				l.log.Warn("ended sessions not read again", "err", err)
			}
			l.log.Info("listening for ended sessions again")
		}
		pause = 500 * time.Millisecond
		err := l.loop(ctx, conn)
		conn.Close(context.Background())
		conn = nil
		if ctx.Err() != nil {
			return
		}
		l.log.Warn("lost the connection that hears of sessions ended on other instances; reconnecting", "err", err)
	}
}

func (l *List) loop(ctx context.Context, conn *pgx.Conn) error {
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		if n.Payload == store.ReloadEnded {
			if err := l.load(ctx); err != nil {
				return err
			}
			continue
		}
		l.Add(strings.Split(n.Payload, ","))
	}
}
