package values

import (
	"context"

	"github.com/fieldhub/fieldhub/kernel/audit"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/modules/settings"
	"github.com/fieldhub/fieldhub/modules/settings/internal/schema"
	"github.com/fieldhub/fieldhub/modules/settings/internal/store"
)

// changes are the settings whose values differ from those stored, each
// shown as answers show it (a secret only as set or not, audit.Masked),
// before and after: what the audit trail tells of a save. A secret counts
// as changed when its opened value differs.
func (s *Service) changes(sc schema.Schema, stored, values map[string]string) (before, after map[string]any) {
	before, after = map[string]any{}, map[string]any{}
	for name, value := range values {
		st := sc.Get(name)
		old, set := stored[name]
		if !set {
			old = st.Default
		}
		if st.Kind == schema.Secret {
			plain := old
			if old != "" {
				if opened, err := s.host.Box.Open(old); err == nil {
					plain = opened
				}
			}
			if plain == value {
				continue
			}
			before[name], after[name] = secretShown(old), secretShown(value)
			continue
		}
		if old == value {
			continue
		}
		before[name], after[name] = st.Show(old), st.Show(value)
	}
	return before, after
}

// secretShown is a secret as the audit trail shows it: whether it is set.
func secretShown(v string) string {
	if v == "" {
		return ""
	}
	return audit.Masked
}

// announce puts a save of scope's settings on the audit trail, when it
// changed anything: a user's in their company, a company's in it, the
// global ones in the installation.
func (s *Service) announce(ctx context.Context, scope store.Scope, before, after map[string]any) {
	if len(after) == 0 {
		return
	}
	c := audit.Change{MessageID: settings.AuditGlobal, Before: before, After: after}
	switch scope.Table {
	case store.UserScope(0).Table:
		c.MessageID, c.CompanyID = settings.AuditUser, auth.CallerFrom(ctx).CompanyID
	case store.CompanyScope(0).Table:
		c.MessageID, c.CompanyID = settings.AuditCompany, scope.ID
	}
	audit.Announce(ctx, s.host.Bus, c)
}
