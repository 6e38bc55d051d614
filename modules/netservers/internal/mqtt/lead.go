package mqtt

import (
	"context"
	"database/sql"
	"hash/fnv"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
)

// leadPoll is how often an instance on standby asks for the lead, and how
// often the leader checks that it still holds it.
const leadPoll = 5 * time.Second

// lead waits until this instance may hold the MQTT subscription named key.
// Instances that share a PostgreSQL database may share the broker too, and
// two clients with one client id would take the session from each other in
// turns: only the holder of a session-level advisory lock subscribes. lost
// closes should the lock's connection die (the lock dies with it); release
// gives the lock back. On SQLite there is one instance: it leads at once.
// The error is ctx's, once it is done.
func (c *Client) lead(ctx context.Context, key string) (lost <-chan struct{}, release func(), err error) {
	if db.DialectOf(c.host.DB) != db.Postgres {
		return nil, func() {}, nil
	}
	h := fnv.New64a()
	h.Write([]byte(key))
	id := int64(h.Sum64())
	standby := false
	for {
		conn, got, err := tryAdvisoryLock(ctx, c.host.DB.DB, id)
		if got {
			if standby {
				c.log.Info("MQTT subscriber takes over from another instance")
			}
			return watchLock(conn, id)
		}
		switch {
		case ctx.Err() != nil:
			return nil, nil, ctx.Err()
		case err != nil:
			c.log.Warn("MQTT subscriber cannot ask the database for its lock; retrying", "err", err)
		case !standby:
			c.log.Info("another instance holds the MQTT subscription; standing by")
			standby = true
		}
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-time.After(leadPoll):
		}
	}
}

// tryAdvisoryLock takes lock id on a connection of its own, which it
// returns when it got the lock.
func tryAdvisoryLock(ctx context.Context, pool *sql.DB, id int64) (*sql.Conn, bool, error) {
	conn, err := pool.Conn(ctx)
	if err != nil {
		return nil, false, err
	}
	var got bool
	if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", id).Scan(&got); err != nil || !got {
		conn.Close()
		return nil, false, err
	}
	return conn, true, nil
}

// watchLock checks the lock's connection until release is called.
func watchLock(conn *sql.Conn, id int64) (<-chan struct{}, func(), error) {
	lost := make(chan struct{})
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(leadPoll)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				ctx, cancel := context.WithTimeout(context.Background(), leadPoll)
				err := conn.PingContext(ctx)
				cancel()
				if err != nil {
					close(lost)
					return
				}
			}
		}
	}()
	release := func() {
		close(stop)
		<-done
		ctx, cancel := context.WithTimeout(context.Background(), leadPoll)
		defer cancel()
		_, _ = conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", id)
		conn.Close()
	}
	return lost, release, nil
}
