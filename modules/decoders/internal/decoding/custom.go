package decoding

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/store"
)

// Size limits of a version. A JavaScript codec is the sandbox's
// DefaultMaxSource; a WebAssembly module from Go's wasip1 port is about
// 2 MB, so 8 MiB leaves room for bigger languages' runtimes.
const (
	MaxSource    = sandbox.DefaultMaxSource
	MaxModule    = 8 << 20
	maxName      = 255
	MaxTestBody  = MaxModule*4/3 + 1<<20 // a module in base64, with the rest
	MaxVersionIn = MaxTestBody
)

// CodecInput is a version's content as the API takes it: a JavaScript
// source, or a WebAssembly module in base64.
type CodecInput struct {
	Source *string `json:"source"`
	Module *string `json:"module"`
}

// DecoderInput is the body of POST /api/companies/{companyId}/decoders.
type DecoderInput struct {
	Name *string `json:"name"`
	Kind *string `json:"kind"`
	CodecInput
}

// VersionInput is the body of POST /api/decoders/{decoderId}/versions.
type VersionInput struct {
	CodecInput
	// Activate makes the new version the active one; default true.
	Activate *bool `json:"activate"`
}

// content validates a version's content for a decoder of kind (field
// errors into v) and returns it.
func (in CodecInput) content(v *errs.Validation, kind string) (source string, module []byte) {
	switch kind {
	case decoders.KindJS:
		switch {
		case in.Module != nil:
			v.Add("module", decoders.IDCodecOne)
		case in.Source == nil || strings.TrimSpace(*in.Source) == "":
			v.Add("source", errs.IDRequired)
		case len(*in.Source) > MaxSource:
			v.AddArgs("source", decoders.IDSourceTooLarge, map[string]any{"max": MaxSource >> 10})
		case !utf8.ValidString(*in.Source) || strings.ContainsRune(*in.Source, 0):
			v.AddArgs("source", decoders.IDSourceInvalid, map[string]any{"detail": "not UTF-8 text"})
		default:
			source = *in.Source
		}
	case decoders.KindWASM:
		switch {
		case in.Source != nil:
			v.Add("source", decoders.IDCodecOne)
		case in.Module == nil || *in.Module == "":
			v.Add("module", errs.IDRequired)
		case len(*in.Module) > MaxModule*4/3+4:
			v.AddArgs("module", decoders.IDModuleTooLarge, map[string]any{"max": MaxModule >> 20})
		default:
			b, err := decodeBase64(*in.Module)
			switch {
			case err != nil:
				v.Add("module", decoders.IDModuleBase64)
			case len(b) > MaxModule:
				v.AddArgs("module", decoders.IDModuleTooLarge, map[string]any{"max": MaxModule >> 20})
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

// checkCodec loads a version in the test sandbox, within company's decode
// budget: one that does not load or cannot decode uplinks is refused with
// the sandbox's reason, so that no broken version is saved.
func (s *Service) checkCodec(ctx context.Context, v *errs.Validation, company int64, kind, source string, module []byte) error {
	e := s.scratch.Load()
	if e == nil {
		return errNotStarted()
	}
	content, field, id := []byte(source), "source", decoders.IDSourceInvalid
	if kind == decoders.KindWASM {
		content, field, id = module, "module", decoders.IDModuleInvalid
	}
	var l *loaded
	err := s.runBudgeted(ctx, company, func() (err error) {
		l, err = load(ctx, e, kind, content, false)
		return err
	})
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
func (s *Service) authorName(ctx context.Context) (*int64, string) {
	c := auth.CallerFrom(ctx)
	if c.UserID == 0 {
		return nil, ""
	}
	id := c.UserID
	if s.accounts == nil {
		return &id, ""
	}
	u, err := s.accounts.User(ctx, id)
	if err != nil {
		return &id, ""
	}
	if name := strings.TrimSpace(u.FirstName + " " + u.LastName); name != "" {
		return &id, name
	}
	return &id, u.Email
}

func newVersion(source string, module []byte) *decoders.Version {
	content := []byte(source)
	if module != nil {
		content = module
	}
	sum := sha256.Sum256(content)
	return &decoders.Version{Source: source, Module: module, Hash: hex.EncodeToString(sum[:]), Size: len(content)}
}

// Decoders lists a company's own decoders by name.
func (s *Service) Decoders(ctx context.Context, company int64) ([]decoders.Decoder, error) {
	return store.Decoders(ctx, s.db, company)
}

// CreateDecoder validates in and stores it as a new decoder of company,
// with its first version, active; it returns the decoder as View does.
func (s *Service) CreateDecoder(ctx context.Context, company int64, in DecoderInput) (*decoders.Decoder, error) {
	v := &errs.Validation{}
	name := s.checkName(ctx, v, company, in.Name, 0)
	kind := decoders.KindJS
	switch {
	case in.Kind != nil && *in.Kind != decoders.KindJS && *in.Kind != decoders.KindWASM:
		v.Add("kind", decoders.IDKindInvalid)
		kind = ""
	case in.Kind != nil:
		kind = *in.Kind
	case in.Module != nil && in.Source == nil:
		kind = decoders.KindWASM
	}
	var source string
	var module []byte
	if kind != "" {
		source, module = in.content(v, kind)
		if !v.Has("source") && !v.Has("module") {
			if err := s.checkCodec(ctx, v, company, kind, source, module); err != nil {
				return nil, err
			}
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	now := time.Now().UTC()
	d := &decoders.Decoder{CompanyID: company, Name: name, Kind: kind, CreatedAt: now, UpdatedAt: now}
	ver := newVersion(source, module)
	ver.CreatedBy, ver.CreatedByName = s.authorName(ctx)
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := store.InsertDecoder(ctx, tx, d); err != nil {
			return err
		}
		ver.DecoderID = d.ID
		return store.AddVersion(ctx, tx, ver, true)
	})
	if err != nil {
		return nil, err
	}
	s.activated(ctx, company, d.ID, ver.Version)
	s.announce(ctx, company, decoders.AuditCreated, map[string]any{"name": d.Name, "codec": d.Kind}, nil, nil)
	return s.View(ctx, d.ID)
}

// checkName validates a decoder's name: required, at most 255 characters,
// not another decoder's of the company (the node forms list them by name).
func (s *Service) checkName(ctx context.Context, v *errs.Validation, company int64, raw *string, except int64) string {
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
		taken, err := store.NameTaken(ctx, s.db, company, name, except)
		if err != nil {
			s.log.Error("check decoder name", "err", err)
		}
		if taken {
			v.Add("name", decoders.IDNameTaken)
		}
	}
	return name
}

// Decoder loads decoder id (without versions, source or nodes); an unknown
// id is an errs.NotFound error.
func (s *Service) Decoder(ctx context.Context, id int64) (*decoders.Decoder, error) {
	return store.Decoder(ctx, s.db, id)
}

// View is one decoder with its versions, the active source and the nodes
// that use it.
func (s *Service) View(ctx context.Context, id int64) (*decoders.Decoder, error) {
	d, err := store.Decoder(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	if d.Versions, err = store.Versions(ctx, s.db, id); err != nil {
		return nil, err
	}
	if d.Kind == decoders.KindJS && d.ActiveVersion > 0 {
		v, err := store.Version(ctx, s.db, id, d.ActiveVersion)
		if err != nil {
			return nil, err
		}
		d.Source = &v.Source
	}
	if d.Nodes, err = s.DecoderNodes(ctx, d.CompanyID, d.Key); err != nil {
		return nil, fmt.Errorf("nodes of decoder %d: %w", id, err)
	}
	return d, nil
}

// Rename gives d the name raw, unless another decoder of its company has
// it.
func (s *Service) Rename(ctx context.Context, d *decoders.Decoder, raw *string) error {
	v := &errs.Validation{}
	name := s.checkName(ctx, v, d.CompanyID, raw, d.ID)
	if err := v.Err(); err != nil {
		return err
	}
	if err := store.Rename(ctx, s.db, d.ID, name); err != nil {
		return err
	}
	if name != d.Name {
		s.announce(ctx, d.CompanyID, decoders.AuditRenamed, map[string]any{"name": name},
			map[string]any{"name": d.Name}, map[string]any{"name": name})
	}
	return nil
}

// Delete deletes a decoder no node uses; one in use is refused with an
// errs.Invalid error (decoders.IDInUse) that names the first nodes.
func (s *Service) Delete(ctx context.Context, d *decoders.Decoder) error {
	users, err := s.DecoderNodes(ctx, d.CompanyID, d.Key)
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
		return errs.New(errs.Invalid, decoders.IDInUse).With("count", len(users)).With("nodes", strings.Join(names, ", "))
	}
	if err := store.DeleteDecoder(ctx, s.db, d.ID); err != nil {
		return err
	}
	s.codecs.dropCustom(d.ID)
	s.announce(ctx, d.CompanyID, decoders.AuditDeleted, map[string]any{"name": d.Name}, nil, nil)
	return nil
}

// AddVersion validates and stores a new version of d, the active one
// unless in says otherwise (an active one switches d on if it was off);
// the answer holds no content.
func (s *Service) AddVersion(ctx context.Context, d *decoders.Decoder, in VersionInput) (*decoders.Version, error) {
	v := &errs.Validation{}
	source, module := in.content(v, d.Kind)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.checkCodec(ctx, v, d.CompanyID, d.Kind, source, module); err != nil {
		return nil, err
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	activate := in.Activate == nil || *in.Activate
	ver := newVersion(source, module)
	ver.DecoderID = d.ID
	ver.CreatedBy, ver.CreatedByName = s.authorName(ctx)
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := store.AddVersion(ctx, tx, ver, activate); err != nil || !activate {
			return err
		}
		return store.SwitchOn(ctx, tx, d.ID) // a new active version is a new start
	})
	if err != nil {
		return nil, err
	}
	if activate {
		s.switchedOn(d.ID)
		s.activated(ctx, d.CompanyID, d.ID, ver.Version)
	}
	args := map[string]any{"name": d.Name, "version": ver.Version, "active": activate}
	if activate {
		s.announce(ctx, d.CompanyID, decoders.AuditVersion, args,
			map[string]any{"activeVersion": d.ActiveVersion}, map[string]any{"activeVersion": ver.Version})
	} else {
		s.announce(ctx, d.CompanyID, decoders.AuditVersion, args, nil, nil)
	}
	ver.Source, ver.Module = "", nil
	return ver, nil
}

// Version loads version number of d with its content.
func (s *Service) Version(ctx context.Context, d *decoders.Decoder, number int) (*decoders.Version, error) {
	return store.Version(ctx, s.db, d.ID, number)
}

// Activate makes version number of d the one that decodes from now on (a
// roll back, or forward again), and switches d on if it was off.
func (s *Service) Activate(ctx context.Context, d *decoders.Decoder, number int) error {
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := store.Version(ctx, tx, d.ID, number); err != nil {
			return err
		}
		if err := store.Activate(ctx, tx, d.ID, number); err != nil {
			return err
		}
		return store.SwitchOn(ctx, tx, d.ID)
	})
	if err != nil {
		return err
	}
	s.switchedOn(d.ID)
	s.activated(ctx, d.CompanyID, d.ID, number)
	s.announce(ctx, d.CompanyID, decoders.AuditActivated, map[string]any{"name": d.Name, "version": number},
		map[string]any{"activeVersion": d.ActiveVersion}, map[string]any{"activeVersion": number})
	return nil
}

// activated announces a version that became active, once committed.
func (s *Service) activated(ctx context.Context, company, decoderID int64, version int) {
	s.host.Bus.Publish(context.WithoutCancel(ctx), decoders.VersionActivated{CompanyID: company, DecoderID: decoderID,
		Key: decoders.CustomKey(decoderID), Version: version})
}
