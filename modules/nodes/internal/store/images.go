package store

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// TagImage is the picture of a tag. Its version, part of the picture's
// address, changes with the picture.
type TagImage struct {
	bun.BaseModel `bun:"table:tag_images"`
	TagID         int64  `bun:"tag_id,pk"`
	ContentType   string `bun:"content_type"`
	Data          []byte `bun:"data"`
	Version       string `bun:"version"`
}

// PutTagImage stores the picture of a tag, replacing the one it had.
func PutTagImage(ctx context.Context, idb bun.IDB, img *TagImage) error {
	_, err := idb.NewInsert().Model(img).
		On("CONFLICT (tag_id) DO UPDATE").
		Set("content_type = EXCLUDED.content_type, data = EXCLUDED.data, version = EXCLUDED.version").
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("store tag image: %w", err)
	}
	return nil
}

// DeleteTagImage removes the picture of a tag.
func DeleteTagImage(ctx context.Context, idb bun.IDB, tagID int64) error {
	if _, err := idb.NewDelete().Model((*TagImage)(nil)).Where("tag_id = ?", tagID).Exec(ctx); err != nil {
		return fmt.Errorf("delete tag image: %w", err)
	}
	return nil
}

// TagImageOf loads the picture of a tag; a tag without one is not found.
func TagImageOf(ctx context.Context, idb bun.IDB, tagID int64) (*TagImage, error) {
	img := new(TagImage)
	if err := idb.NewSelect().Model(img).Where("tag_id = ?", tagID).Scan(ctx); err != nil {
		return nil, notFoundOr(err, "load tag image")
	}
	return img, nil
}
