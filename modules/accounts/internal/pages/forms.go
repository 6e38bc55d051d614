package pages

import (
	"net/http"
	"net/url"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/directory"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// What the company, user, register and superadmin pages share: reading a
// posted form into the directory's input types and filling a form from a
// model, translating, and the options of the role and country selects.

// companyInputFrom reads the company fields of a form, named after prefix
// as in the JSON of accounts.Company.
func companyInputFrom(vals url.Values, prefix string) directory.CompanyInput {
	return directory.CompanyInput{
		Name:            web.FormValue(vals, prefix+"name"),
		OrgNumber:       web.FormValue(vals, prefix+"orgNumber"),
		PostalAddress:   web.FormValue(vals, prefix+"postalAdress"),
		DeliveryAddress: web.FormValue(vals, prefix+"deliveryAdress"),
		ContactPhone:    web.FormValue(vals, prefix+"contactPhonenumber"),
		ContactEmail:    web.FormValue(vals, prefix+"invoiceAdress"),
		ReferenceNumber: web.FormValue(vals, prefix+"refrenceNmuber"),
		Country:         web.FormValue(vals, prefix+"country"),
		Timezone:        web.FormValue(vals, prefix+"timezone"),
	}
}

// companyValues fills a company form from c.
func companyValues(c *accounts.Company) url.Values {
	return url.Values{
		"name": {c.Name}, "orgNumber": {c.OrgNumber}, "postalAdress": {c.PostalAddress},
		"deliveryAdress": {c.DeliveryAddress}, "contactPhonenumber": {c.ContactPhone},
		"invoiceAdress": {c.ContactEmail}, "refrenceNmuber": {c.ReferenceNumber}, "country": {c.Country},
		"timezone": {c.Zone()},
	}
}

// userInputFrom reads the user fields of a form after prefix.
func userInputFrom(vals url.Values, prefix string) directory.UserInput {
	return directory.UserInput{
		FirstName:       web.FormValue(vals, prefix+"firstName"),
		LastName:        web.FormValue(vals, prefix+"lastName"),
		PhoneNumber:     web.FormValue(vals, prefix+"phoneNumber"),
		Email:           web.FormValue(vals, prefix+"email"),
		Password:        web.FormValue(vals, prefix+"password"),
		ConfirmPassword: web.FormValue(vals, prefix+"confirmPassword"),
		CurrentPassword: web.FormValue(vals, prefix+"currentPassword"),
		Role:            web.FormValue(vals, prefix+"role"),
	}
}

// userValues fills a user form from u; passwords are never filled in.
func userValues(u *accounts.User) url.Values {
	return url.Values{
		"firstName": {u.FirstName}, "lastName": {u.LastName}, "email": {u.Email},
		"phoneNumber": {u.PhoneNumber}, "role": {string(u.Role)},
	}
}

// t translates id in the language of the page being answered.
func (p *Pages) t(r *http.Request, id string, pairs ...any) string {
	var args map[string]any
	if len(pairs) > 1 {
		args = map[string]any{}
		for i := 0; i+1 < len(pairs); i += 2 {
			args[pairs[i].(string)] = pairs[i+1]
		}
	}
	return p.host.Catalogs.T(web.ViewerFrom(r.Context()).Lang, id, args)
}

// roleOrder lists the assignable roles from the least to the most powerful.
var roleOrder = []auth.Role{auth.User, auth.CompanyAdmin, auth.Admin, auth.SuperAdmin}

// roleOptions are the roles c may grant (directory.MayGrant), plus current
// so that a select shows it.
func roleOptions(c auth.Caller, current auth.Role) []ui.Option {
	var out []ui.Option
	for _, role := range roleOrder {
		if directory.MayGrant(c, role) || role == current {
			out = append(out, ui.Option{Value: string(role), LabelID: roleLabel(role)})
		}
	}
	return out
}

func roleLabel(r auth.Role) string { return "page.user.role." + string(r) }

// countries are the ISO 3166 codes the company form offers first.
var countries = []string{"SE", "NO", "DK", "FI", "DE", "GB", "US", "NL"}

// countryOptions offers the usual countries, and current when it is another.
func countryOptions(current string) []ui.Option {
	out := []ui.Option{{Value: "", LabelID: "page.company.country.none"}}
	known := false
	for _, code := range countries {
		out = append(out, ui.Option{Value: code, LabelID: "page.company.country." + code})
		known = known || code == current
	}
	if current != "" && !known {
		out = append(out, ui.Option{Value: current, Label: current})
	}
	return out
}

// zoneSuggestions are the time zones the company form's time zone field
// suggests: those of the countries it offers, and UTC.
func zoneSuggestions() []string {
	out := make([]string, 0, len(countries)+1)
	for _, code := range countries {
		out = append(out, accounts.CountryZone(code))
	}
	return append(out, "UTC")
}
