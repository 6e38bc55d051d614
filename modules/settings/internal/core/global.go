package core

import (
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

// postGlobal answers POST /settings/global. Branding may change only under a
// white-label license; sending its current value back is not a change.
func (m *Module) postGlobal(w http.ResponseWriter, r *http.Request) error {
	body, err := decodeBody(r)
	if err != nil {
		return err
	}
	check := func(stored, values map[string]string) error {
		if m.deps.WhiteLabel() {
			return nil
		}
		for _, name := range brandingNames {
			if value, ok := values[name]; ok && value != stored[name] {
				return errs.New(errs.Forbidden, msgWhiteLabel)
			}
		}
		return nil
	}
	stored, err := m.save(r.Context(), globalSchema, globalScope, body, check)
	if err != nil {
		return err
	}
	return web.OK(w, globalSchema.render(stored, nil))
}
