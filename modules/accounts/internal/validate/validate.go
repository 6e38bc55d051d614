// Package validate checks and normalises the fields of users and companies,
// adding each problem to an errs.Validation so that a form shows them all
// at once.
package validate

import (
	"net/mail"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/accounts"
)

// The longest names, addresses and passwords accepted, and the shortest
// password.
const (
	MaxName     = 255
	MaxEmail    = 320
	MaxAddress  = 1000
	MinPassword = 8
	MaxPassword = 72 // bcrypt's limit in bytes
)

// NormaliseEmail trims and lower-cases an address, so that one person cannot
// hold two accounts that differ in case.
func NormaliseEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// Email validates an address into field, with the given required message.
func Email(v *errs.Validation, field, email, requiredID string) {
	switch {
	case email == "":
		v.Add(field, requiredID)
	case len(email) > MaxEmail:
		v.Add(field, errs.IDTooLong)
	case !validEmail(email):
		v.Add(field, accounts.MsgEmailInvalid)
	}
}

func validEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && strings.Contains(s[strings.LastIndex(s, "@"):], ".")
}

var phoneStrip = strings.NewReplacer("+", "", "-", "", " ", "")
var phoneDigits = regexp.MustCompile(`^[1-9][0-9]{6,14}$`)

// NormalisePhone strips +, - and spaces, so that "+46 70-123 45 67" is
// stored as 46701234567; Phone then wants a country code first (so no
// leading 0) and an E.164 length.
func NormalisePhone(s string) string { return phoneStrip.Replace(strings.TrimSpace(s)) }

// Phone validates a normalised phone number into field.
func Phone(v *errs.Validation, field, phone string, required bool) {
	switch {
	case phone == "" && required:
		v.Add(field, errs.IDRequired)
	case phone == "":
	case !phoneDigits.MatchString(phone):
		v.Add(field, accounts.MsgPhoneCountryCode)
	}
}

// Length validates that a text, required or not, is at most max characters.
func Length(v *errs.Validation, field, value string, max int, required bool) {
	switch {
	case value == "" && required:
		v.Add(field, errs.IDRequired)
	case utf8.RuneCountInString(value) > max:
		v.Add(field, errs.IDTooLong)
	}
}

// NewPassword validates a password and its optional confirmation.
func NewPassword(v *errs.Validation, password string, confirm *string) {
	switch {
	case password == "":
		v.Add("password", errs.IDRequired)
	case utf8.RuneCountInString(password) < MinPassword:
		v.AddArgs("password", accounts.MsgPasswordShort, map[string]any{"min": MinPassword})
	case len(password) > MaxPassword:
		v.AddArgs("password", accounts.MsgPasswordLong, map[string]any{"max": MaxPassword})
	}
	if confirm != nil && *confirm != password {
		v.Add("confirmPassword", accounts.MsgPasswordMismatch)
	}
}

var (
	orgStrip  = strings.NewReplacer(" ", "", "-", "", ".", "")
	vatNumber = regexp.MustCompile(`^[A-Z]{2}[0-9A-Z]{2,13}$`)
	regNumber = regexp.MustCompile(`^[0-9]{6,14}$`)
)

// NormaliseOrgNumber upper-cases and drops separators.
func NormaliseOrgNumber(s string) string {
	return strings.ToUpper(orgStrip.Replace(strings.TrimSpace(s)))
}

// OrgNumber accepts an EU-style VAT number (two-letter country prefix and
// 2 to 13 letters or digits, such as SE556677889901) or a national
// registration number of 6 to 14 digits (a Swedish organisationsnummer such as
// 556677-8899). docs/decisions.md records why.
func OrgNumber(s string) bool { return vatNumber.MatchString(s) || regNumber.MatchString(s) }

var countryCode = regexp.MustCompile(`^[A-Z]{2}$`)

// Country accepts an upper-case two-letter ISO 3166 code.
func Country(s string) bool { return countryCode.MatchString(s) }
