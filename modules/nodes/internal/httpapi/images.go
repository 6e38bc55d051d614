package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
)

// putTagImage answers POST /tag/{tagId}/image with the tag and its new
// picture's address.
func (a *API) putTagImage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := a.pathTag(ctx, r, true)
	if err != nil {
		return err
	}
	data, _, err := web.ReadImage(r)
	if err != nil {
		return err
	}
	if t, err = a.reg.StoreTagImage(ctx, t, data); err != nil {
		return err
	}
	registry.Present(ctx, t)
	return web.OK(w, t)
}

// deleteTagImage answers DELETE /tag/{tagId}/image.
func (a *API) deleteTagImage(w http.ResponseWriter, r *http.Request) error {
	t, err := a.pathTag(r.Context(), r, true)
	if err != nil {
		return err
	}
	if err := a.reg.RemoveTagImage(r.Context(), t); err != nil {
		return err
	}
	return web.NoContent(w)
}

// getTagImage serves the picture. Its URL carries the version, so it may be
// cached.
func (a *API) getTagImage(w http.ResponseWriter, r *http.Request) error {
	t, err := a.pathTag(r.Context(), r, false)
	if err != nil {
		return err
	}
	img, err := a.reg.TagImage(r.Context(), t)
	if err != nil {
		return err
	}
	web.ServeImage(w, r, img.ContentType, img.Version, t.UpdatedAt, img.Data)
	return nil
}
