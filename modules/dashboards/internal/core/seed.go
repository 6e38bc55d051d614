package core

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
)

// SeedDashboard describes a dashboard that Seed makes when it is missing:
// a category of a company (found by title, made when missing) holding a
// dashboard (found by name in it) with these modules.
type SeedDashboard struct {
	CompanyID int64
	Category  string
	Name      string
	Modules   []SeedModule
}

// SeedModule is one module of a seeded dashboard; the API's rules apply
// (a Tag must be a node of the company, attributes known).
type SeedModule struct {
	Title      string
	Type       int
	Tag        string
	SizeSmall  string
	SizeMid    string
	Min, Max   *float64
	Attributes map[string]string
	MapZoom    *float64
	MapCenter  *LatLng
	TimeOffset int64
}

// Seed makes the dashboard s describes unless its category already holds
// a dashboard of that name, and returns the dashboard's id and whether it
// was made. A dashboard a user has changed or emptied is left as it is.
func (m *Module) Seed(ctx context.Context, s SeedDashboard) (int64, bool, error) {
	if _, err := m.deps.Accounts.Company(ctx, s.CompanyID); err != nil {
		return 0, false, err
	}
	d := &Dashboard{CompanyID: s.CompanyID, Name: s.Name}
	isNode := m.nodeChecker(ctx, s.CompanyID)
	widgets := make([]*Widget, len(s.Modules))
	v := errs.Validation{}
	for i, sm := range s.Modules {
		attrs := map[string]json.RawMessage{}
		for k, val := range sm.Attributes {
			raw, _ := json.Marshal(val)
			attrs[k] = raw
		}
		t := sm.Type
		offset := sm.TimeOffset
		in := &widgetInput{Title: sm.Title, Type: &t, Tag: sm.Tag, SizeSmall: sm.SizeSmall, SizeMid: sm.SizeMid,
			Min: sm.Min, Max: sm.Max, Attributes: attrs,
			Settings: &settingsInput{MapZoom: sm.MapZoom, MapCenter: sm.MapCenter, TimeOffset: &offset}}
		w, err := m.toWidget(ctx, in, d, nil, isNode, &v, fmt.Sprintf("modules[%d].", i))
		if err != nil {
			return 0, false, err
		}
		widgets[i] = w
	}
	if err := v.Err(); err != nil {
		return 0, false, fmt.Errorf("seed dashboard %q: %w", s.Name, err)
	}
	made := false
	err := m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var cat Category
		err := tx.NewSelect().Model(&cat).Where("company_id = ? AND title = ? AND parent_id IS NULL", s.CompanyID, s.Category).
			OrderExpr("id").Limit(1).Scan(ctx)
		switch {
		case err == nil:
		case errs.Is(notFoundOr(err, "find category"), errs.NotFound):
			cat = Category{CompanyID: s.CompanyID, GUID: uuid.NewString(), Title: s.Category, Icon: DefaultIcon, Color: DefaultColor}
			if cat.Index, err = nextPosition(ctx, tx, "dashboard_categories", "company_id", s.CompanyID, "parent_id", nil); err != nil {
				return err
			}
			if err := m.store.insertCategory(ctx, tx, &cat); err != nil {
				return err
			}
		default:
			return fmt.Errorf("find category %q: %w", s.Category, err)
		}
		exists, err := tx.NewSelect().Model((*Dashboard)(nil)).Where("category_id = ? AND name = ?", cat.ID, s.Name).Exists(ctx)
		if err != nil {
			return fmt.Errorf("find dashboard %q: %w", s.Name, err)
		}
		if exists {
			return tx.NewSelect().Model(d).Where("category_id = ? AND name = ?", cat.ID, s.Name).OrderExpr("id").Limit(1).Scan(ctx)
		}
		d.CategoryID = &cat.ID
		if err := m.insertDashboard(ctx, tx, d); err != nil {
			return err
		}
		for i, w := range widgets {
			w.DashboardID, w.Index = d.ID, i
			if err := m.store.insertWidget(ctx, tx, w); err != nil {
				return err
			}
		}
		made = true
		return nil
	})
	if err != nil {
		return 0, false, err
	}
	return d.ID, made, nil
}
