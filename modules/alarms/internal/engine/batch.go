package engine

import (
	"context"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/modules/alarms"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/store"
	"github.com/fieldhub/fieldhub/modules/ingest"
)

// BatchSize is the most uplinks evaluated together.
const BatchSize = 512

// OnUplinks evaluates the active rules of the uplinks' nodes on their
// values, in the uplinks' order. The rules come from the engine's cache
// (ruleCache). Most values leave a rule's state as it was
// (the value is normal and was, or the condition holds and waits for its
// delay): such a rule's time and value are written with those of the other
// rules in one statement at the end, without its row lock. A value that
// moves a state (pending, firing, clearing, a digital level) is evaluated
// under the rule's lock in its own transaction, as are the rule's later
// values of the batch.
func (e *Engine) OnUplinks(ctx context.Context, uplinks []ingest.UplinkReceived) {
	var tagIDs []int64
	seen := map[int64]bool{}
	for _, u := range uplinks {
		if !seen[u.TagID] {
			tagIDs = append(tagIDs, u.TagID)
		}
		seen[u.TagID] = true
	}
	rules, err := e.rulesOf(ctx, tagIDs)
	if err != nil {
		e.log.Error("alarms of uplinks", "uplinks", len(uplinks), "err", err)
		return
	}
	if len(rules) == 0 {
		return
	}
	b := batch{e: e, rules: rules, locked: map[int64]bool{}, latest: map[int64]latest{}, clears: map[int64]time.Time{}}
	for _, u := range uplinks {
		b.uplink(ctx, u)
	}
	if b.finish(ctx) {
		// A state moved under a lock: read the rules again next time.
		e.RulesChanged()
	}
}

// batch is the evaluation of one batch of uplinks.
type batch struct {
	e *Engine
	// rules are the active rules by node (the cache's), with their state as
	// read and as the batches' unchanging values leave it.
	rules map[int64][]*alarms.Alarm
	// locked are the rules evaluated under their lock from some value on.
	locked map[int64]bool
	// latest are the last values of the rules not locked.
	latest map[int64]latest
	// clears are the open firings whose value was normal, and when first.
	clears map[int64]time.Time
}

type latest struct {
	eval store.Evaluation
	node node
}

// uplink evaluates u's values for its node's rules.
func (b *batch) uplink(ctx context.Context, u ingest.UplinkReceived) {
	at := u.Time.UTC()
	n := node{name: u.Name, deveui: strings.ToUpper(u.DevEUI)}
	for _, a := range b.rules[u.TagID] {
		v, ok := number(u.Data[a.TagDataKey])
		if !ok {
			continue
		}
		if !b.locked[a.ID] {
			if a.EvaluatedAt != nil && at.Before(*a.EvaluatedAt) {
				continue
			}
			if !b.e.moves(a, v, at) {
				a.EvaluatedAt, a.LastValue = &at, &v
				b.latest[a.ID] = latest{eval: store.Evaluation{ID: a.ID, Version: a.StateVersion, At: at, Value: v}, node: n}
				if a.OpenEventID != nil && a.Classify(v, a.DigitalState) == alarms.Normal {
					if _, ok := b.clears[*a.OpenEventID]; !ok {
						b.clears[*a.OpenEventID] = at
					}
				}
				continue
			}
			b.lock(ctx, a)
		}
		if err := b.e.Evaluate(ctx, a.ID, v, at, n); err != nil {
			b.e.log.Error("evaluate alarm", "alarm", a.ID, "err", err)
		}
	}
}

// lock moves rule a to the locked evaluation: what the batch noted of it
// before is written first, so that its firing clears at the first normal
// value, not a later one.
func (b *batch) lock(ctx context.Context, a *alarms.Alarm) {
	b.locked[a.ID] = true
	delete(b.latest, a.ID)
	b.e.unwritten.drop(a.ID)
	if a.OpenEventID == nil {
		return
	}
	if at, ok := b.clears[*a.OpenEventID]; ok {
		delete(b.clears, *a.OpenEventID)
		if err := store.ClearEvent(ctx, b.e.db, *a.OpenEventID, at); err != nil {
			b.e.log.Error("clear alarm event", "event", *a.OpenEventID, "err", err)
		}
	}
}

// finish writes the batch's clearings and hands the time and value of the
// rules not locked to the engine's unwritten evaluations, which Flush
// writes. It reports whether any rule was evaluated under its lock, whose
// state the cache then lacks.
func (b *batch) finish(ctx context.Context) (moved bool) {
	if len(b.clears) > 0 {
		if err := store.ClearEvents(ctx, b.e.db, b.clears); err != nil {
			b.e.log.Error("clear alarm events", "err", err)
		}
	}
	b.e.unwritten.add(b.latest)
	return len(b.locked) > 0
}

// moves reports whether value v at time at changes rule a's state: it
// fires, or it moves its pending time, its arming or its digital level.
func (e *Engine) moves(a *alarms.Alarm, v float64, at time.Time) bool {
	c := *a
	if e.step(&c, v, at) {
		return true
	}
	return !sameTime(c.PendingSince, a.PendingSince) || c.Armed != a.Armed || !sameInt(c.DigitalState, a.DigitalState)
}

func sameTime(a, b *time.Time) bool {
	return (a == nil) == (b == nil) && (a == nil || a.Equal(*b))
}

func sameInt(a, b *int) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}
