package store

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
)

// userDefault is a user's own default dashboard in a company.
type userDefault struct {
	bun.BaseModel `bun:"table:dashboard_user_defaults"`
	UserID        int64 `bun:"user_id,pk"`
	CompanyID     int64 `bun:"company_id,pk"`
	DashboardID   int64 `bun:"dashboard_id"`
}

// companyDefault is the default dashboard of a company's users who chose
// none.
type companyDefault struct {
	bun.BaseModel `bun:"table:dashboard_company_defaults"`
	CompanyID     int64 `bun:"company_id,pk"`
	DashboardID   int64 `bun:"dashboard_id"`
}

// DefaultOf returns the default dashboard of a user in a company: their
// own, else the company's; 0 when there is none.
func DefaultOf(ctx context.Context, idb bun.IDB, userID, companyID int64) (int64, error) {
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

// SetUserDefault makes a dashboard a user's default in its company.
func SetUserDefault(ctx context.Context, idb bun.IDB, userID, companyID, dashboardID int64) error {
	_, err := idb.NewInsert().Model(&userDefault{UserID: userID, CompanyID: companyID, DashboardID: dashboardID}).
		On("CONFLICT (user_id, company_id) DO UPDATE").Set("dashboard_id = EXCLUDED.dashboard_id").Exec(ctx)
	if err != nil {
		return fmt.Errorf("set user default dashboard: %w", err)
	}
	return nil
}

// SetCompanyDefault makes a dashboard its company's default.
func SetCompanyDefault(ctx context.Context, idb bun.IDB, companyID, dashboardID int64) error {
	_, err := idb.NewInsert().Model(&companyDefault{CompanyID: companyID, DashboardID: dashboardID}).
		On("CONFLICT (company_id) DO UPDATE").Set("dashboard_id = EXCLUDED.dashboard_id").Exec(ctx)
	if err != nil {
		return fmt.Errorf("set company default dashboard: %w", err)
	}
	return nil
}

// ClearUserDefault stops a dashboard being a user's default.
func ClearUserDefault(ctx context.Context, idb bun.IDB, userID, dashboardID int64) error {
	if _, err := idb.NewDelete().Model((*userDefault)(nil)).Where("user_id = ? AND dashboard_id = ?", userID, dashboardID).Exec(ctx); err != nil {
		return fmt.Errorf("clear user default dashboard: %w", err)
	}
	return nil
}

// ClearCompanyDefault stops a dashboard being its company's default.
func ClearCompanyDefault(ctx context.Context, idb bun.IDB, dashboardID int64) error {
	if _, err := idb.NewDelete().Model((*companyDefault)(nil)).Where("dashboard_id = ?", dashboardID).Exec(ctx); err != nil {
		return fmt.Errorf("clear company default dashboard: %w", err)
	}
	return nil
}
