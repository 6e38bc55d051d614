package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/accounts"
)

// UserByID loads a user; an unknown id is an errs.NotFound error.
func UserByID(ctx context.Context, idb bun.IDB, id int64) (*accounts.User, error) {
	u := new(accounts.User)
	if err := idb.NewSelect().Model(u).Where("id = ?", id).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, errNotFound
		}
		return nil, fmt.Errorf("load user %d: %w", id, err)
	}
	return u, nil
}

// UserByEmail loads the user of a (normalised) address; an unknown one is
// an errs.NotFound error.
func UserByEmail(ctx context.Context, idb bun.IDB, email string) (*accounts.User, error) {
	u := new(accounts.User)
	if err := idb.NewSelect().Model(u).Where("email = ?", email).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, errNotFound
		}
		return nil, fmt.Errorf("load user by email: %w", err)
	}
	return u, nil
}

// Users lists users by name, of one company when companyID is not 0.
func Users(ctx context.Context, idb bun.IDB, companyID int64) ([]accounts.User, error) {
	users := []accounts.User{}
	q := idb.NewSelect().Model(&users).Order("last_name", "first_name", "id")
	if companyID != 0 {
		q = q.Where("company_id = ?", companyID)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	return users, nil
}

// SuperAdmins lists the installation's SuperAdmins in the order they came.
func SuperAdmins(ctx context.Context, idb bun.IDB) ([]accounts.User, error) {
	users := []accounts.User{}
	if err := idb.NewSelect().Model(&users).Where("role = ?", auth.SuperAdmin).Order("id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list superadmins: %w", err)
	}
	return users, nil
}

// CountUsers counts every user of the installation.
func CountUsers(ctx context.Context, idb bun.IDB) (int64, error) {
	n, err := idb.NewSelect().Model((*accounts.User)(nil)).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("count users: %w", err)
	}
	return n, nil
}

// UserCounts returns how many users each company has.
func UserCounts(ctx context.Context, idb bun.IDB) (map[int64]int, error) {
	var rows []struct {
		CompanyID int64 `bun:"company_id"`
		N         int   `bun:"n"`
	}
	err := idb.NewSelect().Model((*accounts.User)(nil)).ColumnExpr("company_id").ColumnExpr("count(*) AS n").
		Where("company_id IS NOT NULL").Group("company_id").Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("count users per company: %w", err)
	}
	counts := make(map[int64]int, len(rows))
	for _, r := range rows {
		counts[r.CompanyID] = r.N
	}
	return counts, nil
}

// InsertUser stores a new user and sets its id; an address already taken
// is an errs.Conflict error.
func InsertUser(ctx context.Context, idb bun.IDB, u *accounts.User) error {
	now := time.Now().UTC()
	u.CreatedAt, u.UpdatedAt = now, now
	if _, err := idb.NewInsert().Model(u).Returning("id").Exec(ctx); err != nil {
		if db.IsUniqueViolation(err) {
			return errs.New(errs.Conflict, accounts.MsgEmailTaken)
		}
		return fmt.Errorf("insert user: %w", err)
	}
	return nil
}

// UpdateUser stores the given columns of u, and its new updated_at.
func UpdateUser(ctx context.Context, idb bun.IDB, u *accounts.User, columns ...string) error {
	u.UpdatedAt = time.Now().UTC()
	columns = append(columns, "updated_at")
	if _, err := idb.NewUpdate().Model(u).Column(columns...).WherePK().Exec(ctx); err != nil {
		if db.IsUniqueViolation(err) {
			return errs.New(errs.Conflict, accounts.MsgEmailTaken)
		}
		return fmt.Errorf("update user %d: %w", u.ID, err)
	}
	return nil
}

// SetPassword replaces a user's password hash.
func SetPassword(ctx context.Context, idb bun.IDB, userID int64, hash string, now time.Time) error {
	if _, err := idb.NewUpdate().Model((*accounts.User)(nil)).Set("password_hash = ?", hash).Set("updated_at = ?", now).
		Where("id = ?", userID).Exec(ctx); err != nil {
		return fmt.Errorf("set password: %w", err)
	}
	return nil
}

// JoinCompany makes a user without a company a member of companyID, keeping
// their role; joined is false when they already had a company.
func JoinCompany(ctx context.Context, idb bun.IDB, userID, companyID int64) (joined bool, err error) {
	res, err := idb.NewUpdate().Model((*accounts.User)(nil)).Set("company_id = ?", companyID).
		Where("id = ? AND company_id IS NULL", userID).Exec(ctx)
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// AddMember makes a user without a company a member of companyID with role;
// added is false when they already had a company.
func AddMember(ctx context.Context, idb bun.IDB, userID, companyID int64, role auth.Role) (added bool, err error) {
	res, err := idb.NewUpdate().Model((*accounts.User)(nil)).Set("company_id = ?", companyID).Set("role = ?", role).
		Where("id = ? AND company_id IS NULL", userID).Exec(ctx)
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// DeleteUser removes a user.
func DeleteUser(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*accounts.User)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete user %d: %w", id, err)
	}
	return nil
}
