// Package library keeps the companies' scripts: reading them within the
// caller's reach, validating and storing what people change, announcing
// the changes (the audit trail) and telling the dispatcher of triggered
// scripts which nodes are bound.
package library

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/audit"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/scripts"
	"github.com/fieldhub/fieldhub/modules/scripts/internal/store"
)

// Library keeps the scripts.
type Library struct {
	host *kernel.Host
	db   *bun.DB
	tags scripts.Tags
	// changed is told after every change, to refresh the bound nodes.
	changed func(ctx context.Context)
}

// New returns the library; changed is called after each change.
func New(host *kernel.Host, tags scripts.Tags, changed func(ctx context.Context)) *Library {
	return &Library{host: host, db: host.DB, tags: tags, changed: changed}
}

// Scoped lets the caller at company id: another company's things are not
// found, and only those who manage it reach it.
func Scoped(ctx context.Context, id int64) error {
	c := auth.CallerFrom(ctx)
	if !c.CanSeeCompany(id) {
		return errs.New(errs.NotFound, errs.IDNotFound)
	}
	if !c.CanManageCompany(id) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	return nil
}

// List lists company's scripts.
func (l *Library) List(ctx context.Context, company int64) ([]scripts.Script, error) {
	if err := Scoped(ctx, company); err != nil {
		return nil, err
	}
	return store.OfCompany(ctx, l.db, company)
}

// Get returns script id if the caller reaches its company.
func (l *Library) Get(ctx context.Context, id int64) (*scripts.Script, error) {
	s, err := store.Get(ctx, l.db, id)
	if err != nil {
		return nil, err
	}
	if err := Scoped(ctx, s.CompanyID); err != nil {
		return nil, err
	}
	return s, nil
}

// Runs lists the run history of a script the caller reaches.
func (l *Library) Runs(ctx context.Context, id int64) ([]scripts.Run, error) {
	if _, err := l.Get(ctx, id); err != nil {
		return nil, err
	}
	return store.Runs(ctx, l.db, id)
}

// Create validates in and stores a new script of company.
func (l *Library) Create(ctx context.Context, company int64, in scripts.Input) (*scripts.Script, error) {
	if err := Scoped(ctx, company); err != nil {
		return nil, err
	}
	s := &scripts.Script{CompanyID: company, Type: scripts.TypeInvoked}
	if err := l.apply(ctx, s, in, true); err != nil {
		return nil, err
	}
	if err := store.Insert(ctx, l.db, s); err != nil {
		return nil, err
	}
	audit.Announce(ctx, l.host.Bus, audit.Change{CompanyID: company, MessageID: scripts.AuditCreated, Args: map[string]any{"id": s.ID, "name": s.Name}})
	l.changed(ctx)
	return s, nil
}

// Update changes the fields in gives of script id.
func (l *Library) Update(ctx context.Context, id int64, in scripts.Input) (*scripts.Script, error) {
	s, err := l.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	before := map[string]any{"name": s.Name, "type": s.Type, "interval": s.Interval, "enabled": s.Enabled, "boundTag": s.BoundTag}
	if err := l.apply(ctx, s, in, false); err != nil {
		return nil, err
	}
	if err := store.Update(ctx, l.db, s); err != nil {
		return nil, err
	}
	audit.Announce(ctx, l.host.Bus, audit.Change{CompanyID: s.CompanyID, MessageID: scripts.AuditUpdated, Args: map[string]any{"id": s.ID, "name": s.Name},
		Before: before, After: map[string]any{"name": s.Name, "type": s.Type, "interval": s.Interval, "enabled": s.Enabled, "boundTag": s.BoundTag}})
	l.changed(ctx)
	return s, nil
}

// Delete removes script id.
func (l *Library) Delete(ctx context.Context, id int64) error {
	s, err := l.Get(ctx, id)
	if err != nil {
		return err
	}
	if err := store.Delete(ctx, l.db, id); err != nil {
		return err
	}
	audit.Announce(ctx, l.host.Bus, audit.Change{CompanyID: s.CompanyID, MessageID: scripts.AuditDeleted, Args: map[string]any{"id": s.ID, "name": s.Name}})
	l.changed(ctx)
	return nil
}

// apply validates in onto s; fresh asks for the fields a new script needs.
// A change of a script starts its failures over, and a looping script that
// is switched on (again) is due at once.
func (l *Library) apply(ctx context.Context, s *scripts.Script, in scripts.Input, fresh bool) error {
	v := &errs.Validation{}
	wasOn := s.Enabled
	if in.Name != nil || fresh {
		name := ""
		if in.Name != nil {
			name = strings.TrimSpace(*in.Name)
		}
		switch {
		case name == "":
			v.Add("name", errs.IDRequired)
		case utf8.RuneCountInString(name) > scripts.MaxName:
			v.Add("name", errs.IDMaxChars255)
		}
		s.Name = name
	}
	if in.Type != nil {
		if *in.Type < scripts.TypeLooping || *in.Type > scripts.TypeTriggered {
			v.Add("type", scripts.IDTypeInvalid)
		}
		s.Type = *in.Type
	}
	switch {
	case in.Interval != nil && *in.Interval < 0:
		v.Add("interval", scripts.IDIntervalMin)
	case in.Interval != nil:
		s.Interval = *in.Interval
	case fresh && s.Type == scripts.TypeLooping:
		v.Add("interval", scripts.IDIntervalRequired)
	}
	if in.Enabled != nil {
		s.Enabled = *in.Enabled
	}
	if in.BoundTag != nil {
		if *in.BoundTag == 0 {
			s.BoundTag = nil
		} else if t, err := l.tags.Tag(ctx, *in.BoundTag); err != nil || t.CompanyID != s.CompanyID {
			if err != nil && !errs.Is(err, errs.NotFound) {
				return err
			}
			v.Add("boundTag", scripts.IDBoundTagUnknown)
		} else {
			id := t.ID
			s.BoundTag = &id
		}
	}
	if s.Type == scripts.TypeTriggered && s.BoundTag == nil && !v.Has("boundTag") {
		v.Add("boundTag", scripts.IDBoundTagRequired)
	}
	if in.Content != nil {
		if len(*in.Content) > scripts.MaxContent {
			v.AddArgs("content", scripts.IDContentTooLong, map[string]any{"max": scripts.MaxContent})
		}
		s.Content = *in.Content
	}
	if err := v.Err(); err != nil {
		return err
	}
	s.Failures = 0
	if s.Enabled && (!wasOn || in.Interval != nil || in.Type != nil) {
		s.NextRun = nil // a looping script runs at once
	}
	return nil
}
