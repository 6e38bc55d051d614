// Package forwarder is the forwarding module's service: the targets of an
// application (targets.go, validate.go), the queue that the ingest's
// batches fill (recorder.go) and the worker that empties it (worker.go)
// through webhooks and MQTT brokers (send.go).
package forwarder

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/egress"
	"github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/kernel/i18n"
	"github.com/fieldhub/fieldhub/kernel/secretbox"
	"github.com/fieldhub/fieldhub/modules/forwarding"
)

// Deps are what the forwarder asks of other modules.
type Deps struct {
	Applications forwarding.Applications
	Notifier     forwarding.Notifier
}

// Forwarder keeps the targets, their queue and their delivery.
type Forwarder struct {
	db           *bun.DB
	bus          events.Bus
	box          *secretbox.Box
	catalogs     *i18n.Catalogs
	log          *slog.Logger
	deps         Deps
	allowPrivate bool
	http         *http.Client
	now          func() time.Time

	// byApp caches the enabled targets of each application, for the
	// recorder: an application without any costs the ingest nothing.
	mu    sync.RWMutex
	byApp map[int64][]int64

	// wake tells the worker that uplinks were queued.
	wake chan struct{}
	// running holds the targets this instance delivers now.
	runMu   sync.Mutex
	running map[int64]bool
	wg      sync.WaitGroup
}

// New returns the forwarder.
func New(host *kernel.Host, deps Deps) *Forwarder {
	c := egress.Client(host.Config.OutboundPrivate)
	c.Timeout = sendTimeout
	return &Forwarder{db: host.DB, bus: host.Bus, box: host.Box, catalogs: host.Catalogs, log: host.Logger("forwarding"), deps: deps,
		allowPrivate: host.Config.OutboundPrivate, http: c, now: time.Now, byApp: map[int64][]int64{},
		wake: make(chan struct{}, 1), running: map[int64]bool{}}
}

// Wake makes the worker look for due deliveries now.
func (f *Forwarder) Wake() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// Run refreshes the cache and delivers until ctx is done, then waits for
// the deliveries under way.
func (f *Forwarder) Run(ctx context.Context) {
	defer f.wg.Wait()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	refresh := time.NewTicker(cacheRefresh)
	defer refresh.Stop()
	for {
		f.deliverDue(ctx, false)
		select {
		case <-ctx.Done():
			return
		case <-refresh.C:
			if err := f.Refresh(ctx); err != nil && ctx.Err() == nil {
				f.log.Warn("refresh the forwarding targets", "err", err)
			}
		case <-tick.C:
		case <-f.wake:
		}
	}
}

// Deliver delivers what is due now and waits for it; see
// forwarding.Module.
func (f *Forwarder) Deliver(ctx context.Context) { f.deliverDue(ctx, true) }
