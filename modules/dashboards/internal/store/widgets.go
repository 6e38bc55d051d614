package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/modules/dashboards"
)

func widgetQuery(idb bun.IDB, dst any) *bun.SelectQuery {
	return idb.NewSelect().Model(dst).
		ColumnExpr("mod.*").
		ColumnExpr("img.version AS image_version").
		Join("LEFT JOIN dashboard_module_images AS img ON img.module_id = mod.id")
}

// Widget loads a module with what the API shows of it.
func Widget(ctx context.Context, idb bun.IDB, id int64) (*dashboards.Widget, error) {
	w := new(dashboards.Widget)
	if err := widgetQuery(idb, w).Where("mod.id = ?", id).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load module %d", id)
	}
	return w, afterLoad(w)
}

// Widgets lists the modules of a dashboard by position.
func Widgets(ctx context.Context, idb bun.IDB, dashboardID int64) ([]*dashboards.Widget, error) {
	list := []*dashboards.Widget{}
	if err := widgetQuery(idb, &list).Where("mod.dashboard_id = ?", dashboardID).OrderExpr("mod.position, mod.id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list modules of dashboard %d: %w", dashboardID, err)
	}
	for _, w := range list {
		if err := afterLoad(w); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// InsertWidget adds w and sets its id.
func InsertWidget(ctx context.Context, idb bun.IDB, w *dashboards.Widget) error {
	if err := beforeSave(w); err != nil {
		return err
	}
	w.CreatedAt, w.UpdatedAt = now(), now()
	if _, err := idb.NewInsert().Model(w).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert module: %w", err)
	}
	return nil
}

// UpdateWidget saves a whole module; its dashboard and id stay.
func UpdateWidget(ctx context.Context, idb bun.IDB, w *dashboards.Widget) error {
	if err := beforeSave(w); err != nil {
		return err
	}
	w.UpdatedAt = now()
	if _, err := idb.NewUpdate().Model(w).ExcludeColumn("id", "dashboard_id", "created_at").WherePK().Exec(ctx); err != nil {
		return fmt.Errorf("update module %d: %w", w.ID, err)
	}
	return nil
}

// ShiftWidgets moves the modules of a dashboard at or after position from
// one place later, to open a gap.
func ShiftWidgets(ctx context.Context, idb bun.IDB, dashboardID int64, from int) error {
	if _, err := idb.NewUpdate().Model((*dashboards.Widget)(nil)).Set("position = position + 1").
		Where("dashboard_id = ? AND position >= ?", dashboardID, from).Exec(ctx); err != nil {
		return fmt.Errorf("shift modules: %w", err)
	}
	return nil
}

// DeleteWidget removes a module; its picture goes with it.
func DeleteWidget(ctx context.Context, idb bun.IDB, id int64) error {
	if _, err := idb.NewDelete().Model((*dashboards.Widget)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete module %d: %w", id, err)
	}
	return nil
}

// afterLoad fills what the API shows from the stored columns.
func afterLoad(w *dashboards.Widget) error {
	w.Attributes = map[string]string{}
	if w.AttributesJSON != "" {
		if err := json.Unmarshal([]byte(w.AttributesJSON), &w.Attributes); err != nil {
			return fmt.Errorf("read attributes of module %d: %w", w.ID, err)
		}
	}
	w.Settings.MapCenter = nil
	if w.Settings.MapLat != nil && w.Settings.MapLng != nil {
		w.Settings.MapCenter = &dashboards.LatLng{Lat: *w.Settings.MapLat, Lng: *w.Settings.MapLng}
	}
	w.Image = nil
	if w.ImageVersion != nil {
		url := fmt.Sprintf("/api/dashboards/modules/%d/image?v=%s", w.ID, *w.ImageVersion)
		w.Image = &url
	}
	return nil
}

// beforeSave turns what the API gave into the stored columns.
func beforeSave(w *dashboards.Widget) error {
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
