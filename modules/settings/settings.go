// Package settings is the contract of the settings module: user settings,
// company settings and the installation's global settings (SPEC.md section 3
// "Global settings", "Company settings", "User settings" and section 7
// "Settings"), the /settings page, and the language and theme every page is
// drawn in. Other modules read settings through Service; the implementation
// lives in internal/.
package settings

import (
	"context"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/settings/internal/core"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Deps is what the settings module needs from the rest of the portal.
type Deps struct {
	// WhiteLabel reports whether the license allows white-label branding; only
	// then may the branding, powered_by and brand_icon global settings change,
	// and only then does the frame show the branding. Required.
	WhiteLabel func() bool
	// Accounts answers which company a caller belongs to (its country picks
	// the default language) and whether a user or company still exists.
	// Required; the accounts module satisfies it.
	Accounts Accounts
	// UI draws the /settings and /superadmin/settings pages. Optional:
	// without it the module serves its API alone (as in its own tests).
	UI *ui.Env
}

// Accounts is the part of accounts.Service that settings uses. Both methods
// return an errs.NotFound error for an unknown id.
type Accounts interface {
	User(ctx context.Context, id int64) (*accounts.User, error)
	Company(ctx context.Context, id int64) (*accounts.Company, error)
}

// Service is what other modules (SMS sending, inactivity alarms) may ask of
// settings. Values come back as stored strings with secrets opened, keyed by
// the setting names of SPEC.md section 3 (SMS_PROVIDER, ELKS_USERNAME,
// ELKS_PASSWORD, ELKS_SENDER, TWILIO_NUMBER, TWILIO_ACCOUNT_SID,
// TWILIO_AUTH_TOKEN, and INACTIVITY_EMAIL for a company, branding,
// powered_by and brand_icon globally); a setting never set is "".
type Service interface {
	// Global returns the installation-wide settings.
	Global(ctx context.Context) (map[string]string, error)
	// Company returns the settings of one company; an unknown company has
	// only empty values.
	Company(ctx context.Context, companyID int64) (map[string]string, error)
}

// Module is the settings module as the kernel and main.go see it.
type Module interface {
	kernel.Module
	kernel.Router
	Service
}

// New builds the module. It panics when a required dependency is missing,
// so that a wiring mistake in main.go stops the program at start.
func New(host *kernel.Host, deps Deps) Module {
	if deps.WhiteLabel == nil || deps.Accounts == nil {
		panic("settings.New: Deps.WhiteLabel and Deps.Accounts are required")
	}
	return core.New(host, core.Deps{WhiteLabel: deps.WhiteLabel, Accounts: deps.Accounts, UI: deps.UI})
}
