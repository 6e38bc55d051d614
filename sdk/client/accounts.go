package client

import (
	"context"
	"fmt"
	"net/http"
)

// User is a portal user, with the API's field names.
type User struct {
	UserID      int64  `json:"userId,omitempty"`
	CompanyID   *int64 `json:"companyId,omitempty"`
	Email       string `json:"email"`
	FirstName   string `json:"firstName"`
	LastName    string `json:"lastName"`
	PhoneNumber string `json:"phoneNumber"`
	Role        string `json:"role,omitempty"`
	// Password is sent when creating a user and never returned.
	Password string `json:"password,omitempty"`
}

// Company is a customer organisation, with the API's own spellings.
type Company struct {
	CompanyID          int64   `json:"companyId,omitempty"`
	Name               string  `json:"name"`
	OrgNumber          string  `json:"orgNumber"`
	PostalAdress       string  `json:"postalAdress,omitempty"`
	DeliveryAdress     string  `json:"deliveryAdress,omitempty"`
	ContactPhonenumber string  `json:"contactPhonenumber,omitempty"`
	InvoiceAdress      string  `json:"invoiceAdress"`
	RefrenceNmuber     string  `json:"refrenceNmuber,omitempty"`
	Country            string  `json:"country,omitempty"`
	Timezone           string  `json:"timezone,omitempty"` // an IANA name; empty on create is the country's
	Image              *string `json:"image,omitempty"`
}

// Me returns the signed-in user.
func (c *Client) Me(ctx context.Context) (*User, error) {
	var u User
	return &u, c.Do(ctx, http.MethodGet, "/api/users", nil, &u)
}

// User returns a user by id.
func (c *Client) User(ctx context.Context, id int64) (*User, error) {
	var u User
	return &u, c.Do(ctx, http.MethodGet, fmt.Sprintf("/api/users/%d", id), nil, &u)
}

// CreateUser creates a user in the caller's company (a SuperAdmin sets
// CompanyID); u.Password is required.
func (c *Client) CreateUser(ctx context.Context, u User) (*User, error) {
	var out User
	return &out, c.Do(ctx, http.MethodPost, "/api/users", u, &out)
}

// SetRole changes a user's role.
func (c *Client) SetRole(ctx context.Context, userID int64, role string) error {
	return c.Do(ctx, http.MethodPut, fmt.Sprintf("/api/users/%d/role/%s", userID, role), nil, nil)
}

// Companies lists the companies the caller may see.
func (c *Client) Companies(ctx context.Context) ([]Company, error) {
	var out []Company
	return out, c.Do(ctx, http.MethodGet, "/api/companies", nil, &out)
}

// CreateCompany creates a company (SuperAdmin, or an Admin without one).
func (c *Client) CreateCompany(ctx context.Context, co Company) (*Company, error) {
	var out Company
	return &out, c.Do(ctx, http.MethodPost, "/api/companies", co, &out)
}

// CompanyUsers lists a company's users.
func (c *Client) CompanyUsers(ctx context.Context, companyID int64) ([]User, error) {
	var out []User
	return out, c.Do(ctx, http.MethodGet, fmt.Sprintf("/api/companies/%d/users", companyID), nil, &out)
}
