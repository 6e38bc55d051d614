package accounts

import (
	"time"

	"github.com/fieldhub/fieldhub/kernel/auth"
)

// UserDeleted is published after a user is deleted.
type UserDeleted struct{ UserID, CompanyID int64 }

// Topic names the event.
func (UserDeleted) Topic() string { return "accounts.user_deleted" }

// CompanyCreated is published after a company is created.
type CompanyCreated struct{ CompanyID int64 }

// Topic names the event.
func (CompanyCreated) Topic() string { return "accounts.company_created" }

// CompanyDeleted is published after a company and its data are deleted.
type CompanyDeleted struct{ CompanyID int64 }

// Topic names the event.
func (CompanyDeleted) Topic() string { return "accounts.company_deleted" }

// UserSignedIn is published after a user signed in (Renewed false) or a
// session of theirs bought a new access token (Renewed true), which a client
// in use does at least once per access token lifetime: the portal's sign
// that a user is active. CompanyID is 0 for a user without a company.
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
