package core

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// customPrefix starts the key of a company's own decoder: custom:<id>.
const customPrefix = "custom:"

// CustomKey is the decoder key of a company's decoder.
func CustomKey(id int64) string { return customPrefix + strconv.FormatInt(id, 10) }

// customID returns the decoder id of a custom key in its one spelling.
func customID(key string) (int64, bool) {
	rest, ok := strings.CutPrefix(key, customPrefix)
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseInt(rest, 10, 64)
	if err != nil || id <= 0 || strconv.FormatInt(id, 10) != rest {
		return 0, false
	}
	return id, true
}

// Timing of the codec caches.
const (
	// customCheck is how long a custom decoder's active version is taken
	// as known before the database is asked again: activating a version
	// reaches the uplinks of every instance within it.
	customCheck = 5 * time.Second
	// codecIdle is how long an unused codec stays loaded.
	codecIdle = 10 * time.Minute
	// scratchIdle is how long a test call's codec keeps a warm instance
	// (the scratch engine forgets it ten times later).
	scratchIdle = 5 * time.Second
)

// loaded is a codec as the caches keep it: loaded, or the reason it does
// not load (a syntax error of a saved version, a module that does not
// follow the ABI), which is every decode's answer until another version is
// activated.
type loaded struct {
	codec *sandbox.Codec
	fail  *sandbox.Error
	// For custom decoders: whose, and which version.
	company int64
	hash    string
	checked time.Time
	used    atomic.Int64
}

func (l *loaded) touch() { l.used.Store(time.Now().UnixNano()) }

// codecCache holds the loaded codecs: built-in ones by key, custom ones by
// decoder id. Entries are not changed once stored; a newer check replaces
// one.
type codecCache struct {
	mu      sync.Mutex
	builtin map[string]*loaded
	custom  map[int64]*loaded
}

func (c *codecCache) init() {
	c.builtin = map[string]*loaded{}
	c.custom = map[int64]*loaded{}
}

func (c *codecCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.init()
}

// forget drops the codecs unused since cutoff.
func (c *codecCache) forget(cutoff time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, l := range c.builtin {
		if time.Unix(0, l.used.Load()).Before(cutoff) {
			delete(c.builtin, k)
		}
	}
	for k, l := range c.custom {
		if time.Unix(0, l.used.Load()).Before(cutoff) {
			delete(c.custom, k)
		}
	}
}

// dropCustom forgets a custom decoder at once (a new active version, a
// deleted decoder), on this instance; others notice within customCheck.
func (c *codecCache) dropCustom(id int64) {
	c.mu.Lock()
	delete(c.custom, id)
	c.mu.Unlock()
}

// errUnknown is the answer for a key the company cannot use.
func errUnknown(key string) error { return errs.New(errs.NotFound, IDUnknown).With("key", key) }

func errNotStarted() error { return errs.New(errs.Unavailable, IDNotStarted) }

// resolve returns the codec that key names for company, loaded on the
// engine that decodes nodes' uplinks.
func (m *Module) resolve(ctx context.Context, company int64, key string) (*loaded, error) {
	if id, ok := customID(key); ok {
		if company == 0 {
			return nil, errUnknown(key)
		}
		return m.customCodec(ctx, company, id)
	}
	b, ok := m.builtins[key]
	if !ok || key == Raw {
		return nil, errUnknown(key)
	}
	e := m.engine.Load()
	if e == nil {
		return nil, errNotStarted()
	}
	m.codecs.mu.Lock()
	l := m.codecs.builtin[key]
	m.codecs.mu.Unlock()
	if l != nil {
		return l, nil
	}
	// The built-in codecs are reviewed and fuzzed here: they run in the
	// sandbox's fast runtime.
	l, err := load(ctx, e, kindJS, []byte(b.Source), true)
	if err != nil {
		return nil, err
	}
	m.codecs.mu.Lock()
	if have := m.codecs.builtin[key]; have != nil {
		l = have
	} else {
		m.codecs.builtin[key] = l
	}
	m.codecs.mu.Unlock()
	return l, nil
}

// load loads a codec on e: a JavaScript codec in the guarded runtime, or
// with trusted (the built-in ones) in the fast one. A codec that does not
// load is a loaded with fail set; the error is for what is not the codec's
// fault (ctx ended, the engine closed).
func load(ctx context.Context, e *sandbox.Engine, kind string, content []byte, trusted bool) (*loaded, error) {
	var c *sandbox.Codec
	var err error
	switch {
	case kind == kindWASM:
		c, err = e.WASMCodec(ctx, content)
	case trusted:
		c, err = e.TrustedCodec(ctx, string(content))
	default:
		c, err = e.Codec(ctx, string(content))
	}
	l := &loaded{codec: c, checked: time.Now()}
	l.touch()
	var se *sandbox.Error
	switch {
	case errors.As(err, &se):
		l.codec, l.fail = nil, se
	case errors.Is(err, sandbox.ErrClosed):
		return nil, errNotStarted()
	case err != nil:
		return nil, fmt.Errorf("load codec: %w", err)
	}
	return l, nil
}

// activeRow is what customCodec reads of a decoder's active version.
type activeRow struct {
	CompanyID int64  `bun:"company_id"`
	Kind      string `bun:"kind"`
	VersionID int64  `bun:"version_id"`
	Hash      string `bun:"hash"`
}

// customCodec returns the active version of custom decoder id, if company
// owns it, from the cache while its check is recent.
func (m *Module) customCodec(ctx context.Context, company, id int64) (*loaded, error) {
	key := CustomKey(id)
	m.codecs.mu.Lock()
	l := m.codecs.custom[id]
	m.codecs.mu.Unlock()
	if l != nil && time.Since(l.checked) < customCheck {
		if l.company != company {
			return nil, errUnknown(key)
		}
		return l, nil
	}
	var row activeRow
	err := m.db.NewRaw(`SELECT d.company_id, d.kind, v.id AS version_id, v.hash FROM decoders d
		JOIN decoder_versions v ON v.decoder_id = d.id AND v.active WHERE d.id = ?`, id).Scan(ctx, &row)
	if db.IsNoRows(err) {
		m.codecs.dropCustom(id)
		return nil, errUnknown(key)
	}
	if err != nil {
		return nil, fmt.Errorf("load decoder %d: %w", id, err)
	}
	if row.CompanyID != company {
		return nil, errUnknown(key)
	}
	var fresh *loaded
	if l != nil && l.hash == row.Hash && l.company == row.CompanyID {
		fresh = &loaded{codec: l.codec, fail: l.fail}
	} else {
		e := m.engine.Load()
		if e == nil {
			return nil, errNotStarted()
		}
		var v Version
		if err := m.db.NewSelect().Model(&v).Column("source", "module").Where("id = ?", row.VersionID).Scan(ctx); err != nil {
			return nil, fmt.Errorf("load version %d of decoder %d: %w", row.VersionID, id, err)
		}
		content := []byte(v.Source)
		if row.Kind == kindWASM {
			content = v.Module
		}
		if fresh, err = load(ctx, e, row.Kind, content, false); err != nil {
			return nil, err
		}
	}
	fresh.company, fresh.hash, fresh.checked = row.CompanyID, row.Hash, time.Now()
	fresh.touch()
	m.codecs.mu.Lock()
	m.codecs.custom[id] = fresh
	m.codecs.mu.Unlock()
	return fresh, nil
}

// Decode runs the decoder named key; see decoders.Service.
func (m *Module) Decode(ctx context.Context, key string, in Input) (Output, error) {
	if err := ctx.Err(); err != nil {
		return Output{}, err
	}
	if key == Raw {
		return decodeRaw(in), nil
	}
	l, err := m.resolve(ctx, in.Company, key)
	if err != nil {
		return Output{}, err
	}
	lim, err := m.companyLimits(ctx, in.Company)
	if err != nil {
		return Output{}, err
	}
	return run(ctx, l, in, lim)
}

// run decodes in with a loaded codec: a codec that fails answers an
// Output whose Errors say why.
func run(ctx context.Context, l *loaded, in Input, lim sandbox.Limits) (Output, error) {
	l.touch()
	if l.fail != nil {
		return Output{Errors: []string{failure(l.fail)}}, nil
	}
	res, err := l.codec.DecodeUplink(ctx, sandbox.Input{Bytes: in.Bytes, FPort: in.FPort, RecvTime: in.RecvTime, Variables: in.Variables}, lim)
	out := Output{Data: res.Data, Warnings: res.Warnings, Errors: res.Errors, Log: res.Log, Duration: res.Duration}
	if err == nil {
		return out, nil
	}
	if ctx.Err() != nil {
		return out, ctx.Err()
	}
	var se *sandbox.Error
	switch {
	case errors.As(err, &se):
		out.Data = nil
		out.Errors = append(out.Errors, failure(se))
		return out, nil
	case errors.Is(err, sandbox.ErrClosed):
		return out, errNotStarted()
	}
	return out, fmt.Errorf("decode: %w", err)
}

// failure is the text a codec failure is reported with, beside the codec's
// own errors: "decoder failed (time_limit): time limit of 50 ms exceeded".
func failure(e *sandbox.Error) string {
	return fmt.Sprintf("decoder failed (%s): %s", e.Kind, e.Error())
}

// Has reports whether company may name key; see decoders.Service.
func (m *Module) Has(ctx context.Context, company int64, key string) (bool, error) {
	if id, ok := customID(key); ok {
		if company == 0 {
			return false, nil
		}
		n, err := m.db.NewSelect().Model((*Decoder)(nil)).Where("id = ? AND company_id = ?", id, company).Count(ctx)
		if err != nil {
			return false, fmt.Errorf("look up decoder %d: %w", id, err)
		}
		return n > 0, nil
	}
	_, ok := m.builtins[key]
	return ok, nil
}

// Catalog lists the decoders a node of company may use; see
// decoders.Service.
func (m *Module) Catalog(ctx context.Context, company int64) ([]Entry, error) {
	list := append(make([]Entry, 0, len(m.catalog)+8), m.catalog...)
	if company == 0 {
		return list, nil
	}
	own, err := m.store.decoders(ctx, m.db, company)
	if err != nil {
		return nil, err
	}
	for _, d := range own {
		list = append(list, Entry{Key: CustomKey(d.ID), Name: d.Name, Custom: true})
	}
	sortEntries(list)
	return list, nil
}

// prompt is the first entry of the list the client shows: an empty choice.
var prompt = Entry{Key: "", Name: ""}

// list answers GET /decoder (SPEC.md section 7 "Tags"): the empty prompt,
// then every decoder the company's nodes may use, by name. The company is
// the caller's own; a SuperAdmin names one with ?companyId= (else the
// built-in ones alone).
func (m *Module) list(w http.ResponseWriter, r *http.Request) error {
	company, err := queryCompany(r, false)
	if err != nil {
		return err
	}
	list, err := m.Catalog(r.Context(), company)
	if err != nil {
		return err
	}
	return web.OK(w, append([]Entry{prompt}, list...))
}

// queryCompany is the company a call acts for: the caller's own, or for a
// SuperAdmin the ?companyId= given (0 without one). A company the caller
// may not see is not found; manage asks for the right to change it.
func queryCompany(r *http.Request, manage bool) (int64, error) {
	c := auth.CallerFrom(r.Context())
	id := c.CompanyID
	if raw := r.URL.Query().Get("companyId"); raw != "" {
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || n <= 0 {
			return 0, errs.New(errs.Invalid, errs.IDBadID).With("id", raw)
		}
		id = n
	}
	if id == 0 {
		return 0, nil
	}
	return id, scoped(r.Context(), id, manage)
}

// scoped lets the caller at company id: another company's things are not
// found; manage asks for the right to change them.
func scoped(ctx context.Context, id int64, manage bool) error {
	c := auth.CallerFrom(ctx)
	if !c.CanSeeCompany(id) {
		return errs.New(errs.NotFound, errs.IDNotFound)
	}
	if manage && !c.CanManageCompany(id) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	return nil
}
