package core

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/decoders"
)

// optional is a JSON field that tells "absent" (Set false) from null (Set,
// Value nil), so that an update can clear a value.
type optional[T any] struct {
	Set   bool
	Value *T
}

func (o *optional[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if string(b) == "null" {
		o.Value = nil
		return nil
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	o.Value = &v
	return nil
}

// tagInput is the body of tag create and update calls, with the field names
// of SPEC.md section 3. Absent fields are left as they are on update.
type tagInput struct {
	Name          *string           `json:"name"`
	DevEUI        *string           `json:"deveui"`
	AppKey        *string           `json:"appKey"`
	AppEUI        *string           `json:"appEui"`
	ApplicationID *int64            `json:"applicationId"`
	Profile       *string           `json:"profile"`
	Lat           optional[float64] `json:"lat"`
	Long          optional[float64] `json:"long"`
	Location      *string           `json:"location"`
	Type          *string           `json:"type"`
	Decoder       *string           `json:"decoder"`
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// applyTag copies the given fields of in onto t and validates them. With all
// set, absent fields count as empty (create); otherwise they are left alone.
// The application is the caller's to check; the decoder is checked against
// t's company (checkDecoder again when the tag moves to another).
func (m *Module) applyTag(ctx context.Context, t *Tag, in tagInput, all bool) error {
	v := &errs.Validation{}
	if all || in.Name != nil {
		t.Name = strings.TrimSpace(str(in.Name))
		checkText(v, "name", t.Name, maxName, true)
	}
	if all || in.DevEUI != nil {
		t.DevEUI = NormaliseEUI(str(in.DevEUI))
		switch {
		case t.DevEUI == "":
			v.Add("deveui", errs.IDRequired)
		case !ValidDevEUI(t.DevEUI):
			v.Add("deveui", msgDevEUIFormat)
		}
	}
	if all || in.AppKey != nil {
		t.AppKey = NormaliseEUI(str(in.AppKey))
		checkHexField(v, "appKey", t.AppKey, hex32, msgAppKeyFormat)
	}
	if all || in.AppEUI != nil {
		t.AppEUI = NormaliseEUI(str(in.AppEUI))
		checkHexField(v, "appEui", t.AppEUI, hex16, msgAppEUIFormat)
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
			v.Add("lat", msgLatRange)
		}
	}
	if all || in.Long.Set {
		t.Long = in.Long.Value
		if t.Long != nil && (*t.Long < -180 || *t.Long > 180) {
			v.Add("long", msgLongRange)
		}
	}
	if all || in.Decoder != nil {
		t.Decoder = strings.TrimSpace(str(in.Decoder))
		if t.Decoder == "" {
			t.Decoder = DefaultDecoder
		}
		if err := m.checkDecoder(ctx, v, t); err != nil {
			return err
		}
	}
	return v.Err()
}

// checkDecoder adds a field error when t's company may not name t's
// decoder: a key not in the catalog, or another company's own decoder.
func (m *Module) checkDecoder(ctx context.Context, v *errs.Validation, t *Tag) error {
	ok, err := m.deps.Decoders.Has(ctx, t.CompanyID, t.Decoder)
	if err != nil {
		return fmt.Errorf("check decoder %q: %w", t.Decoder, err)
	}
	if !ok {
		v.Add("decoder", msgDecoderUnknown)
	}
	return nil
}

// DefaultDecoder is the decoder of a tag created without one: the payload is
// kept as it came, as ChirpStack does for a device profile without a codec.
const DefaultDecoder = "raw"

// fill opens a tag's AppKey and derives the fields that are not stored: the
// key names, the latest data and value, whether data is arriving, the image
// address and the name with the DevEUI.
func (m *Module) fill(ctx context.Context, idb bun.IDB, tags ...*Tag) error {
	ids := make([]int64, len(tags))
	for i, t := range tags {
		ids[i] = t.ID
	}
	keys, err := m.store.keysOfTags(ctx, idb, ids)
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
	return m.derive(tags, names, defaults)
}

// derive is fill once the tags' key names (in keysOfTags' order) and
// default keys are known.
func (m *Module) derive(tags []*Tag, names map[int64][]string, defaults map[int64]string) error {
	var err error
	for _, t := range tags {
		t.Keys = names[t.ID]
		if t.Keys == nil {
			t.Keys = []string{}
		}
		if t.SealedAppKey != "" {
			if t.AppKey, err = m.host.Box.Open(t.SealedAppKey); err != nil {
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
		t.ActiveData = t.LatestTime != nil && time.Since(*t.LatestTime) < ActiveWindow
		t.NameWithDevEUI = t.Name + " (" + t.DevEUI + ")"
		t.Image = nil
		if t.ImageVersion != nil {
			url := fmt.Sprintf("/api/tag/%d/image?v=%s", t.ID, *t.ImageVersion)
			t.Image = &url
		}
	}
	return nil
}

// present prepares tags for the caller: the AppKey, a device's root secret,
// is shown only to those who manage its company.
func present(ctx context.Context, tags ...*Tag) {
	c := auth.CallerFrom(ctx)
	for _, t := range tags {
		if !c.CanManageCompany(t.CompanyID) {
			t.AppKey = ""
		}
	}
}

func (m *Module) seal(plain string) string {
	if plain == "" {
		return ""
	}
	return m.host.Box.Seal(plain)
}

// listTags answers GET /tag: the caller's company's tags; a SuperAdmin sees
// every tag, or one company's with ?companyId=.
func (m *Module) listTags(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	c := auth.CallerFrom(ctx)
	company := c.CompanyID
	if raw := r.URL.Query().Get("companyId"); raw != "" {
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || id <= 0 {
			return errs.New(errs.Invalid, errs.IDBadID).With("id", raw)
		}
		if !c.CanSeeCompany(id) {
			return errNotFound
		}
		company = id
	} else if c.Role == auth.SuperAdmin {
		company = 0
	} else if company == 0 {
		return web.OK(w, []*Tag{})
	}
	return m.answerTags(w, r, company)
}

func (m *Module) answerTags(w http.ResponseWriter, r *http.Request, companyID int64) error {
	tags, err := m.store.tags(r.Context(), m.db, companyID)
	if err != nil {
		return err
	}
	if err := m.fill(r.Context(), m.db, tags...); err != nil {
		return err
	}
	if err := m.fillDataPoints(r.Context(), tags...); err != nil {
		return err
	}
	present(r.Context(), tags...)
	return web.OK(w, tags)
}

// companyTags answers GET /companies/{companyId}/tags.
func (m *Module) companyTags(w http.ResponseWriter, r *http.Request) error {
	id, err := m.visibleCompanyID(r.Context(), r)
	if err != nil {
		return err
	}
	return m.answerTags(w, r, id)
}

// companyTagsByScope answers GET /tag/company/{companyId}.
func (m *Module) companyTagsByScope(w http.ResponseWriter, r *http.Request) error {
	if r.PathValue("scope") != "company" {
		return errNotFound
	}
	return m.companyTags(w, r)
}

func (m *Module) getTag(w http.ResponseWriter, r *http.Request) error {
	t, err := m.pathTag(r.Context(), r, false)
	if err != nil {
		return err
	}
	if err := m.fillDataPoints(r.Context(), t); err != nil {
		return err
	}
	present(r.Context(), t)
	return web.OK(w, t)
}

// createTag answers POST /applications/{applicationId}/tag.
func (m *Module) createTag(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	app, err := m.pathApplication(ctx, r, true)
	if err != nil {
		return err
	}
	var in tagInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	t, err := m.addTag(ctx, app, in)
	if err != nil {
		return err
	}
	present(ctx, t)
	return web.Created(w, t)
}

// addTag validates in and stores it as a new tag of app, an application
// the caller manages, and returns the tag as loaded. A DevEUI is unique
// across the installation; the pool entry of the DevEUI, if any, is marked
// taken. The API and the /tag/create pages both use it.
func (m *Module) addTag(ctx context.Context, app *Application, in tagInput) (*Tag, error) {
	in.ApplicationID = nil
	t := &Tag{ApplicationID: app.ID, CompanyID: app.CompanyID}
	if err := m.applyTag(ctx, t, in, true); err != nil {
		return nil, err
	}
	t.SealedAppKey = m.seal(t.AppKey)
	err := m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if taken, err := m.store.devEUITaken(ctx, tx, t.DevEUI, 0); err != nil || taken {
			if err == nil {
				err = devEUIConflict()
			}
			return err
		}
		if err := m.store.insertTag(ctx, tx, t); err != nil {
			return err
		}
		return m.store.takeFromPool(ctx, tx, t.DevEUI)
	})
	if err != nil {
		return nil, err
	}
	m.host.Bus.Publish(ctx, TagCreated{TagID: t.ID, CompanyID: t.CompanyID, ApplicationID: t.ApplicationID, DevEUI: t.DevEUI})
	return m.scopedTag(ctx, t.ID, false)
}

// updateTag answers PUT /tag/{deveui}.
func (m *Module) updateTag(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := m.managedTagByDevEUI(ctx, r.PathValue("deveui"))
	if err != nil {
		return err
	}
	var in tagInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	if t, err = m.saveTag(ctx, t, in); err != nil {
		return err
	}
	present(ctx, t)
	return web.OK(w, t)
}

// managedTagByDevEUI loads the tag of a DevEUI, in any accepted spelling, if
// the caller manages its company; another company's tag is not found.
func (m *Module) managedTagByDevEUI(ctx context.Context, raw string) (*Tag, error) {
	deveui := NormaliseEUI(raw)
	if !ValidDevEUI(deveui) {
		v := errs.Validation{}
		v.Add("deveui", msgDevEUIFormat)
		return nil, v.Err()
	}
	t, err := m.store.tagByDevEUI(ctx, m.db, deveui)
	if err != nil {
		return nil, err
	}
	if err := scoped(ctx, t.CompanyID, true); err != nil {
		return nil, err
	}
	if err := m.fill(ctx, m.db, t); err != nil {
		return nil, err
	}
	return t, nil
}

// saveTag validates the given fields of in onto t, a tag the caller
// manages, stores it and returns it as loaded. in may give a new DevEUI, and
// move the tag to another application the caller manages. The API and the
// /tagdetails page both use it.
func (m *Module) saveTag(ctx context.Context, t *Tag, in tagInput) (*Tag, error) {
	deveui := t.DevEUI
	verr := m.applyTag(ctx, t, in, false)
	if _, ok := verr.(*errs.Error); verr != nil && !ok {
		return nil, verr
	}
	if in.ApplicationID != nil && *in.ApplicationID != t.ApplicationID {
		app, err := m.store.applicationByID(ctx, m.db, *in.ApplicationID)
		if err == nil {
			err = scoped(ctx, app.CompanyID, true)
		}
		switch {
		case errs.Is(err, errs.NotFound) || errs.Is(err, errs.Forbidden):
			verr = addField(verr, "applicationId", msgAppUnknown)
		case err != nil:
			return nil, err
		default:
			moved := app.CompanyID != t.CompanyID
			t.ApplicationID, t.CompanyID = app.ID, app.CompanyID
			if moved && !hasField(verr, "decoder") {
				// A company's own decoder does not go with the node.
				v := errs.Validation{}
				if err := m.checkDecoder(ctx, &v, t); err != nil {
					return nil, err
				}
				if v.Has("decoder") {
					verr = addField(verr, "decoder", msgDecoderUnknown)
				}
			}
		}
	}
	if verr != nil {
		return nil, verr
	}
	t.SealedAppKey = m.seal(t.AppKey)
	err := m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if t.DevEUI != deveui {
			if taken, err := m.store.devEUITaken(ctx, tx, t.DevEUI, t.ID); err != nil || taken {
				if err == nil {
					err = devEUIConflict()
				}
				return err
			}
		}
		if err := m.store.updateTag(ctx, tx, t); err != nil {
			return err
		}
		if t.DevEUI != deveui {
			return m.store.takeFromPool(ctx, tx, t.DevEUI)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m.scopedTag(ctx, t.ID, false)
}

// addField adds a field error to err, a validation error or nil.
func addField(err error, field, id string) error {
	v := errs.Validation{}
	if e, ok := err.(*errs.Error); ok {
		for _, f := range e.Fields {
			v.AddArgs(f.Field, f.ID, f.Args)
		}
	}
	v.Add(field, id)
	return v.Err()
}

// deleteTag answers DELETE /tag/{tagId}.
func (m *Module) deleteTag(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := m.pathTag(ctx, r, true)
	if err != nil {
		return err
	}
	if err := m.removeTag(ctx, t); err != nil {
		return err
	}
	return web.NoContent(w)
}

// removeTag deletes t, a tag the caller manages, with its keys, picture and
// downlinks.
func (m *Module) removeTag(ctx context.Context, t *Tag) error {
	if err := m.store.deleteTag(ctx, m.db, t.ID); err != nil {
		return err
	}
	m.host.Bus.Publish(ctx, TagDeleted{TagID: t.ID, CompanyID: t.CompanyID, ApplicationID: t.ApplicationID, DevEUI: t.DevEUI})
	return nil
}

// Tag returns a tag by id, whoever asks.
func (m *Module) Tag(ctx context.Context, id int64) (*Tag, error) {
	t, err := m.store.tagByID(ctx, m.db, id)
	if err != nil {
		return nil, err
	}
	return t, m.fill(ctx, m.db, t)
}

// TagByDevEUI returns the tag of a DevEUI in any accepted spelling.
func (m *Module) TagByDevEUI(ctx context.Context, deveui string) (*Tag, error) {
	deveui = NormaliseEUI(deveui)
	if !ValidDevEUI(deveui) {
		v := errs.Validation{}
		v.Add("deveui", msgDevEUIFormat)
		return nil, v.Err()
	}
	t, err := m.store.tagByDevEUI(ctx, m.db, deveui)
	if err != nil {
		return nil, err
	}
	return t, m.fill(ctx, m.db, t)
}

// DecoderNodes lists the tags of a company whose decoder is key, by name.
func (m *Module) DecoderNodes(ctx context.Context, companyID int64, key string) ([]decoders.NodeRef, error) {
	list := []decoders.NodeRef{}
	err := m.db.NewSelect().Model((*Tag)(nil)).Column("id", "name", "deveui").
		Where("company_id = ? AND decoder = ?", companyID, key).OrderExpr("name, id").Scan(ctx, &list)
	if err != nil {
		return nil, fmt.Errorf("list tags of company %d with decoder %q: %w", companyID, key, err)
	}
	return list, nil
}

// CompanyTags lists the tags of a company.
func (m *Module) CompanyTags(ctx context.Context, companyID int64) ([]*Tag, error) {
	if companyID <= 0 {
		return []*Tag{}, nil
	}
	tags, err := m.store.tags(ctx, m.db, companyID)
	if err != nil {
		return nil, err
	}
	return tags, m.fill(ctx, m.db, tags...)
}
