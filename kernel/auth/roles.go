// Package auth holds who the caller is: the roles a user can have, the
// caller carried in each request's context, the signed access tokens that
// carry it, and password hashing.
package auth

import (
	"context"
	"slices"
	"time"
)

// Role is a user's role. Its string form is the name used in the API
// (PUT /users/{id}/role/{role}) and in tokens.
type Role string

// The roles: SuperAdmin, Admin, CompanyAdmin and User are the roles a user
// account can hold. Guest is a visitor with no session;
// PublicDashboard is the pseudo-user of an anonymous dashboard link.
const (
	SuperAdmin      Role = "SuperAdmin"
	Admin           Role = "Admin"
	CompanyAdmin    Role = "CompanyAdmin"
	User            Role = "User"
	Guest           Role = "Guest"
	PublicDashboard Role = "PublicDashboard"
)

// Role groups: the access lists that routes and side menu entries name.
var (
	// Open lets anyone in, signed in or not.
	Open = []Role{}
	// CompanyOrUser is every signed-in staff role.
	CompanyOrUser = []Role{User, CompanyAdmin, Admin, SuperAdmin}
	// AdminOrCompanyAdmin is every role that manages a company.
	AdminOrCompanyAdmin = []Role{CompanyAdmin, Admin, SuperAdmin}
	// AdminOnly is the Admin role alone.
	AdminOnly = []Role{Admin}
	// AdminOrSuperAdmin is Admin and SuperAdmin.
	AdminOrSuperAdmin = []Role{Admin, SuperAdmin}
	// SuperAdminOnly is the SuperAdmin role alone.
	SuperAdminOnly = []Role{SuperAdmin}
)

// AssignableRoles are the roles a user account can hold.
var AssignableRoles = []Role{SuperAdmin, Admin, CompanyAdmin, User}

// ParseRole returns the assignable role with that name.
func ParseRole(s string) (Role, bool) {
	for _, r := range AssignableRoles {
		if string(r) == s {
			return r, true
		}
	}
	return "", false
}

// rank orders the assignable roles by power.
func (r Role) rank() int {
	switch r {
	case SuperAdmin:
		return 4
	case Admin:
		return 3
	case CompanyAdmin:
		return 2
	case User:
		return 1
	}
	return 0
}

// AtLeast reports whether r is as powerful as other.
func (r Role) AtLeast(other Role) bool { return r.rank() >= other.rank() }

// In reports whether r is one of roles.
func (r Role) In(roles []Role) bool { return slices.Contains(roles, r) }

// Caller is the authenticated party of a request.
type Caller struct {
	UserID    int64
	Role      Role
	CompanyID int64 // 0 when the user belongs to no company
	SessionID string
	// DashboardToken is set for the PublicDashboard pseudo-user: the one
	// public link it may read.
	DashboardToken string
	// Expires is when the access token that authenticated the caller
	// lapses (zero when unknown), for connections that outlive a request.
	Expires time.Time
}

// SignedIn reports whether the caller is a staff user with a session.
func (c Caller) SignedIn() bool { return c.UserID != 0 }

// CanSeeCompany reports whether the caller may read data of company id:
// SuperAdmin sees all companies, everyone else only their own.
func (c Caller) CanSeeCompany(id int64) bool {
	return c.Role == SuperAdmin || (c.CompanyID != 0 && c.CompanyID == id)
}

// CanManageCompany reports whether the caller may change company id.
func (c Caller) CanManageCompany(id int64) bool {
	return c.Role == SuperAdmin || (c.Role.In(AdminOrCompanyAdmin) && c.CompanyID != 0 && c.CompanyID == id)
}

type callerKey struct{}

// WithCaller returns a context that carries c.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the caller in ctx; a context without one is a Guest.
func CallerFrom(ctx context.Context) Caller {
	if c, ok := ctx.Value(callerKey{}).(Caller); ok {
		return c
	}
	return Caller{Role: Guest}
}
