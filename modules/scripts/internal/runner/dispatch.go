package runner

import (
	"context"
	"slices"
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
// The enabled triggered scripts are kept in memory, so that an uplink
// costs no query to find its scripts: read again every boundRefresh, for
// the changes of other instances, and at once after a change through this
// instance (the library's) or a switch-off.

// queueLimit bounds the uplinks waiting for one node's worker; beyond it
// uplinks are dropped (and logged) rather than held in memory without end.
const queueLimit = 256

// boundRefresh is how often the triggered scripts are read again: a
// script made, changed or switched through another instance runs here at
// most this much later. A refresh reads the scripts' ids and times of
// change, and the content of only those that changed.
const boundRefresh = 2 * time.Second

// Dispatcher queues the uplinks of bound nodes for their scripts.
type Dispatcher struct {
	r  *Runner
	mu sync.Mutex
	// byTag are the enabled triggered scripts by node, in id order; the
	// scripts are never changed, only replaced.
	byTag  map[int64][]*scripts.Script
	queues map[int64][]ingest.UplinkReceived
	ctx    context.Context
	wg     sync.WaitGroup
	// refreshing lets one refresh run at a time.
	refreshing sync.Mutex
}

// NewDispatcher returns the dispatcher of r's triggered scripts.
func NewDispatcher(r *Runner) *Dispatcher {
	d := &Dispatcher{r: r, byTag: map[int64][]*scripts.Script{}, queues: map[int64][]ingest.UplinkReceived{}, ctx: context.Background()}
	r.runs.changed = func() {
		d.mu.Lock()
		ctx := d.ctx
		d.mu.Unlock()
		if ctx.Err() == nil { // not on the way down
			d.Refresh(ctx)
		}
	}
	return d
}

// Start reads the triggered scripts and keeps reading them until ctx is
// done; the workers' runs end with ctx too.
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

// Refresh reads again which triggered scripts are enabled, and the
// content of those that changed.
func (d *Dispatcher) Refresh(ctx context.Context) {
	d.refreshing.Lock()
	defer d.refreshing.Unlock()
	heads, err := store.TriggeredHeads(ctx, d.r.db)
	if err != nil {
		d.r.log.Error("read the triggered scripts", "err", err)
		return
	}
	cached := map[int64]*scripts.Script{}
	d.mu.Lock()
	for _, list := range d.byTag {
		for _, s := range list {
			cached[s.ID] = s
		}
	}
	d.mu.Unlock()
	var changed []int64
	for _, h := range heads {
		if s := cached[h.ID]; s == nil || !s.UpdatedAt.Equal(h.UpdatedAt) {
			changed = append(changed, h.ID)
		}
	}
	for part := range slices.Chunk(changed, 500) {
		list, err := store.ByID(ctx, d.r.db, part)
		if err != nil {
			d.r.log.Error("read the triggered scripts", "err", err)
			return
		}
		for i := range list {
			cached[list[i].ID] = &list[i]
		}
	}
	byTag := make(map[int64][]*scripts.Script, len(heads))
	for _, h := range heads {
		// A script changed between the two reads is taken as the second
		// read found it, if it is still an enabled triggered script.
		s := cached[h.ID]
		if s == nil || !s.Enabled || s.Type != scripts.TypeTriggered || s.BoundTag == nil {
			continue
		}
		byTag[*s.BoundTag] = append(byTag[*s.BoundTag], s)
	}
	d.mu.Lock()
	d.byTag = byTag
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
	if len(d.byTag[u.TagID]) == 0 || d.ctx.Err() != nil {
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
		list := d.byTag[tagID]
		d.mu.Unlock()
		d.runOn(ctx, u, list)
	}
}

func (d *Dispatcher) runOn(ctx context.Context, u ingest.UplinkReceived, list []*scripts.Script) {
	trig := &engine.Trigger{TagID: u.TagID, DevEUI: u.DevEUI, Name: u.Name, Time: u.Time, Values: u.Data}
	for _, s := range list {
		if s.CompanyID != u.CompanyID {
			continue
		}
		if _, err := d.r.Run(ctx, s, scripts.CauseTrigger, trig); err != nil && ctx.Err() == nil {
			d.r.log.Error("run a triggered script", "script", s.ID, "err", err)
		}
	}
}
