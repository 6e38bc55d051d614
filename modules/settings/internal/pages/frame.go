package pages

import (
	"net/http"
	"time"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/settings/internal/schema"
	"github.com/fieldhub/fieldhub/modules/settings/internal/values"
)

// Cookies that carry a visitor's choices, and a signed-in user's for the
// pages' scripts: the language ("en", "sv") and the theme ("light", "dark").
const (
	langCookie  = "lang"
	themeCookie = "theme"
)

// cookieAge keeps the choices for a year.
const cookieAge = 365 * 24 * time.Hour

// frameGlobals are the global settings every page's frame shows.
var frameGlobals = []string{"branding", "brand_icon"}

// EnrichViewer draws every page in the viewer's language and theme (the
// stored choice first, else the browser's languages), under
// the installation's brand: its icon, and under a white-label license its
// branding as the product name. A signed-in user's settings and the brand
// are read in one query; a language never chosen defaults to that of the
// company's country. Times show in the user's time zone when they chose
// one, else in the company's. A visitor's choices come from the cookies; the router
// has already taken the "lang" cookie or, without one, Accept-Language as
// the viewer's language.
func (p *Pages) EnrichViewer(r *http.Request, v *web.Viewer) error {
	if ck, err := r.Cookie(themeCookie); err == nil {
		v.Dark = ck.Value == "dark"
	}
	ctx := r.Context()
	var userID int64
	if v.Caller.SignedIn() {
		userID = v.Caller.UserID
	}
	stored, global, err := p.values.LoadFrame(ctx, userID, frameGlobals)
	if err != nil {
		return err
	}
	v.BrandIcon = schema.DefaultBrandIcon
	if icon := global["brand_icon"]; schema.IconName.MatchString(icon) {
		v.BrandIcon = icon
	}
	if branding := global["branding"]; branding != "" && p.values.WhiteLabel() {
		v.BrandName = branding
	}
	if version, err := p.values.LogoVersion(ctx); err != nil {
		return err
	} else if version != "" {
		v.BrandLogo = values.LogoURL + "?v=" + version
	}
	if !v.Caller.SignedIn() {
		if ck, err := r.Cookie(langCookie); err == nil && p.host.Catalogs.Has(ck.Value) {
			v.Lang = ck.Value
		}
		return nil
	}
	if lang, ok := stored["language"]; ok && p.host.Catalogs.Has(lang) {
		v.Lang = lang
	} else if lang, ok, err := p.values.CompanyLanguage(ctx, v.Caller); err != nil {
		return err
	} else if ok && p.host.Catalogs.Has(lang) {
		v.Lang = lang
	}
	if theme := stored["theme"]; theme != "" {
		v.Theme = theme
	}
	if dark, ok := stored["darkMode"]; ok {
		v.Dark = dark == "true"
	}
	if zone := stored["timezone"]; zone != "" {
		// The company's zone (set by accounts) stays when the stored name no
		// longer loads.
		if loc, ok := accounts.LoadZone(zone); ok {
			v.Location = loc
		}
	}
	v.StickyMenu = stored["stickySideMenu"] == "true"
	v.ToolbarTransparent = stored["toolbarTransparent"] == "true"
	return nil
}
