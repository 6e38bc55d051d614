package core

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// keyInput is the body of POST /tag/key/add and /tag/key/update: tagId and
// key name the key; the others describe it and, on update, are left as they
// are when absent.
type keyInput struct {
	TagID    int64         `json:"tagId"`
	Key      string        `json:"key"`
	Label    *string       `json:"label"`
	Unit     *string       `json:"unit"`
	Decimals optional[int] `json:"decimals"`
	Default  *bool         `json:"defaultKey"`
}

// TagData is a key of a tag with its latest value (SPEC.md section 3 "Tag
// data").
type TagData struct {
	Key
	Value any        `json:"value"`
	Time  *time.Time `json:"time"`
}

func badKey() error {
	v := errs.Validation{}
	v.Add("key", msgKeyFormat)
	return v.Err()
}

// applyKey validates the described fields of in onto k.
func applyKey(k *Key, in keyInput, all bool) error {
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
			v.AddArgs("decimals", msgKeyDecimals, map[string]any{"max": maxDecimals})
		}
	}
	if all || in.Default != nil {
		k.Default = in.Default != nil && *in.Default
	}
	return v.Err()
}

// bodyTag reads a key body and loads its tag, which the caller must manage.
func (m *Module) bodyTag(r *http.Request) (keyInput, *Tag, error) {
	var in keyInput
	if err := web.Decode(r, &in); err != nil {
		return in, nil, err
	}
	if in.TagID <= 0 {
		v := errs.Validation{}
		v.Add("tagId", errs.IDRequired)
		return in, nil, v.Err()
	}
	t, err := m.scopedTag(r.Context(), in.TagID, true)
	if err != nil {
		return in, nil, err
	}
	in.Key = strings.TrimSpace(in.Key)
	if !validKey(in.Key) {
		return in, nil, badKey()
	}
	return in, t, nil
}

// saveKey stores k, inserting it when new, and makes it the tag's only
// default when it is one.
func (m *Module) saveKey(ctx context.Context, k *Key, insert bool) error {
	return m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if insert {
			err = m.store.insertKey(ctx, tx, k)
		} else {
			err = m.store.updateKey(ctx, tx, k)
		}
		if err != nil || !k.Default {
			return err
		}
		return m.store.clearDefault(ctx, tx, k.TagID, k.ID)
	})
}

// addKey answers POST /tag/key/add.
func (m *Module) addKey(w http.ResponseWriter, r *http.Request) error {
	in, t, err := m.bodyTag(r)
	if err != nil {
		return err
	}
	k := &Key{TagID: t.ID, Key: in.Key}
	if err := applyKey(k, in, true); err != nil {
		return err
	}
	if err := m.saveKey(r.Context(), k, true); err != nil {
		return err
	}
	k.TagName, k.TagDevEUI = t.Name, t.DevEUI
	return web.Created(w, k)
}

// updateKey answers POST /tag/key/update.
func (m *Module) updateKey(w http.ResponseWriter, r *http.Request) error {
	in, t, err := m.bodyTag(r)
	if err != nil {
		return err
	}
	k, err := m.editKey(r.Context(), t, in)
	if err != nil {
		return err
	}
	return web.OK(w, k)
}

// editKey changes the described fields of the key in.Key of t, a tag the
// caller manages. The API and the /tagdetails page both use it.
func (m *Module) editKey(ctx context.Context, t *Tag, in keyInput) (*Key, error) {
	k, err := m.store.key(ctx, m.db, t.ID, in.Key)
	if err != nil {
		return nil, err
	}
	if err := applyKey(k, in, false); err != nil {
		return nil, err
	}
	if err := m.saveKey(ctx, k, false); err != nil {
		return nil, err
	}
	return k, nil
}

// pathKey loads the key of the path's tagId and key.
func (m *Module) pathKey(r *http.Request, manage bool) (*Key, error) {
	t, err := m.pathTag(r.Context(), r, manage)
	if err != nil {
		return nil, err
	}
	name := r.PathValue("key")
	if !validKey(name) {
		return nil, badKey()
	}
	return m.store.key(r.Context(), m.db, t.ID, name)
}

// deleteKey answers DELETE /tag/key/delete/{tagId}/{key}.
func (m *Module) deleteKey(w http.ResponseWriter, r *http.Request) error {
	k, err := m.pathKey(r, true)
	if err != nil {
		return err
	}
	if err := m.store.deleteKey(r.Context(), m.db, k.ID); err != nil {
		return err
	}
	return web.NoContent(w)
}

// keyLabel answers GET /tag/key/label/{tagId}/{key} with the key, whose
// label is what the caller looks for.
func (m *Module) keyLabel(w http.ResponseWriter, r *http.Request) error {
	k, err := m.pathKey(r, false)
	if err != nil {
		return err
	}
	return web.OK(w, k)
}

// setDefaultKey answers POST /tag/{tagId}/default/{key}: the key becomes the
// one the tag's latestValue shows.
func (m *Module) setDefaultKey(w http.ResponseWriter, r *http.Request) error {
	k, err := m.pathKey(r, true)
	if err != nil {
		return err
	}
	if err := m.makeDefault(r.Context(), k); err != nil {
		return err
	}
	return web.OK(w, k)
}

// makeDefault makes k the only default key of its tag, the one whose value
// the tag's latestValue shows.
func (m *Module) makeDefault(ctx context.Context, k *Key) error {
	k.Default = true
	return m.saveKey(ctx, k, false)
}

// tagKeys answers GET /tag/{tagId}/keys.
func (m *Module) tagKeys(w http.ResponseWriter, r *http.Request) error {
	t, err := m.pathTag(r.Context(), r, false)
	if err != nil {
		return err
	}
	keys, err := m.store.keysOfTags(r.Context(), m.db, []int64{t.ID})
	if err != nil {
		return err
	}
	return web.OK(w, keys)
}

// companyKeys answers GET /tag/tagdata/keys/{companyId}: the keys of every
// tag of the company.
func (m *Module) companyKeys(w http.ResponseWriter, r *http.Request) error {
	id, err := m.visibleCompanyID(r.Context(), r)
	if err != nil {
		return err
	}
	keys, err := m.store.keysOfCompany(r.Context(), m.db, id)
	if err != nil {
		return err
	}
	return web.OK(w, keys)
}

// tagMeta answers GET /tag/meta/{tagId}/tagdata: the tag's keys with their
// latest values.
func (m *Module) tagMeta(w http.ResponseWriter, r *http.Request) error {
	t, err := m.pathTag(r.Context(), r, false)
	if err != nil {
		return err
	}
	out, err := m.tagData(r.Context(), t)
	if err != nil {
		return err
	}
	return web.OK(w, out)
}

// tagData lists the keys of t with their latest values, as the node last
// reported them. The API and the /tagdetails page both use it.
func (m *Module) tagData(ctx context.Context, t *Tag) ([]TagData, error) {
	keys, err := m.store.keysOfTags(ctx, m.db, []int64{t.ID})
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

// EnsureKeys registers the keys of a tag that are not known yet, as the
// ingest does for the keys of each decoded uplink. Malformed names are
// skipped.
func (m *Module) EnsureKeys(ctx context.Context, tagID int64, keys []string) error {
	for _, name := range keys {
		if !validKey(name) {
			continue
		}
		k := &Key{TagID: tagID, Key: name, CreatedAt: now()}
		_, err := m.db.NewInsert().Model(k).
			On("CONFLICT (tag_id, tag_key) DO NOTHING").Returning("NULL").Exec(ctx)
		if err != nil && !db.IsUniqueViolation(err) {
			return fmt.Errorf("register key %q of tag %d: %w", name, tagID, err)
		}
	}
	return nil
}
