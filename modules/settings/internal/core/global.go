package core

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// getGlobal answers GET /settings/global: every global setting for a
// SuperAdmin, only the branding ones for everyone else.
func (m *Module) getGlobal(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	stored, err := m.store.load(ctx, m.db, globalScope)
	if err != nil {
		return err
	}
	var keep func(*setting) bool
	if auth.CallerFrom(ctx).Role != auth.SuperAdmin {
		keep = func(s *setting) bool { return slices.Contains(brandingNames, s.name) }
	}
	return web.OK(w, globalSchema.render(stored, keep))
}

// postGlobal answers POST /settings/global.
func (m *Module) postGlobal(w http.ResponseWriter, r *http.Request) error {
	body, err := decodeBody(r)
	if err != nil {
		return err
	}
	stored, err := m.saveGlobal(r.Context(), body)
	if err != nil {
		return err
	}
	return web.OK(w, globalSchema.render(stored, nil))
}

// saveGlobal stores global settings for the API and the
// /superadmin/settings form alike. Branding may change only under a
// white-label license; sending its current value (or, never set, its
// default) back is not a change.
func (m *Module) saveGlobal(ctx context.Context, body map[string]json.RawMessage) (map[string]string, error) {
	check := func(stored, values map[string]string) error {
		if m.deps.WhiteLabel() {
			return nil
		}
		for _, name := range brandingNames {
			current, ok := stored[name]
			if !ok {
				current = globalSchema.get(name).def
			}
			if value, ok := values[name]; ok && value != current {
				return errs.New(errs.Forbidden, msgWhiteLabel)
			}
		}
		return nil
	}
	return m.save(ctx, globalSchema, globalScope, body, check)
}
