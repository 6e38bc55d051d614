// Package decoding is the decoders module's service: the catalog of
// decoders (built-in ones and each company's own, with their versions),
// decoding in the sandbox with its codec caches, the sandbox limits per
// company, each company's decode budget (budget.go) and the switch-off of
// a company's decoder that keeps breaking its limits (switchoff.go), the
// test call, and the registry of the modules that use decoders. The JSON routes (httpapi) and the pages (pages) call it.
package decoding

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/catalog"
)

// Service decodes uplinks and keeps the decoders; it satisfies
// decoders.Service and decoders.Registry.
type Service struct {
	host     *kernel.Host
	db       *bun.DB
	log      *slog.Logger
	accounts decoders.Accounts // nil: no company check, no author names
	limits   sandbox.Limits    // of a company without its own; zero fields take the sandbox's defaults

	builtins map[string]*catalog.Builtin
	catalog  []decoders.Entry // the built-in decoders by name

	// engine runs the codecs of nodes; scratch runs the codecs of test
	// calls, which come and go (see docs/decisions.md). Both are set by
	// Start and cleared by Stop.
	engine  atomic.Pointer[sandbox.Engine]
	scratch atomic.Pointer[sandbox.Engine]

	codecs      codecCache  // loaded codecs (codecs.go)
	limitsCache limitsCache // limits per company (limits.go)
	budget      *budget     // each company's decode budget (budget.go)
	strikes     strikes     // limit failures in a row per decoder (switchoff.go)
	stop        chan struct{}
	wg          sync.WaitGroup

	mu    sync.RWMutex
	users []decoders.Users

	// importing lets one device repository import run at a time on an
	// instance: two at once would race to add the same codecs' versions.
	importing sync.Mutex
}

// New builds the service on the built-in codecs of builtins (as
// decoders.CatalogFS holds them), with the decode budgets and switch-off
// rule of cfg. acc may be nil. A catalog that does not load is a
// programming error: New panics.
func New(host *kernel.Host, builtins fs.FS, acc decoders.Accounts, limits sandbox.Limits, cfg decoders.Config) *Service {
	byKey, list, err := catalog.Load(builtins)
	if err != nil {
		panic(fmt.Sprintf("decoders: built-in catalog: %v", err))
	}
	s := &Service{host: host, db: host.DB, log: host.Logger("decoders"), accounts: acc, limits: limits,
		builtins: byKey, catalog: list, stop: make(chan struct{}), budget: newBudget(cfg.Concurrency, cfg.TimePerSecond)}
	s.codecs.init()
	s.limitsCache.init()
	s.strikes.init(cfg.SwitchOffAfter)
	return s
}

// Builtins lists the built-in decoders by name.
func (s *Service) Builtins() []decoders.Entry { return s.catalog }

// Start starts the sandbox and the sweep of unused codecs. A sandbox that
// does not start (a binary built without quickjs.wasm) does not stop the
// portal: JavaScript decoders then answer IDNotStarted, the ingest keeps
// payloads raw (and kept for decoding again), raw works.
func (s *Service) Start(ctx context.Context) error {
	// Starting takes about a second at most; the portal's context may end
	// meanwhile (a quick shutdown), which must not look like a broken sandbox.
	ctx = context.WithoutCancel(ctx)
	e, err := sandbox.New(ctx, sandbox.Options{Limits: s.limits, Logger: s.log})
	if err != nil {
		s.log.Error("decoders run without the sandbox: only raw decodes", "err", err)
		return nil
	}
	scratch, err := sandbox.New(ctx, sandbox.Options{Limits: s.limits, Logger: s.log, PoolSize: 1, IdleTimeout: scratchIdle})
	if err != nil {
		s.log.Error("decoder tests run without the sandbox", "err", err)
	} else {
		s.scratch.Store(scratch)
	}
	s.engine.Store(e)
	s.wg.Add(1)
	go s.sweep()
	return nil
}

// Stop closes the sandbox once the calls under way returned.
func (s *Service) Stop(context.Context) error {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	s.wg.Wait()
	var err error
	if e := s.engine.Swap(nil); e != nil {
		err = errors.Join(err, e.Close())
	}
	if e := s.scratch.Swap(nil); e != nil {
		err = errors.Join(err, e.Close())
	}
	s.codecs.clear()
	return err
}

// sweep forgets, every minute, the codecs nobody used for a while, so that
// old versions of custom decoders do not stay in memory, and the budgets
// of companies that stopped decoding.
func (s *Service) sweep() {
	defer s.wg.Done()
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case now := <-t.C:
			s.codecs.forget(now.Add(-codecIdle))
			s.budget.prune()
		}
	}
}
