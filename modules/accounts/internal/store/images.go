package store

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
)

// CompanyImage is a company's logo; Version, a digest of Data, goes into
// the logo's URL.
type CompanyImage struct {
	bun.BaseModel `bun:"table:company_images"`
	CompanyID     int64  `bun:"company_id,pk"`
	ContentType   string `bun:"content_type"`
	Data          []byte `bun:"data"`
	Version       string `bun:"version"`
}

// PutImage stores a company's logo, replacing the one it had.
func PutImage(ctx context.Context, idb bun.IDB, img *CompanyImage) error {
	_, err := idb.NewInsert().Model(img).
		On("CONFLICT (company_id) DO UPDATE").
		Set("content_type = EXCLUDED.content_type, data = EXCLUDED.data, version = EXCLUDED.version").
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("store company image: %w", err)
	}
	return nil
}

// Image loads a company's logo; none is an errs.NotFound error.
func Image(ctx context.Context, idb bun.IDB, companyID int64) (*CompanyImage, error) {
	img := new(CompanyImage)
	if err := idb.NewSelect().Model(img).Where("company_id = ?", companyID).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, errs.New(errs.NotFound, errs.IDNotFound)
		}
		return nil, fmt.Errorf("load company image: %w", err)
	}
	return img, nil
}

// DeleteImage removes a company's logo, if it has one.
func DeleteImage(ctx context.Context, idb bun.IDB, companyID int64) error {
	if _, err := idb.NewDelete().Model((*CompanyImage)(nil)).Where("company_id = ?", companyID).Exec(ctx); err != nil {
		return fmt.Errorf("delete company image: %w", err)
	}
	return nil
}
