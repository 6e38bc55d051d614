package registry

import (
	"context"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/store"
)

// StoreTagImage makes data the picture of t, a tag the caller manages, and
// returns the tag with its new image address. The API and the /tagdetails
// page both use it.
func (g *Registry) StoreTagImage(ctx context.Context, t *nodes.Tag, data []byte) (*nodes.Tag, error) {
	ct, err := web.ImageType(data)
	if err != nil {
		return nil, err
	}
	img := &store.TagImage{TagID: t.ID, ContentType: ct, Data: data, Version: web.ImageVersion(data)}
	if err := store.PutTagImage(ctx, g.db, img); err != nil {
		return nil, err
	}
	g.announce(ctx, t.CompanyID, nodes.AuditTagImage, map[string]any{"name": t.Name, "deveui": t.DevEUI}, nil, nil)
	return g.ScopedTag(ctx, t.ID, true)
}

// RemoveTagImage removes the picture of t, a tag the caller manages.
func (g *Registry) RemoveTagImage(ctx context.Context, t *nodes.Tag) error {
	if err := store.DeleteTagImage(ctx, g.db, t.ID); err != nil {
		return err
	}
	g.announce(ctx, t.CompanyID, nodes.AuditTagImageGone, map[string]any{"name": t.Name, "deveui": t.DevEUI}, nil, nil)
	return nil
}

// TagImage loads the picture of t; a tag without one is not found.
func (g *Registry) TagImage(ctx context.Context, t *nodes.Tag) (*store.TagImage, error) {
	return store.TagImageOf(ctx, g.db, t.ID)
}
