package registry

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/store"
)

// fill opens a tag's AppKey and derives the fields that are not stored: the
// key names, the latest data and value, whether data is arriving, the image
// address, the name with the DevEUI and the VDD.
func (g *Registry) fill(ctx context.Context, idb bun.IDB, tags ...*nodes.Tag) error {
	ids := make([]int64, len(tags))
	for i, t := range tags {
		ids[i] = t.ID
	}
	keys, err := store.KeysOfTags(ctx, idb, ids)
	if err != nil {
		return err
	}
	names := map[int64][]string{}
	defaults := map[int64]string{}
	for _, k := range keys {
		names[k.TagID] = append(names[k.TagID], k.Key)
		if k.Default {
			defaults[k.TagID] = k.Key
		}
	}
	if err := g.derive(tags, names, defaults); err != nil {
		return err
	}
	return g.markAlarms(ctx, tags)
}

// derive is fill once the tags' key names (in store.KeysOfTags' order) and
// default keys are known.
func (g *Registry) derive(tags []*nodes.Tag, names map[int64][]string, defaults map[int64]string) error {
	var err error
	for _, t := range tags {
		t.Keys = names[t.ID]
		if t.Keys == nil {
			t.Keys = []string{}
		}
		if t.SealedAppKey != "" {
			if t.AppKey, err = g.host.Box.Open(t.SealedAppKey); err != nil {
				return fmt.Errorf("open app key of tag %d: %w", t.ID, err)
			}
		}
		t.Data = map[string]any{}
		if t.LatestData != "" {
			_ = json.Unmarshal([]byte(t.LatestData), &t.Data)
		}
		if k, ok := defaults[t.ID]; ok {
			t.LatestValue = t.Data[k]
		}
		t.DecodeError = nil
		if t.DecodeErrorRecord != nil && t.DecodeErrorAt != nil {
			var d nodes.DecodeError
			if json.Unmarshal([]byte(*t.DecodeErrorRecord), &d) == nil {
				d.Time = t.DecodeErrorAt.UTC()
				t.DecodeError = &d
			}
		}
		t.ActiveData = t.LatestTime != nil && time.Since(*t.LatestTime) < nodes.ActiveWindow
		t.NameWithDevEUI = t.Name + " (" + t.DevEUI + ")"
		t.VDD = t.BatteryVoltage
		t.Image = nil
		if t.ImageVersion != nil {
			url := fmt.Sprintf("/api/tag/%d/image?v=%s", t.ID, *t.ImageVersion)
			t.Image = &url
		}
	}
	return nil
}

// Present prepares tags for the caller: the AppKey, a device's root secret,
// is shown only to those who manage its company.
func Present(ctx context.Context, tags ...*nodes.Tag) {
	c := auth.CallerFrom(ctx)
	for _, t := range tags {
		if !c.CanManageCompany(t.CompanyID) {
			t.AppKey = ""
		}
	}
}
