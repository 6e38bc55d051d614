package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/settings/internal/values"
)

// putLogo answers POST /settings/global/logo (a picture as the body or a
// multipart "file") with the logo's URL.
func (a *API) putLogo(w http.ResponseWriter, r *http.Request) error {
	data, _, err := web.ReadImage(r)
	if err != nil {
		return err
	}
	version, err := a.values.SaveLogo(r.Context(), data)
	if err != nil {
		return err
	}
	return web.OK(w, map[string]string{"url": values.LogoURL + "?v=" + version})
}

func (a *API) deleteLogo(w http.ResponseWriter, r *http.Request) error {
	if err := a.values.RemoveLogo(r.Context()); err != nil {
		return err
	}
	return web.NoContent(w)
}

// getLogo serves the logo to anyone (the frame shows it to visitors too);
// its URL carries the version, so it may be cached.
func (a *API) getLogo(w http.ResponseWriter, r *http.Request) error {
	l, err := a.values.Logo(r.Context())
	if err != nil {
		return err
	}
	web.ServeImage(w, r, l.ContentType, l.Version, l.UpdatedAt, l.Data)
	return nil
}
