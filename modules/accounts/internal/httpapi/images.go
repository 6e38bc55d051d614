package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/web"
)

// putImage answers POST /companies/{id}/image with the company and its new
// logo's URL.
func (a *API) putImage(w http.ResponseWriter, r *http.Request) error {
	c, err := a.managedCompany(r.Context(), r)
	if err != nil {
		return err
	}
	data, _, err := web.ReadImage(r)
	if err != nil {
		return err
	}
	c, err = a.dir.StoreImage(r.Context(), c, data)
	if err != nil {
		return err
	}
	return web.OK(w, c)
}

func (a *API) deleteImage(w http.ResponseWriter, r *http.Request) error {
	c, err := a.managedCompany(r.Context(), r)
	if err != nil {
		return err
	}
	if err := a.dir.RemoveImage(r.Context(), c); err != nil {
		return err
	}
	return web.NoContent(w)
}

// getImage serves the logo. Its URL carries the version, so it may be cached.
func (a *API) getImage(w http.ResponseWriter, r *http.Request) error {
	c, err := a.visibleCompany(r.Context(), r)
	if err != nil {
		return err
	}
	img, err := a.dir.Image(r.Context(), c.ID)
	if err != nil {
		return err
	}
	web.ServeImage(w, r, img.ContentType, img.Version, c.UpdatedAt, img.Data)
	return nil
}
