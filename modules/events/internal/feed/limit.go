package feed

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
)

// The caps on open connections: per user, and per company (the connections
// of the company's users together; a SuperAdmin or Admin without a company
// counts only as a user). The company is the caller's own, not the one a
// SuperAdmin follows, so that one company's users cannot use up what
// another's have.
//
// On SQLite (one instance) the counts are this instance's. On PostgreSQL
// each open connection is a row of the UNLOGGED table live_connections, so
// that the caps hold across instances: a connection inserts its row, counts
// the rows of its user and its company, and gives up (deletes its row) when
// one count is over its cap; when it closes it deletes its row. That is
// three statements per connection, none per event. Two connections that
// open at once on two instances may both see the other and both be refused,
// never both let in over the cap. Each instance marks its rows alive every
// heartbeat; rows of an instance that died without deleting them are not
// counted once they are older than staleAfter, and deleted later.

const (
	heartbeat  = 30 * time.Second
	staleAfter = 3 * heartbeat
	dropAfter  = 10 * time.Minute
)

// limiter admits connections within the caps.
type limiter interface {
	// acquire reports whether one more connection of user (of company, 0
	// for none) is within the caps; when it is, release frees its place.
	acquire(ctx context.Context, user, company int64) (release func(), ok bool, err error)
}

// caps are the limits.
type caps struct{ perUser, perCompany int }

// localLimiter counts this instance's connections.
type localLimiter struct {
	caps
	mu        sync.Mutex
	byUser    map[int64]int
	byCompany map[int64]int
}

func newLocalLimiter(c caps) *localLimiter {
	return &localLimiter{caps: c, byUser: map[int64]int{}, byCompany: map[int64]int{}}
}

func (l *localLimiter) acquire(_ context.Context, user, company int64) (func(), bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.byUser[user] >= l.perUser || (company != 0 && l.byCompany[company] >= l.perCompany) {
		return nil, false, nil
	}
	l.byUser[user]++
	if company != 0 {
		l.byCompany[company]++
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			if l.byUser[user]--; l.byUser[user] <= 0 {
				delete(l.byUser, user)
			}
			if company != 0 {
				if l.byCompany[company]--; l.byCompany[company] <= 0 {
					delete(l.byCompany, company)
				}
			}
		})
	}, true, nil
}

// pgLimiter counts the connections of every instance in live_connections.
type pgLimiter struct {
	caps
	db       *bun.DB
	instance string
	log      *slog.Logger
}

func newPGLimiter(c caps, bdb *bun.DB, log *slog.Logger) *pgLimiter {
	return &pgLimiter{caps: c, db: bdb, instance: auth.RandomToken(9), log: log}
}

func (l *pgLimiter) acquire(ctx context.Context, user, company int64) (func(), bool, error) {
	id := auth.RandomToken(12)
	if _, err := l.db.NewRaw("INSERT INTO live_connections (id, instance, user_id, company_id, seen_at) VALUES (?, ?, ?, ?, now())",
		id, l.instance, user, company).Exec(ctx); err != nil {
		return nil, false, err
	}
	drop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := l.db.NewRaw("DELETE FROM live_connections WHERE id = ?", id).Exec(ctx); err != nil {
			// The heartbeat no longer keeps it: it stops counting soon.
			l.log.Warn("live feed connection not unregistered", "err", err)
		}
	}
	var users, companies int
	err := l.db.NewRaw(`SELECT count(*) FILTER (WHERE user_id = ?), count(*) FILTER (WHERE company_id = ? AND company_id <> 0)
		FROM live_connections WHERE (user_id = ? OR company_id = ?) AND seen_at > now() - ? * interval '1 second'`,
		user, company, user, company, int(staleAfter.Seconds())).Scan(ctx, &users, &companies)
	if err != nil {
		drop()
		return nil, false, err
	}
	if users > l.perUser || (company != 0 && companies > l.perCompany) {
		drop()
		return nil, false, nil
	}
	var once sync.Once
	return func() { once.Do(drop) }, true, nil
}

// run keeps this instance's rows alive until ctx ends, deletes the rows of
// instances that died, and at the end this instance's own.
func (l *pgLimiter) run(ctx context.Context) {
	t := time.NewTicker(heartbeat)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if _, err := l.db.NewRaw("DELETE FROM live_connections WHERE instance = ?", l.instance).Exec(stop); err != nil {
				l.log.Warn("live feed connections not unregistered at shutdown", "err", err)
			}
			return
		case <-t.C:
			if _, err := l.db.NewRaw("UPDATE live_connections SET seen_at = now() WHERE instance = ?", l.instance).Exec(ctx); err != nil && ctx.Err() == nil {
				l.log.Warn("live feed connections not kept alive", "err", err)
			}
			if _, err := l.db.NewRaw("DELETE FROM live_connections WHERE seen_at < now() - ? * interval '1 second'", int(dropAfter.Seconds())).Exec(ctx); err != nil && ctx.Err() == nil {
				l.log.Warn("stale live feed connections not deleted", "err", err)
			}
		}
	}
}
