// Package core implements the accounts module: users, companies, sessions,
// password resets and company logos.
package core

import (
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
)

// User is a person with a login. The JSON names are those of SPEC.md section 3.
type User struct {
	bun.BaseModel `bun:"table:users" json:"-"`

	ID           int64     `bun:"id,pk,autoincrement" json:"userId"`
	CompanyID    *int64    `bun:"company_id" json:"companyId"`
	Email        string    `bun:"email" json:"email"`
	FirstName    string    `bun:"first_name" json:"firstName"`
	LastName     string    `bun:"last_name" json:"lastName"`
	PhoneNumber  string    `bun:"phone_number" json:"phoneNumber"`
	PasswordHash string    `bun:"password_hash" json:"-"`
	Role         auth.Role `bun:"role" json:"role"`
	CreatedAt    time.Time `bun:"created_at" json:"createdAt"`
	UpdatedAt    time.Time `bun:"updated_at" json:"updatedAt"`
}

// Company returns the user's company id, 0 when there is none.
func (u *User) Company() int64 {
	if u.CompanyID == nil {
		return 0
	}
	return *u.CompanyID
}

// Name is how mails address the user.
func (u *User) Name() string {
	if u.FirstName != "" {
		return u.FirstName
	}
	return u.Email
}

// Company is a customer organisation. The JSON names, typos included, are
// those of SPEC.md section 3: existing clients depend on them.
type Company struct {
	bun.BaseModel `bun:"table:companies,alias:company" json:"-"`

	ID              int64     `bun:"id,pk,autoincrement" json:"companyId"`
	Name            string    `bun:"name" json:"name"`
	OrgNumber       string    `bun:"org_number" json:"orgNumber"`
	PostalAddress   string    `bun:"postal_address" json:"postalAdress"`
	DeliveryAddress string    `bun:"delivery_address" json:"deliveryAdress"`
	ContactPhone    string    `bun:"contact_phone" json:"contactPhonenumber"`
	ContactEmail    string    `bun:"contact_email" json:"invoiceAdress"`
	ReferenceNumber string    `bun:"reference_number" json:"refrenceNmuber"`
	Country         string    `bun:"country" json:"country"`
	ImageVersion    *string   `bun:"image_version,scanonly" json:"-"`
	Image           *string   `bun:"-" json:"image"`
	CreatedAt       time.Time `bun:"created_at" json:"createdAt"`
	UpdatedAt       time.Time `bun:"updated_at" json:"updatedAt"`
}

// Language is the default language of the company's users: its country
// decides it (SPEC.md section 1).
func (c *Company) Language() string {
	if c.Country == "SE" {
		return "sv"
	}
	return "en"
}

// UserDeleted is published after a user is deleted.
type UserDeleted struct{ UserID, CompanyID int64 }

// Topic names the event.
func (UserDeleted) Topic() string { return "accounts.user_deleted" }

// CompanyCreated is published after a company is created.
type CompanyCreated struct{ CompanyID int64 }

// Topic names the event.
func (CompanyCreated) Topic() string { return "accounts.company_created" }

// UserSignedIn is published after a user signed in (Renewed false) or a
// session of theirs bought a new access token (Renewed true), which a client
// in use does at least once per access token lifetime. CompanyID is 0 for a
// user without a company.
type UserSignedIn struct {
	UserID, CompanyID int64
	Role              auth.Role
	// Name is the user's first and last name, else their e-mail address.
	Name    string
	Renewed bool
	At      time.Time
}

// Topic names the event.
func (UserSignedIn) Topic() string { return "accounts.user_signed_in" }

// CompanyDeleted is published after a company and its data are deleted.
type CompanyDeleted struct{ CompanyID int64 }

// Topic names the event.
func (CompanyDeleted) Topic() string { return "accounts.company_deleted" }
