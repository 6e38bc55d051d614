package decoding

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/store"
)

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
	// For custom decoders: which, whose, its name, which version, and
	// since when and why it is switched off (nil while it decodes).
	id      int64
	company int64
	name    string
	hash    string
	off     *decoders.SwitchOff
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
	repo    map[string]*loaded // imported codecs by key
	// drops counts the custom decoders forgotten (dropCustom): a load
	// that began before a drop read a row the drop may have made stale
	// (a switch-off), so it does not store what it loaded (storeCustom).
	drops uint64
}

func (c *codecCache) init() {
	c.builtin = map[string]*loaded{}
	c.custom = map[int64]*loaded{}
	c.repo = map[string]*loaded{}
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
	for k, l := range c.repo {
		if time.Unix(0, l.used.Load()).Before(cutoff) {
			delete(c.repo, k)
		}
	}
}

// dropRepo forgets an imported codec at once (a new version imported).
func (c *codecCache) dropRepo(key string) {
	c.mu.Lock()
	delete(c.repo, key)
	c.mu.Unlock()
}

// dropCustom forgets a custom decoder at once (a new active version, a
// deleted decoder), on this instance; others notice within customCheck.
func (c *codecCache) dropCustom(id int64) {
	c.mu.Lock()
	delete(c.custom, id)
	c.drops++
	c.mu.Unlock()
}

// storeCustom keeps l as decoder id's codec, unless a decoder was dropped
// since the load of l began (at the count drops): a decode waiting for its
// turn would otherwise find a switched-off decoder on again, loaded from
// the row as it was before the switch-off, and run it.
func (c *codecCache) storeCustom(id int64, l *loaded, drops uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.drops == drops {
		c.custom[id] = l
	}
}

// errUnknown is the answer for a key the company cannot use.
func errUnknown(key string) error {
	return errs.New(errs.NotFound, decoders.IDUnknown).With("key", key)
}

func errNotStarted() error { return errs.New(errs.Unavailable, decoders.IDNotStarted) }

// resolve returns the codec that key names for company, loaded on the
// engine that decodes nodes' uplinks.
func (s *Service) resolve(ctx context.Context, company int64, key string) (*loaded, error) {
	if id, ok := decoders.CustomID(key); ok {
		if company == 0 {
			return nil, errUnknown(key)
		}
		return s.customCodec(ctx, company, id)
	}
	if decoders.IsRepoKey(key) {
		return s.repoCodec(ctx, key)
	}
	b, ok := s.builtins[key]
	if !ok || key == decoders.Raw {
		return nil, errUnknown(key)
	}
	e := s.engine.Load()
	if e == nil {
		return nil, errNotStarted()
	}
	s.codecs.mu.Lock()
	l := s.codecs.builtin[key]
	s.codecs.mu.Unlock()
	if l != nil {
		return l, nil
	}
	// The built-in codecs are reviewed and fuzzed here and keep no state:
	// they are trusted codecs, which no tenant's calls restore.
	l, err := load(ctx, e, decoders.KindJS, []byte(b.Source), true)
	if err != nil {
		return nil, err
	}
	s.codecs.mu.Lock()
	if have := s.codecs.builtin[key]; have != nil {
		l = have
	} else {
		s.codecs.builtin[key] = l
	}
	s.codecs.mu.Unlock()
	return l, nil
}

// load loads a codec on e: a JavaScript codec as one a company uploaded,
// or with trusted (the built-in ones) as a trusted codec. A codec that does not
// load is a loaded with fail set; the error is for what is not the codec's
// fault (ctx ended, the engine closed).
func load(ctx context.Context, e *sandbox.Engine, kind string, content []byte, trusted bool) (*loaded, error) {
	var c *sandbox.Codec
	var err error
	switch {
	case kind == decoders.KindWASM:
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

// customCodec returns the active version of custom decoder id, if company
// owns it, from the cache while its check is recent.
func (s *Service) customCodec(ctx context.Context, company, id int64) (*loaded, error) {
	key := decoders.CustomKey(id)
	s.codecs.mu.Lock()
	l, drops := s.codecs.custom[id], s.codecs.drops // drops: see storeCustom
	s.codecs.mu.Unlock()
	if l != nil && time.Since(l.checked) < customCheck {
		if l.company != company {
			return nil, errUnknown(key)
		}
		return l, nil
	}
	row, found, err := store.Active(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	if !found {
		s.codecs.dropCustom(id)
		return nil, errUnknown(key)
	}
	if row.CompanyID != company {
		return nil, errUnknown(key)
	}
	var fresh *loaded
	if l != nil && l.hash == row.Hash && l.company == row.CompanyID {
		fresh = &loaded{codec: l.codec, fail: l.fail}
	} else {
		e := s.engine.Load()
		if e == nil {
			return nil, errNotStarted()
		}
		source, module, err := store.Content(ctx, s.db, id, row.VersionID)
		if err != nil {
			return nil, err
		}
		content := []byte(source)
		if row.Kind == decoders.KindWASM {
			content = module
		}
		if fresh, err = load(ctx, e, row.Kind, content, false); err != nil {
			return nil, err
		}
	}
	fresh.id, fresh.company, fresh.name, fresh.hash, fresh.checked = id, row.CompanyID, row.Name, row.Hash, time.Now()
	if row.SwitchedOffAt != nil {
		fresh.off = &decoders.SwitchOff{DecoderID: id, Name: row.Name, At: *row.SwitchedOffAt, Reason: row.SwitchedOffReason}
	}
	fresh.touch()
	s.codecs.storeCustom(id, fresh, drops)
	return fresh, nil
}
