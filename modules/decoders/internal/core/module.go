// Package core implements the decoders module: the catalog of device
// decoders (built-in JavaScript codecs, raw, and each company's own decoders
// with their versions), decoding in the sandbox, the test call, the sandbox
// limits per company, re-decoding stored uplinks, and the decoder pages.
package core

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
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Input is one uplink to decode.
type Input struct {
	// Company is the company of the uplink's node: the one whose own
	// decoders a key may name and whose limits apply. 0 allows the
	// built-in decoders only, under the default limits.
	Company int64
	// FPort is the LoRaWAN application port, 0 when the network server
	// gave none.
	FPort int
	// Bytes is the application payload.
	Bytes []byte
	// RecvTime is when the network server received the uplink.
	RecvTime time.Time
	// Variables are the node's decoder settings (calibration offsets and
	// the like), nil when there are none.
	Variables map[string]string
}

// Output is what a decoder made of an uplink.
type Output struct {
	// Data holds the decoded values: numbers, strings, booleans, and
	// objects or arrays of them. nil when the codec failed.
	Data map[string]any
	// Warnings and Errors are what the decoder reported about the payload
	// (a reading out of range, a payload it does not understand), and,
	// last in Errors, why the codec failed if it did. They do not make
	// Decode fail: Data holds what could be decoded.
	Warnings []string
	Errors   []string
	// Log is the codec's console output.
	Log []string
	// Duration is how long the codec ran.
	Duration time.Duration
}

// Entry is one decoder of the catalog.
type Entry struct {
	Key  string `json:"key"`
	Name string `json:"name"`
	// Custom marks a company's own decoder.
	Custom bool `json:"custom,omitempty"`
}

// NodeRef names a node.
type NodeRef struct {
	ID     int64  `bun:"id" json:"id"`
	Name   string `bun:"name" json:"name"`
	DevEUI string `bun:"deveui" json:"deveui"`
}

// RedecodeBatch is what one Uplinks.Redecode call did.
type RedecodeBatch struct {
	// Uplinks is how many stored uplinks were decoded again; 0 when none
	// were left in the window.
	Uplinks int
	// Failed is how many of them the decoder failed on or reported
	// errors for.
	Failed int
	// Oldest is the time of the oldest uplink decoded: the next call's to.
	Oldest time.Time
}

// Nodes tells which nodes of a company name a decoder key.
type Nodes interface {
	DecoderNodes(ctx context.Context, company int64, key string) ([]NodeRef, error)
}

// Uplinks decodes stored uplinks of a node again; see decoders.Uplinks.
type Uplinks interface {
	Redecode(ctx context.Context, company, tagID int64, from, to time.Time, limit int) (RedecodeBatch, error)
}

// Accounts is the part of accounts.Service the module asks.
type Accounts interface {
	User(ctx context.Context, id int64) (*accounts.User, error)
	Company(ctx context.Context, id int64) (*accounts.Company, error)
}

// Deps are the module's dependencies; see decoders.Deps.
type Deps struct {
	Accounts Accounts
	Nodes    func() Nodes
	Uplinks  func() Uplinks
	UI       *ui.Env
	Limits   sandbox.Limits
}

// Raw is the key of the decoder that keeps a payload as it came.
const Raw = "raw"

// rawName is the name of raw in the list.
const rawName = "Raw payload (hex)"

// Message IDs of the module (locale catalog keys).
const (
	IDUnknown    = "decoders.unknown"
	IDNotStarted = "decoders.notStarted"
)

// Module is the decoders module.
type Module struct {
	host *kernel.Host
	db   *bun.DB
	log  *slog.Logger
	deps Deps
	ui   *ui.Env

	store    store
	builtins map[string]*builtin
	catalog  []Entry // the built-in decoders by name

	// engine runs the codecs of nodes; scratch runs the codecs of test
	// calls, which come and go (see docs/decisions.md). Both are set by
	// Start and cleared by Stop.
	engine  atomic.Pointer[sandbox.Engine]
	scratch atomic.Pointer[sandbox.Engine]

	codecs  codecCache  // loaded codecs (decode.go)
	limits  limitsCache // limits per company (limits.go)
	started chan struct{}
	stop    chan struct{}
	wg      sync.WaitGroup
}

// New builds the module on the built-in codecs of catalog.
func New(host *kernel.Host, catalog fs.FS, deps Deps) *Module {
	builtins, list, err := loadCatalog(catalog)
	if err != nil {
		panic(fmt.Sprintf("decoders: built-in catalog: %v", err))
	}
	m := &Module{host: host, db: host.DB, log: host.Logger("decoders"), deps: deps, ui: deps.UI,
		builtins: builtins, catalog: list, stop: make(chan struct{})}
	m.codecs.init()
	m.limits.init()
	return m
}

// Name names the module.
func (m *Module) Name() string { return "decoders" }

// Routes registers the module's API and pages.
func (m *Module) Routes(r *web.ModuleRoutes) {
	r.API("GET /decoder", auth.CompanyOrUser, m.list)
	r.API("POST /decoder/test", auth.AdminOrCompanyAdmin, m.test, web.MaxBody(maxTestBody))
	m.customRoutes(r)
	m.limitRoutes(r)
	m.redecodeRoutes(r)
	if m.ui != nil {
		m.pageRoutes(r)
	}
}

// Start starts the sandbox, the sweep of unused codecs and the re-decode
// job. A sandbox that does not start (a binary built without quickjs.wasm)
// does not stop the portal: JavaScript decoders then answer IDNotStarted,
// the ingest keeps payloads raw (and kept for decoding again), raw works.
func (m *Module) Start(ctx context.Context) error {
	// Starting takes about a second at most; the portal's context may end
	// meanwhile (a quick shutdown), which must not look like a broken sandbox.
	ctx = context.WithoutCancel(ctx)
	e, err := sandbox.New(ctx, sandbox.Options{Limits: m.deps.Limits, Logger: m.log})
	if err != nil {
		m.log.Error("decoders run without the sandbox: only raw decodes", "err", err)
		return m.startJobs()
	}
	scratch, err := sandbox.New(ctx, sandbox.Options{Limits: m.deps.Limits, Logger: m.log, PoolSize: 1, IdleTimeout: scratchIdle})
	if err != nil {
		m.log.Error("decoder tests run without the sandbox", "err", err)
	} else {
		m.scratch.Store(scratch)
	}
	m.engine.Store(e)
	m.wg.Add(1)
	go m.sweep()
	return m.startJobs()
}

// Stop closes the sandbox once the calls under way returned.
func (m *Module) Stop(ctx context.Context) error {
	select {
	case <-m.stop:
	default:
		close(m.stop)
	}
	m.wg.Wait()
	var err error
	if e := m.engine.Swap(nil); e != nil {
		err = errors.Join(err, e.Close())
	}
	if e := m.scratch.Swap(nil); e != nil {
		err = errors.Join(err, e.Close())
	}
	m.codecs.clear()
	return err
}

// sweep forgets, every minute, the codecs nobody used for a while, so that
// old versions of custom decoders do not stay in memory.
func (m *Module) sweep() {
	defer m.wg.Done()
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			return
		case now := <-t.C:
			m.codecs.forget(now.Add(-codecIdle))
		}
	}
}
