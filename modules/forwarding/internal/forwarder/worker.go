package forwarder

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/outbox"
	"github.com/fieldhub/fieldhub/modules/forwarding"
	"github.com/fieldhub/fieldhub/modules/forwarding/internal/store"
	"github.com/fieldhub/fieldhub/modules/notifications"
)

// Delivery tuning. A target's lease is taken for lease and extended after
// each chunk of uplinks; an instance that dies holding it lets it lapse,
// and another takes over from the first undelivered uplink.
const (
	lease       = 30 * time.Second
	chunk       = 100 // uplinks delivered between two records of the state
	dueTargets  = 100 // targets looked at per round
	sendTimeout = 10 * time.Second
)

// deliverDue claims the due targets that this instance is not delivering
// already and delivers each on its own goroutine; with wait it waits for
// them.
func (f *Forwarder) deliverDue(ctx context.Context, wait bool) {
	now := f.now().UTC()
	due, err := store.Due(ctx, f.db, now, dueTargets)
	if err != nil {
		if ctx.Err() == nil {
			f.log.Warn("look for due forwarding", "err", err)
		}
		return
	}
	done := make(chan struct{}, len(due))
	started := 0
	for _, t := range due {
		if !f.start(t.ID) {
			continue
		}
		ok, err := store.Claim(ctx, f.db, t, now, now.Add(lease))
		if err != nil || !ok {
			f.stop(t.ID)
			continue
		}
		started++
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			defer func() { done <- struct{}{} }()
			defer f.stop(t.ID)
			f.deliverTarget(ctx, t)
		}()
	}
	for ; wait && started > 0; started-- {
		<-done
	}
}

func (f *Forwarder) start(id int64) bool {
	f.runMu.Lock()
	defer f.runMu.Unlock()
	if f.running[id] {
		return false
	}
	f.running[id] = true
	return true
}

func (f *Forwarder) stop(id int64) {
	f.runMu.Lock()
	delete(f.running, id)
	f.runMu.Unlock()
}

// deliverTarget sends a claimed target's queue in order, a chunk at a
// time, until it is empty, a delivery fails or ctx ends. A failure keeps
// the uplink at the head of the queue and sets the next attempt after the
// backoff.
func (f *Forwarder) deliverTarget(ctx context.Context, t *forwarding.Target) {
	// Records outlive a cancelled ctx: what went out is written down.
	rec := context.WithoutCancel(ctx)
	s := f.sender(t)
	defer s.close()
	for ctx.Err() == nil {
		rows, err := store.Next(ctx, f.db, t.ID, chunk)
		if err != nil || len(rows) == 0 {
			break
		}
		var sent []int64
		var failure error
		for _, r := range rows {
			if failure = s.send(ctx, []byte(r.Body)); failure != nil {
				break
			}
			sent = append(sent, r.ID)
		}
		if len(sent) > 0 {
			if err := store.Delivered(rec, f.db, t.ID, sent, f.now().UTC()); err != nil {
				f.log.Error("record forwarded uplinks", "target_id", t.ID, "err", err)
				return // the lease lapses; the uplinks go out again
			}
		}
		if failure != nil && ctx.Err() == nil {
			f.failed(rec, t, failure) // releases the lease with the backoff
			return
		}
		if failure != nil {
			break // stopping: the send was cut short, not failed
		}
		if err := store.Extend(rec, f.db, t.ID, f.now().UTC().Add(lease)); err != nil {
			break
		}
	}
	if err := store.Release(rec, f.db, t.ID); err != nil {
		f.log.Warn("release forwarding target", "target_id", t.ID, "err", err)
	}
}

// failed records a failed delivery; the MaxFailures-th in a row switches
// the target off and notifies the company's administrators in the same
// transaction.
func (f *Forwarder) failed(ctx context.Context, t *forwarding.Target, failure error) {
	now := f.now().UTC()
	msg := clip(failure.Error(), 500)
	var off *forwarding.Target
	err := f.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		cur, err := store.Failed(ctx, tx, t.ID, forwarding.Error{Time: now, Message: msg})
		if err != nil {
			return err
		}
		disable, next := !cur.Enabled, cur.NextAttemptAt
		f.log.Warn("forwarding failed", "target_id", t.ID, "application_id", t.ApplicationID, "failures", cur.Failures, "next", next, "err", msg)
		if !disable {
			return nil
		}
		f.log.Error("forwarding target switched off after failures in a row", "target_id", t.ID, "company_id", t.CompanyID,
			"application_id", t.ApplicationID, "failures", cur.Failures, "err", msg)
		off = cur
		return f.notifyDisabled(ctx, tx, cur, msg)
	})
	if err != nil {
		f.log.Error("record failed forwarding", "target_id", t.ID, "err", err)
		return
	}
	if off != nil && f.bus != nil {
		// The company's log (the logs module writes it as an ERROR entry).
		f.bus.Publish(ctx, outbox.Attempt{Channel: outbox.ChannelForwarding, MessageID: off.ID, CompanyID: off.CompanyID,
			To: []string{off.Name}, Number: off.Failures, Outcome: outbox.GaveUp, Error: msg, At: now})
	}
	f.forget(t.ID)
}

// notifyDisabled tells the company's administrators that t was switched
// off, in English (the notification's text is stored, not translated).
func (f *Forwarder) notifyDisabled(ctx context.Context, tx bun.Tx, t *forwarding.Target, msg string) error {
	if f.deps.Notifier == nil {
		return nil
	}
	args := map[string]any{"name": t.Name, "failures": t.Failures, "error": clip(msg, 200)}
	n := notifications.New{
		Label:   clip(f.catalogs.T("en", forwarding.IDDisabledLabel, args), notifications.MaxLabel),
		Message: clip(f.catalogs.T("en", forwarding.IDDisabledMessage, args), notifications.MaxMessage),
		Route:   fmt.Sprintf("/application/%d", t.ApplicationID),
		Roles:   []string{"Admin", "CompanyAdmin"},
	}
	return f.deps.Notifier.NotifyCompany(ctx, tx, t.CompanyID, n)
}

// forget drops a target that is off from the cache at once.
func (f *Forwarder) forget(id int64) {
	t, err := store.Target(context.Background(), f.db, id)
	if err != nil || t.Enabled {
		return
	}
	_ = f.Refresh(context.Background())
}

// clip cuts s to n runes.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
