package core

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Cookies that carry a visitor's choices, and a signed-in user's for the
// pages' scripts: the language ("en", "sv") and the theme ("light", "dark").
const (
	langCookie  = "lang"
	themeCookie = "theme"
)

// cookieAge keeps the choices for a year.
const cookieAge = 365 * 24 * time.Hour

var settingsMenuItem = web.MenuItem{ID: "settings", LabelID: "menu.settings", Href: "/settings", Icon: "mdi-cog", Roles: auth.CompanyOrUser, Order: 150}

// languageNames are the languages as their speakers name them.
var languageNames = map[string]string{"en": "English", "sv": "Svenska"}

// frameGlobals are the global settings every page's frame shows.
var frameGlobals = []string{"branding", "brand_icon"}

// enrichViewer draws every page in the viewer's language and theme (SPEC.md
// section 2: the stored choice first, else the browser's languages), under
// the installation's brand: its icon, and under a white-label license its
// branding as the product name. A signed-in user's settings and the brand
// are read in one query; a language never chosen defaults to that of the
// company's country. A visitor's choices come from the cookies; the router
// has already taken the "lang" cookie or, without one, Accept-Language as
// the viewer's language.
func (m *Module) enrichViewer(r *http.Request, v *web.Viewer) error {
	if ck, err := r.Cookie(themeCookie); err == nil {
		v.Dark = ck.Value == "dark"
	}
	ctx := r.Context()
	var userID int64
	if v.Caller.SignedIn() {
		userID = v.Caller.UserID
	}
	stored, global, err := m.store.loadFrame(ctx, m.db, userID, frameGlobals)
	if err != nil {
		return err
	}
	v.BrandIcon = defaultBrandIcon
	if icon := global["brand_icon"]; iconName.MatchString(icon) {
		v.BrandIcon = icon
	}
	if branding := global["branding"]; branding != "" && m.deps.WhiteLabel() {
		v.BrandName = branding
	}
	if !v.Caller.SignedIn() {
		if ck, err := r.Cookie(langCookie); err == nil && m.host.Catalogs.Has(ck.Value) {
			v.Lang = ck.Value
		}
		return nil
	}
	if lang, ok := stored["language"]; ok && m.host.Catalogs.Has(lang) {
		v.Lang = lang
	} else if lang, ok, err := m.companyLanguage(ctx, v.Caller); err != nil {
		return err
	} else if ok && m.host.Catalogs.Has(lang) {
		v.Lang = lang
	}
	if theme := stored["theme"]; theme != "" {
		v.Theme = theme
	}
	if dark, ok := stored["darkMode"]; ok {
		v.Dark = dark == "true"
	}
	v.StickyMenu = stored["stickySideMenu"] == "true"
	v.ToolbarTransparent = stored["toolbarTransparent"] == "true"
	return nil
}

// settingsForm is what the /settings form shows.
type settingsForm struct {
	Theme              string
	Dark               bool
	ToolbarTransparent bool
	StickySideMenu     bool
	Language           string
	DefaultRange       string
}

func (m *Module) settingsPage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	v := web.ViewerFrom(ctx)
	stored, err := m.store.load(ctx, m.db, userScope(v.Caller.UserID))
	if err != nil {
		return err
	}
	shown := m.users.render(stored, nil)
	f := settingsForm{
		Theme:              shown["theme"].(string),
		Dark:               v.Dark, // the theme in effect, stored or from the cookie
		ToolbarTransparent: shown["toolbarTransparent"].(bool),
		StickySideMenu:     shown["stickySideMenu"].(bool),
		Language:           v.Lang, // the language in effect, chosen or not
		DefaultRange:       shown["defaultRange"].(string),
	}
	return m.renderSettings(w, r, http.StatusOK, f, ui.NoErrors)
}

// settingsSubmit saves the form through the same validation and store as
// POST /api/settings, then reloads the page so that the new language and
// theme apply at once.
func (m *Module) settingsSubmit(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	c := auth.CallerFrom(ctx)
	f := settingsForm{
		Theme:              r.PostFormValue("theme"),
		Dark:               r.PostFormValue("darkMode") != "",
		ToolbarTransparent: r.PostFormValue("toolbarTransparent") != "",
		StickySideMenu:     r.PostFormValue("stickySideMenu") != "",
		Language:           r.PostFormValue("language"),
	}
	body := map[string]json.RawMessage{}
	for name, value := range map[string]any{
		"theme": f.Theme, "darkMode": f.Dark, "toolbarTransparent": f.ToolbarTransparent,
		"stickySideMenu": f.StickySideMenu, "language": f.Language,
	} {
		raw, _ := json.Marshal(value)
		body[name] = raw
	}
	stored, err := m.saveUser(ctx, c, body)
	if err != nil {
		fe, ok := m.deps.UI.ErrorsOf(web.ViewerFrom(ctx).Lang, err)
		if !ok {
			return err
		}
		current, loadErr := m.store.load(ctx, m.db, userScope(c.UserID))
		if loadErr != nil {
			return loadErr
		}
		f.DefaultRange = m.users.render(current, nil)["defaultRange"].(string)
		return m.renderSettings(w, r, web.StatusOf(err), f, fe)
	}
	secure := strings.HasPrefix(m.host.Config.PublicURL, "https://")
	theme := "light"
	if stored["darkMode"] == "true" {
		theme = "dark"
	}
	for name, value := range map[string]string{langCookie: stored["language"], themeCookie: theme} {
		// Not HttpOnly: the pages' scripts set the theme cookie too.
		http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: "/", MaxAge: int(cookieAge.Seconds()),
			Secure: secure, SameSite: http.SameSiteLaxMode})
	}
	web.Toast(w, r, "success", m.host.Catalogs.T(stored["language"], msgSaved, nil))
	web.Redirect(w, r, "/settings")
	return nil
}

// msgSaved is the toast after saving the form.
const msgSaved = "page.settings.saved"

func (m *Module) renderSettings(w http.ResponseWriter, r *http.Request, status int, f settingsForm, fe ui.FormErrors) error {
	var langs []ui.Option
	for _, l := range m.host.Catalogs.Languages() {
		name := languageNames[l]
		if name == "" {
			name = l
		}
		langs = append(langs, ui.Option{Value: l, Label: name})
	}
	props, _ := json.Marshal(map[string]string{"preset": f.DefaultRange, "saveTo": "/api/settings"})
	return m.deps.UI.Render(w, r, status, "page.settings.title", settingsBody(f, langs, string(props), fe), ui.Options{Islands: true})
}
