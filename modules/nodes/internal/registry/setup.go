package registry

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/store"
)

// UseProfiles makes p the device profiles that nodes are created with. It
// is called while the application is wired, before any request.
func (g *Registry) UseProfiles(p nodes.Profiles) { g.profiles = p }

// Profiles are the registered device profiles, nil when there are none.
func (g *Registry) Profiles() nodes.Profiles { return g.profiles }

// SetUpNode gives a node what a device profile describes; see
// nodes.Setups.
func (g *Registry) SetUpNode(ctx context.Context, idb bun.IDB, tagID int64, s nodes.NodeSetup) (*nodes.Tag, error) {
	t, err := store.TagByID(ctx, idb, tagID)
	if err != nil {
		return nil, err
	}
	if s.Decoder = strings.TrimSpace(s.Decoder); s.Decoder != "" && s.Decoder != t.Decoder {
		t.Decoder = s.Decoder
		v := errs.Validation{}
		if err := g.checkDecoder(ctx, &v, t); err != nil {
			return nil, err
		}
		if err := v.Err(); err != nil {
			return nil, err
		}
		if err := store.UpdateTag(ctx, idb, t); err != nil {
			return nil, err
		}
	}
	if err := store.SetUplinkInterval(ctx, idb, tagID, s.UplinkInterval); err != nil {
		return nil, err
	}
	for _, ks := range s.Keys {
		if err := g.setUpKey(ctx, idb, tagID, ks, ks.Key == s.DefaultKey); err != nil {
			return nil, err
		}
	}
	if s.DefaultKey != "" && !hasKey(s.Keys, s.DefaultKey) {
		if err := g.setUpKey(ctx, idb, tagID, nodes.KeySetup{Key: s.DefaultKey}, true); err != nil {
			return nil, err
		}
	}
	t.AppKey, t.SealedAppKey = "", ""
	return t, nil
}

// setUpKey registers a key of a tag unless it has it, and labels it; a
// default key becomes the tag's only one. An empty label or unit leaves
// what the key has.
func (g *Registry) setUpKey(ctx context.Context, idb bun.IDB, tagID int64, ks nodes.KeySetup, isDefault bool) error {
	if err := store.EnsureKey(ctx, idb, tagID, ks.Key); err != nil {
		return err
	}
	k, err := store.Key(ctx, idb, tagID, ks.Key)
	if err != nil {
		return err
	}
	if ks.Label != "" {
		k.Label = ks.Label
	}
	if ks.Unit != "" {
		k.Unit = ks.Unit
	}
	k.Default = k.Default || isDefault
	if err := store.UpdateKey(ctx, idb, k); err != nil {
		return err
	}
	if !isDefault {
		return nil
	}
	return store.ClearDefault(ctx, idb, tagID, k.ID)
}

func hasKey(keys []nodes.KeySetup, key string) bool {
	for _, k := range keys {
		if k.Key == key {
			return true
		}
	}
	return false
}
