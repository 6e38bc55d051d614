package directory

import (
	"context"

	"github.com/fieldhub/fieldhub/kernel/audit"
	"github.com/fieldhub/fieldhub/modules/accounts"
)

// announce puts a change to accounts on the audit trail.
func (d *Directory) announce(ctx context.Context, company int64, id string, args, before, after map[string]any) {
	audit.Announce(ctx, d.host.Bus, audit.Change{CompanyID: company, MessageID: id, Args: args, Before: before, After: after})
}

// userFields are the fields of a user the audit trail shows; the password
// never is one.
func userFields(u *accounts.User) map[string]any {
	return map[string]any{"firstName": u.FirstName, "lastName": u.LastName, "email": u.Email, "phoneNumber": u.PhoneNumber}
}

// companyFields are the fields of a company the audit trail shows.
func companyFields(c *accounts.Company) map[string]any {
	return map[string]any{"name": c.Name, "orgNumber": c.OrgNumber, "postalAdress": c.PostalAddress,
		"deliveryAdress": c.DeliveryAddress, "contactPhonenumber": c.ContactPhone, "invoiceAdress": c.ContactEmail,
		"refrenceNmuber": c.ReferenceNumber, "country": c.Country}
}
