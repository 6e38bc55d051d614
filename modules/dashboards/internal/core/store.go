package core

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
)

// store holds the module's queries. Each method takes the bun.IDB to run on,
// so that the caller chooses the transaction.
type store struct{}

// notFoundOr turns "no rows" into the domain's not found and wraps the rest.
func notFoundOr(err error, what string, args ...any) error {
	if db.IsNoRows(err) {
		return errNotFound
	}
	return fmt.Errorf(what+": %w", append(args, err)...)
}

func now() time.Time { return time.Now().UTC() }

// Categories.

func categoryQuery(idb bun.IDB, dst any) *bun.SelectQuery {
	return idb.NewSelect().Model(dst).
		ColumnExpr("cat.*").
		ColumnExpr("parent.guid AS parent_guid").
		Join("LEFT JOIN dashboard_categories AS parent ON parent.id = cat.parent_id")
}

func (store) category(ctx context.Context, idb bun.IDB, id int64) (*Category, error) {
	c := new(Category)
	if err := categoryQuery(idb, c).Where("cat.id = ?", id).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load category %d", id)
	}
	return c, nil
}

func (store) categoryByGUID(ctx context.Context, idb bun.IDB, guid string) (*Category, error) {
	c := new(Category)
	if err := categoryQuery(idb, c).Where("cat.guid = ?", guid).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load category %s", guid)
	}
	return c, nil
}

// categories lists a company's categories by parent and position.
func (store) categories(ctx context.Context, idb bun.IDB, companyID int64) ([]*Category, error) {
	list := []*Category{}
	if err := categoryQuery(idb, &list).Where("cat.company_id = ?", companyID).OrderExpr("cat.position, cat.id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list categories of company %d: %w", companyID, err)
	}
	return list, nil
}

// nextPosition is the position after the last of the rows of table in the
// given company whose column col is parent (NULL when parent is nil).
func nextPosition(ctx context.Context, idb bun.IDB, table, scopeCol string, scope int64, col string, parent *int64) (int, error) {
	q := idb.NewSelect().TableExpr(table).ColumnExpr("COALESCE(MAX(position), -1) + 1").Where("? = ?", bun.Ident(scopeCol), scope)
	if col != "" {
		if parent == nil {
			q = q.Where("? IS NULL", bun.Ident(col))
		} else {
			q = q.Where("? = ?", bun.Ident(col), *parent)
		}
	}
	var n int
	if err := q.Scan(ctx, &n); err != nil {
		return 0, fmt.Errorf("next position in %s: %w", table, err)
	}
	return n, nil
}

func (store) insertCategory(ctx context.Context, idb bun.IDB, c *Category) error {
	c.CreatedAt, c.UpdatedAt = now(), now()
	if _, err := idb.NewInsert().Model(c).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert category: %w", err)
	}
	return nil
}

func (store) updateCategory(ctx context.Context, idb bun.IDB, c *Category) error {
	c.UpdatedAt = now()
	if _, err := idb.NewUpdate().Model(c).Column("title", "icon", "color", "updated_at").WherePK().Exec(ctx); err != nil {
		return fmt.Errorf("update category %d: %w", c.ID, err)
	}
	return nil
}

func (store) moveCategory(ctx context.Context, idb bun.IDB, id int64, parent *int64, index int) error {
	if _, err := idb.NewUpdate().Model((*Category)(nil)).Set("parent_id = ?", parent).Set("position = ?", index).Set("updated_at = ?", now()).
		Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("move category %d: %w", id, err)
	}
	return nil
}

// categoryEmpty reports whether a category holds no dashboards and no
// categories.
func (store) categoryEmpty(ctx context.Context, idb bun.IDB, id int64) (bool, error) {
	sub, err := idb.NewSelect().Model((*Category)(nil)).Where("parent_id = ?", id).Exists(ctx)
	if err != nil {
		return false, fmt.Errorf("look for sub-categories of %d: %w", id, err)
	}
	dash, err := idb.NewSelect().Model((*Dashboard)(nil)).Where("category_id = ?", id).Exists(ctx)
	if err != nil {
		return false, fmt.Errorf("look for dashboards of category %d: %w", id, err)
	}
	return !sub && !dash, nil
}

func (store) deleteCategory(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*Category)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete category %d: %w", id, err)
	}
	return nil
}

// Dashboards.

func (store) dashboard(ctx context.Context, idb bun.IDB, id int64) (*Dashboard, error) {
	d := new(Dashboard)
	if err := idb.NewSelect().Model(d).Where("id = ?", id).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load dashboard %d", id)
	}
	return d, nil
}

// dashboards lists a company's dashboards by category and position.
func (store) dashboards(ctx context.Context, idb bun.IDB, companyID int64) ([]*Dashboard, error) {
	list := []*Dashboard{}
	if err := idb.NewSelect().Model(&list).Where("company_id = ?", companyID).OrderExpr("category_id, position, id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list dashboards of company %d: %w", companyID, err)
	}
	return list, nil
}

func (store) insertDashboard(ctx context.Context, idb bun.IDB, d *Dashboard) error {
	d.CreatedAt, d.UpdatedAt = now(), now()
	if _, err := idb.NewInsert().Model(d).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert dashboard: %w", err)
	}
	return nil
}

func (store) updateDashboard(ctx context.Context, idb bun.IDB, d *Dashboard) error {
	d.UpdatedAt = now()
	if _, err := idb.NewUpdate().Model(d).Column("name", "category_id", "position", "updated_at").WherePK().Exec(ctx); err != nil {
		return fmt.Errorf("update dashboard %d: %w", d.ID, err)
	}
	return nil
}

// shiftDashboards moves the dashboards of a category (nil: the root) at or
// after position from one place later, to open a gap.
func (store) shiftDashboards(ctx context.Context, idb bun.IDB, companyID int64, category *int64, from int) error {
	q := idb.NewUpdate().Model((*Dashboard)(nil)).Set("position = position + 1").Where("company_id = ? AND position >= ?", companyID, from)
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

// deleteDashboard removes a dashboard; its modules, pictures, public links
// and defaults go with it (ON DELETE CASCADE).
func (store) deleteDashboard(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*Dashboard)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete dashboard %d: %w", id, err)
	}
	return nil
}

// Defaults.

// defaultOf returns the default dashboard of a user in a company: their
// own, else the company's; 0 when there is none.
func (store) defaultOf(ctx context.Context, idb bun.IDB, userID, companyID int64) (int64, error) {
	var ids []int64
	err := idb.NewRaw(`SELECT dashboard_id FROM dashboard_user_defaults WHERE user_id = ? AND company_id = ?
		UNION ALL SELECT dashboard_id FROM dashboard_company_defaults WHERE company_id = ?`, userID, companyID, companyID).Scan(ctx, &ids)
	if err != nil && !db.IsNoRows(err) {
		return 0, fmt.Errorf("load default dashboard: %w", err)
	}
	if len(ids) == 0 {
		return 0, nil
	}
	return ids[0], nil
}

func (store) setUserDefault(ctx context.Context, idb bun.IDB, userID, companyID, dashboardID int64) error {
	_, err := idb.NewInsert().Model(&userDefault{UserID: userID, CompanyID: companyID, DashboardID: dashboardID}).
		On("CONFLICT (user_id, company_id) DO UPDATE").Set("dashboard_id = EXCLUDED.dashboard_id").Exec(ctx)
	if err != nil {
		return fmt.Errorf("set user default dashboard: %w", err)
	}
	return nil
}

func (store) setCompanyDefault(ctx context.Context, idb bun.IDB, companyID, dashboardID int64) error {
	_, err := idb.NewInsert().Model(&companyDefault{CompanyID: companyID, DashboardID: dashboardID}).
		On("CONFLICT (company_id) DO UPDATE").Set("dashboard_id = EXCLUDED.dashboard_id").Exec(ctx)
	if err != nil {
		return fmt.Errorf("set company default dashboard: %w", err)
	}
	return nil
}

func (store) clearUserDefault(ctx context.Context, idb bun.IDB, userID, dashboardID int64) error {
	if _, err := idb.NewDelete().Model((*userDefault)(nil)).Where("user_id = ? AND dashboard_id = ?", userID, dashboardID).Exec(ctx); err != nil {
		return fmt.Errorf("clear user default dashboard: %w", err)
	}
	return nil
}

func (store) clearCompanyDefault(ctx context.Context, idb bun.IDB, dashboardID int64) error {
	if _, err := idb.NewDelete().Model((*companyDefault)(nil)).Where("dashboard_id = ?", dashboardID).Exec(ctx); err != nil {
		return fmt.Errorf("clear company default dashboard: %w", err)
	}
	return nil
}

// Modules.

func widgetQuery(idb bun.IDB, dst any) *bun.SelectQuery {
	return idb.NewSelect().Model(dst).
		ColumnExpr("mod.*").
		ColumnExpr("img.version AS image_version").
		Join("LEFT JOIN dashboard_module_images AS img ON img.module_id = mod.id")
}

func (store) widget(ctx context.Context, idb bun.IDB, id int64) (*Widget, error) {
	w := new(Widget)
	if err := widgetQuery(idb, w).Where("mod.id = ?", id).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load module %d", id)
	}
	return w, w.afterLoad()
}

// widgets lists the modules of a dashboard by position.
func (store) widgets(ctx context.Context, idb bun.IDB, dashboardID int64) ([]*Widget, error) {
	list := []*Widget{}
	if err := widgetQuery(idb, &list).Where("mod.dashboard_id = ?", dashboardID).OrderExpr("mod.position, mod.id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list modules of dashboard %d: %w", dashboardID, err)
	}
	for _, w := range list {
		if err := w.afterLoad(); err != nil {
			return nil, err
		}
	}
	return list, nil
}

func (store) insertWidget(ctx context.Context, idb bun.IDB, w *Widget) error {
	if err := w.beforeSave(); err != nil {
		return err
	}
	w.CreatedAt, w.UpdatedAt = now(), now()
	if _, err := idb.NewInsert().Model(w).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert module: %w", err)
	}
	return nil
}

// updateWidget saves a whole module; its dashboard and id stay.
func (store) updateWidget(ctx context.Context, idb bun.IDB, w *Widget) error {
	if err := w.beforeSave(); err != nil {
		return err
	}
	w.UpdatedAt = now()
	if _, err := idb.NewUpdate().Model(w).ExcludeColumn("id", "dashboard_id", "created_at").WherePK().Exec(ctx); err != nil {
		return fmt.Errorf("update module %d: %w", w.ID, err)
	}
	return nil
}

func (store) shiftWidgets(ctx context.Context, idb bun.IDB, dashboardID int64, from int) error {
	if _, err := idb.NewUpdate().Model((*Widget)(nil)).Set("position = position + 1").
		Where("dashboard_id = ? AND position >= ?", dashboardID, from).Exec(ctx); err != nil {
		return fmt.Errorf("shift modules: %w", err)
	}
	return nil
}

func (store) deleteWidget(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*Widget)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete module %d: %w", id, err)
	}
	return nil
}

func (store) widgetImage(ctx context.Context, idb bun.IDB, moduleID int64) (*widgetImage, error) {
	img := new(widgetImage)
	if err := idb.NewSelect().Model(img).Where("module_id = ?", moduleID).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load module image %d", moduleID)
	}
	return img, nil
}

func (store) putWidgetImage(ctx context.Context, idb bun.IDB, img *widgetImage) error {
	_, err := idb.NewInsert().Model(img).
		On("CONFLICT (module_id) DO UPDATE").
		Set("content_type = EXCLUDED.content_type, data = EXCLUDED.data, version = EXCLUDED.version").
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("store module image: %w", err)
	}
	return nil
}

func (store) deleteWidgetImage(ctx context.Context, idb bun.IDB, moduleID int64) error {
	if _, err := idb.NewDelete().Model((*widgetImage)(nil)).Where("module_id = ?", moduleID).Exec(ctx); err != nil {
		return fmt.Errorf("delete module image: %w", err)
	}
	return nil
}

// copyWidgetImage gives module to the picture of module from, if it has one.
func (store) copyWidgetImage(ctx context.Context, idb bun.IDB, from, to int64) error {
	_, err := idb.NewRaw(`INSERT INTO dashboard_module_images (module_id, content_type, data, version)
		SELECT ?, content_type, data, version FROM dashboard_module_images WHERE module_id = ?`, to, from).Exec(ctx)
	if err != nil {
		return fmt.Errorf("copy module image: %w", err)
	}
	return nil
}

// afterLoad fills what the API shows from the stored columns.
func (w *Widget) afterLoad() error {
	w.Attributes = map[string]string{}
	if w.AttributesJSON != "" {
		if err := json.Unmarshal([]byte(w.AttributesJSON), &w.Attributes); err != nil {
			return fmt.Errorf("read attributes of module %d: %w", w.ID, err)
		}
	}
	w.Settings.MapCenter = nil
	if w.Settings.MapLat != nil && w.Settings.MapLng != nil {
		w.Settings.MapCenter = &LatLng{Lat: *w.Settings.MapLat, Lng: *w.Settings.MapLng}
	}
	w.Image = nil
	if w.ImageVersion != nil {
		url := fmt.Sprintf("/api/dashboards/modules/%d/image?v=%s", w.ID, *w.ImageVersion)
		w.Image = &url
	}
	return nil
}

// beforeSave turns what the API gave into the stored columns.
func (w *Widget) beforeSave() error {
	if w.Attributes == nil {
		w.Attributes = map[string]string{}
	}
	raw, err := json.Marshal(w.Attributes)
	if err != nil {
		return fmt.Errorf("encode attributes: %w", err)
	}
	w.AttributesJSON = string(raw)
	w.Settings.MapLat, w.Settings.MapLng = nil, nil
	if c := w.Settings.MapCenter; c != nil {
		w.Settings.MapLat, w.Settings.MapLng = &c.Lat, &c.Lng
	}
	return nil
}

// Public links.

func publicQuery(idb bun.IDB, dst any) *bun.SelectQuery {
	return idb.NewSelect().Model(dst).
		ColumnExpr("pub.*").
		ColumnExpr("dash.name AS dashboard_name").
		Join("JOIN dashboards AS dash ON dash.id = pub.dashboard_id")
}

func (store) publicLink(ctx context.Context, idb bun.IDB, id int64) (*PublicLink, error) {
	p := new(PublicLink)
	if err := publicQuery(idb, p).Where("pub.id = ?", id).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load public link %d", id)
	}
	return p, nil
}

func (store) publicLinkByToken(ctx context.Context, idb bun.IDB, token string) (*PublicLink, error) {
	p := new(PublicLink)
	if err := publicQuery(idb, p).Where("pub.token = ?", token).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load public link")
	}
	return p, nil
}

// publicLinks lists a company's links, newest first.
func (store) publicLinks(ctx context.Context, idb bun.IDB, companyID int64) ([]*PublicLink, error) {
	list := []*PublicLink{}
	if err := publicQuery(idb, &list).Where("pub.company_id = ?", companyID).OrderExpr("pub.created_at DESC, pub.id DESC").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list public links of company %d: %w", companyID, err)
	}
	return list, nil
}

func (store) insertPublicLink(ctx context.Context, idb bun.IDB, p *PublicLink) error {
	p.CreatedAt = now()
	if _, err := idb.NewInsert().Model(p).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert public link: %w", err)
	}
	return nil
}

func (store) deletePublicLink(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*PublicLink)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete public link %d: %w", id, err)
	}
	return nil
}
