package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
)

// Logo is the installation's logo; Version, a digest of Data, goes into
// its URL.
type Logo struct {
	bun.BaseModel `bun:"table:brand_logo"`
	ID            int64     `bun:"id,pk"` // always 1
	ContentType   string    `bun:"content_type"`
	Data          []byte    `bun:"data"`
	Version       string    `bun:"version"`
	UpdatedAt     time.Time `bun:"updated_at"`
}

// PutLogo stores the logo, replacing the one there was.
func PutLogo(ctx context.Context, idb bun.IDB, l *Logo) error {
	l.ID, l.UpdatedAt = 1, time.Now().UTC()
	_, err := idb.NewInsert().Model(l).
		On("CONFLICT (id) DO UPDATE").
		Set("content_type = EXCLUDED.content_type, data = EXCLUDED.data, version = EXCLUDED.version, updated_at = EXCLUDED.updated_at").
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("store logo: %w", err)
	}
	return nil
}

// LoadLogo loads the logo; none is an errs.NotFound error.
func LoadLogo(ctx context.Context, idb bun.IDB) (*Logo, error) {
	l := new(Logo)
	if err := idb.NewSelect().Model(l).Where("id = 1").Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, errs.New(errs.NotFound, errs.IDNotFound)
		}
		return nil, fmt.Errorf("load logo: %w", err)
	}
	return l, nil
}

// LogoVersion is the logo's version, "" when there is none; the frame asks
// it on every page, so it reads no image.
func LogoVersion(ctx context.Context, idb bun.IDB) (string, error) {
	var version string
	err := idb.NewSelect().Model((*Logo)(nil)).Column("version").Where("id = 1").Scan(ctx, &version)
	if db.IsNoRows(err) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("load logo version: %w", err)
	}
	return version, nil
}

// DeleteLogo removes the logo, if there is one.
func DeleteLogo(ctx context.Context, idb bun.IDB) error {
	if _, err := idb.NewDelete().Model((*Logo)(nil)).Where("id = 1").Exec(ctx); err != nil {
		return fmt.Errorf("delete logo: %w", err)
	}
	return nil
}
