package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/alarms"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/store"
)

// Sweep fires the pending rules whose delay has passed by now without a
// new uplink, then re-notifies and escalates the open firings that are due.
// Each step claims its work with a row lock or a conditional update, so
// that instances running it at once do each thing once.
func (e *Engine) Sweep(ctx context.Context, now time.Time) error {
	now = now.UTC()
	ids, err := store.Pending(ctx, e.db)
	if err != nil {
		return err
	}
	var errList []error
	for _, id := range ids {
		if err := e.firePending(ctx, id, now); err != nil {
			errList = append(errList, err)
		}
	}
	open, err := store.FollowUps(ctx, e.db)
	if err != nil {
		return err
	}
	for _, ev := range open {
		if err := e.followUp(ctx, ev, now); err != nil {
			errList = append(errList, err)
		}
	}
	return errors.Join(errList...)
}

// firePending fires rule id if its condition, last seen holding, has held
// for its delay by now.
func (e *Engine) firePending(ctx context.Context, id int64, now time.Time) error {
	var n *node
	return e.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		a, err := store.Lock(ctx, tx, id)
		if err != nil {
			return err
		}
		if !a.Active || !a.Armed || a.OpenEventID != nil || a.PendingSince == nil || a.LastValue == nil ||
			now.Before(a.PendingSince.Add(e.delay(a.AlarmDelay))) {
			return nil
		}
		if n == nil {
			t, err := e.deps.Tags.Tag(ctx, a.TagID)
			if err != nil {
				return fmt.Errorf("node of alarm %d: %w", a.ID, err)
			}
			n = &node{name: t.Name, deveui: t.DevEUI}
		}
		if err := e.fire(ctx, tx, a, *a.LastValue, now, *n); err != nil {
			return err
		}
		return store.SaveState(ctx, tx, a)
	})
}

// followUp re-notifies the contacts of an open firing whose rule asks for
// it every renotifyInterval, and tells the escalation contacts once after
// escalateAfter, both only with the rule's advanced settings on.
func (e *Engine) followUp(ctx context.Context, ev *alarms.Event, now time.Time) error {
	a, err := store.Get(ctx, e.db, ev.AlarmID)
	if errs.Is(err, errs.NotFound) {
		return nil
	}
	if err != nil || !a.Advanced {
		return err
	}
	if a.RenotifyInterval > 0 && !now.Before(ev.NotifiedAt.Add(e.delay(a.RenotifyInterval))) {
		err := e.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
			ok, err := store.Renotified(ctx, tx, ev.ID, ev.NotifiedAt, now)
			if err != nil || !ok {
				return err
			}
			_, err = e.send(ctx, tx, a, a.AlarmContacts, "Reminder: "+a.Name, "Not acknowledged yet: "+ev.MessageSent)
			return err
		})
		if err != nil {
			return err
		}
	}
	if a.EscalateAfter > 0 && len(a.EscalationContacts) > 0 && ev.EscalatedAt == nil &&
		!now.Before(ev.TriggeredAt.Add(e.delay(a.EscalateAfter))) {
		return e.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
			ok, err := store.Escalated(ctx, tx, ev.ID, now)
			if err != nil || !ok {
				return err
			}
			_, err = e.send(ctx, tx, a, a.EscalationContacts, "Escalated: "+a.Name, "Nobody has acknowledged this alarm: "+ev.MessageSent)
			return err
		})
	}
	return nil
}

// CatchUp evaluates, after a start, each active rule on its node's latest
// stored value when that value is newer than the last one the rule
// evaluated: an uplink stored just before a crash, whose UplinkReceived
// never reached the evaluation, still counts.
func (e *Engine) CatchUp(ctx context.Context) error {
	list, err := store.Active(ctx, e.db)
	if err != nil {
		return err
	}
	for _, a := range list {
		t, err := e.deps.Tags.Tag(ctx, a.TagID)
		if err != nil || t.LatestTime == nil {
			continue
		}
		since := a.UpdatedAt
		if a.EvaluatedAt != nil {
			since = *a.EvaluatedAt
		}
		v, ok := number(lookup(t.Data, a.TagDataKey))
		if !ok || !t.LatestTime.After(since) {
			continue
		}
		if err := e.Evaluate(ctx, a.ID, v, *t.LatestTime, node{name: t.Name, deveui: t.DevEUI}); err != nil {
			e.log.Error("catch up alarm", "alarm", a.ID, "err", err)
		}
	}
	return nil
}

// lookup finds a dotted key (as the ingest flattens them) in a node's
// latest data, which keeps the decoder's nesting.
func lookup(data map[string]any, key string) any {
	if v, ok := data[key]; ok {
		return v
	}
	var cur any = data
	for _, part := range strings.Split(key, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[part]
	}
	return cur
}
