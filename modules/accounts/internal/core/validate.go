package core

import (
	"net/mail"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/kernel/errs"
)

// Message IDs of this module; each is a key of the locale catalogs.
const (
	msgLoginFailed        = "accounts.login.failed"
	msgLoggedIn           = "accounts.login.ok"
	msgEmailInvalid       = "accounts.email.invalid"
	msgEmailTaken         = "accounts.email.taken"
	msgPhoneCountryCode   = "accounts.phone.countryCode"
	msgPasswordMismatch   = "accounts.password.mismatch"
	msgPasswordShort      = "accounts.password.tooShort"
	msgPasswordLong       = "accounts.password.tooLong"
	msgPasswordWrong      = "accounts.password.wrongCurrent"
	msgCompanyNameReq     = "accounts.company.name.required"
	msgCompanyNameLong    = "accounts.company.name.tooLong"
	msgOrgNumberReq       = "accounts.company.orgNumber.required"
	msgOrgNumberFormat    = "accounts.company.orgNumber.format"
	msgCompanyEmailReq    = "accounts.company.email.required"
	msgCountryInvalid     = "accounts.company.country.invalid"
	msgInviteNotFound     = "accounts.invite.notFound"
	msgInviteSent         = "accounts.invite.sent"
	msgInviteOther        = "accounts.invite.otherCompany"
	msgDeleteSelf         = "accounts.user.deleteSelf"
	msgOwnRole            = "accounts.role.own"
	msgRoleInvalid        = "accounts.role.invalid"
	msgRoleNotAllowed     = "accounts.role.notAllowed"
	msgAlreadyMember      = "accounts.company.alreadyMember"
	msgNoCompany          = "accounts.company.none"
	msgRegistrationClosed = "accounts.registration.closed"
	msgForgotSent         = "accounts.forgot.sent"
	msgResetInvalid       = "accounts.forgot.invalidLink"
	msgResetBadGUID       = "accounts.forgot.badGuid"
	msgResetDone          = "accounts.forgot.done"
	msgRefreshInvalid     = "accounts.refresh.invalid"
)

const (
	maxName     = 255
	maxEmail    = 320
	maxAddress  = 1000
	minPassword = 8
	maxPassword = 72 // bcrypt's limit in bytes
)

// normaliseEmail trims and lower-cases an address, so that one person cannot
// hold two accounts that differ in case.
func normaliseEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// checkEmail validates an address into field, with the given required message.
func checkEmail(v *errs.Validation, field, email, requiredID string) {
	switch {
	case email == "":
		v.Add(field, requiredID)
	case len(email) > maxEmail:
		v.Add(field, errs.IDTooLong)
	case !validEmail(email):
		v.Add(field, msgEmailInvalid)
	}
}

func validEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && strings.Contains(s[strings.LastIndex(s, "@"):], ".")
}

var phoneStrip = strings.NewReplacer("+", "", "-", "", " ", "")
var phoneDigits = regexp.MustCompile(`^[1-9][0-9]{6,14}$`)

// normalisePhone strips +, - and spaces as SPEC.md section 5 says; the result
// must start with a country code, so not with 0, and be an E.164 length.
func normalisePhone(s string) string { return phoneStrip.Replace(strings.TrimSpace(s)) }

func checkPhone(v *errs.Validation, field, phone string, required bool) {
	switch {
	case phone == "" && required:
		v.Add(field, errs.IDRequired)
	case phone == "":
	case !phoneDigits.MatchString(phone):
		v.Add(field, msgPhoneCountryCode)
	}
}

func checkLength(v *errs.Validation, field, value string, max int, required bool) {
	switch {
	case value == "" && required:
		v.Add(field, errs.IDRequired)
	case utf8.RuneCountInString(value) > max:
		v.Add(field, errs.IDTooLong)
	}
}

// checkNewPassword validates a password and its optional confirmation.
func checkNewPassword(v *errs.Validation, password string, confirm *string) {
	switch {
	case password == "":
		v.Add("password", errs.IDRequired)
	case utf8.RuneCountInString(password) < minPassword:
		v.AddArgs("password", msgPasswordShort, map[string]any{"min": minPassword})
	case len(password) > maxPassword:
		v.AddArgs("password", msgPasswordLong, map[string]any{"max": maxPassword})
	}
	if confirm != nil && *confirm != password {
		v.Add("confirmPassword", msgPasswordMismatch)
	}
}

var (
	orgStrip  = strings.NewReplacer(" ", "", "-", "", ".", "")
	vatNumber = regexp.MustCompile(`^[A-Z]{2}[0-9A-Z]{2,13}$`)
	regNumber = regexp.MustCompile(`^[0-9]{6,14}$`)
)

// normaliseOrgNumber upper-cases and drops separators.
func normaliseOrgNumber(s string) string {
	return strings.ToUpper(orgStrip.Replace(strings.TrimSpace(s)))
}

// validOrgNumber accepts an EU-style VAT number (two-letter country prefix and
// 2 to 13 letters or digits, such as SE556677889901) or a national
// registration number of 6 to 14 digits (a Swedish organisationsnummer such as
// 556677-8899). docs/decisions.md records why.
func validOrgNumber(s string) bool { return vatNumber.MatchString(s) || regNumber.MatchString(s) }

var countryCode = regexp.MustCompile(`^[A-Z]{2}$`)
