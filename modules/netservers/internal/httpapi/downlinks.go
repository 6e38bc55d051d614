package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/queue"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// downlinkRoutes registers the downlink queue's routes.
func (a *API) downlinkRoutes(r *web.ModuleRoutes) {
	r.API("GET /downlink/tag/{tagId}", auth.CompanyOrUser, a.listDownlinks)
	r.API("POST /downlink/{tagId}", auth.AdminOrCompanyAdmin, a.createDownlink)
	r.API("DELETE /downlink/{downlinkId}", auth.AdminOrCompanyAdmin, a.deleteDownlink)
}

// listDownlinks answers GET /downlink/tag/{tagId}, newest first.
func (a *API) listDownlinks(w http.ResponseWriter, r *http.Request) error {
	t, err := a.pathTag(r, false)
	if err != nil {
		return err
	}
	list, err := a.queue.OfTag(r.Context(), t)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

// createDownlink answers POST /downlink/{tagId}.
func (a *API) createDownlink(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := a.pathTag(r, true)
	if err != nil {
		return err
	}
	var in queue.Input
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	d, err := a.queue.Add(ctx, t, in)
	if err != nil {
		return err
	}
	return web.Created(w, d)
}

// deleteDownlink answers DELETE /downlink/{downlinkId}.
func (a *API) deleteDownlink(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "downlinkId")
	if err != nil {
		return err
	}
	if err := a.queue.Remove(r.Context(), id); err != nil {
		return err
	}
	return web.NoContent(w)
}

// pathTag loads the tag of the path's tagId within the caller's reach.
func (a *API) pathTag(r *http.Request, manage bool) (*nodes.Tag, error) {
	id, err := web.PathID(r, "tagId")
	if err != nil {
		return nil, err
	}
	return a.queue.ScopedTag(r.Context(), id, manage)
}
