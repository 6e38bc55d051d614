package store

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/modules/dashboards"
)

func categoryQuery(idb bun.IDB, dst any) *bun.SelectQuery {
	return idb.NewSelect().Model(dst).
		ColumnExpr("cat.*").
		ColumnExpr("parent.guid AS parent_guid").
		Join("LEFT JOIN dashboard_categories AS parent ON parent.id = cat.parent_id")
}

// Category loads a category with its parent's GUID.
func Category(ctx context.Context, idb bun.IDB, id int64) (*dashboards.Category, error) {
	c := new(dashboards.Category)
	if err := categoryQuery(idb, c).Where("cat.id = ?", id).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load category %d", id)
	}
	return c, nil
}

// CategoryByGUID loads the category of a GUID.
func CategoryByGUID(ctx context.Context, idb bun.IDB, guid string) (*dashboards.Category, error) {
	c := new(dashboards.Category)
	if err := categoryQuery(idb, c).Where("cat.guid = ?", guid).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load category %s", guid)
	}
	return c, nil
}

// Categories lists a company's categories by parent and position.
func Categories(ctx context.Context, idb bun.IDB, companyID int64) ([]*dashboards.Category, error) {
	list := []*dashboards.Category{}
	if err := categoryQuery(idb, &list).Where("cat.company_id = ?", companyID).OrderExpr("cat.position, cat.id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list categories of company %d: %w", companyID, err)
	}
	return list, nil
}

// RootCategory finds the first root category of a company with a title;
// found is false when there is none.
func RootCategory(ctx context.Context, idb bun.IDB, companyID int64, title string) (c *dashboards.Category, found bool, err error) {
	c = new(dashboards.Category)
	err = idb.NewSelect().Model(c).Where("company_id = ? AND title = ? AND parent_id IS NULL", companyID, title).
		OrderExpr("id").Limit(1).Scan(ctx)
	switch {
	case err == nil:
		return c, true, nil
	case db.IsNoRows(err):
		return nil, false, nil
	}
	return nil, false, fmt.Errorf("find category %q: %w", title, err)
}

// InsertCategory adds c and sets its id.
func InsertCategory(ctx context.Context, idb bun.IDB, c *dashboards.Category) error {
	c.CreatedAt, c.UpdatedAt = now(), now()
	if _, err := idb.NewInsert().Model(c).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert category: %w", err)
	}
	return nil
}

// UpdateCategory saves a category's title, icon and colour.
func UpdateCategory(ctx context.Context, idb bun.IDB, c *dashboards.Category) error {
	c.UpdatedAt = now()
	if _, err := idb.NewUpdate().Model(c).Column("title", "icon", "color", "updated_at").WherePK().Exec(ctx); err != nil {
		return fmt.Errorf("update category %d: %w", c.ID, err)
	}
	return nil
}

// MoveCategory gives a category a parent (nil: the root) and a position.
func MoveCategory(ctx context.Context, idb bun.IDB, id int64, parent *int64, index int) error {
	if _, err := idb.NewUpdate().Model((*dashboards.Category)(nil)).Set("parent_id = ?", parent).Set("position = ?", index).Set("updated_at = ?", now()).
		Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("move category %d: %w", id, err)
	}
	return nil
}

// CategoryEmpty reports whether a category holds no dashboards and no
// categories.
func CategoryEmpty(ctx context.Context, idb bun.IDB, id int64) (bool, error) {
	sub, err := idb.NewSelect().Model((*dashboards.Category)(nil)).Where("parent_id = ?", id).Exists(ctx)
	if err != nil {
		return false, fmt.Errorf("look for sub-categories of %d: %w", id, err)
	}
	dash, err := idb.NewSelect().Model((*dashboards.Dashboard)(nil)).Where("category_id = ?", id).Exists(ctx)
	if err != nil {
		return false, fmt.Errorf("look for dashboards of category %d: %w", id, err)
	}
	return !sub && !dash, nil
}

// DeleteCategory removes a category.
func DeleteCategory(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*dashboards.Category)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete category %d: %w", id, err)
	}
	return nil
}
