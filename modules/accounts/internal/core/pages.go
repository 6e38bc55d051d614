package core

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// What the company, user, register and superadmin pages share: reading a
// posted form into the API's input types, answering a refused form, and
// reporting success across a redirect.

// msgBadForm is the message of a posted body that is not a form.
const msgBadForm = "error.badForm"

// readForm parses a posted urlencoded form. A body that cannot be read as one
// is a 400, or a 413 when it is over the route's limit, never a 500.
func readForm(r *http.Request) (url.Values, error) {
	if err := r.ParseForm(); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, err
		}
		return nil, errs.New(errs.Invalid, msgBadForm).Wrap(err)
	}
	return r.PostForm, nil
}

// formValue returns a pointer to the value of a posted field, or nil when the
// form does not carry it, so that an update leaves absent fields alone as the
// API does.
func formValue(vals url.Values, name string) *string {
	if _, ok := vals[name]; !ok {
		return nil
	}
	v := vals.Get(name)
	return &v
}

// companyInputFrom reads the company fields of a form, named as in SPEC.md
// section 3 after prefix.
func companyInputFrom(vals url.Values, prefix string) companyInput {
	return companyInput{
		Name:            formValue(vals, prefix+"name"),
		OrgNumber:       formValue(vals, prefix+"orgNumber"),
		PostalAddress:   formValue(vals, prefix+"postalAdress"),
		DeliveryAddress: formValue(vals, prefix+"deliveryAdress"),
		ContactPhone:    formValue(vals, prefix+"contactPhonenumber"),
		ContactEmail:    formValue(vals, prefix+"invoiceAdress"),
		ReferenceNumber: formValue(vals, prefix+"refrenceNmuber"),
		Country:         formValue(vals, prefix+"country"),
	}
}

// companyValues fills a company form from c.
func companyValues(c *Company) url.Values {
	return url.Values{
		"name": {c.Name}, "orgNumber": {c.OrgNumber}, "postalAdress": {c.PostalAddress},
		"deliveryAdress": {c.DeliveryAddress}, "contactPhonenumber": {c.ContactPhone},
		"invoiceAdress": {c.ContactEmail}, "refrenceNmuber": {c.ReferenceNumber}, "country": {c.Country},
	}
}

// userInputFrom reads the user fields of a form after prefix.
func userInputFrom(vals url.Values, prefix string) userInput {
	return userInput{
		FirstName:       formValue(vals, prefix+"firstName"),
		LastName:        formValue(vals, prefix+"lastName"),
		PhoneNumber:     formValue(vals, prefix+"phoneNumber"),
		Email:           formValue(vals, prefix+"email"),
		Password:        formValue(vals, prefix+"password"),
		ConfirmPassword: formValue(vals, prefix+"confirmPassword"),
		CurrentPassword: formValue(vals, prefix+"currentPassword"),
		Role:            formValue(vals, prefix+"role"),
	}
}

// userValues fills a user form from u; passwords are never filled in.
func userValues(u *User) url.Values {
	return url.Values{
		"firstName": {u.FirstName}, "lastName": {u.LastName}, "email": {u.Email},
		"phoneNumber": {u.PhoneNumber}, "role": {string(u.Role)},
	}
}

// t translates id in the language of the page being answered.
func (m *Module) t(r *http.Request, id string, pairs ...any) string {
	var args map[string]any
	if len(pairs) > 1 {
		args = map[string]any{}
		for i := 0; i+1 < len(pairs); i += 2 {
			args[pairs[i].(string)] = pairs[i+1]
		}
	}
	return m.host.Catalogs.T(web.ViewerFrom(r.Context()).Lang, id, args)
}

// roleOrder lists the assignable roles from the least to the most powerful.
var roleOrder = []auth.Role{auth.User, auth.CompanyAdmin, auth.Admin, auth.SuperAdmin}

// roleOptions are the roles c may grant (mayGrant), plus current so that a
// select shows it.
func roleOptions(c auth.Caller, current auth.Role) []ui.Option {
	var out []ui.Option
	for _, role := range roleOrder {
		if mayGrant(c, role) || role == current {
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
