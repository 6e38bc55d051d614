package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/accounts"
)

// companyQuery selects companies with the version of their logo, from which
// fillImage makes its URL.
func companyQuery(idb bun.IDB, dst any) *bun.SelectQuery {
	return idb.NewSelect().Model(dst).
		ColumnExpr("company.*").
		ColumnExpr("ci.version AS image_version").
		Join("LEFT JOIN company_images AS ci ON ci.company_id = company.id")
}

// fillImage sets the URL of the company's logo when it has one; the URL
// carries the version, so that it may be cached.
func fillImage(c *accounts.Company) {
	if c.ImageVersion != nil {
		url := fmt.Sprintf("/api/companies/%d/image?v=%s", c.ID, *c.ImageVersion)
		c.Image = &url
	}
}

// CompanyByID loads a company with its logo's URL; an unknown id is an
// errs.NotFound error.
func CompanyByID(ctx context.Context, idb bun.IDB, id int64) (*accounts.Company, error) {
	c := new(accounts.Company)
	if err := companyQuery(idb, c).Where("company.id = ?", id).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, errs.New(errs.NotFound, errs.IDNotFound)
		}
		return nil, fmt.Errorf("load company %d: %w", id, err)
	}
	fillImage(c)
	return c, nil
}

// Companies lists every company by name, or just one when only is not 0.
func Companies(ctx context.Context, idb bun.IDB, only int64) ([]accounts.Company, error) {
	list := []accounts.Company{}
	q := companyQuery(idb, &list).Order("company.name", "company.id")
	if only != 0 {
		q = q.Where("company.id = ?", only)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("list companies: %w", err)
	}
	for i := range list {
		fillImage(&list[i])
	}
	return list, nil
}

// CompanyIDByName finds a company by its exact name; found is false when
// there is none.
func CompanyIDByName(ctx context.Context, idb bun.IDB, name string) (id int64, found bool, err error) {
	var c accounts.Company
	err = idb.NewSelect().Model(&c).Column("id").Where("name = ?", name).Limit(1).Scan(ctx)
	if err == nil {
		return c.ID, true, nil
	}
	if db.IsNoRows(err) {
		return 0, false, nil
	}
	return 0, false, err
}

// CountCompanies counts the installation's companies.
func CountCompanies(ctx context.Context, idb bun.IDB) (int, error) {
	n, err := idb.NewSelect().Model((*accounts.Company)(nil)).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("count companies: %w", err)
	}
	return int(n), nil
}

// InsertCompany stores a new company and sets its id.
func InsertCompany(ctx context.Context, idb bun.IDB, c *accounts.Company) error {
	now := time.Now().UTC()
	c.CreatedAt, c.UpdatedAt = now, now
	if _, err := idb.NewInsert().Model(c).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert company: %w", err)
	}
	return nil
}

// UpdateCompany stores every field of c but its id and creation time.
func UpdateCompany(ctx context.Context, idb bun.IDB, c *accounts.Company) error {
	c.UpdatedAt = time.Now().UTC()
	if _, err := idb.NewUpdate().Model(c).ExcludeColumn("id", "created_at").WherePK().Exec(ctx); err != nil {
		return fmt.Errorf("update company %d: %w", c.ID, err)
	}
	return nil
}

// DeleteCompany removes a company. Its members stay as users without a
// company; their company role falls back to User and their sessions end
// (returned as EndSessionsOf returns them).
func DeleteCompany(ctx context.Context, idb bun.IDB, id int64) (ended []string, err error) {
	if _, err := idb.NewUpdate().Model((*accounts.User)(nil)).Set("role = ?", "User").
		Where("company_id = ? AND role = ?", id, "CompanyAdmin").Exec(ctx); err != nil {
		return nil, fmt.Errorf("demote members of company %d: %w", id, err)
	}
	if ended, err = EndSessionsOfCompany(ctx, idb, id); err != nil {
		return nil, err
	}
	if _, err := idb.NewUpdate().Model((*accounts.User)(nil)).Set("company_id = NULL").Where("company_id = ?", id).Exec(ctx); err != nil {
		return nil, fmt.Errorf("detach members of company %d: %w", id, err)
	}
	if _, err := idb.NewDelete().Model((*accounts.Company)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return nil, fmt.Errorf("delete company %d: %w", id, err)
	}
	return ended, nil
}
