package registry

import (
	"context"
	"fmt"
	"strings"

	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/store"
)

// The lookups of tags that other modules make (nodes.Tags), whoever asks.

// Tag returns a tag by id: with its keys in one query, and its alarm state
// in a second.
func (g *Registry) Tag(ctx context.Context, id int64) (*nodes.Tag, error) {
	found, err := store.TagWithKeysByID(ctx, g.db, id)
	if err != nil {
		return nil, err
	}
	tags, err := g.withKeys(ctx, []store.TagWithKeys{*found}, true)
	if err != nil {
		return nil, err
	}
	return tags[0], nil
}

// TagByDevEUI returns the tag of a DevEUI in any accepted spelling.
func (g *Registry) TagByDevEUI(ctx context.Context, deveui string) (*nodes.Tag, error) {
	deveui = nodes.NormaliseEUI(deveui)
	if !nodes.ValidDevEUI(deveui) {
		return nil, badDevEUI()
	}
	t, err := store.TagByDevEUI(ctx, g.db, deveui)
	if err != nil {
		return nil, err
	}
	return t, g.fill(ctx, g.db, t)
}

// TagsByDevEUI returns the tags of the DevEUIs, keyed by DevEUI as tags
// store it (upper case), each as TagByDevEUI returns it, in one query. A
// DevEUI without a tag, or one that is not a DevEUI, is absent.
func (g *Registry) TagsByDevEUI(ctx context.Context, deveuis []string) (map[string]*nodes.Tag, error) {
	out := make(map[string]*nodes.Tag, len(deveuis))
	want := make([]string, 0, len(deveuis))
	seen := make(map[string]bool, len(deveuis))
	for _, d := range deveuis {
		if d = nodes.NormaliseEUI(d); nodes.ValidDevEUI(d) && !seen[d] {
			seen[d] = true
			want = append(want, d)
		}
	}
	if len(want) == 0 {
		return out, nil
	}
	found, err := store.TagsWithKeys(ctx, g.db, want)
	if err != nil {
		return nil, err
	}
	tags, err := g.withKeys(ctx, found, true)
	if err != nil {
		return nil, err
	}
	for _, t := range tags {
		out[t.DevEUI] = t
	}
	return out, nil
}

// withKeys is fill of tags read with their key names: no query for the
// keys, and one for the alarm states only when alarms is set.
func (g *Registry) withKeys(ctx context.Context, found []store.TagWithKeys, alarms bool) ([]*nodes.Tag, error) {
	tags := make([]*nodes.Tag, len(found))
	names := make(map[int64][]string, len(found))
	defaults := make(map[int64]string, len(found))
	for i := range found {
		r := &found[i]
		tags[i] = &r.Tag
		if r.KeyNames.String != "" {
			names[r.ID] = strings.Split(r.KeyNames.String, " ")
		}
		if r.DefaultKey.Valid {
			defaults[r.ID] = r.DefaultKey.String
		}
	}
	if err := g.derive(tags, names, defaults); err != nil {
		return nil, err
	}
	if !alarms {
		return tags, nil
	}
	if err := g.markAlarms(ctx, tags); err != nil {
		return nil, err
	}
	return tags, nil
}

// TagKeys lists the registered data keys of a tag, for other modules (the
// dashboards label their series with them).
func (g *Registry) TagKeys(ctx context.Context, tagID int64) ([]nodes.Key, error) {
	keys, err := store.KeysOfTags(ctx, g.db, []int64{tagID})
	if err != nil {
		return nil, fmt.Errorf("keys of tag %d: %w", tagID, err)
	}
	return keys, nil
}

// CompanyTags lists the tags of a company; a company id that is not one has
// none.
func (g *Registry) CompanyTags(ctx context.Context, companyID int64) ([]*nodes.Tag, error) {
	if companyID <= 0 {
		return []*nodes.Tag{}, nil
	}
	tags, err := store.Tags(ctx, g.db, companyID)
	if err != nil {
		return nil, err
	}
	return tags, g.fill(ctx, g.db, tags...)
}

// DecoderNodes lists the tags of a company whose decoder is key, by name.
func (g *Registry) DecoderNodes(ctx context.Context, companyID int64, key string) ([]decoders.NodeRef, error) {
	return store.DecoderNodes(ctx, g.db, companyID, key)
}
