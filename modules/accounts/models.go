package accounts

import (
	"sync"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
)

// User is a person with a login. The JSON names are those of the API that
// existing clients use; the password hash never leaves the server.
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

// Company is a customer organisation. The JSON names, typos included
// ("postalAdress", "refrenceNmuber"), are those of the API that existing
// clients depend on.
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
	Timezone        string    `bun:"timezone" json:"timezone"` // an IANA name; "" is that of the country
	ImageVersion    *string   `bun:"image_version,scanonly" json:"-"`
	Image           *string   `bun:"-" json:"image"`
	CreatedAt       time.Time `bun:"created_at" json:"createdAt"`
	UpdatedAt       time.Time `bun:"updated_at" json:"updatedAt"`
}

// Language is the default language of the company's users: Swedish for a
// company in Sweden, English for any other, until a user chooses.
func (c *Company) Language() string {
	if c.Country == "SE" {
		return "sv"
	}
	return "en"
}

// countryZones are the time zones of the countries the company form offers:
// for a country of several zones, that of its capital.
var countryZones = map[string]string{
	"SE": "Europe/Stockholm", "NO": "Europe/Oslo", "DK": "Europe/Copenhagen", "FI": "Europe/Helsinki",
	"DE": "Europe/Berlin", "GB": "Europe/London", "US": "America/New_York", "NL": "Europe/Amsterdam",
}

// CountryZone is the time zone a company of country starts with: that of
// the country when the form offers it, else UTC.
func CountryZone(country string) string {
	if zone, ok := countryZones[country]; ok {
		return zone
	}
	return "UTC"
}

// zones caches loaded time zones by name: every page request resolves one,
// and time.LoadLocation reads the zone database each time.
var zones sync.Map // string → *time.Location

// LoadZone loads an IANA time zone, cached; "Local" (the server's own) and ""
// are refused.
func LoadZone(name string) (*time.Location, bool) {
	if name == "" || name == "Local" {
		return nil, false
	}
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location), true
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, false
	}
	zones.Store(name, loc)
	return loc, true
}

// ValidZone reports whether name is an IANA time zone the portal can load.
// "Local" is refused: it would be the server's own zone.
func ValidZone(name string) bool {
	_, ok := LoadZone(name)
	return ok
}

// Zone is the IANA name of the company's time zone: its own, else that of
// its country.
func (c *Company) Zone() string {
	if c.Timezone != "" {
		return c.Timezone
	}
	return CountryZone(c.Country)
}

// Location is the company's time zone, in which its people see times and
// its days, weeks and months begin; UTC if its zone cannot be loaded.
func (c *Company) Location() *time.Location {
	if loc, ok := LoadZone(c.Zone()); ok {
		return loc
	}
	return time.UTC
}

// DemoLogin is an account of the demo company, shown once.
type DemoLogin struct {
	Email, Password string
	Role            auth.Role
}
