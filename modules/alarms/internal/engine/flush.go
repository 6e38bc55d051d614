package engine

import (
	"context"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/modules/alarms/internal/store"
)

// FlushEvery is how often the last times and values of the rules whose
// state the uplinks left as it was are written: at most once a rule in
// that time, however many uplinks its node sends. They only tell the
// catch-up after a restart where to start (a value evaluated again there
// leaves the state as it is) and the sweep which value fires a pending
// rule; a state that moves is written at once, under the rule's lock.
const FlushEvery = time.Second

// unwritten are the latest evaluations not yet written, by rule.
type unwritten struct {
	mu   sync.Mutex
	byID map[int64]latest
}

func (u *unwritten) add(l map[int64]latest) {
	if len(l) == 0 {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.byID == nil {
		u.byID = map[int64]latest{}
	}
	for id, v := range l {
		u.byID[id] = v
	}
}

// drop forgets rule id's evaluation: the rule is evaluated under its lock,
// which writes a newer one.
func (u *unwritten) drop(id int64) {
	u.mu.Lock()
	delete(u.byID, id)
	u.mu.Unlock()
}

func (u *unwritten) take() map[int64]latest {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := u.byID
	u.byID = nil
	return out
}

// Flush writes the unwritten evaluations in one statement per few hundred
// rules; a rule whose state another instance moved since is evaluated
// again with its value, under its lock.
func (e *Engine) Flush(ctx context.Context) {
	pending := e.unwritten.take()
	if len(pending) == 0 {
		return
	}
	list := make([]store.Evaluation, 0, len(pending))
	for _, l := range pending {
		list = append(list, l.eval)
	}
	missed, err := store.SaveEvaluations(ctx, e.db, list)
	if err != nil {
		e.log.Error("save alarm evaluations", "err", err)
		return
	}
	for _, id := range missed {
		l := pending[id]
		if err := e.Evaluate(ctx, id, l.eval.Value, l.eval.At, l.node); err != nil {
			e.log.Error("evaluate alarm", "alarm", id, "err", err)
		}
	}
	if len(missed) > 0 {
		e.RulesChanged()
	}
}

// RunFlush flushes every FlushEvery until ctx ends, and once more then.
func (e *Engine) RunFlush(ctx context.Context) {
	t := time.NewTicker(FlushEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			e.Flush(context.WithoutCancel(ctx))
			return
		case <-t.C:
			e.Flush(ctx)
		}
	}
}
