package pages

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// homePage is the landing page: what the portal is and a
// way in for visitors; a greeting and shortcuts for signed-in users. The top
// bar is hidden there, so the hero carries its own menu toggle.
func (m *Module) homePage(w http.ResponseWriter, r *http.Request) error {
	v := web.ViewerFrom(r.Context())
	var shortcuts []web.MenuItem
	if v.Caller.SignedIn() {
		shortcuts = m.shortcuts(v)
	}
	return m.ui.Render(w, r, http.StatusOK, "page.home.title", homeBody(shortcuts), ui.Options{Bare: true})
}

// shortcuts are the viewer's menu entries that open a page of this portal,
// so that the landing offers only pages that exist and that the viewer may
// open, and follows the menu as modules are added.
func (m *Module) shortcuts(v *web.Viewer) []web.MenuItem {
	pages := map[string]bool{}
	for _, rt := range m.host.Router.Routes() {
		if rt.Page && rt.Method == http.MethodGet {
			pages[rt.Path] = true
		}
	}
	var out []web.MenuItem
	for _, item := range m.host.Router.Menu(v) {
		if item.Href != "/" && !item.External && pages[item.Href] {
			out = append(out, item)
		}
	}
	return out
}

// productName is the name the landing introduces, as in the frame: the
// branding (set only under a white-label license), else the company's name
// under a white-label license, else Fieldhub.
func productName(v *web.Viewer) string {
	switch {
	case v.BrandName != "":
		return v.BrandName
	case v.WhiteLabel && v.CompanyName != "":
		return v.CompanyName
	}
	return "Fieldhub"
}
