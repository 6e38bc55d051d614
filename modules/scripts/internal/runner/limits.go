package runner

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/modules/scripts"
	"github.com/fieldhub/fieldhub/modules/scripts/internal/store"
)

// The per-minute limits of scripts (docs/decisions.md, "Scripts"): each
// write and send counts against the script's own limit and against its
// company's ceiling, per minute of the clock. The counts live where every
// instance sees them (PostgreSQL's script_limits; with SQLite, one
// instance, in memory). Writes are frequent (a virtual sensor writes on
// every uplink), so an instance reserves them in blocks that grow while a
// scope keeps writing within the minute, and hands them out from memory;
// sends are rare and cost money, so each is counted in the database.

// quota is one limit an action counts against.
type quota struct {
	// scope names the count: "w:s:<script>", "w:c:<company>", "s:s:...".
	scope string
	limit int
	// block is the most an instance reserves at once.
	block int
	// own is true for the script's own limit, whose breach is the
	// script's failure; false for the company's ceiling.
	own bool
	// refused is the message of an action past the limit.
	refused string
}

// writeBlock is the largest block of writes an instance reserves: small
// beside the limits, so that what other instances hold unused cannot
// refuse a script much before its limit.
const writeBlock = 64

func writeQuotas(s *scripts.Script) [2]quota {
	return [2]quota{
		{scope: fmt.Sprintf("w:s:%d", s.ID), limit: scripts.MaxScriptWritesPerMinute, block: writeBlock, own: true,
			refused: fmt.Sprintf("the script wrote %d times this minute, the most one script may", scripts.MaxScriptWritesPerMinute)},
		{scope: fmt.Sprintf("w:c:%d", s.CompanyID), limit: scripts.MaxCompanyWritesPerMinute, block: writeBlock,
			refused: fmt.Sprintf("refused, not the script's fault: the company's scripts wrote %d times this minute, the most they may together", scripts.MaxCompanyWritesPerMinute)},
	}
}

func sendQuotas(s *scripts.Script) [2]quota {
	return [2]quota{
		{scope: fmt.Sprintf("s:s:%d", s.ID), limit: scripts.MaxScriptSendsPerMinute, block: 1, own: true,
			refused: fmt.Sprintf("the script sent %d messages this minute, the most one script may", scripts.MaxScriptSendsPerMinute)},
		{scope: fmt.Sprintf("s:c:%d", s.CompanyID), limit: scripts.MaxCompanySendsPerMinute, block: 1,
			refused: fmt.Sprintf("refused, not the script's fault: the company's scripts sent %d messages this minute, the most they may together", scripts.MaxCompanySendsPerMinute)},
	}
}

// refusal is an action refused by a per-minute limit.
type refusal struct {
	// own is true when the script's own limit refused it (its failure).
	own bool
	// first is true for the first refusal of the count on this instance
	// this minute, the one worth a log entry.
	first bool
	// kind is the refused action's: scripts.ActionWrite, ActionSMS, ...
	kind string
	msg  string
}

func (e *refusal) Error() string { return e.msg }

// counter keeps the counts of the minutes.
type counter interface {
	// add adds n to scope's count of minute and returns the count after.
	add(ctx context.Context, scope string, minute int64, n int) (int64, error)
	// sweep forgets the minutes before minute.
	sweep(ctx context.Context, minute int64) error
}

// dbCounter keeps the counts in PostgreSQL, for all instances.
type dbCounter struct{ db bun.IDB }

func (c dbCounter) add(ctx context.Context, scope string, minute int64, n int) (int64, error) {
	return store.AddCount(ctx, c.db, scope, minute, n)
}

func (c dbCounter) sweep(ctx context.Context, minute int64) error {
	return store.SweepCounts(ctx, c.db, minute)
}

// memCounter keeps the counts in this process (SQLite: one instance).
type memCounter struct {
	mu   sync.Mutex
	used map[memKey]int64
}

type memKey struct {
	scope  string
	minute int64
}

func newMemCounter() *memCounter { return &memCounter{used: map[memKey]int64{}} }

func (c *memCounter) add(_ context.Context, scope string, minute int64, n int) (int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := memKey{scope, minute}
	c.used[k] += int64(n)
	return c.used[k], nil
}

func (c *memCounter) sweep(_ context.Context, minute int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.used {
		if k.minute < minute {
			delete(c.used, k)
		}
	}
	return nil
}

// limiter hands out the actions of this instance against the counts.
type limiter struct {
	counts counter
	log    *slog.Logger
	mu     sync.Mutex
	held   map[string]*held
	// swept is the minute whose older counts were last swept.
	swept int64
}

// held is what this instance holds of a scope in a minute.
type held struct {
	minute int64
	// left is reserved and not handed out yet; next is the size of the
	// next reservation, doubling up to the quota's block.
	left, next int
	// spent is true once the count reached the limit this minute;
	// refused once an action was refused.
	spent, refused bool
}

// newLimiter counts in idb's PostgreSQL, or in memory with SQLite.
func newLimiter(idb bun.IDB, log *slog.Logger) *limiter {
	var c counter = newMemCounter()
	if db.DialectOf(idb) == db.Postgres {
		c = dbCounter{idb}
	}
	return &limiter{counts: c, log: log, held: map[string]*held{}}
}

// isSend reports whether an action of kind sends a message (a
// notification, an e-mail, an SMS, a downlink): the actions that count
// against the send limits; writes and log lines count as writes.
func isSend(kind string) bool { return kind != scripts.ActionWrite && kind != scripts.ActionLog }

// minuteOf is the minute of the clock a time falls in.
func minuteOf(t time.Time) int64 { return t.Unix() / 60 }

// allow counts one action of kind by s at now against the script's limit
// and then the company's ceiling. It returns a *refusal when one refuses.
func (l *limiter) allow(ctx context.Context, s *scripts.Script, kind string, now time.Time) error {
	qs := writeQuotas(s)
	if isSend(kind) {
		qs = sendQuotas(s)
	}
	minute := minuteOf(now)
	l.sweep(ctx, minute)
	for _, q := range qs {
		ok, err := l.take(ctx, q, minute)
		if err != nil {
			return err
		}
		if !ok {
			l.mu.Lock()
			h := l.current(q.scope, minute)
			first := !h.refused
			h.refused = true
			l.mu.Unlock()
			return &refusal{own: q.own, first: first, kind: kind, msg: q.refused}
		}
	}
	return nil
}

// take takes one action of q in minute from what this instance holds,
// reserving more when it holds none; false when the limit is reached.
func (l *limiter) take(ctx context.Context, q quota, minute int64) (bool, error) {
	l.mu.Lock()
	h := l.current(q.scope, minute)
	switch {
	case h.left > 0:
		h.left--
		l.mu.Unlock()
		return true, nil
	case h.spent:
		l.mu.Unlock()
		return false, nil
	}
	n := min(max(h.next, 1), q.block)
	h.next = n * 2
	l.mu.Unlock()

	used, err := l.counts.add(ctx, q.scope, minute, n)
	if err != nil {
		return false, err
	}
	// What this reservation got: all of it below the limit, the part
	// below the limit when it crosses it, none past it.
	got := int(min(int64(n), max(0, int64(q.limit)-(used-int64(n)))))
	l.mu.Lock()
	defer l.mu.Unlock()
	h = l.current(q.scope, minute)
	if used >= int64(q.limit) {
		h.spent = true
	}
	if got == 0 {
		return false, nil
	}
	h.left += got - 1
	return true, nil
}

// current is what this instance holds of scope in minute; l.mu is held.
func (l *limiter) current(scope string, minute int64) *held {
	h := l.held[scope]
	if h == nil || h.minute != minute {
		h = &held{minute: minute, next: 1}
		l.held[scope] = h
	}
	return h
}

// sweep forgets, once a minute, what earlier minutes held and counted.
func (l *limiter) sweep(ctx context.Context, minute int64) {
	l.mu.Lock()
	if l.swept == minute {
		l.mu.Unlock()
		return
	}
	l.swept = minute
	for scope, h := range l.held {
		if h.minute < minute {
			delete(l.held, scope)
		}
	}
	l.mu.Unlock()
	// The minute before stays: an instance whose clock is a little behind
	// may still count in it. A failed sweep is tried again next minute.
	if err := l.counts.sweep(ctx, minute-1); err != nil {
		l.log.Warn("forget the scripts' counts of past minutes", "err", err)
	}
}
