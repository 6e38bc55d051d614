package core

import (
	"context"
	"fmt"
	"net/http"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/web"
)

type tagImage struct {
	bun.BaseModel `bun:"table:tag_images"`
	TagID         int64  `bun:"tag_id,pk"`
	ContentType   string `bun:"content_type"`
	Data          []byte `bun:"data"`
	Version       string `bun:"version"`
}

func (m *Module) putTagImage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := m.pathTag(ctx, r, true)
	if err != nil {
		return err
	}
	data, _, err := web.ReadImage(r)
	if err != nil {
		return err
	}
	if t, err = m.storeTagImage(ctx, t, data); err != nil {
		return err
	}
	present(ctx, t)
	return web.OK(w, t)
}

// storeTagImage makes data the picture of t, a tag the caller manages, and
// returns the tag with its new image address. The API and the /tagdetails
// page both use it.
func (m *Module) storeTagImage(ctx context.Context, t *Tag, data []byte) (*Tag, error) {
	ct, err := web.ImageType(data)
	if err != nil {
		return nil, err
	}
	img := &tagImage{TagID: t.ID, ContentType: ct, Data: data, Version: web.ImageVersion(data)}
	_, err = m.db.NewInsert().Model(img).
		On("CONFLICT (tag_id) DO UPDATE").
		Set("content_type = EXCLUDED.content_type, data = EXCLUDED.data, version = EXCLUDED.version").
		Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("store tag image: %w", err)
	}
	return m.scopedTag(ctx, t.ID, true)
}

// deleteTagImage answers DELETE /tag/{tagId}/image.
func (m *Module) deleteTagImage(w http.ResponseWriter, r *http.Request) error {
	t, err := m.pathTag(r.Context(), r, true)
	if err != nil {
		return err
	}
	if err := m.removeTagImage(r.Context(), t); err != nil {
		return err
	}
	return web.NoContent(w)
}

// removeTagImage removes the picture of t, a tag the caller manages.
func (m *Module) removeTagImage(ctx context.Context, t *Tag) error {
	if _, err := m.db.NewDelete().Model((*tagImage)(nil)).Where("tag_id = ?", t.ID).Exec(ctx); err != nil {
		return fmt.Errorf("delete tag image: %w", err)
	}
	return nil
}

// getTagImage serves the picture. Its URL carries the version, so it may be
// cached.
func (m *Module) getTagImage(w http.ResponseWriter, r *http.Request) error {
	t, err := m.pathTag(r.Context(), r, false)
	if err != nil {
		return err
	}
	img := new(tagImage)
	if err := m.db.NewSelect().Model(img).Where("tag_id = ?", t.ID).Scan(r.Context()); err != nil {
		if db.IsNoRows(err) {
			return errNotFound
		}
		return fmt.Errorf("load tag image: %w", err)
	}
	web.ServeImage(w, r, img.ContentType, img.Version, t.UpdatedAt, img.Data)
	return nil
}
