package pages

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/settings/internal/schema"
	"github.com/fieldhub/fieldhub/modules/settings/internal/store"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// The /superadmin/settings page: the installation's global settings as a
// form, stored through values.Service.SaveGlobal, so that the form and POST
// /api/settings/global follow the same rules (the branding ones change only
// under a white-label license).

const (
	msgGlobalTitle = "page.globalSettings.title"
	msgGlobalSaved = "page.globalSettings.saved"
	msgBadForm     = "error.badForm"
)

// globalTexts are the global settings the form shows as text or a select;
// the secrets are never shown, only whether one is stored.
var (
	globalTexts   = []string{"branding", "powered_by", "brand_icon", "SMS_PROVIDER", "ELKS_USERNAME", "ELKS_SENDER", "TWILIO_NUMBER", "TWILIO_ACCOUNT_SID", "SMS_PLUGIN_SENDER"}
	globalSecrets = []string{"ELKS_PASSWORD", "TWILIO_AUTH_TOKEN", "SMS_PLUGIN_CREDENTIALS"}
)

// clearPrefix names the check box that removes a stored secret.
const clearPrefix = "clear_"

// globalForm is what the form shows.
type globalForm struct {
	WhiteLabel bool
	Values     map[string]string // by setting name
	Stored     map[string]bool   // secrets: whether one is stored
	Clear      map[string]bool   // secrets: the remove check box
	// Providers are the SMS providers the plugin host offers.
	Providers []string
}

// providerOptions are the choices of SMS_PROVIDER: none, the bundled
// providers by their names, then third parties' plugins by theirs.
func (f globalForm) providerOptions() []ui.Option {
	names := map[string]string{"46elks": "46elks", "twilio": "Twilio"}
	out := []ui.Option{{Value: "", LabelID: "page.globalSettings.sms.none"}}
	for _, p := range f.Providers {
		label := names[p]
		if label == "" {
			label = p
		}
		out = append(out, ui.Option{Value: p, Label: label})
	}
	return out
}

// iconProps are the brand icon selector island's props.
func (f globalForm) iconProps(label string) string {
	icon := f.Values["brand_icon"]
	if !schema.IconName.MatchString(icon) {
		icon = schema.DefaultBrandIcon
	}
	b, _ := json.Marshal(map[string]string{"name": "brand_icon", "value": icon, "label": label})
	return string(b)
}

// formFromStored fills the form with what is stored, defaults for the rest.
func (p *Pages) formFromStored(stored map[string]string) globalForm {
	sc := p.values.GlobalSchema()
	f := globalForm{WhiteLabel: p.values.WhiteLabel(), Values: map[string]string{}, Stored: map[string]bool{}, Clear: map[string]bool{},
		Providers: sc.Get("SMS_PROVIDER").Options[1:]}
	shown := sc.Render(stored, nil)
	for _, name := range globalTexts {
		f.Values[name], _ = shown[name].(string)
	}
	for _, name := range globalSecrets {
		f.Stored[name] = stored[name] != ""
	}
	return f
}

func (p *Pages) globalPage(w http.ResponseWriter, r *http.Request) error {
	stored, err := p.values.Load(r.Context(), store.GlobalScope)
	if err != nil {
		return err
	}
	f := p.formFromStored(stored)
	logo, err := p.logoPart(r, ui.NoErrors)
	if err != nil {
		return err
	}
	return p.ui.Render(w, r, http.StatusOK, msgGlobalTitle, globalPageWithLogo(globalSettingsForm(f, ui.NoErrors), logo), ui.Options{Islands: true})
}

// globalSubmit stores the form. A field the form does not carry is left
// alone (the branding fields are disabled, so not sent, without white-label);
// an empty password keeps the stored one unless its remove box is checked.
func (p *Pages) globalSubmit(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	if err := r.ParseForm(); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return err
		}
		return errs.New(errs.Invalid, msgBadForm).Wrap(err)
	}
	vals := r.PostForm
	body := globalBody(vals)
	if _, err := p.values.SaveGlobal(ctx, body); err != nil {
		stored, loadErr := p.values.Load(ctx, store.GlobalScope)
		if loadErr != nil {
			return loadErr
		}
		f := p.formFromStored(stored)
		for _, name := range globalTexts {
			if _, ok := vals[name]; ok {
				f.Values[name] = vals.Get(name)
			}
		}
		for _, name := range globalSecrets {
			f.Clear[name] = vals.Get(clearPrefix+name) != ""
		}
		return p.ui.FormFailed(w, r, err, msgGlobalTitle, func(fe ui.FormErrors) templ.Component {
			return globalSettingsForm(f, fe)
		}, globalPage, ui.Options{Islands: true})
	}
	web.Toast(w, r, "success", p.host.Catalogs.T(web.ViewerFrom(ctx).Lang, msgGlobalSaved, nil))
	web.Redirect(w, r, "/superadmin/settings")
	return nil
}

// globalBody turns the posted form into the body POST /api/settings/global
// takes.
func globalBody(vals url.Values) map[string]json.RawMessage {
	body := map[string]json.RawMessage{}
	put := func(name, value string) {
		raw, _ := json.Marshal(value)
		body[name] = raw
	}
	for _, name := range globalTexts {
		if _, ok := vals[name]; ok {
			put(name, vals.Get(name))
		}
	}
	for _, name := range globalSecrets {
		switch {
		case vals.Get(name) != "":
			put(name, vals.Get(name))
		case vals.Get(clearPrefix+name) != "":
			put(name, "")
		}
	}
	return body
}
