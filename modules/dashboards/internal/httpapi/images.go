package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/store"
)

// putWidgetImage answers POST /dashboards/modules/{moduleId}/image: the
// picture of an image or image-map module, under the rules of every
// uploaded picture (web.ReadImage).
func (a *API) putWidgetImage(w http.ResponseWriter, r *http.Request) error {
	wd, d, err := a.guard.PathWidget(r, true)
	if err != nil {
		return err
	}
	data, ct, err := web.ReadImage(r)
	if err != nil {
		return err
	}
	img := &store.Image{ModuleID: wd.ID, ContentType: ct, Data: data, Version: web.ImageVersion(data)}
	if err := store.PutWidgetImage(r.Context(), a.db, img); err != nil {
		return err
	}
	a.announce(r.Context(), d.CompanyID, dashboards.AuditWidgetImage, map[string]any{"name": d.Name, "title": wd.Title}, nil, nil)
	return a.answerWidget(w, r, http.StatusOK, wd.ID)
}

// deleteWidgetImage answers DELETE /dashboards/modules/{moduleId}/image.
func (a *API) deleteWidgetImage(w http.ResponseWriter, r *http.Request) error {
	wd, d, err := a.guard.PathWidget(r, true)
	if err != nil {
		return err
	}
	if err := store.DeleteWidgetImage(r.Context(), a.db, wd.ID); err != nil {
		return err
	}
	a.announce(r.Context(), d.CompanyID, dashboards.AuditWidgetImageGone, map[string]any{"name": d.Name, "title": wd.Title}, nil, nil)
	return web.NoContent(w)
}

// getWidgetImage answers GET /dashboards/modules/{moduleId}/image.
func (a *API) getWidgetImage(w http.ResponseWriter, r *http.Request) error {
	wd, _, err := a.guard.PathWidget(r, false)
	if err != nil {
		return err
	}
	return a.serveImage(w, r, wd)
}

// serveImage sends a module's picture. Its address carries the version,
// so it may be cached.
func (a *API) serveImage(w http.ResponseWriter, r *http.Request, wd *dashboards.Widget) error {
	img, err := store.WidgetImage(r.Context(), a.db, wd.ID)
	if err != nil {
		return err
	}
	web.ServeImage(w, r, img.ContentType, img.Version, wd.UpdatedAt, img.Data)
	return nil
}
