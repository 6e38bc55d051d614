package core

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// The kinds of custom decoder.
const (
	kindJS   = "js"
	kindWASM = "wasm"
)

// Size limits of a version. A JavaScript codec is the sandbox's
// DefaultMaxSource; a WebAssembly module from Go's wasip1 port is about
// 2 MB, so 8 MiB leaves room for bigger languages' runtimes.
const (
	maxSource    = sandbox.DefaultMaxSource
	maxModule    = 8 << 20
	maxName      = 255
	maxTestBody  = maxModule*4/3 + 1<<20 // a module in base64, with the rest
	maxVersionIn = maxTestBody
)

// Message IDs of custom decoders.
const (
	msgKind          = "decoders.kind.invalid"
	msgNameTaken     = "decoders.name.taken"
	msgSourceInvalid = "decoders.source.invalid"
	msgSourceTooBig  = "decoders.source.tooLarge"
	msgModuleInvalid = "decoders.module.invalid"
	msgModuleTooBig  = "decoders.module.tooLarge"
	msgModuleBase64  = "decoders.module.base64"
	msgCodecOne      = "decoders.codec.one"
	msgInUse         = "decoders.inUse"
	msgNoVersion     = "decoders.version.unknown"
)

// Decoder is a company's own decoder.
type Decoder struct {
	bun.BaseModel `bun:"table:decoders,alias:d" json:"-"`

	ID        int64     `bun:"id,pk,autoincrement" json:"id"`
	CompanyID int64     `bun:"company_id" json:"companyId"`
	Name      string    `bun:"name" json:"name"`
	Kind      string    `bun:"kind" json:"kind"`
	CreatedAt time.Time `bun:"created_at" json:"createdAt"`
	UpdatedAt time.Time `bun:"updated_at" json:"updatedAt"`

	// Key is the decoder key nodes name it by.
	Key string `bun:"-" json:"key"`
	// ActiveVersion is the number of the version that decodes.
	ActiveVersion int `bun:"active_version,scanonly" json:"activeVersion"`
	// Versions, newest first, without their content; Source is the active
	// version's source (JavaScript), and Nodes the nodes that use the
	// decoder: both only in the answer about one decoder.
	Versions []Version `bun:"-" json:"versions,omitempty"`
	Source   *string   `bun:"-" json:"source,omitempty"`
	Nodes    []NodeRef `bun:"-" json:"nodes,omitempty"`
}

// Version is one version of a custom decoder.
type Version struct {
	bun.BaseModel `bun:"table:decoder_versions,alias:dv" json:"-"`

	ID            int64     `bun:"id,pk,autoincrement" json:"-"`
	DecoderID     int64     `bun:"decoder_id" json:"decoderId"`
	Version       int       `bun:"version" json:"version"`
	Source        string    `bun:"source" json:"source,omitempty"`
	Module        []byte    `bun:"module" json:"-"`
	Hash          string    `bun:"hash" json:"hash"`
	Size          int       `bun:"size" json:"size"`
	Active        bool      `bun:"active" json:"active"`
	CreatedBy     *int64    `bun:"created_by" json:"createdBy"`
	CreatedByName string    `bun:"created_by_name" json:"createdByName"`
	CreatedAt     time.Time `bun:"created_at" json:"createdAt"`

	// ModuleBase64 is a WebAssembly version's module, in the answer about
	// one version.
	ModuleBase64 string `bun:"-" json:"module,omitempty"`
}

// store holds the module's queries; each takes the bun.IDB to run on.
type store struct{}

// decoders lists a company's decoders by name, with their active version.
func (store) decoders(ctx context.Context, idb bun.IDB, company int64) ([]Decoder, error) {
	list := []Decoder{}
	err := idb.NewSelect().Model(&list).
		ColumnExpr("d.*").
		ColumnExpr("(SELECT v.version FROM decoder_versions v WHERE v.decoder_id = d.id AND v.active) AS active_version").
		Where("d.company_id = ?", company).OrderExpr("lower(d.name), d.id").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("list decoders of company %d: %w", company, err)
	}
	for i := range list {
		list[i].Key = CustomKey(list[i].ID)
	}
	return list, nil
}

func (store) decoder(ctx context.Context, idb bun.IDB, id int64) (*Decoder, error) {
	d := new(Decoder)
	err := idb.NewSelect().Model(d).
		ColumnExpr("d.*").
		ColumnExpr("(SELECT v.version FROM decoder_versions v WHERE v.decoder_id = d.id AND v.active) AS active_version").
		Where("d.id = ?", id).Scan(ctx)
	if db.IsNoRows(err) {
		return nil, errs.New(errs.NotFound, errs.IDNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("load decoder %d: %w", id, err)
	}
	d.Key = CustomKey(d.ID)
	return d, nil
}

// versions lists a decoder's versions, newest first, without content.
func (store) versions(ctx context.Context, idb bun.IDB, decoderID int64) ([]Version, error) {
	list := []Version{}
	err := idb.NewSelect().Model(&list).ExcludeColumn("source", "module").
		Where("decoder_id = ?", decoderID).Order("version DESC").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("list versions of decoder %d: %w", decoderID, err)
	}
	return list, nil
}

func (store) version(ctx context.Context, idb bun.IDB, decoderID int64, number int) (*Version, error) {
	v := new(Version)
	err := idb.NewSelect().Model(v).Where("decoder_id = ? AND version = ?", decoderID, number).Scan(ctx)
	if db.IsNoRows(err) {
		return nil, errs.New(errs.NotFound, msgNoVersion).With("version", number)
	}
	if err != nil {
		return nil, fmt.Errorf("load version %d of decoder %d: %w", number, decoderID, err)
	}
	return v, nil
}

// nameTaken tells whether another decoder of the company has the name.
func (store) nameTaken(ctx context.Context, idb bun.IDB, company int64, name string, except int64) (bool, error) {
	n, err := idb.NewSelect().Model((*Decoder)(nil)).
		Where("company_id = ? AND lower(name) = lower(?) AND id <> ?", company, name, except).Count(ctx)
	if err != nil {
		return false, fmt.Errorf("check decoder name: %w", err)
	}
	return n > 0, nil
}

// addVersion stores v as the decoder's next version, active when activate
// is set (then the only active one).
func (store) addVersion(ctx context.Context, tx bun.IDB, v *Version, activate bool) error {
	var last int
	if err := tx.NewSelect().Model((*Version)(nil)).ColumnExpr("COALESCE(MAX(version), 0)").
		Where("decoder_id = ?", v.DecoderID).Scan(ctx, &last); err != nil {
		return fmt.Errorf("number the version of decoder %d: %w", v.DecoderID, err)
	}
	v.Version = last + 1
	v.CreatedAt = time.Now().UTC()
	if activate {
		if _, err := tx.NewUpdate().Model((*Version)(nil)).Set("active = FALSE").Where("decoder_id = ?", v.DecoderID).Exec(ctx); err != nil {
			return fmt.Errorf("deactivate versions of decoder %d: %w", v.DecoderID, err)
		}
		v.Active = true
	}
	if _, err := tx.NewInsert().Model(v).Returning("id").Exec(ctx); err != nil {
		if db.IsUniqueViolation(err) { // another version was added at the same time
			return errs.New(errs.Conflict, errs.IDGeneric).Wrap(err)
		}
		return fmt.Errorf("insert version of decoder %d: %w", v.DecoderID, err)
	}
	_, err := tx.NewUpdate().Model((*Decoder)(nil)).Set("updated_at = ?", v.CreatedAt).Where("id = ?", v.DecoderID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("touch decoder %d: %w", v.DecoderID, err)
	}
	return nil
}

func (m *Module) customRoutes(r *web.ModuleRoutes) {
	r.API("GET /companies/{companyId}/decoders", auth.AdminOrCompanyAdmin, m.listCustom)
	r.API("POST /companies/{companyId}/decoders", auth.AdminOrCompanyAdmin, m.createCustom, web.MaxBody(maxVersionIn))
	r.API("GET /decoders/{decoderId}", auth.AdminOrCompanyAdmin, m.getCustom)
	r.API("PUT /decoders/{decoderId}", auth.AdminOrCompanyAdmin, m.renameCustom)
	r.API("DELETE /decoders/{decoderId}", auth.AdminOrCompanyAdmin, m.deleteCustom)
	r.API("POST /decoders/{decoderId}/versions", auth.AdminOrCompanyAdmin, m.addCustomVersion, web.MaxBody(maxVersionIn))
	r.API("GET /decoders/{decoderId}/versions/{version}", auth.AdminOrCompanyAdmin, m.getCustomVersion)
	r.API("POST /decoders/{decoderId}/versions/{version}/activate", auth.AdminOrCompanyAdmin, m.activateCustom)
}

// listCustom answers GET /companies/{companyId}/decoders.
func (m *Module) listCustom(w http.ResponseWriter, r *http.Request) error {
	company, err := m.pathCompany(r, true)
	if err != nil {
		return err
	}
	list, err := m.store.decoders(r.Context(), m.db, company)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

// codecInput is a version's content as the API takes it: a JavaScript
// source, or a WebAssembly module in base64.
type codecInput struct {
	Source *string `json:"source"`
	Module *string `json:"module"`
}

// decoderInput is the body of POST /companies/{companyId}/decoders.
type decoderInput struct {
	Name *string `json:"name"`
	Kind *string `json:"kind"`
	codecInput
}

// versionInput is the body of POST /decoders/{decoderId}/versions.
type versionInput struct {
	codecInput
	// Activate makes the new version the active one; default true.
	Activate *bool `json:"activate"`
}

// content validates a version's content for a decoder of kind (field
// errors into v) and returns it.
func (in codecInput) content(v *errs.Validation, kind string) (source string, module []byte) {
	switch kind {
	case kindJS:
		switch {
		case in.Module != nil:
			v.Add("module", msgCodecOne)
		case in.Source == nil || strings.TrimSpace(*in.Source) == "":
			v.Add("source", errs.IDRequired)
		case len(*in.Source) > maxSource:
			v.AddArgs("source", msgSourceTooBig, map[string]any{"max": maxSource >> 10})
		case !utf8.ValidString(*in.Source) || strings.ContainsRune(*in.Source, 0):
			v.AddArgs("source", msgSourceInvalid, map[string]any{"detail": "not UTF-8 text"})
		default:
			source = *in.Source
		}
	case kindWASM:
		switch {
		case in.Source != nil:
			v.Add("source", msgCodecOne)
		case in.Module == nil || *in.Module == "":
			v.Add("module", errs.IDRequired)
		case len(*in.Module) > maxModule*4/3+4:
			v.AddArgs("module", msgModuleTooBig, map[string]any{"max": maxModule >> 20})
		default:
			b, err := decodeBase64(*in.Module)
			switch {
			case err != nil:
				v.Add("module", msgModuleBase64)
			case len(b) > maxModule:
				v.AddArgs("module", msgModuleTooBig, map[string]any{"max": maxModule >> 20})
			default:
				module = b
			}
		}
	}
	return source, module
}

// decodeBase64 reads base64 in any of its four spellings.
func decodeBase64(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, errors.New("not base64")
}

// checkCodec loads a version in the test sandbox: one that does not load
// or cannot decode uplinks is refused with the sandbox's reason, so that
// no broken version is saved.
func (m *Module) checkCodec(ctx context.Context, v *errs.Validation, kind, source string, module []byte) error {
	e := m.scratch.Load()
	if e == nil {
		return errNotStarted()
	}
	content, field, id := []byte(source), "source", msgSourceInvalid
	if kind == kindWASM {
		content, field, id = module, "module", msgModuleInvalid
	}
	l, err := load(ctx, e, kind, content, false)
	if err != nil {
		return err
	}
	switch {
	case l.fail != nil:
		detail := l.fail.Error()
		if l.fail.Line > 0 && !strings.Contains(detail, "line") {
			detail = fmt.Sprintf("%s (line %d)", detail, l.fail.Line)
		}
		v.AddArgs(field, id, map[string]any{"detail": detail})
	case !l.codec.Can(sandbox.OpDecodeUplink):
		v.AddArgs(field, id, map[string]any{"detail": "it defines no decodeUplink, Decode or Decoder function"})
	}
	return nil
}

// authorName is how a version names the caller.
func (m *Module) authorName(ctx context.Context) (*int64, string) {
	c := auth.CallerFrom(ctx)
	if c.UserID == 0 {
		return nil, ""
	}
	id := c.UserID
	if m.deps.Accounts == nil {
		return &id, ""
	}
	u, err := m.deps.Accounts.User(ctx, id)
	if err != nil {
		return &id, ""
	}
	if name := strings.TrimSpace(u.FirstName + " " + u.LastName); name != "" {
		return &id, name
	}
	return &id, u.Email
}

func newVersion(source string, module []byte) *Version {
	content := []byte(source)
	if module != nil {
		content = module
	}
	sum := sha256.Sum256(content)
	return &Version{Source: source, Module: module, Hash: hex.EncodeToString(sum[:]), Size: len(content)}
}

// createCustom answers POST /companies/{companyId}/decoders: a decoder with
// its first version, active.
func (m *Module) createCustom(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	company, err := m.pathCompany(r, true)
	if err != nil {
		return err
	}
	var in decoderInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	d, err := m.createDecoder(ctx, company, in)
	if err != nil {
		return err
	}
	return web.Created(w, d)
}

// createDecoder validates in and stores it as a new decoder of company.
func (m *Module) createDecoder(ctx context.Context, company int64, in decoderInput) (*Decoder, error) {
	v := &errs.Validation{}
	name := m.checkName(ctx, v, company, in.Name, 0)
	kind := kindJS
	switch {
	case in.Kind != nil && *in.Kind != kindJS && *in.Kind != kindWASM:
		v.Add("kind", msgKind)
		kind = ""
	case in.Kind != nil:
		kind = *in.Kind
	case in.Module != nil && in.Source == nil:
		kind = kindWASM
	}
	var source string
	var module []byte
	if kind != "" {
		source, module = in.content(v, kind)
		if !v.Has("source") && !v.Has("module") {
			if err := m.checkCodec(ctx, v, kind, source, module); err != nil {
				return nil, err
			}
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	now := time.Now().UTC()
	d := &Decoder{CompanyID: company, Name: name, Kind: kind, CreatedAt: now, UpdatedAt: now}
	ver := newVersion(source, module)
	ver.CreatedBy, ver.CreatedByName = m.authorName(ctx)
	err := m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewInsert().Model(d).Returning("id").Exec(ctx); err != nil {
			return fmt.Errorf("insert decoder: %w", err)
		}
		ver.DecoderID = d.ID
		return m.store.addVersion(ctx, tx, ver, true)
	})
	if err != nil {
		return nil, err
	}
	return m.decoderView(ctx, d.ID)
}

// checkName validates a decoder's name: required, at most 255 characters,
// not another decoder's of the company (the node forms list them by name).
func (m *Module) checkName(ctx context.Context, v *errs.Validation, company int64, raw *string, except int64) string {
	var name string
	if raw != nil {
		name = strings.TrimSpace(*raw)
	}
	switch {
	case name == "":
		v.Add("name", errs.IDRequired)
	case utf8.RuneCountInString(name) > maxName:
		v.Add("name", errs.IDMaxChars255)
	default:
		taken, err := m.store.nameTaken(ctx, m.db, company, name, except)
		if err != nil {
			m.log.Error("check decoder name", "err", err)
		}
		if taken {
			v.Add("name", msgNameTaken)
		}
	}
	return name
}

// pathDecoder loads the path's decoder if the caller manages its company.
func (m *Module) pathDecoder(r *http.Request) (*Decoder, error) {
	id, err := web.PathID(r, "decoderId")
	if err != nil {
		return nil, err
	}
	d, err := m.store.decoder(r.Context(), m.db, id)
	if err != nil {
		return nil, err
	}
	if err := scoped(r.Context(), d.CompanyID, true); err != nil {
		return nil, err
	}
	return d, nil
}

// decoderView is one decoder with its versions, the active source and the
// nodes that use it.
func (m *Module) decoderView(ctx context.Context, id int64) (*Decoder, error) {
	st := m.store
	d, err := st.decoder(ctx, m.db, id)
	if err != nil {
		return nil, err
	}
	if d.Versions, err = st.versions(ctx, m.db, id); err != nil {
		return nil, err
	}
	if d.Kind == kindJS && d.ActiveVersion > 0 {
		v, err := st.version(ctx, m.db, id, d.ActiveVersion)
		if err != nil {
			return nil, err
		}
		d.Source = &v.Source
	}
	if nodes := m.nodes(); nodes != nil {
		if d.Nodes, err = nodes.DecoderNodes(ctx, d.CompanyID, d.Key); err != nil {
			return nil, fmt.Errorf("nodes of decoder %d: %w", id, err)
		}
	}
	if d.Nodes == nil {
		d.Nodes = []NodeRef{}
	}
	return d, nil
}

func (m *Module) nodes() Nodes {
	if m.deps.Nodes == nil {
		return nil
	}
	return m.deps.Nodes()
}

// getCustom answers GET /decoders/{decoderId}.
func (m *Module) getCustom(w http.ResponseWriter, r *http.Request) error {
	d, err := m.pathDecoder(r)
	if err != nil {
		return err
	}
	view, err := m.decoderView(r.Context(), d.ID)
	if err != nil {
		return err
	}
	return web.OK(w, view)
}

// renameCustom answers PUT /decoders/{decoderId}: {"name"}.
func (m *Module) renameCustom(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	d, err := m.pathDecoder(r)
	if err != nil {
		return err
	}
	var in struct {
		Name *string `json:"name"`
	}
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	v := &errs.Validation{}
	name := m.checkName(ctx, v, d.CompanyID, in.Name, d.ID)
	if err := v.Err(); err != nil {
		return err
	}
	if _, err := m.db.NewUpdate().Model((*Decoder)(nil)).Set("name = ?, updated_at = ?", name, time.Now().UTC()).Where("id = ?", d.ID).Exec(ctx); err != nil {
		return fmt.Errorf("rename decoder %d: %w", d.ID, err)
	}
	view, err := m.decoderView(ctx, d.ID)
	if err != nil {
		return err
	}
	return web.OK(w, view)
}

// deleteCustom answers DELETE /decoders/{decoderId}: refused with 400 while
// a node uses the decoder.
func (m *Module) deleteCustom(w http.ResponseWriter, r *http.Request) error {
	d, err := m.pathDecoder(r)
	if err != nil {
		return err
	}
	if err := m.deleteDecoder(r.Context(), d); err != nil {
		return err
	}
	return web.NoContent(w)
}

func (m *Module) deleteDecoder(ctx context.Context, d *Decoder) error {
	nodes := m.nodes()
	if nodes == nil {
		return errs.New(errs.Unavailable, errs.IDUnavailable)
	}
	users, err := nodes.DecoderNodes(ctx, d.CompanyID, d.Key)
	if err != nil {
		return fmt.Errorf("nodes of decoder %d: %w", d.ID, err)
	}
	if len(users) > 0 {
		names := make([]string, 0, 3)
		for i, n := range users {
			if i == 3 {
				names = append(names, "…")
				break
			}
			names = append(names, n.Name)
		}
		return errs.New(errs.Invalid, msgInUse).With("count", len(users)).With("nodes", strings.Join(names, ", "))
	}
	if _, err := m.db.NewDelete().Model((*Decoder)(nil)).Where("id = ?", d.ID).Exec(ctx); err != nil {
		return fmt.Errorf("delete decoder %d: %w", d.ID, err)
	}
	m.codecs.dropCustom(d.ID)
	return nil
}

// addCustomVersion answers POST /decoders/{decoderId}/versions.
func (m *Module) addCustomVersion(w http.ResponseWriter, r *http.Request) error {
	d, err := m.pathDecoder(r)
	if err != nil {
		return err
	}
	var in versionInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	ver, err := m.addVersion(r.Context(), d, in)
	if err != nil {
		return err
	}
	return web.Created(w, ver)
}

// addVersion validates and stores a new version of d.
func (m *Module) addVersion(ctx context.Context, d *Decoder, in versionInput) (*Version, error) {
	v := &errs.Validation{}
	source, module := in.content(v, d.Kind)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := m.checkCodec(ctx, v, d.Kind, source, module); err != nil {
		return nil, err
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	activate := in.Activate == nil || *in.Activate
	ver := newVersion(source, module)
	ver.DecoderID = d.ID
	ver.CreatedBy, ver.CreatedByName = m.authorName(ctx)
	err := m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return m.store.addVersion(ctx, tx, ver, activate)
	})
	if err != nil {
		return nil, err
	}
	if activate {
		m.codecs.dropCustom(d.ID)
	}
	ver.Source, ver.Module = "", nil
	return ver, nil
}

// pathVersion is the path's version number.
func pathVersion(r *http.Request) (int, error) {
	raw := r.PathValue("version")
	n, err := strconv.Atoi(raw)
	if err != nil || n <= 0 {
		return 0, errs.New(errs.Invalid, errs.IDBadID).With("id", raw)
	}
	return n, nil
}

// getCustomVersion answers GET /decoders/{decoderId}/versions/{version}:
// the version with its source, or its module in base64.
func (m *Module) getCustomVersion(w http.ResponseWriter, r *http.Request) error {
	d, err := m.pathDecoder(r)
	if err != nil {
		return err
	}
	n, err := pathVersion(r)
	if err != nil {
		return err
	}
	v, err := m.store.version(r.Context(), m.db, d.ID, n)
	if err != nil {
		return err
	}
	if v.Module != nil {
		v.ModuleBase64 = base64.StdEncoding.EncodeToString(v.Module)
	}
	return web.OK(w, v)
}

// activateCustom answers POST /decoders/{decoderId}/versions/{version}/activate:
// the version decodes from now on (a roll back, or forward again).
func (m *Module) activateCustom(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	d, err := m.pathDecoder(r)
	if err != nil {
		return err
	}
	n, err := pathVersion(r)
	if err != nil {
		return err
	}
	if err := m.activate(ctx, d, n); err != nil {
		return err
	}
	view, err := m.decoderView(ctx, d.ID)
	if err != nil {
		return err
	}
	return web.OK(w, view)
}

func (m *Module) activate(ctx context.Context, d *Decoder, number int) error {
	err := m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := m.store.version(ctx, tx, d.ID, number); err != nil {
			return err
		}
		if _, err := tx.NewUpdate().Model((*Version)(nil)).Set("active = (version = ?)", number).Where("decoder_id = ?", d.ID).Exec(ctx); err != nil {
			return fmt.Errorf("activate version %d of decoder %d: %w", number, d.ID, err)
		}
		_, err := tx.NewUpdate().Model((*Decoder)(nil)).Set("updated_at = ?", time.Now().UTC()).Where("id = ?", d.ID).Exec(ctx)
		return err
	})
	if err != nil {
		return err
	}
	m.codecs.dropCustom(d.ID)
	return nil
}
