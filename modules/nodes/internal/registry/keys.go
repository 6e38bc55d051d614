package registry

import (
	"context"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/store"
)

// KeyInput is the body of POST /tag/key/add and /tag/key/update: tagId and
// key name the key; the others describe it and, on update, are left as they
// are when absent.
type KeyInput struct {
	TagID    int64         `json:"tagId"`
	Key      string        `json:"key"`
	Label    *string       `json:"label"`
	Unit     *string       `json:"unit"`
	Decimals Optional[int] `json:"decimals"`
	Default  *bool         `json:"defaultKey"`
}

// TagData is a key of a tag with its latest value, as the node last
// reported it.
type TagData struct {
	nodes.Key
	Value any        `json:"value"`
	Time  *time.Time `json:"time"`
}

// applyKey validates the described fields of in onto k.
func applyKey(k *nodes.Key, in KeyInput, all bool) error {
	v := &errs.Validation{}
	if all || in.Label != nil {
		k.Label = strings.TrimSpace(str(in.Label))
		checkText(v, "label", k.Label, maxText, false)
	}
	if all || in.Unit != nil {
		k.Unit = strings.TrimSpace(str(in.Unit))
		checkText(v, "unit", k.Unit, maxUnit, false)
	}
	if all || in.Decimals.Set {
		k.Decimals = in.Decimals.Value
		if k.Decimals != nil && (*k.Decimals < 0 || *k.Decimals > maxDecimals) {
			v.AddArgs("decimals", nodes.IDKeyDecimals, map[string]any{"max": maxDecimals})
		}
	}
	if all || in.Default != nil {
		k.Default = in.Default != nil && *in.Default
	}
	return v.Err()
}

// ApplyKeyLabel validates label onto k as the key forms do: the bulk
// import's label columns.
func ApplyKeyLabel(k *nodes.Key, label string) error {
	return applyKey(k, KeyInput{Label: &label}, false)
}

// saveKey stores k, inserting it when new, and makes it the tag's only
// default when it is one.
func (g *Registry) saveKey(ctx context.Context, k *nodes.Key, insert bool) error {
	return g.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if insert {
			err = store.InsertKey(ctx, tx, k)
		} else {
			err = store.UpdateKey(ctx, tx, k)
		}
		if err != nil || !k.Default {
			return err
		}
		return store.ClearDefault(ctx, tx, k.TagID, k.ID)
	})
}

// AddKey registers the key in.Key of t, a tag the caller manages, described
// by in.
func (g *Registry) AddKey(ctx context.Context, t *nodes.Tag, in KeyInput) (*nodes.Key, error) {
	k := &nodes.Key{TagID: t.ID, Key: in.Key}
	if err := applyKey(k, in, true); err != nil {
		return nil, err
	}
	if err := g.saveKey(ctx, k, true); err != nil {
		return nil, err
	}
	k.TagName, k.TagDevEUI = t.Name, t.DevEUI
	g.announce(ctx, t.CompanyID, nodes.AuditKeyAdded, map[string]any{"name": t.Name, "deveui": t.DevEUI, "key": k.Key}, nil, keyFields(k))
	return k, nil
}

// EditKey changes the described fields of the key in.Key of t, a tag the
// caller manages. The API and the /tagdetails page both use it.
func (g *Registry) EditKey(ctx context.Context, t *nodes.Tag, in KeyInput) (*nodes.Key, error) {
	k, err := store.Key(ctx, g.db, t.ID, in.Key)
	if err != nil {
		return nil, err
	}
	was := keyFields(k)
	if err := applyKey(k, in, false); err != nil {
		return nil, err
	}
	if err := g.saveKey(ctx, k, false); err != nil {
		return nil, err
	}
	g.announceDiff(ctx, t.CompanyID, nodes.AuditKeyEdited, map[string]any{"name": t.Name, "deveui": t.DevEUI, "key": k.Key}, was, keyFields(k))
	return k, nil
}

// MakeDefault makes k the only default key of its tag, the one whose value
// the tag's latestValue shows.
func (g *Registry) MakeDefault(ctx context.Context, k *nodes.Key) error {
	was := keyFields(k)
	k.Default = true
	if err := g.saveKey(ctx, k, false); err != nil {
		return err
	}
	g.announceKey(ctx, k, nodes.AuditKeyEdited, was, keyFields(k))
	return nil
}

// Key loads the key name of t; an unknown one is not found.
func (g *Registry) Key(ctx context.Context, t *nodes.Tag, name string) (*nodes.Key, error) {
	return store.Key(ctx, g.db, t.ID, name)
}

// RemoveKey deletes k.
func (g *Registry) RemoveKey(ctx context.Context, k *nodes.Key) error {
	if err := store.DeleteKey(ctx, g.db, k.ID); err != nil {
		return err
	}
	g.announceKey(ctx, k, nodes.AuditKeyRemoved, nil, nil)
	return nil
}

// announceKey puts a change to k on the audit trail, in its node's
// company, naming the node.
func (g *Registry) announceKey(ctx context.Context, k *nodes.Key, id string, was, now map[string]any) {
	t, err := store.TagByID(ctx, g.db, k.TagID)
	if err != nil {
		return
	}
	args := map[string]any{"name": t.Name, "deveui": t.DevEUI, "key": k.Key}
	if was == nil {
		g.announce(ctx, t.CompanyID, id, args, nil, nil)
		return
	}
	g.announceDiff(ctx, t.CompanyID, id, args, was, now)
}

// CompanyKeys lists the keys of every tag of a company.
func (g *Registry) CompanyKeys(ctx context.Context, companyID int64) ([]nodes.Key, error) {
	return store.KeysOfCompany(ctx, g.db, companyID)
}

// TagData lists the keys of t with their latest values, as the node last
// reported them. The API and the /tagdetails page both use it.
func (g *Registry) TagData(ctx context.Context, t *nodes.Tag) ([]TagData, error) {
	keys, err := store.KeysOfTags(ctx, g.db, []int64{t.ID})
	if err != nil {
		return nil, err
	}
	out := make([]TagData, len(keys))
	for i, k := range keys {
		out[i] = TagData{Key: k, Value: t.Data[k.Key]}
		if _, ok := t.Data[k.Key]; ok {
			out[i].Time = t.LatestTime
		}
	}
	return out, nil
}
