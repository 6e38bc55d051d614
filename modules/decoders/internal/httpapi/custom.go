package httpapi

import (
	"encoding/base64"
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/decoding"
)

// listCustom answers GET /companies/{companyId}/decoders.
func (a *API) listCustom(w http.ResponseWriter, r *http.Request) error {
	company, err := a.svc.PathCompany(r, true)
	if err != nil {
		return err
	}
	list, err := a.svc.Decoders(r.Context(), company)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

// createCustom answers POST /companies/{companyId}/decoders: a decoder with
// its first version, active.
func (a *API) createCustom(w http.ResponseWriter, r *http.Request) error {
	company, err := a.svc.PathCompany(r, true)
	if err != nil {
		return err
	}
	var in decoding.DecoderInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	d, err := a.svc.CreateDecoder(r.Context(), company, in)
	if err != nil {
		return err
	}
	return web.Created(w, d)
}

// getCustom answers GET /decoders/{decoderId}.
func (a *API) getCustom(w http.ResponseWriter, r *http.Request) error {
	d, err := a.svc.PathDecoder(r)
	if err != nil {
		return err
	}
	view, err := a.svc.View(r.Context(), d.ID)
	if err != nil {
		return err
	}
	return web.OK(w, view)
}

// renameCustom answers PUT /decoders/{decoderId}: {"name"}.
func (a *API) renameCustom(w http.ResponseWriter, r *http.Request) error {
	d, err := a.svc.PathDecoder(r)
	if err != nil {
		return err
	}
	var in struct {
		Name *string `json:"name"`
	}
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	if err := a.svc.Rename(r.Context(), d, in.Name); err != nil {
		return err
	}
	view, err := a.svc.View(r.Context(), d.ID)
	if err != nil {
		return err
	}
	return web.OK(w, view)
}

// deleteCustom answers DELETE /decoders/{decoderId}: refused with 400 while
// a node uses the decoder.
func (a *API) deleteCustom(w http.ResponseWriter, r *http.Request) error {
	d, err := a.svc.PathDecoder(r)
	if err != nil {
		return err
	}
	if err := a.svc.Delete(r.Context(), d); err != nil {
		return err
	}
	return web.NoContent(w)
}

// addCustomVersion answers POST /decoders/{decoderId}/versions.
func (a *API) addCustomVersion(w http.ResponseWriter, r *http.Request) error {
	d, err := a.svc.PathDecoder(r)
	if err != nil {
		return err
	}
	var in decoding.VersionInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	ver, err := a.svc.AddVersion(r.Context(), d, in)
	if err != nil {
		return err
	}
	return web.Created(w, ver)
}

// getCustomVersion answers GET /decoders/{decoderId}/versions/{version}:
// the version with its source, or its module in base64.
func (a *API) getCustomVersion(w http.ResponseWriter, r *http.Request) error {
	d, err := a.svc.PathDecoder(r)
	if err != nil {
		return err
	}
	n, err := pathVersion(r)
	if err != nil {
		return err
	}
	v, err := a.svc.Version(r.Context(), d, n)
	if err != nil {
		return err
	}
	if v.Module != nil {
		v.ModuleBase64 = base64.StdEncoding.EncodeToString(v.Module)
	}
	return web.OK(w, v)
}

// activateCustom answers POST /decoders/{decoderId}/versions/{version}/activate:
// the version decodes from now on (a roll back, or forward again).
func (a *API) activateCustom(w http.ResponseWriter, r *http.Request) error {
	d, err := a.svc.PathDecoder(r)
	if err != nil {
		return err
	}
	n, err := pathVersion(r)
	if err != nil {
		return err
	}
	if err := a.svc.Activate(r.Context(), d, n); err != nil {
		return err
	}
	view, err := a.svc.View(r.Context(), d.ID)
	if err != nil {
		return err
	}
	return web.OK(w, view)
}

// switchOnCustom answers POST /decoders/{decoderId}/switch-on: a decoder
// switched off for breaking its limits again and again decodes again (one
// that decodes is left as it is).
func (a *API) switchOnCustom(w http.ResponseWriter, r *http.Request) error {
	d, err := a.svc.PathDecoder(r)
	if err != nil {
		return err
	}
	if err := a.svc.SwitchOn(r.Context(), d); err != nil {
		return err
	}
	view, err := a.svc.View(r.Context(), d.ID)
	if err != nil {
		return err
	}
	return web.OK(w, view)
}
