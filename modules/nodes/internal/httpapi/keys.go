package httpapi

import (
	"net/http"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/access"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
)

// bodyTag reads a key body and loads its tag, which the caller must manage.
func (a *API) bodyTag(r *http.Request) (registry.KeyInput, *nodes.Tag, error) {
	var in registry.KeyInput
	if err := web.Decode(r, &in); err != nil {
		return in, nil, err
	}
	if in.TagID <= 0 {
		v := errs.Validation{}
		v.Add("tagId", errs.IDRequired)
		return in, nil, v.Err()
	}
	t, err := a.reg.ScopedTag(r.Context(), in.TagID, true)
	if err != nil {
		return in, nil, err
	}
	in.Key = strings.TrimSpace(in.Key)
	if !registry.ValidKey(in.Key) {
		return in, nil, registry.BadKey()
	}
	return in, t, nil
}

// addKey answers POST /tag/key/add.
func (a *API) addKey(w http.ResponseWriter, r *http.Request) error {
	in, t, err := a.bodyTag(r)
	if err != nil {
		return err
	}
	k, err := a.reg.AddKey(r.Context(), t, in)
	if err != nil {
		return err
	}
	return web.Created(w, k)
}

// updateKey answers POST /tag/key/update.
func (a *API) updateKey(w http.ResponseWriter, r *http.Request) error {
	in, t, err := a.bodyTag(r)
	if err != nil {
		return err
	}
	k, err := a.reg.EditKey(r.Context(), t, in)
	if err != nil {
		return err
	}
	return web.OK(w, k)
}

// pathKey loads the key of the path's tagId and key.
func (a *API) pathKey(r *http.Request, manage bool) (*nodes.Key, error) {
	t, err := a.pathTag(r.Context(), r, manage)
	if err != nil {
		return nil, err
	}
	name := r.PathValue("key")
	if !registry.ValidKey(name) {
		return nil, registry.BadKey()
	}
	return a.reg.Key(r.Context(), t, name)
}

// deleteKey answers DELETE /tag/key/delete/{tagId}/{key}.
func (a *API) deleteKey(w http.ResponseWriter, r *http.Request) error {
	k, err := a.pathKey(r, true)
	if err != nil {
		return err
	}
	if err := a.reg.RemoveKey(r.Context(), k); err != nil {
		return err
	}
	return web.NoContent(w)
}

// keyLabel answers GET /tag/key/label/{tagId}/{key} with the key, whose
// label is what the caller looks for.
func (a *API) keyLabel(w http.ResponseWriter, r *http.Request) error {
	k, err := a.pathKey(r, false)
	if err != nil {
		return err
	}
	return web.OK(w, k)
}

// setDefaultKey answers POST /tag/{tagId}/default/{key}: the key becomes the
// one the tag's latestValue shows.
func (a *API) setDefaultKey(w http.ResponseWriter, r *http.Request) error {
	k, err := a.pathKey(r, true)
	if err != nil {
		return err
	}
	if err := a.reg.MakeDefault(r.Context(), k); err != nil {
		return err
	}
	return web.OK(w, k)
}

// tagKeys answers GET /tag/{tagId}/keys.
func (a *API) tagKeys(w http.ResponseWriter, r *http.Request) error {
	t, err := a.pathTag(r.Context(), r, false)
	if err != nil {
		return err
	}
	keys, err := a.reg.TagKeys(r.Context(), t.ID)
	if err != nil {
		return err
	}
	return web.OK(w, keys)
}

// companyKeys answers GET /tag/tagdata/keys/{companyId}: the keys of every
// tag of the company.
func (a *API) companyKeys(w http.ResponseWriter, r *http.Request) error {
	id, err := access.VisibleCompanyID(r.Context(), r, a.accounts)
	if err != nil {
		return err
	}
	keys, err := a.reg.CompanyKeys(r.Context(), id)
	if err != nil {
		return err
	}
	return web.OK(w, keys)
}

// tagMeta answers GET /tag/meta/{tagId}/tagdata: the tag's keys with their
// latest values.
func (a *API) tagMeta(w http.ResponseWriter, r *http.Request) error {
	t, err := a.pathTag(r.Context(), r, false)
	if err != nil {
		return err
	}
	out, err := a.reg.TagData(r.Context(), t)
	if err != nil {
		return err
	}
	return web.OK(w, out)
}
