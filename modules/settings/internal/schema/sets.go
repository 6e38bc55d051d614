package schema

import (
	"net/mail"
	"net/url"
	"regexp"
	"strings"

	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/settings"
)

// The SMS settings exist both globally and per company. SMS_PLUGIN_* are
// the sender and credentials of a provider other than the bundled two (a
// third party's plugin), the credentials in the form of a URL query:
// name=value&name=value, by the names its plugin reads.
var (
	elksUser    = Setting{Name: "ELKS_USERNAME", Normalise: strings.TrimSpace, Label: "settings.field.provider1Username"}
	elksPass    = Setting{Name: "ELKS_PASSWORD", Kind: Secret, Label: "settings.field.provider1Password"}
	elksSender  = Setting{Name: "ELKS_SENDER", Normalise: strings.TrimSpace, Valid: senderName.MatchString, Label: "settings.field.provider1Sender"}
	twilioNum   = Setting{Name: "TWILIO_NUMBER", Normalise: normalisePhone, Valid: validPhone, Label: "settings.field.provider2Number"}
	twilioSID   = Setting{Name: "TWILIO_ACCOUNT_SID", Normalise: strings.TrimSpace, Label: "settings.field.provider2AccountSid"}
	twilioToken = Setting{Name: "TWILIO_AUTH_TOKEN", Kind: Secret, Label: "settings.field.provider2AuthToken"}
	pluginSend  = Setting{Name: "SMS_PLUGIN_SENDER", Normalise: strings.TrimSpace, Label: "settings.field.pluginSender"}
	pluginCreds = Setting{Name: "SMS_PLUGIN_CREDENTIALS", Kind: Secret, Normalise: strings.TrimSpace, Valid: validCredentials,
		Label: "settings.field.pluginCredentials", Invalid: settings.IDPluginCredentials}
)

// smsProvider is the choice among providers: none, or one of those the
// plugin host offers.
func smsProvider(providers []string) Setting {
	return Setting{Name: "SMS_PROVIDER", Options: append([]string{""}, providers...), Label: "settings.field.smsProvider"}
}

// validCredentials accepts name=value pairs joined by &, escaped as in a
// URL query.
func validCredentials(s string) bool {
	if s == "" {
		return true
	}
	q, err := url.ParseQuery(s)
	if err != nil {
		return false
	}
	for name := range q {
		if name == "" {
			return false
		}
	}
	return true
}

// BrandingNames are the global settings that white-label gates and that
// every signed-in user may read.
var BrandingNames = []string{"branding", "powered_by", "brand_icon"}

// DefaultBrandIcon is the side menu's brand icon until another is chosen.
const DefaultBrandIcon = "mdi-access-point-network"

// IconName is the form of a Material Design icon class, such as mdi-home.
var IconName = regexp.MustCompile(`^mdi-[a-z0-9-]+$`)

// Global is the installation's settings: the branding and the SMS
// provider every company without its own uses, one of providers.
func Global(providers []string) Schema {
	return Schema{
		{Name: "branding"}, {Name: "powered_by"},
		{Name: "brand_icon", Default: DefaultBrandIcon, Normalise: strings.TrimSpace, Valid: IconName.MatchString},
		smsProvider(providers), elksUser, elksPass, elksSender, twilioNum, twilioSID, twilioToken, pluginSend, pluginCreds,
	}
}

// Company is a company's settings: its own SMS provider (one of
// providers) and the address that hears of its inactive nodes.
func Company(providers []string) Schema {
	return Schema{
		smsProvider(providers),
		{Name: "INACTIVITY_EMAIL", Normalise: strings.TrimSpace, Valid: validEmail, Label: "settings.field.inactivityEmail"},
		elksUser, elksPass, elksSender, twilioNum, twilioSID, twilioToken, pluginSend, pluginCreds,
	}
}

// User lists a user's settings; languages are those with a catalog. The
// language's default depends on the caller's company and is filled in by
// the handler.
func User(languages []string) Schema {
	return Schema{
		{Name: "theme", Default: "Colors", Options: []string{"Colors", "Scientific"}},
		{Name: "darkMode", Kind: Boolean, Default: "false"},
		{Name: "toolbarTransparent", Kind: Boolean, Default: "false"},
		{Name: "stickySideMenu", Kind: Boolean, Default: "false"},
		{Name: "language", Options: languages},
		{Name: "defaultRange", Default: "24h", Options: []string{"1h", "5h", "24h", "7d", "30d"}},
		// An IANA time zone; "" shows times in the company's.
		{Name: "timezone", Normalise: strings.TrimSpace, Valid: validZone, Invalid: settings.IDTimezone},
	}
}

// senderName is the SMS alphanumeric sender rule: up to 11 letters or digits.
var senderName = regexp.MustCompile(`^[A-Za-z0-9]{0,11}$`)

var phoneStrip = strings.NewReplacer("+", "", "-", "", " ", "")
var phoneDigits = regexp.MustCompile(`^[1-9][0-9]{6,14}$`)

// normalisePhone strips +, - and spaces, so that a number is stored as the
// digits the SMS providers take, whichever way a person wrote it.
func normalisePhone(s string) string { return phoneStrip.Replace(strings.TrimSpace(s)) }

// validPhone accepts an empty value or digits that start with a country
// code, so not with 0, of an E.164 length.
func validPhone(s string) bool { return s == "" || phoneDigits.MatchString(s) }

// validZone accepts an empty value (the company's zone) or an IANA zone.
func validZone(s string) bool { return s == "" || accounts.ValidZone(s) }

// validEmail accepts an empty value or a bare address with a dotted domain.
func validEmail(s string) bool {
	if s == "" {
		return true
	}
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && strings.Contains(s[strings.LastIndex(s, "@"):], ".")
}
