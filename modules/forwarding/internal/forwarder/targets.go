package forwarder

import (
	"context"
	"encoding/json"
	"time"

	"github.com/fieldhub/fieldhub/kernel/audit"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/forwarding"
	"github.com/fieldhub/fieldhub/modules/forwarding/internal/store"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// scoped checks that the caller manages companyID: another company's
// things are not found, so that ids reveal nothing; a company's user who
// may see but not manage is forbidden.
func scoped(ctx context.Context, companyID int64) error {
	c := auth.CallerFrom(ctx)
	if !c.CanSeeCompany(companyID) {
		return errs.New(errs.NotFound, errs.IDNotFound)
	}
	if !c.CanManageCompany(companyID) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	return nil
}

// Application returns the application of id if the caller manages its
// company.
func (f *Forwarder) Application(ctx context.Context, id int64) (*nodes.Application, error) {
	a, err := f.deps.Applications.Application(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := scoped(ctx, a.CompanyID); err != nil {
		return nil, err
	}
	return a, nil
}

// Target returns the target of id if the caller manages its company.
func (f *Forwarder) Target(ctx context.Context, id int64) (*forwarding.Target, error) {
	t, err := store.Target(ctx, f.db, id)
	if err != nil {
		return nil, err
	}
	if err := scoped(ctx, t.CompanyID); err != nil {
		return nil, err
	}
	return shown(t), nil
}

// Targets lists the targets of application a with their state.
func (f *Forwarder) Targets(ctx context.Context, a *nodes.Application) ([]*forwarding.Target, error) {
	list, err := store.ApplicationTargets(ctx, f.db, a.ID)
	if err != nil {
		return nil, err
	}
	for _, t := range list {
		shown(t)
	}
	if list == nil {
		list = []*forwarding.Target{} // the API answers [], not null
	}
	return list, nil
}

// shown sets what the API shows of a target's sealed fields.
func shown(t *forwarding.Target) *forwarding.Target {
	t.HasSecret, t.HasPassword = t.SealedSecret != "", t.SealedPassword != ""
	if t.Headers == nil {
		t.Headers = map[string]string{}
	}
	if t.LastErrors == nil {
		t.LastErrors = []forwarding.Error{}
	}
	return t
}

// Add validates in and stores it as a new target of application a.
func (f *Forwarder) Add(ctx context.Context, a *nodes.Application, in forwarding.Input) (*forwarding.Target, error) {
	now := f.now().UTC()
	t := &forwarding.Target{CompanyID: a.CompanyID, ApplicationID: a.ID, Enabled: true, CreatedAt: now, UpdatedAt: now, NextAttemptAt: now}
	if err := f.apply(t, in, true); err != nil {
		return nil, err
	}
	n, err := store.CountTargets(ctx, f.db, a.ID)
	if err != nil {
		return nil, err
	}
	if n >= forwarding.MaxTargets {
		return nil, errs.New(errs.Conflict, forwarding.IDTooMany).With("max", forwarding.MaxTargets)
	}
	if err := store.Insert(ctx, f.db, t); err != nil {
		return nil, err
	}
	f.announce(ctx, t, forwarding.IDAuditCreated, nil, auditFields(t))
	f.changed(ctx)
	return shown(t), nil
}

// Change validates the given fields of in onto t and stores them.
// Switching a target on starts its count of failures anew and lets its
// queue go out at once.
func (f *Forwarder) Change(ctx context.Context, t *forwarding.Target, in forwarding.Input) (*forwarding.Target, error) {
	old := *t
	was, before := t.Enabled, auditFields(t)
	if err := f.apply(t, in, false); err != nil {
		return nil, err
	}
	t.UpdatedAt = f.now().UTC()
	enable := t.Enabled && !was
	if enable {
		t.Failures, t.DisabledReason, t.NextAttemptAt = 0, "", t.UpdatedAt
	}
	if err := store.Update(ctx, f.db, t, enable); err != nil {
		return nil, err
	}
	b, a := audit.Diff(before, auditFields(t))
	secretsChanged(b, a, &old, t)
	if len(a) > 0 {
		f.announce(ctx, t, forwarding.IDAuditEdited, b, a)
	}
	f.changed(ctx)
	return shown(t), nil
}

// Remove deletes t with its queue.
func (f *Forwarder) Remove(ctx context.Context, t *forwarding.Target) error {
	if err := store.Delete(ctx, f.db, t.ID); err != nil {
		return err
	}
	f.announce(ctx, t, forwarding.IDAuditDeleted, auditFields(t), nil)
	f.changed(ctx)
	return nil
}

// auditFields are what the audit trail shows of a target; the secret and
// password are masked.
func auditFields(t *forwarding.Target) map[string]any {
	m := map[string]any{"name": t.Name, "kind": t.Kind, "enabled": t.Enabled, "url": t.URL, "headers": t.Headers,
		"username": t.Username, "topic": t.Topic, "secret": "", "password": ""}
	if t.SealedSecret != "" {
		m["secret"] = audit.Masked
	}
	if t.SealedPassword != "" {
		m["password"] = audit.Masked
	}
	return m
}

// secretsChanged adds to a change's fields the secret and password that
// were sent again: masked on both sides, Diff cannot see them.
func secretsChanged(b, a map[string]any, was, is *forwarding.Target) {
	if was.SealedSecret != is.SealedSecret {
		b["secret"], a["secret"] = masked(was.SealedSecret), masked(is.SealedSecret)
	}
	if was.SealedPassword != is.SealedPassword {
		b["password"], a["password"] = masked(was.SealedPassword), masked(is.SealedPassword)
	}
}

func masked(sealed string) string {
	if sealed == "" {
		return ""
	}
	return audit.Masked
}

// announce tells the audit trail of a person's change to t.
func (f *Forwarder) announce(ctx context.Context, t *forwarding.Target, id string, before, after map[string]any) {
	audit.Announce(ctx, f.bus, audit.Change{CompanyID: t.CompanyID, MessageID: id, Args: map[string]any{"name": t.Name}, Before: before, After: after})
}

// changed reads the cache again after a change on this instance (other
// instances follow within cacheRefresh) and wakes the worker.
func (f *Forwarder) changed(ctx context.Context) {
	if err := f.Refresh(context.WithoutCancel(ctx)); err != nil {
		f.log.Warn("refresh the forwarding targets", "err", err)
	}
	f.Wake()
}

// Test sends a sample uplink of the target's application to t now, past
// its queue and whether it is on, and answers the outcome. It changes
// nothing of the target's state.
func (f *Forwarder) Test(ctx context.Context, t *forwarding.Target) forwarding.TestResult {
	rssi, snr := -87.0, 7.5
	u := forwarding.UplinkOf(ingest.StoredUplink{
		UplinkReceived: ingest.UplinkReceived{CompanyID: t.CompanyID, DevEUI: "0000000000000000", Name: "Test", Time: f.now().UTC().Truncate(time.Second),
			Data: map[string]any{"temperature": 21.5, "humidity": 40.0}, FCnt: 1,
			Receptions: []ingest.Reception{{GatewayID: "test", RSSI: &rssi, SNR: &snr}}},
		ApplicationID: t.ApplicationID, Payload: []byte{0x01, 0x0d, 0x28}, FPort: 1})
	u.Test = true
	body, _ := json.Marshal(u)
	ctx, cancel := context.WithTimeout(ctx, 2*sendTimeout)
	defer cancel()
	s := f.sender(t)
	defer s.close()
	if w, ok := s.(*webhook); ok && w.openErr == nil {
		status, err := w.post(ctx, body)
		if err != nil {
			return forwarding.TestResult{Message: clip(err.Error(), 500), Status: status}
		}
		return forwarding.TestResult{OK: true, Status: status}
	}
	if err := s.send(ctx, body); err != nil {
		return forwarding.TestResult{Message: clip(err.Error(), 500)}
	}
	return forwarding.TestResult{OK: true}
}
