// Package seed makes the dashboards other modules describe (the demo's),
// under the rules of the API, once: a dashboard a user has since changed
// or emptied is left as it is.
package seed

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/store"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/validate"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Seeder makes seeded dashboards.
type Seeder struct {
	db       *bun.DB
	accounts dashboards.Accounts
	check    *validate.Checker
}

// New returns a Seeder that writes to db, asks acc whether a company
// exists and checks modules with check.
func New(db *bun.DB, acc dashboards.Accounts, check *validate.Checker) *Seeder {
	return &Seeder{db: db, accounts: acc, check: check}
}

// Seed makes the dashboard s describes unless its category already holds
// a dashboard of that name, and returns the dashboard's id and whether it
// was made.
func (sd *Seeder) Seed(ctx context.Context, s dashboards.SeedDashboard) (int64, bool, error) {
	if _, err := sd.accounts.Company(ctx, s.CompanyID); err != nil {
		return 0, false, err
	}
	var id int64
	var made bool
	err := sd.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		id, made, err = sd.seed(ctx, tx, s, sd.check.Nodes(ctx, s.CompanyID))
		return err
	})
	return id, made, err
}

// SeedNode is Seed in idb, the caller's transaction, for a dashboard whose
// modules name node deveui, which the caller has just made in idb for the
// dashboard's company (so it is not visible outside idb yet).
func (sd *Seeder) SeedNode(ctx context.Context, idb bun.IDB, s dashboards.SeedDashboard, deveui string) (int64, bool, error) {
	eui := nodes.NormaliseEUI(deveui)
	isNode := func(d string) (string, bool, error) {
		d = nodes.NormaliseEUI(d)
		return d, d == eui, nil
	}
	return sd.seed(ctx, idb, s, isNode)
}

// seed makes the dashboard of s in idb, its modules' nodes checked by
// isNode.
func (sd *Seeder) seed(ctx context.Context, idb bun.IDB, s dashboards.SeedDashboard, isNode validate.NodeCheck) (int64, bool, error) {
	d := &dashboards.Dashboard{CompanyID: s.CompanyID, Name: s.Name}
	widgets, err := sd.widgets(ctx, s, d, isNode)
	if err != nil {
		return 0, false, err
	}
	cat, err := rootCategory(ctx, idb, s.CompanyID, s.Category)
	if err != nil {
		return 0, false, err
	}
	old, found, err := store.DashboardNamed(ctx, idb, cat.ID, s.Name)
	if err != nil {
		return 0, false, err
	}
	if found {
		return old.ID, false, nil
	}
	d.CategoryID = &cat.ID
	if err := validate.Category(ctx, idb, d.CompanyID, d.CategoryID); err != nil {
		return 0, false, err
	}
	if err := store.AppendDashboard(ctx, idb, d); err != nil {
		return 0, false, err
	}
	for i, w := range widgets {
		w.DashboardID, w.Index = d.ID, i
		if err := store.InsertWidget(ctx, idb, w); err != nil {
			return 0, false, err
		}
	}
	return d.ID, true, nil
}

// widgets checks the modules of s as the API checks those it is given.
func (sd *Seeder) widgets(ctx context.Context, s dashboards.SeedDashboard, d *dashboards.Dashboard, isNode validate.NodeCheck) ([]*dashboards.Widget, error) {
	widgets := make([]*dashboards.Widget, len(s.Modules))
	v := errs.Validation{}
	for i, sm := range s.Modules {
		attrs := map[string]json.RawMessage{}
		for k, val := range sm.Attributes {
			raw, _ := json.Marshal(val)
			attrs[k] = raw
		}
		t := sm.Type
		offset := sm.TimeOffset
		in := &validate.WidgetInput{Title: sm.Title, Type: &t, Tag: sm.Tag, SizeSmall: sm.SizeSmall, SizeMid: sm.SizeMid,
			Min: sm.Min, Max: sm.Max, Attributes: attrs,
			Settings: &validate.SettingsInput{MapZoom: sm.MapZoom, MapCenter: sm.MapCenter, TimeOffset: &offset}}
		w, err := sd.check.Widget(ctx, in, d, nil, isNode, &v, fmt.Sprintf("modules[%d].", i))
		if err != nil {
			return nil, err
		}
		widgets[i] = w
	}
	if err := v.Err(); err != nil {
		return nil, fmt.Errorf("seed dashboard %q: %w", s.Name, err)
	}
	return widgets, nil
}

// rootCategory finds the root category of a title, or makes it last among
// the root categories.
func rootCategory(ctx context.Context, tx bun.IDB, companyID int64, title string) (*dashboards.Category, error) {
	cat, found, err := store.RootCategory(ctx, tx, companyID, title)
	if err != nil || found {
		return cat, err
	}
	cat = &dashboards.Category{CompanyID: companyID, GUID: uuid.NewString(), Title: title, Icon: dashboards.DefaultIcon, Color: dashboards.DefaultColor}
	if cat.Index, err = store.NextPosition(ctx, tx, "dashboard_categories", "company_id", companyID, "parent_id", nil); err != nil {
		return nil, err
	}
	if err := store.InsertCategory(ctx, tx, cat); err != nil {
		return nil, err
	}
	return cat, nil
}
