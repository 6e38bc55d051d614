// Package license is the contract of the license module, which shows the
// installation's license (read and verified by the kernel at start, see
// kernel/license) to the people who use it:
//
//   - GET /api/license/terms answers the terms, for every signed-in role:
//     {"email", "name", "maxCompanies", "decoderIncluded", "whiteLabel"}
//     (maxCompanies 0 means no limit), with "free": true when the
//     installation runs without a license file.
//   - The /superadmin page gets a section with the same terms and how many
//     companies the installation has of its limit.
//
// The terms take effect elsewhere: the accounts module refuses a company
// beyond maxCompanies (accounts.CompanyLimit, which the kernel's license
// satisfies), and white-label hides the Contact menu entry and unlocks
// the branding settings. Package module builds the module; the
// implementation lives in internal/.
package license

import (
	"context"

	"github.com/fieldhub/fieldhub/kernel"
)

// Terms is the answer of GET /api/license/terms.
type Terms struct {
	Email           string `json:"email"`
	Name            string `json:"name"`
	MaxCompanies    int    `json:"maxCompanies"`
	DecoderIncluded bool   `json:"decoderIncluded"`
	WhiteLabel      bool   `json:"whiteLabel"`
	// Free is true when no license file is installed.
	Free bool `json:"free"`
}

// Companies counts the installation's companies for the /superadmin
// section; the application wires it to the database.
type Companies interface {
	CountCompanies(ctx context.Context) (int, error)
}

// Module is the license module as the kernel and the application see it.
type Module interface {
	kernel.Module
	kernel.Router
}

// Message ids of the module; each is a key of the locale catalogs.
const (
	IDTitle        = "license.title"
	IDFree         = "license.free"
	IDFile         = "license.file"
	IDName         = "license.name"
	IDEmail        = "license.email"
	IDMaxCompanies = "license.maxCompanies"
	IDUnlimited    = "license.unlimited"
	IDCompanies    = "license.companies"
	IDDecoder      = "license.decoderIncluded"
	IDWhiteLabel   = "license.whiteLabel"
	IDYes          = "license.yes"
	IDNo           = "license.no"
)
