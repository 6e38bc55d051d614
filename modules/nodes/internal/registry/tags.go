package registry

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/access"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/store"
)

// TagInput is the body of tag create and update calls, with the API's
// field names. Absent fields are left as they are on update.
type TagInput struct {
	Name          *string           `json:"name"`
	DevEUI        *string           `json:"deveui"`
	AppKey        *string           `json:"appKey"`
	AppEUI        *string           `json:"appEui"`
	ApplicationID *int64            `json:"applicationId"`
	Profile       *string           `json:"profile"`
	Lat           Optional[float64] `json:"lat"`
	Long          Optional[float64] `json:"long"`
	Location      *string           `json:"location"`
	Type          *string           `json:"type"`
	Decoder       *string           `json:"decoder"`
	// ProfileID names the device profile a new tag is created with (the
	// profile's decoder then replaces Decoder); update ignores it.
	ProfileID *int64 `json:"profileId"`
}

// HasDecoder tells whether a company may name a decoder key, as
// nodes.Decoders.Has does; the bulk import asks it through a memo, once per
// key rather than once per row.
type HasDecoder func(ctx context.Context, company int64, key string) (bool, error)

// ApplyTag copies the given fields of in onto t and validates them. With all
// set, absent fields count as empty (create); otherwise they are left alone.
// The application is the caller's to check; the decoder is checked against
// t's company (checkDecoder again when the tag moves to another).
func (g *Registry) ApplyTag(ctx context.Context, t *nodes.Tag, in TagInput, all bool) error {
	return g.ApplyTagWith(ctx, t, in, all, g.decoders.Has)
}

// ApplyTagWith is ApplyTag with the decoder checked by has: the one
// validation of a node's fields, which the bulk import uses row by row.
func (g *Registry) ApplyTagWith(ctx context.Context, t *nodes.Tag, in TagInput, all bool, has HasDecoder) error {
	v := &errs.Validation{}
	if all || in.Name != nil {
		t.Name = strings.TrimSpace(str(in.Name))
		checkText(v, "name", t.Name, MaxName, true)
	}
	if all || in.DevEUI != nil {
		t.DevEUI = nodes.NormaliseEUI(str(in.DevEUI))
		switch {
		case t.DevEUI == "":
			v.Add("deveui", errs.IDRequired)
		case !nodes.ValidDevEUI(t.DevEUI):
			v.Add("deveui", nodes.IDDevEUIFormat)
		}
	}
	if all || in.AppKey != nil {
		t.AppKey = nodes.NormaliseEUI(str(in.AppKey))
		checkHexField(v, "appKey", t.AppKey, hex32, nodes.IDAppKeyFormat)
	}
	if all || in.AppEUI != nil {
		t.AppEUI = nodes.NormaliseEUI(str(in.AppEUI))
		checkHexField(v, "appEui", t.AppEUI, hex16, nodes.IDAppEUIFormat)
	}
	if all || in.Profile != nil {
		t.Profile = strings.TrimSpace(str(in.Profile))
		checkText(v, "profile", t.Profile, maxText, false)
	}
	if all || in.Location != nil {
		t.Location = strings.TrimSpace(str(in.Location))
		checkText(v, "location", t.Location, maxText, false)
	}
	if all || in.Type != nil {
		t.Type = strings.TrimSpace(str(in.Type))
		checkText(v, "type", t.Type, maxType, false)
	}
	if all || in.Lat.Set {
		t.Lat = in.Lat.Value
		if t.Lat != nil && (*t.Lat < -90 || *t.Lat > 90) {
			v.Add("lat", nodes.IDLatRange)
		}
	}
	if all || in.Long.Set {
		t.Long = in.Long.Value
		if t.Long != nil && (*t.Long < -180 || *t.Long > 180) {
			v.Add("long", nodes.IDLongRange)
		}
	}
	if all || in.Decoder != nil {
		t.Decoder = strings.TrimSpace(str(in.Decoder))
		if t.Decoder == "" {
			t.Decoder = nodes.DefaultDecoder
		}
		if err := checkDecoder(ctx, v, t, has); err != nil {
			return err
		}
	}
	return v.Err()
}

// checkDecoder adds a field error when t's company may not name t's
// decoder: a key not in the catalog, or another company's own decoder.
func (g *Registry) checkDecoder(ctx context.Context, v *errs.Validation, t *nodes.Tag) error {
	return checkDecoder(ctx, v, t, g.decoders.Has)
}

func checkDecoder(ctx context.Context, v *errs.Validation, t *nodes.Tag, has HasDecoder) error {
	ok, err := has(ctx, t.CompanyID, t.Decoder)
	if err != nil {
		return fmt.Errorf("check decoder %q: %w", t.Decoder, err)
	}
	if !ok {
		v.Add("decoder", nodes.IDDecoderUnknown)
	}
	return nil
}

// AddTag validates in and stores it as a new tag of app, an application
// the caller manages, and returns the tag as loaded. A DevEUI is unique
// across the installation; a company that was refused too many DevEUIs of
// other companies' nodes lately must wait (claims.go). The pool entry of
// the DevEUI, if any, is marked taken. The API and the /tag/create pages
// both use it.
func (g *Registry) AddTag(ctx context.Context, app *nodes.Application, in TagInput) (*nodes.Tag, error) {
	in.ApplicationID = nil
	t := &nodes.Tag{ApplicationID: app.ID, CompanyID: app.CompanyID}
	if err := g.ApplyTag(ctx, t, in, true); err != nil {
		return nil, err
	}
	if err := g.checkClaims(ctx, t.CompanyID); err != nil {
		return nil, err
	}
	t.SealedAppKey = g.seal(t.AppKey)
	var owner int64
	err := g.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := claimDevEUI(ctx, tx, t.DevEUI, 0, &owner); err != nil {
			return err
		}
		if err := store.InsertTag(ctx, tx, t); err != nil {
			return err
		}
		if err := g.applyProfile(ctx, tx, t, in.ProfileID); err != nil {
			return err
		}
		return store.TakeFromPool(ctx, tx, t.DevEUI)
	})
	if err != nil {
		if owner != 0 {
			g.refuseClaim(ctx, t.CompanyID, owner, t.DevEUI)
		}
		return nil, err
	}
	g.host.Bus.Publish(ctx, nodes.TagCreated{TagID: t.ID, CompanyID: t.CompanyID, ApplicationID: t.ApplicationID, DevEUI: t.DevEUI})
	g.announce(ctx, t.CompanyID, nodes.AuditTagCreated, map[string]any{"name": t.Name, "deveui": t.DevEUI}, nil, nil)
	return g.ScopedTag(ctx, t.ID, false)
}

// applyProfile gives t, just created in tx, the device profile that
// profileID names, if any; a profile the company may not use is a field
// error, as is any profile while none are registered.
func (g *Registry) applyProfile(ctx context.Context, tx bun.Tx, t *nodes.Tag, profileID *int64) error {
	if profileID == nil || *profileID == 0 {
		return nil
	}
	if g.profiles == nil {
		return AddField(nil, "profileId", nodes.IDProfileUnknown)
	}
	err := g.profiles.ApplyProfile(ctx, tx, t.CompanyID, t.ID, *profileID)
	if errors.Is(err, nodes.ErrProfileNotFound) || errs.Is(err, errs.NotFound) {
		return AddField(nil, "profileId", nodes.IDProfileUnknown)
	}
	return err
}

// SaveTag validates the given fields of in onto t, a tag the caller
// manages, stores it and returns it as loaded. in may give a new DevEUI
// (within the limit of refused claims, as AddTag), and move the tag to
// another application the caller manages. The API and the /tagdetails page
// both use it.
func (g *Registry) SaveTag(ctx context.Context, t *nodes.Tag, in TagInput) (*nodes.Tag, error) {
	deveui, company, was := t.DevEUI, t.CompanyID, tagFields(t)
	verr := g.ApplyTag(ctx, t, in, false)
	if _, ok := verr.(*errs.Error); verr != nil && !ok {
		return nil, verr
	}
	if in.ApplicationID != nil && *in.ApplicationID != t.ApplicationID {
		app, err := store.ApplicationByID(ctx, g.db, *in.ApplicationID)
		if err == nil {
			err = access.Scoped(ctx, app.CompanyID, true)
		}
		switch {
		case errs.Is(err, errs.NotFound) || errs.Is(err, errs.Forbidden):
			verr = AddField(verr, "applicationId", nodes.IDAppUnknown)
		case err != nil:
			return nil, err
		default:
			moved := app.CompanyID != t.CompanyID
			t.ApplicationID, t.CompanyID = app.ID, app.CompanyID
			if moved && !HasField(verr, "decoder") {
				// A company's own decoder does not go with the node.
				v := errs.Validation{}
				if err := g.checkDecoder(ctx, &v, t); err != nil {
					return nil, err
				}
				if v.Has("decoder") {
					verr = AddField(verr, "decoder", nodes.IDDecoderUnknown)
				}
			}
		}
	}
	if verr != nil {
		return nil, verr
	}
	if t.DevEUI != deveui {
		if err := g.checkClaims(ctx, t.CompanyID); err != nil {
			return nil, err
		}
	}
	t.SealedAppKey = g.seal(t.AppKey)
	var owner int64
	err := g.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if t.DevEUI != deveui {
			if err := claimDevEUI(ctx, tx, t.DevEUI, t.ID, &owner); err != nil {
				return err
			}
		}
		if err := store.UpdateTag(ctx, tx, t); err != nil {
			return err
		}
		if t.DevEUI != deveui {
			return store.TakeFromPool(ctx, tx, t.DevEUI)
		}
		return nil
	})
	if err != nil {
		if owner != 0 {
			g.refuseClaim(ctx, t.CompanyID, owner, t.DevEUI)
		}
		return nil, err
	}
	// A node moved to another application of another company the caller
	// manages (a SuperAdmin's) is told in the company it left.
	g.announceDiff(ctx, company, nodes.AuditTagEdited, map[string]any{"name": t.Name, "deveui": t.DevEUI}, was, tagFields(t))
	return g.ScopedTag(ctx, t.ID, false)
}

// RemoveTag deletes t, a tag the caller manages, with its keys, picture and
// downlinks, and announces it.
func (g *Registry) RemoveTag(ctx context.Context, t *nodes.Tag) error {
	if err := store.DeleteTag(ctx, g.db, t.ID); err != nil {
		return err
	}
	g.host.Bus.Publish(ctx, nodes.TagDeleted{TagID: t.ID, CompanyID: t.CompanyID, ApplicationID: t.ApplicationID, DevEUI: t.DevEUI})
	g.announce(ctx, t.CompanyID, nodes.AuditTagDeleted, map[string]any{"name": t.Name, "deveui": t.DevEUI}, nil, nil)
	return nil
}

// ScopedTag loads tag id, its AppKey opened and its derived fields set, if
// the caller may see it (and, with manage, change it).
func (g *Registry) ScopedTag(ctx context.Context, id int64, manage bool) (*nodes.Tag, error) {
	t, err := store.TagByID(ctx, g.db, id)
	if err != nil {
		return nil, err
	}
	if err := access.Scoped(ctx, t.CompanyID, manage); err != nil {
		return nil, err
	}
	if err := g.fill(ctx, g.db, t); err != nil {
		return nil, err
	}
	return t, nil
}

// ManagedTagByDevEUI loads the tag of a DevEUI, in any accepted spelling, if
// the caller manages its company; another company's tag is not found.
func (g *Registry) ManagedTagByDevEUI(ctx context.Context, raw string) (*nodes.Tag, error) {
	deveui := nodes.NormaliseEUI(raw)
	if !nodes.ValidDevEUI(deveui) {
		return nil, badDevEUI()
	}
	t, err := store.TagByDevEUI(ctx, g.db, deveui)
	if err != nil {
		return nil, err
	}
	if err := access.Scoped(ctx, t.CompanyID, true); err != nil {
		return nil, err
	}
	if err := g.fill(ctx, g.db, t); err != nil {
		return nil, err
	}
	return t, nil
}

// Tags lists the tags of one company, or of every company when companyID
// is 0, by name, with their derived fields.
func (g *Registry) Tags(ctx context.Context, companyID int64) ([]*nodes.Tag, error) {
	tags, err := store.Tags(ctx, g.db, companyID)
	if err != nil {
		return nil, err
	}
	if err := g.fill(ctx, g.db, tags...); err != nil {
		return nil, err
	}
	return tags, nil
}
