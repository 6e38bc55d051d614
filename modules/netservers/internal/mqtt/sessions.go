package mqtt

import (
	"context"
	"database/sql"
	"errors"
	"hash/fnv"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/modules/netservers"
)

// The instances of an installation take ChirpStack's events in
// netservers.MQTTSessions sessions, members of one shared subscription.
// Each session is persistent, so the broker keeps queueing a member's share
// of the events while nobody holds it, and Mosquitto (2.0) goes on giving a
// member its turn whether it is connected or not. So every session must be
// held by some instance for as long as any instance runs, or its share
// waits until an instance comes back for it: a session is held by one
// instance at a time (two clients with one client id would take it from each
// other in turns), and the instances divide the sessions among themselves.
//
// On PostgreSQL each instance holds, on a connection of its own, a shared
// advisory lock that says it is there, and an advisory lock for each session
// it holds. Every balancePoll it counts the instances that are there and
// aims at its share, MQTTSessions divided by their number, rounded up: it
// gives up sessions beyond it (the events in hand are finished and
// acknowledged first) and takes sessions that no one holds, up to it. So the
// sessions of an instance that stops or dies are taken over within a few
// seconds, and a new instance gets its share within two polls. Should the
// lock connection die, its locks die with it: the instance lets go of every
// session at once and starts over. On SQLite there is one instance: it holds
// every session.

// balancePoll is how often an instance looks at its share of the sessions,
// and checks that its lock connection is alive.
const balancePoll = 5 * time.Second

// How long a session that stops waits for the events in hand to be
// through before it lets go of them: those not through by then are not
// acknowledged, and the broker sends them again to the session's next
// holder. A session given up to another instance waits for as long as a
// batch may take; at shutdown the kernel allows a module 10 seconds.
const (
	releaseWait  = 30 * time.Second
	shutdownWait = 5 * time.Second
)

// runSessions holds this instance's share of the sessions until ctx is
// done, then lets go of them.
func (c *Client) runSessions(ctx context.Context, cfg *mqttConfig) {
	ids := netservers.MQTTSessionIDs(cfg.clientID)
	if db.DialectOf(c.host.DB) != db.Postgres {
		held := make([]*session, len(ids))
		for i, id := range ids {
			held[i] = c.startSession(cfg, i, id)
		}
		<-ctx.Done()
		stopSessions(held, shutdownWait)
		return
	}
	b := &balancer{c: c, cfg: cfg, ids: ids, held: make([]*session, len(ids)),
		presence: lockKey("netservers.mqtt.instances:" + cfg.clientID)}
	for _, id := range ids {
		// Session 0's key is the single subscriber's of earlier versions,
		// so that an instance of one cannot hold it beside one of these.
		b.keys = append(b.keys, lockKey("netservers.mqtt:"+id))
	}
	b.run(ctx)
}

// lockKey turns a name into an advisory lock key.
func lockKey(name string) int64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return int64(h.Sum64())
}

// stopSessions stops the sessions, all at once, waiting up to wait for the
// events in hand.
func stopSessions(list []*session, wait time.Duration) {
	var wg sync.WaitGroup
	for _, s := range list {
		if s != nil {
			wg.Go(func() { s.stop(wait) })
		}
	}
	wg.Wait()
}

// balancer holds this instance's share of the sessions on PostgreSQL.
type balancer struct {
	c        *Client
	cfg      *mqttConfig
	ids      []string
	keys     []int64 // the advisory lock of each session
	presence int64   // the shared advisory lock of the instances
	conn     *sql.Conn
	held     []*session // by session, nil where another instance (or none) holds it
	failing  bool       // the last try to reach the database failed
	shown    [2]int     // sessions held and instances, as last logged
}

func (b *balancer) run(ctx context.Context) {
	next := time.NewTimer(0)
	defer next.Stop()
	for {
		select {
		case <-ctx.Done():
			stopSessions(b.held, shutdownWait)
			b.closeConn()
			return
		case <-next.C:
		}
		b.step(ctx)
		next.Reset(balancePoll)
	}
}

func (b *balancer) count() int {
	n := 0
	for _, s := range b.held {
		if s != nil {
			n++
		}
	}
	return n
}

// step checks the lock connection and moves this instance's sessions
// towards its share.
func (b *balancer) step(ctx context.Context) {
	qctx, cancel := context.WithTimeout(ctx, balancePoll)
	defer cancel()
	if b.conn != nil {
		if err := b.conn.PingContext(qctx); err != nil {
			if ctx.Err() != nil {
				return
			}
			b.c.log.Warn("MQTT subscriber lost its lock connection to the database; letting go of its sessions", "err", err)
			stopSessions(b.held, 0) // their locks are gone: another instance may take them now
			clear(b.held)
			b.closeConn()
		}
	}
	if b.conn == nil {
		if err := b.openConn(qctx); err != nil {
			if ctx.Err() == nil && !b.failing {
				b.c.log.Warn("MQTT subscriber cannot take its locks in the database; retrying", "err", err)
			}
			b.failing = true
			return
		}
	}
	instances, err := b.instances(qctx)
	if err != nil {
		if ctx.Err() == nil {
			b.c.log.Warn("MQTT subscriber cannot count the instances; retrying", "err", err)
		}
		return
	}
	b.failing = false
	share := (len(b.ids) + instances - 1) / instances
	for i := len(b.held) - 1; i >= 0 && b.count() > share; i-- {
		if s := b.held[i]; s != nil {
			s.stop(releaseWait)
			b.held[i] = nil
			uctx, cancel := context.WithTimeout(ctx, balancePoll) // qctx may have run out meanwhile
			_, err := b.conn.ExecContext(uctx, "SELECT pg_advisory_unlock($1)", b.keys[i])
			cancel()
			if err != nil {
				b.c.log.Warn("MQTT subscriber cannot give back the lock of a session", "client_id", b.ids[i], "err", err)
			}
		}
	}
	for _, i := range rand.Perm(len(b.ids)) {
		if b.count() >= share {
			break
		}
		if b.held[i] != nil {
			continue
		}
		var got bool
		if err := b.conn.QueryRowContext(qctx, "SELECT pg_try_advisory_lock($1)", b.keys[i]).Scan(&got); err != nil {
			break // the next step checks the connection
		}
		if got {
			b.held[i] = b.c.startSession(b.cfg, i, b.ids[i])
		}
	}
	held := b.count()
	if now := [2]int{held, instances}; now != b.shown {
		b.shown = now
		b.c.log.Info("MQTT subscriber holds its share of the sessions", "sessions", held, "of", len(b.ids), "instances", instances)
	}
}

// openConn opens the lock connection and says this instance is there.
func (b *balancer) openConn(ctx context.Context) error {
	conn, err := b.c.host.DB.DB.Conn(ctx)
	if err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock_shared($1)", b.presence); err != nil {
		conn.Close()
		return err
	}
	b.conn = conn
	return nil
}

func (b *balancer) closeConn() {
	if b.conn == nil {
		return
	}
	// Closing the connection gives back its locks; a broken one has lost
	// them already. database/sql may keep a healthy connection in its pool,
	// so the locks are given back first.
	ctx, cancel := context.WithTimeout(context.Background(), balancePoll)
	defer cancel()
	_, _ = b.conn.ExecContext(ctx, "SELECT pg_advisory_unlock_all()")
	_ = b.conn.Close()
	b.conn = nil
}

// instances counts the instances that are there: the holders of the shared
// lock, this one among them.
func (b *balancer) instances(ctx context.Context) (int, error) {
	var n int
	err := b.conn.QueryRowContext(ctx, `SELECT count(*) FROM pg_locks
		WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
		AND classid = $1::bigint::oid AND objid = $2::bigint::oid AND objsubid = 1`,
		int64(uint64(b.presence)>>32), int64(uint64(b.presence)&0xffffffff)).Scan(&n)
	if err == nil && n < 1 {
		err = errors.New("this instance's lock is not among the locks")
	}
	return n, err
}
