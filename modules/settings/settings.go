// Package settings is the contract of the settings module: each user's own
// settings (theme, dark mode, menu, language, default chart range), each
// company's settings (its SMS provider and credentials, the address that
// hears of inactive nodes) and the installation's global settings (the SMS
// provider beside the white-label branding), the /settings and
// /superadmin/settings pages, and the language and theme every page is
// drawn in. Other modules read settings through Service. Package module
// builds the module; the implementation lives in internal/.
package settings

import (
	"context"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/accounts"
)

// Message ids of the module's errors; each is a key of the locale catalogs.
const (
	// IDUnknown: a body names a setting the scope does not have.
	IDUnknown = "settings.unknown"
	// IDBadValue: a value the setting cannot hold.
	IDBadValue = "settings.badValue"
	// IDPluginCredentials: SMS_PLUGIN_CREDENTIALS is not name=value pairs
	// joined by &.
	IDPluginCredentials = "settings.pluginCredentials"
	// IDWhiteLabel: the branding may change only under a white-label
	// license.
	IDWhiteLabel = "settings.whiteLabel"
	// IDTimezone: a time zone that is not an IANA name the portal knows.
	IDTimezone = "settings.timezone.invalid"
)

// Accounts is the part of accounts.Service that settings uses: which
// company a caller belongs to (its country picks the default language) and
// whether a user or company still exists. Both methods return an
// errs.NotFound error for an unknown id.
type Accounts interface {
	User(ctx context.Context, id int64) (*accounts.User, error)
	Company(ctx context.Context, id int64) (*accounts.Company, error)
}

// Service is what other modules (SMS sending, inactivity alarms) may ask of
// settings. Values come back as stored strings with secrets opened, keyed by
// the settings' names (SMS_PROVIDER, ELKS_USERNAME, ELKS_PASSWORD,
// ELKS_SENDER, TWILIO_NUMBER, TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, and
// INACTIVITY_EMAIL for a company, branding, powered_by and brand_icon
// globally); a setting never set is "".
type Service interface {
	// Global returns the installation-wide settings.
	Global(ctx context.Context) (map[string]string, error)
	// Company returns the settings of one company; an unknown company has
	// only empty values.
	Company(ctx context.Context, companyID int64) (map[string]string, error)
}

// Module is the settings module as the kernel and the application see it.
type Module interface {
	kernel.Module
	kernel.Router
	Service
}

// Message ids of the audit trail's entries about settings (audit.Change),
// with the changed settings before and after, secrets masked: a user's own
// settings, a company's, the global ones.
const (
	AuditUser    = "audit.settings.user"
	AuditCompany = "audit.settings.company"
	AuditGlobal  = "audit.settings.global"
	AuditLogo    = "audit.settings.logo"
	AuditNoLogo  = "audit.settings.logoRemoved"
)
