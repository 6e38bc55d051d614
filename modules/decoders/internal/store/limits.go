package store

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/modules/decoders"
)

// Limits reads a company's own limits; found is false when it has none.
func Limits(ctx context.Context, idb bun.IDB, company int64) (row decoders.LimitsRow, found bool, err error) {
	err = idb.NewSelect().Model(&row).Where("company_id = ?", company).Scan(ctx)
	if db.IsNoRows(err) {
		return row, false, nil
	}
	if err != nil {
		return row, false, fmt.Errorf("load decoder limits of company %d: %w", company, err)
	}
	return row, true, nil
}

// SaveLimits stores a company's own limits, in place of those it had.
func SaveLimits(ctx context.Context, idb bun.IDB, row *decoders.LimitsRow) error {
	_, err := idb.NewInsert().Model(row).On("CONFLICT (company_id) DO UPDATE").
		Set("time_ms = EXCLUDED.time_ms, memory_mib = EXCLUDED.memory_mib, updated_at = EXCLUDED.updated_at").Exec(ctx)
	if err != nil {
		return fmt.Errorf("store decoder limits of company %d: %w", row.CompanyID, err)
	}
	return nil
}

// DeleteLimits gives a company the installation's limits again.
func DeleteLimits(ctx context.Context, idb bun.IDB, company int64) error {
	if _, err := idb.NewDelete().Model((*decoders.LimitsRow)(nil)).Where("company_id = ?", company).Exec(ctx); err != nil {
		return fmt.Errorf("delete decoder limits of company %d: %w", company, err)
	}
	return nil
}
