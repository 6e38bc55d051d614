package store

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/modules/dashboards"
)

// Dashboard loads a dashboard.
func Dashboard(ctx context.Context, idb bun.IDB, id int64) (*dashboards.Dashboard, error) {
	d := new(dashboards.Dashboard)
	if err := idb.NewSelect().Model(d).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load dashboard %d", id)
	}
	return d, nil
}

// Dashboards lists a company's dashboards by category and position.
func Dashboards(ctx context.Context, idb bun.IDB, companyID int64) ([]*dashboards.Dashboard, error) {
	list := []*dashboards.Dashboard{}
	if err := idb.NewSelect().Model(&list).Where("company_id = ?", companyID).OrderExpr("category_id, position, id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list dashboards of company %d: %w", companyID, err)
	}
	return list, nil
}

// DashboardNamed finds the first dashboard of a category with a name;
// found is false when there is none.
func DashboardNamed(ctx context.Context, idb bun.IDB, categoryID int64, name string) (d *dashboards.Dashboard, found bool, err error) {
	d = new(dashboards.Dashboard)
	err = idb.NewSelect().Model(d).Where("category_id = ? AND name = ?", categoryID, name).OrderExpr("id").Limit(1).Scan(ctx)
	switch {
	case err == nil:
		return d, true, nil
	case db.IsNoRows(err):
		return nil, false, nil
	}
	return nil, false, fmt.Errorf("find dashboard %q: %w", name, err)
}

// InsertDashboard adds d and sets its id.
func InsertDashboard(ctx context.Context, idb bun.IDB, d *dashboards.Dashboard) error {
	d.CreatedAt, d.UpdatedAt = now(), now()
	if _, err := idb.NewInsert().Model(d).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert dashboard: %w", err)
	}
	return nil
}

// AppendDashboard adds d last in its category and sets its id and index.
func AppendDashboard(ctx context.Context, idb bun.IDB, d *dashboards.Dashboard) error {
	var err error
	if d.Index, err = NextPosition(ctx, idb, "dashboards", "company_id", d.CompanyID, "category_id", d.CategoryID); err != nil {
		return err
	}
	return InsertDashboard(ctx, idb, d)
}

// UpdateDashboard saves a dashboard's name, category and position.
func UpdateDashboard(ctx context.Context, idb bun.IDB, d *dashboards.Dashboard) error {
	d.UpdatedAt = now()
	if _, err := idb.NewUpdate().Model(d).Column("name", "category_id", "position", "updated_at").WherePK().Exec(ctx); err != nil {
		return fmt.Errorf("update dashboard %d: %w", d.ID, err)
	}
	return nil
}

// MoveDashboard gives a dashboard a category (nil: the root) and a
// position.
func MoveDashboard(ctx context.Context, idb bun.IDB, id int64, category *int64, index int) error {
	d := &dashboards.Dashboard{ID: id}
	if _, err := idb.NewUpdate().Model(d).Set("category_id = ?", category).Set("position = ?", index).
		Set("updated_at = ?", now()).WherePK().Exec(ctx); err != nil {
		return fmt.Errorf("move dashboard %d: %w", id, err)
	}
	return nil
}

// ShiftDashboards moves the dashboards of a category (nil: the root) at or
// after position from one place later, to open a gap.
func ShiftDashboards(ctx context.Context, idb bun.IDB, companyID int64, category *int64, from int) error {
	q := idb.NewUpdate().Model((*dashboards.Dashboard)(nil)).Set("position = position + 1").Where("company_id = ? AND position >= ?", companyID, from)
	if category == nil {
		q = q.Where("category_id IS NULL")
	} else {
		q = q.Where("category_id = ?", *category)
	}
	if _, err := q.Exec(ctx); err != nil {
		return fmt.Errorf("shift dashboards: %w", err)
	}
	return nil
}

// DeleteDashboard removes a dashboard; its modules, pictures, public links
// and defaults go with it (ON DELETE CASCADE).
func DeleteDashboard(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*dashboards.Dashboard)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete dashboard %d: %w", id, err)
	}
	return nil
}
