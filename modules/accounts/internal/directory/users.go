package directory

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/audit"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/store"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/validate"
)

// UserInput is the body of user create and update calls, and what the user
// forms post. Absent fields are left as they are on update.
type UserInput struct {
	FirstName       *string `json:"firstName"`
	LastName        *string `json:"lastName"`
	PhoneNumber     *string `json:"phoneNumber"`
	Email           *string `json:"email"`
	Password        *string `json:"password"`
	ConfirmPassword *string `json:"confirmPassword"`
	CurrentPassword *string `json:"currentPassword"`
	Role            *string `json:"role"`
	CompanyID       *int64  `json:"companyId"`
}

// str is a given text field, trimmed; an absent one is empty.
func str(p *string) string {
	if p == nil {
		return ""
	}
	return strings.TrimSpace(*p)
}

// newUser validates a complete new user, all problems at once.
func newUser(in UserInput) (*accounts.User, error) {
	u := &accounts.User{
		Email:       validate.NormaliseEmail(str(in.Email)),
		FirstName:   str(in.FirstName),
		LastName:    str(in.LastName),
		PhoneNumber: validate.NormalisePhone(str(in.PhoneNumber)),
		Role:        auth.User,
	}
	v := &errs.Validation{}
	validate.Length(v, "firstName", u.FirstName, validate.MaxName, true)
	validate.Length(v, "lastName", u.LastName, validate.MaxName, true)
	validate.Email(v, "email", u.Email, errs.IDRequired)
	validate.Phone(v, "phoneNumber", u.PhoneNumber, true)
	password := ""
	if in.Password != nil {
		password = *in.Password
	}
	validate.NewPassword(v, password, in.ConfirmPassword)
	if err := v.Err(); err != nil {
		return nil, err
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return nil, err
	}
	u.PasswordHash = hash
	return u, nil
}

// MayCreateUser tells whether c may create users at all: an Admin or
// CompanyAdmin (SuperAdmin included), or a visitor registering when the
// installation allows it.
func (d *Directory) MayCreateUser(c auth.Caller) error {
	if c.SignedIn() && !c.Role.In(auth.AdminOrCompanyAdmin) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	if !c.SignedIn() && !d.openRegistration {
		return errs.New(errs.Forbidden, accounts.MsgRegistrationClosed)
	}
	return nil
}

// AddUser validates and stores a new user on behalf of c, an administrator:
// an Admin or CompanyAdmin creates a user in their own company, a
// SuperAdmin in the company in names; they may set a role they could
// grant, and are told when the address is taken. The API and the
// /company/usercreate page both use it; a visitor registers with RegisterUser.
func (d *Directory) AddUser(ctx context.Context, c auth.Caller, in UserInput) (*accounts.User, error) {
	if err := d.MayCreateUser(c); err != nil {
		return nil, err
	}
	if !c.SignedIn() {
		return nil, errs.New(errs.Forbidden, errs.IDForbidden)
	}
	u, err := newUser(in)
	if err != nil {
		return nil, err
	}
	if err := d.placeNewUser(ctx, c, u, in); err != nil {
		return nil, err
	}
	if err := store.InsertUser(ctx, d.db, u); err != nil {
		return nil, err
	}
	d.announce(ctx, u.Company(), accounts.AuditUserCreated, map[string]any{"target": u.Email, "role": string(u.Role)}, nil, nil)
	return u, nil
}

// placeNewUser sets the company and role of a user an administrator creates.
func (d *Directory) placeNewUser(ctx context.Context, c auth.Caller, u *accounts.User, in UserInput) error {
	companyID := c.CompanyID
	if c.Role == auth.SuperAdmin && in.CompanyID != nil {
		companyID = *in.CompanyID
	}
	if companyID == 0 && c.Role != auth.SuperAdmin {
		return errs.New(errs.Invalid, accounts.MsgNoCompany)
	}
	if companyID != 0 {
		if _, err := store.CompanyByID(ctx, d.db, companyID); err != nil {
			if errs.Is(err, errs.NotFound) {
				v := &errs.Validation{}
				v.Add("companyId", errs.IDNotFound)
				return v.Err()
			}
			return err
		}
		u.CompanyID = &companyID
	}
	if in.Role != nil {
		role, ok := auth.ParseRole(*in.Role)
		if !ok {
			v := &errs.Validation{}
			v.AddArgs("role", accounts.MsgRoleInvalid, map[string]any{"role": *in.Role})
			return v.Err()
		}
		if !MayGrant(c, role) {
			return errs.New(errs.Forbidden, accounts.MsgRoleNotAllowed)
		}
		u.Role = role
	}
	return nil
}

// EditUser applies the given fields of in to u, a user c may see, and
// stores them; the API and the /company/user/{userId} page both use it.
// The password changes only for oneself, with the current password, and
// the change ends the user's other sessions. The role has SetRole.
func (d *Directory) EditUser(ctx context.Context, c auth.Caller, u *accounts.User, in UserInput) error {
	if !MayEdit(c, u) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	v := &errs.Validation{}
	columns := []string{}
	was := userFields(u)
	if in.FirstName != nil {
		u.FirstName = str(in.FirstName)
		validate.Length(v, "firstName", u.FirstName, validate.MaxName, true)
		columns = append(columns, "first_name")
	}
	if in.LastName != nil {
		u.LastName = str(in.LastName)
		validate.Length(v, "lastName", u.LastName, validate.MaxName, true)
		columns = append(columns, "last_name")
	}
	if in.Email != nil {
		u.Email = validate.NormaliseEmail(*in.Email)
		validate.Email(v, "email", u.Email, errs.IDRequired)
		columns = append(columns, "email")
	}
	if in.PhoneNumber != nil {
		u.PhoneNumber = validate.NormalisePhone(*in.PhoneNumber)
		validate.Phone(v, "phoneNumber", u.PhoneNumber, true)
		columns = append(columns, "phone_number")
	}
	passwordChanged := in.Password != nil && *in.Password != ""
	if passwordChanged {
		if c.UserID != u.ID {
			return errs.New(errs.Forbidden, errs.IDForbidden)
		}
		validate.NewPassword(v, *in.Password, in.ConfirmPassword)
		if in.CurrentPassword == nil || !auth.CheckPassword(u.PasswordHash, *in.CurrentPassword) {
			v.Add("currentPassword", accounts.MsgPasswordWrong)
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	if passwordChanged {
		hash, err := auth.HashPassword(*in.Password)
		if err != nil {
			return err
		}
		u.PasswordHash = hash
		columns = append(columns, "password_hash")
	}
	var ended []string
	err := d.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := store.UpdateUser(ctx, tx, u, columns...); err != nil {
			return err
		}
		if passwordChanged {
			// Other sessions end; the caller's own goes on.
			var err error
			ended, err = store.EndOtherSessions(ctx, tx, u.ID, c.SessionID)
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}
	d.signin.SessionsEnded(ended)
	before, after := audit.Diff(was, userFields(u))
	if !audit.Empty(after) {
		d.announce(ctx, u.Company(), accounts.AuditUserEdited, map[string]any{"target": u.Email}, before, after)
	}
	if passwordChanged {
		d.announce(ctx, u.Company(), accounts.AuditUserPassword, map[string]any{"target": u.Email}, nil, nil)
	}
	return nil
}

// RemoveUser deletes u, a user c may see, if c may edit them and they are
// not c: nobody deletes themselves.
func (d *Directory) RemoveUser(ctx context.Context, c auth.Caller, u *accounts.User) error {
	if u.ID == c.UserID {
		return errs.New(errs.Invalid, accounts.MsgDeleteSelf)
	}
	if !MayEdit(c, u) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	var ended []string
	err := d.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if ended, err = store.EndSessionsOf(ctx, tx, u.ID); err != nil {
			return err
		}
		return store.DeleteUser(ctx, tx, u.ID)
	})
	if err != nil {
		return err
	}
	d.signin.SessionsEnded(ended)
	d.host.Bus.Publish(ctx, accounts.UserDeleted{UserID: u.ID, CompanyID: u.Company()})
	d.announce(ctx, u.Company(), accounts.AuditUserDeleted, map[string]any{"target": u.Email}, nil, nil)
	return nil
}

// SetRole gives u, a user c may see, the role named name, and ends u's
// sessions so that the new role applies at once. Nobody changes their own
// role; who may change whose, to what, MayChangeRoleOf and MayGrant say.
func (d *Directory) SetRole(ctx context.Context, c auth.Caller, u *accounts.User, name string) error {
	role, ok := auth.ParseRole(name)
	if !ok {
		return errs.New(errs.Invalid, accounts.MsgRoleInvalid).With("role", name)
	}
	if u.ID == c.UserID {
		return errs.New(errs.Invalid, accounts.MsgOwnRole)
	}
	if !MayChangeRoleOf(c, u) || !MayGrant(c, role) {
		return errs.New(errs.Forbidden, accounts.MsgRoleNotAllowed)
	}
	was := u.Role
	u.Role = role
	var ended []string
	err := d.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := store.UpdateUser(ctx, tx, u, "role"); err != nil {
			return err
		}
		var err error
		ended, err = store.EndSessionsOf(ctx, tx, u.ID)
		return err
	})
	if err != nil {
		return err
	}
	d.signin.SessionsEnded(ended)
	if was != role {
		d.announce(ctx, u.Company(), accounts.AuditUserRole, map[string]any{"target": u.Email, "from": string(was), "to": string(role)},
			map[string]any{"role": string(was)}, map[string]any{"role": string(role)})
	}
	return nil
}
