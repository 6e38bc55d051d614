package httpapi

import (
	"net/http"
	"strconv"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/access"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/tagdata"
)

// listTags answers GET /tag: the caller's company's tags; a SuperAdmin sees
// every tag, or one company's with ?companyId=.
func (a *API) listTags(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	c := auth.CallerFrom(ctx)
	company := c.CompanyID
	if raw := r.URL.Query().Get("companyId"); raw != "" {
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || id <= 0 {
			return errs.New(errs.Invalid, errs.IDBadID).With("id", raw)
		}
		if !c.CanSeeCompany(id) {
			return access.ErrNotFound
		}
		company = id
	} else if c.Role == auth.SuperAdmin {
		company = 0
	} else if company == 0 {
		return web.OK(w, []*nodes.Tag{})
	}
	return a.answerTags(w, r, company)
}

// answerTags answers the tags of a company, or of all when companyID is 0,
// with their data points of the last day.
func (a *API) answerTags(w http.ResponseWriter, r *http.Request, companyID int64) error {
	tags, err := a.reg.Tags(r.Context(), companyID)
	if err != nil {
		return err
	}
	if err := tagdata.FillDataPoints(r.Context(), a.series, tags...); err != nil {
		return err
	}
	registry.Present(r.Context(), tags...)
	return web.OK(w, tags)
}

// companyTags answers GET /companies/{companyId}/tags.
func (a *API) companyTags(w http.ResponseWriter, r *http.Request) error {
	id, err := access.VisibleCompanyID(r.Context(), r, a.accounts)
	if err != nil {
		return err
	}
	return a.answerTags(w, r, id)
}

// companyTagsByScope answers GET /tag/company/{companyId}.
func (a *API) companyTagsByScope(w http.ResponseWriter, r *http.Request) error {
	if r.PathValue("scope") != "company" {
		return access.ErrNotFound
	}
	return a.companyTags(w, r)
}

// getTag answers GET /tag/{tagId}.
func (a *API) getTag(w http.ResponseWriter, r *http.Request) error {
	t, err := a.pathTag(r.Context(), r, false)
	if err != nil {
		return err
	}
	if err := tagdata.FillDataPoints(r.Context(), a.series, t); err != nil {
		return err
	}
	registry.Present(r.Context(), t)
	return web.OK(w, t)
}

// createTag answers POST /applications/{applicationId}/tag.
func (a *API) createTag(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	app, err := a.pathApplication(ctx, r, true)
	if err != nil {
		return err
	}
	var in registry.TagInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	t, err := a.reg.AddTag(ctx, app, in)
	if err != nil {
		return err
	}
	registry.Present(ctx, t)
	return web.Created(w, t)
}

// updateTag answers PUT /tag/{deveui}.
func (a *API) updateTag(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := a.reg.ManagedTagByDevEUI(ctx, r.PathValue("deveui"))
	if err != nil {
		return err
	}
	var in registry.TagInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	if t, err = a.reg.SaveTag(ctx, t, in); err != nil {
		return err
	}
	registry.Present(ctx, t)
	return web.OK(w, t)
}

// deleteTag answers DELETE /tag/{tagId}.
func (a *API) deleteTag(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := a.pathTag(ctx, r, true)
	if err != nil {
		return err
	}
	if err := a.reg.RemoveTag(ctx, t); err != nil {
		return err
	}
	return web.NoContent(w)
}

// moveTag answers POST /tag/{tagId}/move (SuperAdmin): the node goes, with
// its keys, picture and stored data, to the application of another company
// that proved it owns the device.
func (a *API) moveTag(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := a.pathTag(ctx, r, true)
	if err != nil {
		return err
	}
	var in registry.MoveInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	res, err := a.reg.MoveTag(ctx, t, in)
	if err != nil {
		return err
	}
	if err := tagdata.FillDataPoints(ctx, a.series, res.Tag); err != nil {
		return err
	}
	registry.Present(ctx, res.Tag)
	return web.OK(w, res)
}
