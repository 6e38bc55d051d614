package store

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// Image is the picture of an image or image-map module. Version, a hash of
// the data, goes into the picture's address so that it may be cached.
type Image struct {
	bun.BaseModel `bun:"table:dashboard_module_images"`
	ModuleID      int64  `bun:"module_id,pk"`
	ContentType   string `bun:"content_type"`
	Data          []byte `bun:"data"`
	Version       string `bun:"version"`
}

// WidgetImage loads the picture of a module.
func WidgetImage(ctx context.Context, idb bun.IDB, moduleID int64) (*Image, error) {
	img := new(Image)
	if err := idb.NewSelect().Model(img).Where("module_id = ?", moduleID).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load module image %d", moduleID)
	}
	return img, nil
}

// PutWidgetImage stores a module's picture in place of the one it had.
func PutWidgetImage(ctx context.Context, idb bun.IDB, img *Image) error {
	_, err := idb.NewInsert().Model(img).
		On("CONFLICT (module_id) DO UPDATE").
		Set("content_type = EXCLUDED.content_type, data = EXCLUDED.data, version = EXCLUDED.version").
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("store module image: %w", err)
	}
	return nil
}

// DeleteWidgetImage removes a module's picture.
func DeleteWidgetImage(ctx context.Context, idb bun.IDB, moduleID int64) error {
	if _, err := idb.NewDelete().Model((*Image)(nil)).Where("module_id = ?", moduleID).Exec(ctx); err != nil {
		return fmt.Errorf("delete module image: %w", err)
	}
	return nil
}

// CopyWidgetImage gives module to the picture of module from, if it has
// one.
func CopyWidgetImage(ctx context.Context, idb bun.IDB, from, to int64) error {
	_, err := idb.NewRaw(`INSERT INTO dashboard_module_images (module_id, content_type, data, version)
		SELECT ?, content_type, data, version FROM dashboard_module_images WHERE module_id = ?`, to, from).Exec(ctx)
	if err != nil {
		return fmt.Errorf("copy module image: %w", err)
	}
	return nil
}
