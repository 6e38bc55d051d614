package pages

import (
	"net/http"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/settings/internal/store"
	"github.com/fieldhub/fieldhub/modules/settings/internal/values"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// The installation's logo on /superadmin/settings, stored through
// values.Service as POST /api/settings/global/logo does.

// logoURL is the stored logo's URL, "" for none (shown whatever the
// license, so that it can be removed).
func (p *Pages) logoURL(r *http.Request) (string, error) {
	version, err := store.LogoVersion(r.Context(), p.host.DB)
	if err != nil || version == "" {
		return "", err
	}
	return values.LogoURL + "?v=" + version, nil
}

// logoPart draws the logo section with errs.
func (p *Pages) logoPart(r *http.Request, errs ui.FormErrors) (templ.Component, error) {
	url, err := p.logoURL(r)
	if err != nil {
		return nil, err
	}
	return logoSection(p.values.WhiteLabel(), url, errs), nil
}

// logoUpload takes the logo section's multipart form (web.ReadImage).
func (p *Pages) logoUpload(w http.ResponseWriter, r *http.Request) error {
	data, _, err := web.ReadImage(r)
	if err == nil {
		_, err = p.values.SaveLogo(r.Context(), data)
	}
	if err != nil {
		url, lerr := p.logoURL(r)
		if lerr != nil {
			return lerr
		}
		return p.ui.FormFailed(w, r, err, msgGlobalTitle, func(fe ui.FormErrors) templ.Component {
			return logoSection(p.values.WhiteLabel(), url, fe)
		}, func(logo templ.Component) templ.Component {
			return p.pageAround(r, logo)
		}, ui.Options{Islands: true})
	}
	web.Toast(w, r, "success", p.host.Catalogs.T(web.ViewerFrom(r.Context()).Lang, "page.company.logo.uploaded", nil))
	web.Redirect(w, r, "/superadmin/settings")
	return nil
}

// pageAround is the whole page around a logo section: the settings form as
// stored.
func (p *Pages) pageAround(r *http.Request, logo templ.Component) templ.Component {
	stored, err := p.values.Load(r.Context(), store.GlobalScope)
	if err != nil {
		stored = map[string]string{}
	}
	return globalPageWithLogo(globalSettingsForm(p.formFromStored(stored), ui.NoErrors), logo)
}

func (p *Pages) logoDeletePage(w http.ResponseWriter, r *http.Request) error {
	url, err := p.logoURL(r)
	if err != nil {
		return err
	}
	if url == "" {
		web.Redirect(w, r, "/superadmin/settings")
		return nil
	}
	return p.ui.Render(w, r, http.StatusOK, "page.company.logo.remove", logoConfirm())
}

func (p *Pages) logoDeleteSubmit(w http.ResponseWriter, r *http.Request) error {
	if err := p.values.RemoveLogo(r.Context()); err != nil {
		return err
	}
	web.Toast(w, r, "success", p.host.Catalogs.T(web.ViewerFrom(r.Context()).Lang, "page.company.logo.removed", nil))
	web.Redirect(w, r, "/superadmin/settings")
	return nil
}
