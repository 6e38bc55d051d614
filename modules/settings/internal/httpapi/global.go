package httpapi

import (
	"net/http"
	"slices"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/settings/internal/schema"
	"github.com/fieldhub/fieldhub/modules/settings/internal/store"
)

// getGlobal answers GET /settings/global: every global setting for a
// SuperAdmin, only the branding ones for everyone else.
func (a *API) getGlobal(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	stored, err := a.values.Load(ctx, store.GlobalScope)
	if err != nil {
		return err
	}
	var keep func(*schema.Setting) bool
	if auth.CallerFrom(ctx).Role != auth.SuperAdmin {
		keep = func(s *schema.Setting) bool { return slices.Contains(schema.BrandingNames, s.Name) }
	}
	return web.OK(w, a.values.GlobalSchema().Render(stored, keep))
}

// postGlobal answers POST /settings/global.
func (a *API) postGlobal(w http.ResponseWriter, r *http.Request) error {
	body, err := decodeBody(r)
	if err != nil {
		return err
	}
	stored, err := a.values.SaveGlobal(r.Context(), body)
	if err != nil {
		return err
	}
	return web.OK(w, a.values.GlobalSchema().Render(stored, nil))
}
