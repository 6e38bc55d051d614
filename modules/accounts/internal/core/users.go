package core

import (
	"context"
	"net/http"
	"strings"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// userInput is the body of user create and update calls. Absent fields are
// left as they are on update.
type userInput struct {
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

func str(p *string) string {
	if p == nil {
		return ""
	}
	return strings.TrimSpace(*p)
}

// newUser validates a complete new user, all problems at once.
func newUser(in userInput) (*User, error) {
	u := &User{
		Email:       normaliseEmail(str(in.Email)),
		FirstName:   str(in.FirstName),
		LastName:    str(in.LastName),
		PhoneNumber: normalisePhone(str(in.PhoneNumber)),
		Role:        auth.User,
	}
	v := &errs.Validation{}
	checkLength(v, "firstName", u.FirstName, maxName, true)
	checkLength(v, "lastName", u.LastName, maxName, true)
	checkEmail(v, "email", u.Email, errs.IDRequired)
	checkPhone(v, "phoneNumber", u.PhoneNumber, true)
	password := ""
	if in.Password != nil {
		password = *in.Password
	}
	checkNewPassword(v, password, in.ConfirmPassword)
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

// me answers GET /users: the caller's own account.
func (m *Module) me(w http.ResponseWriter, r *http.Request) error {
	u, err := m.store.userByID(r.Context(), m.db, auth.CallerFrom(r.Context()).UserID)
	if err != nil {
		return err
	}
	return web.OK(w, u)
}

// listUsers answers GET /users/all: every user for a SuperAdmin, the
// caller's company's users for the others.
func (m *Module) listUsers(w http.ResponseWriter, r *http.Request) error {
	c := auth.CallerFrom(r.Context())
	if c.Role != auth.SuperAdmin && c.CompanyID == 0 {
		return web.OK(w, []User{})
	}
	scope := c.CompanyID
	if c.Role == auth.SuperAdmin {
		scope = 0
	}
	users, err := m.store.users(r.Context(), m.db, scope)
	if err != nil {
		return err
	}
	return web.OK(w, users)
}

func (m *Module) getUser(w http.ResponseWriter, r *http.Request) error {
	u, err := m.visibleUser(r.Context(), r)
	if err != nil {
		return err
	}
	return web.OK(w, u)
}

func (m *Module) getUserCompany(w http.ResponseWriter, r *http.Request) error {
	u, err := m.visibleUser(r.Context(), r)
	if err != nil {
		return err
	}
	if u.CompanyID == nil {
		return errs.New(errs.NotFound, msgNoCompany)
	}
	c, err := m.store.companyByID(r.Context(), m.db, *u.CompanyID)
	if err != nil {
		return err
	}
	return web.OK(w, c)
}

// createUser answers POST /users. Without a session it is registration (when
// the installation allows it): a User without a company, to be invited into
// one. An Admin or CompanyAdmin creates a user in their own company, a
// SuperAdmin in the company the body names; they may set a role they could
// grant.
func (m *Module) createUser(w http.ResponseWriter, r *http.Request) error {
	c := auth.CallerFrom(r.Context())
	if err := m.mayCreateUser(c); err != nil {
		return err
	}
	var in userInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	u, err := m.addUser(r.Context(), c, in)
	if err != nil {
		return err
	}
	return web.Created(w, u)
}

// mayCreateUser tells whether c may create users at all.
func (m *Module) mayCreateUser(c auth.Caller) error {
	if c.SignedIn() && !c.Role.In(auth.AdminOrCompanyAdmin) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	if !c.SignedIn() && !m.host.Config.OpenRegistration {
		return errs.New(errs.Forbidden, msgRegistrationClosed)
	}
	return nil
}

// addUser validates and stores a new user on behalf of c (see createUser);
// the API and the /company/usercreate page both use it.
func (m *Module) addUser(ctx context.Context, c auth.Caller, in userInput) (*User, error) {
	if err := m.mayCreateUser(c); err != nil {
		return nil, err
	}
	u, err := newUser(in)
	if err != nil {
		return nil, err
	}
	if c.SignedIn() {
		if err := m.placeNewUser(ctx, c, u, in); err != nil {
			return nil, err
		}
	}
	if err := m.store.insertUser(ctx, m.db, u); err != nil {
		return nil, err
	}
	return u, nil
}

// placeNewUser sets the company and role of a user an administrator creates.
func (m *Module) placeNewUser(ctx context.Context, c auth.Caller, u *User, in userInput) error {
	companyID := c.CompanyID
	if c.Role == auth.SuperAdmin && in.CompanyID != nil {
		companyID = *in.CompanyID
	}
	if companyID == 0 && c.Role != auth.SuperAdmin {
		return errs.New(errs.Invalid, msgNoCompany)
	}
	if companyID != 0 {
		if _, err := m.store.companyByID(ctx, m.db, companyID); err != nil {
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
			v.AddArgs("role", msgRoleInvalid, map[string]any{"role": *in.Role})
			return v.Err()
		}
		if !mayGrant(c, role) {
			return errs.New(errs.Forbidden, msgRoleNotAllowed)
		}
		u.Role = role
	}
	return nil
}

// updateUser answers PUT /users/{id}: profile fields; the password only for
// oneself, with the current password. The role has its own call.
func (m *Module) updateUser(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	u, err := m.visibleUser(ctx, r)
	if err != nil {
		return err
	}
	if !mayEdit(auth.CallerFrom(ctx), u) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	var in userInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	if err := m.editUser(ctx, auth.CallerFrom(ctx), u, in); err != nil {
		return err
	}
	return web.OK(w, u)
}

// editUser applies the given fields of in to u, a user c may see, and
// stores them; the API and the /company/user/{userId} page both use it.
// Changing the password ends the user's other sessions.
func (m *Module) editUser(ctx context.Context, c auth.Caller, u *User, in userInput) error {
	if !mayEdit(c, u) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	v := &errs.Validation{}
	columns := []string{}
	if in.FirstName != nil {
		u.FirstName = str(in.FirstName)
		checkLength(v, "firstName", u.FirstName, maxName, true)
		columns = append(columns, "first_name")
	}
	if in.LastName != nil {
		u.LastName = str(in.LastName)
		checkLength(v, "lastName", u.LastName, maxName, true)
		columns = append(columns, "last_name")
	}
	if in.Email != nil {
		u.Email = normaliseEmail(*in.Email)
		checkEmail(v, "email", u.Email, errs.IDRequired)
		columns = append(columns, "email")
	}
	if in.PhoneNumber != nil {
		u.PhoneNumber = normalisePhone(*in.PhoneNumber)
		checkPhone(v, "phoneNumber", u.PhoneNumber, true)
		columns = append(columns, "phone_number")
	}
	passwordChanged := in.Password != nil && *in.Password != ""
	if passwordChanged {
		if c.UserID != u.ID {
			return errs.New(errs.Forbidden, errs.IDForbidden)
		}
		checkNewPassword(v, *in.Password, in.ConfirmPassword)
		if in.CurrentPassword == nil || !auth.CheckPassword(u.PasswordHash, *in.CurrentPassword) {
			v.Add("currentPassword", msgPasswordWrong)
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
	return m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := m.store.updateUser(ctx, tx, u, columns...); err != nil {
			return err
		}
		if passwordChanged {
			// Other sessions end; the caller's own goes on.
			_, err := tx.NewDelete().Model((*session)(nil)).Where("user_id = ? AND id <> ?", u.ID, c.SessionID).Exec(ctx)
			return err
		}
		return nil
	})
}

// deleteUser answers DELETE /users/{id}. Nobody deletes themselves.
func (m *Module) deleteUser(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	u, err := m.visibleUser(ctx, r)
	if err != nil {
		return err
	}
	if err := m.removeUser(ctx, auth.CallerFrom(ctx), u); err != nil {
		return err
	}
	return web.NoContent(w)
}

// removeUser deletes u, a user c may see, if c may edit them and they are
// not c (SPEC.md section 5).
func (m *Module) removeUser(ctx context.Context, c auth.Caller, u *User) error {
	if u.ID == c.UserID {
		return errs.New(errs.Invalid, msgDeleteSelf)
	}
	if !mayEdit(c, u) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	if err := m.store.deleteUser(ctx, m.db, u.ID); err != nil {
		return err
	}
	m.host.Bus.Publish(ctx, UserDeleted{UserID: u.ID, CompanyID: u.Company()})
	return nil
}

// changeRole answers PUT /users/{id}/role/{role}.
func (m *Module) changeRole(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	u, err := m.visibleUser(ctx, r)
	if err != nil {
		return err
	}
	if err := m.setRole(ctx, auth.CallerFrom(ctx), u, r.PathValue("role")); err != nil {
		return err
	}
	return web.OK(w, u)
}

// setRole gives u, a user c may see, the role named name, and ends u's
// sessions so that the new role applies at once.
func (m *Module) setRole(ctx context.Context, c auth.Caller, u *User, name string) error {
	role, ok := auth.ParseRole(name)
	if !ok {
		return errs.New(errs.Invalid, msgRoleInvalid).With("role", name)
	}
	if u.ID == c.UserID {
		return errs.New(errs.Invalid, msgOwnRole)
	}
	if !mayEdit(c, u) || !mayGrant(c, role) {
		return errs.New(errs.Forbidden, msgRoleNotAllowed)
	}
	u.Role = role
	return m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := m.store.updateUser(ctx, tx, u, "role"); err != nil {
			return err
		}
		return m.store.deleteSessionsOf(ctx, tx, u.ID)
	})
}

// companyAndUserInput is the body of POST /users/create/company.
type companyAndUserInput struct {
	Company companyInput `json:"company"`
	User    userInput    `json:"user"`
}

// createUserAndCompany answers POST /users/create/company (the /register
// page): a new company with its first user as CompanyAdmin.
func (m *Module) createUserAndCompany(w http.ResponseWriter, r *http.Request) error {
	var in companyAndUserInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	company, user, err := m.registerCompany(r.Context(), in)
	if err != nil {
		return err
	}
	return web.Created(w, map[string]any{"company": company, "user": user})
}

// registerCompany validates and stores a company with its first user, a
// CompanyAdmin; the API and the /register page both use it. Field errors are
// named "company.name", "user.email" and so on.
func (m *Module) registerCompany(ctx context.Context, in companyAndUserInput) (*Company, *User, error) {
	company, cerr := newCompany(in.Company)
	user, uerr := newUser(in.User)
	if err := mergeValidation([]string{"company.", "user."}, []error{cerr, uerr}); err != nil {
		return nil, nil, err
	}
	user.Role = auth.CompanyAdmin
	err := m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := m.store.insertCompany(ctx, tx, company); err != nil {
			return err
		}
		user.CompanyID = &company.ID
		return m.store.insertUser(ctx, tx, user)
	})
	if err != nil {
		return nil, nil, err
	}
	m.host.Bus.Publish(ctx, CompanyCreated{CompanyID: company.ID})
	return company, user, nil
}

// mergeValidation joins the validation errors of nested objects, prefixing
// each field with its object's name; any other error is returned as is.
func mergeValidation(prefixes []string, parts []error) error {
	v := &errs.Validation{}
	for i, err := range parts {
		prefix := prefixes[i]
		if err == nil {
			continue
		}
		e, ok := err.(*errs.Error)
		if !ok || e.Kind != errs.Invalid {
			return err
		}
		for _, f := range e.Fields {
			v.AddArgs(prefix+f.Field, f.ID, f.Args)
		}
	}
	return v.Err()
}
