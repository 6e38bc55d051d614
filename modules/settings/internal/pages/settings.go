package pages

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/settings/internal/store"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// languageNames are the languages as their speakers name them.
var languageNames = map[string]string{"en": "English", "sv": "Svenska"}

// zoneSuggestions are the time zones the time zone field suggests.
var zoneSuggestions = []string{"Europe/Stockholm", "Europe/Oslo", "Europe/Copenhagen", "Europe/Helsinki",
	"Europe/Berlin", "Europe/London", "Europe/Amsterdam", "America/New_York", "UTC"}

// settingsForm is what the /settings form shows.
type settingsForm struct {
	Theme              string
	Dark               bool
	ToolbarTransparent bool
	StickySideMenu     bool
	Language           string
	DefaultRange       string
	Timezone           string // "" for the company's
	CompanyZone        string // shown in the time zone's hint
}

func (p *Pages) settingsPage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	v := web.ViewerFrom(ctx)
	stored, err := p.values.Load(ctx, store.UserScope(v.Caller.UserID))
	if err != nil {
		return err
	}
	shown := p.values.Users().Render(stored, nil)
	f := settingsForm{
		Theme:              shown["theme"].(string),
		Dark:               v.Dark, // the theme in effect, stored or from the cookie
		ToolbarTransparent: shown["toolbarTransparent"].(bool),
		StickySideMenu:     shown["stickySideMenu"].(bool),
		Language:           v.Lang, // the language in effect, chosen or not
		DefaultRange:       shown["defaultRange"].(string),
		Timezone:           shown["timezone"].(string),
	}
	return p.renderSettings(w, r, http.StatusOK, f, ui.NoErrors)
}

// settingsSubmit saves the form through the same validation and store as
// POST /api/settings, then reloads the page so that the new language and
// theme apply at once.
func (p *Pages) settingsSubmit(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	c := auth.CallerFrom(ctx)
	f := settingsForm{
		Theme:              r.PostFormValue("theme"),
		Dark:               r.PostFormValue("darkMode") != "",
		ToolbarTransparent: r.PostFormValue("toolbarTransparent") != "",
		StickySideMenu:     r.PostFormValue("stickySideMenu") != "",
		Language:           r.PostFormValue("language"),
		Timezone:           r.PostFormValue("timezone"),
	}
	body := map[string]json.RawMessage{}
	for name, value := range map[string]any{
		"theme": f.Theme, "darkMode": f.Dark, "toolbarTransparent": f.ToolbarTransparent,
		"stickySideMenu": f.StickySideMenu, "language": f.Language, "timezone": f.Timezone,
	} {
		raw, _ := json.Marshal(value)
		body[name] = raw
	}
	stored, err := p.values.SaveUser(ctx, c, body)
	if err != nil {
		fe, ok := p.ui.ErrorsOf(web.ViewerFrom(ctx).Lang, err)
		if !ok {
			return err
		}
		current, loadErr := p.values.Load(ctx, store.UserScope(c.UserID))
		if loadErr != nil {
			return loadErr
		}
		f.DefaultRange = p.values.Users().Render(current, nil)["defaultRange"].(string)
		return p.renderSettings(w, r, web.StatusOf(err), f, fe)
	}
	secure := strings.HasPrefix(p.host.Config.PublicURL, "https://")
	theme := "light"
	if stored["darkMode"] == "true" {
		theme = "dark"
	}
	for name, value := range map[string]string{langCookie: stored["language"], themeCookie: theme} {
		// Not HttpOnly: the pages' scripts set the theme cookie too.
		http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: "/", MaxAge: int(cookieAge.Seconds()),
			Secure: secure, SameSite: http.SameSiteLaxMode})
	}
	web.Toast(w, r, "success", p.host.Catalogs.T(stored["language"], msgSaved, nil))
	web.Redirect(w, r, "/settings")
	return nil
}

// msgSaved is the toast after saving the form.
const msgSaved = "page.settings.saved"

func (p *Pages) renderSettings(w http.ResponseWriter, r *http.Request, status int, f settingsForm, fe ui.FormErrors) error {
	zone, err := p.values.CompanyZone(r.Context(), web.ViewerFrom(r.Context()).CompanyID)
	if err != nil {
		return err
	}
	f.CompanyZone = zone
	var langs []ui.Option
	for _, l := range p.host.Catalogs.Languages() {
		name := languageNames[l]
		if name == "" {
			name = l
		}
		langs = append(langs, ui.Option{Value: l, Label: name})
	}
	props, _ := json.Marshal(map[string]string{"preset": f.DefaultRange, "saveTo": "/api/settings"})
	return p.ui.Render(w, r, status, "page.settings.title", settingsBody(f, langs, string(props), fe), ui.Options{Islands: true})
}
