package runner

import (
	"context"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/scripts"
	"github.com/fieldhub/fieldhub/modules/scripts/internal/engine"
	"github.com/fieldhub/fieldhub/modules/scripts/internal/store"
)

// Triggered scripts run on the uplinks of their node, after the uplink's
// commit (ingest.UplinkReceived), in order per node. The bus hands an
// uplink over in the publisher's goroutine, so OnUplink only queues it: a
// worker per node, started when the node has uplinks waiting and gone when
// it has none, runs the node's scripts on them one uplink after another.

// queueLimit bounds the uplinks waiting for one node's worker; beyond it
// uplinks are dropped (and logged) rather than held in memory without end.
const queueLimit = 256

// boundRefresh is how often the set of bound nodes is read again, for the
// changes other instances made.
const boundRefresh = 10 * time.Second

// Dispatcher queues the uplinks of bound nodes for their scripts.
type Dispatcher struct {
	r      *Runner
	mu     sync.Mutex
	bound  map[int64]bool
	queues map[int64][]ingest.UplinkReceived
	ctx    context.Context
	wg     sync.WaitGroup
}

// NewDispatcher returns the dispatcher of r's triggered scripts.
func NewDispatcher(r *Runner) *Dispatcher {
	return &Dispatcher{r: r, bound: map[int64]bool{}, queues: map[int64][]ingest.UplinkReceived{}, ctx: context.Background()}
}

// Start reads the bound nodes and keeps reading them until ctx is done;
// the workers' runs end with ctx too.
func (d *Dispatcher) Start(ctx context.Context) {
	d.mu.Lock()
	d.ctx = ctx
	d.mu.Unlock()
	d.Refresh(ctx)
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		t := time.NewTicker(boundRefresh)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				d.Refresh(ctx)
			}
		}
	}()
}

// Wait waits for the workers and the refresher (after Start's ctx ended).
func (d *Dispatcher) Wait() { d.wg.Wait() }

// Refresh reads again which nodes have enabled triggered scripts.
func (d *Dispatcher) Refresh(ctx context.Context) {
	ids, err := store.BoundTags(ctx, d.r.db)
	if err != nil {
		d.r.log.Error("read the nodes of triggered scripts", "err", err)
		return
	}
	bound := make(map[int64]bool, len(ids))
	for _, id := range ids {
		bound[id] = true
	}
	d.mu.Lock()
	d.bound = bound
	d.mu.Unlock()
}

// OnUplink queues an uplink of a bound node. Values written by people or
// scripts trigger nothing.
func (d *Dispatcher) OnUplink(u ingest.UplinkReceived) {
	if u.Source != "" {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.bound[u.TagID] || d.ctx.Err() != nil {
		return
	}
	q, running := d.queues[u.TagID]
	if len(q) >= queueLimit {
		d.r.log.Warn("uplink dropped: the node's triggered scripts are too far behind", "tag_id", u.TagID)
		return
	}
	d.queues[u.TagID] = append(q, u)
	if !running {
		d.wg.Add(1)
		go d.work(d.ctx, u.TagID)
	}
}

// work runs the node's scripts on its queued uplinks, in order, until none
// is left.
func (d *Dispatcher) work(ctx context.Context, tagID int64) {
	defer d.wg.Done()
	for {
		d.mu.Lock()
		q := d.queues[tagID]
		if len(q) == 0 || ctx.Err() != nil {
			delete(d.queues, tagID)
			d.mu.Unlock()
			return
		}
		u := q[0]
		d.queues[tagID] = q[1:]
		d.mu.Unlock()
		d.runOn(ctx, u)
	}
}

func (d *Dispatcher) runOn(ctx context.Context, u ingest.UplinkReceived) {
	list, err := store.Triggered(ctx, d.r.db, u.TagID)
	if err != nil {
		d.r.log.Error("triggered scripts of an uplink", "tag_id", u.TagID, "err", err)
		return
	}
	trig := &engine.Trigger{TagID: u.TagID, DevEUI: u.DevEUI, Name: u.Name, Time: u.Time, Values: u.Data}
	for i := range list {
		s := &list[i]
		if s.CompanyID != u.CompanyID {
			continue
		}
		if _, err := d.r.Run(ctx, s, scripts.CauseTrigger, trig); err != nil && ctx.Err() == nil {
			d.r.log.Error("run a triggered script", "script", s.ID, "err", err)
		}
	}
}
