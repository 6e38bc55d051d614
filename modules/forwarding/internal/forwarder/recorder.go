package forwarder

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/fieldhub/fieldhub/modules/forwarding"
	"github.com/fieldhub/fieldhub/modules/forwarding/internal/store"
	"github.com/fieldhub/fieldhub/modules/ingest"
)

// cacheRefresh is how often the cache of enabled targets is read again,
// for the targets that other instances add or switch on: until then their
// instance queues the uplinks it stores, this one not yet.
const cacheRefresh = 5 * time.Second

// Refresh reads the enabled targets into the cache.
func (f *Forwarder) Refresh(ctx context.Context) error {
	refs, err := store.EnabledTargets(ctx, f.db)
	if err != nil {
		return err
	}
	byApp := make(map[int64][]int64, len(refs))
	for _, r := range refs {
		byApp[r.ApplicationID] = append(byApp[r.ApplicationID], r.ID)
	}
	f.mu.Lock()
	f.byApp = byApp
	f.mu.Unlock()
	return nil
}

// RecordUplinks queues the uplinks of applications with enabled targets,
// one row per uplink and target, in one statement; see ingest.Recorder. A
// batch without such uplinks costs a map lookup per uplink.
func (f *Forwarder) RecordUplinks(ctx context.Context, uplinks []ingest.StoredUplink) error {
	var rows []store.Row
	now := f.now().UTC()
	f.mu.RLock()
	for _, u := range uplinks {
		targets := f.byApp[u.ApplicationID]
		if len(targets) == 0 {
			continue
		}
		body, err := json.Marshal(forwarding.UplinkOf(u))
		if err != nil {
			f.mu.RUnlock()
			return fmt.Errorf("encode uplink of %s: %w", u.DevEUI, err)
		}
		for _, id := range targets {
			rows = append(rows, store.Row{TargetID: id, DevEUI: u.DevEUI, UplinkTime: u.Time.UTC(), Body: string(body), CreatedAt: now})
		}
	}
	f.mu.RUnlock()
	if len(rows) == 0 {
		return nil
	}
	if err := store.Enqueue(ctx, f.db, rows); err != nil {
		// A target that another instance deleted since the last refresh
		// fails the whole statement (its foreign key): read the targets
		// again and queue for those that are left.
		if rerr := f.Refresh(ctx); rerr != nil {
			return err
		}
		if err := store.Enqueue(ctx, f.db, f.stillTargets(rows)); err != nil {
			return err
		}
	}
	f.Wake()
	return nil
}

// stillTargets keeps the rows whose target is still in the cache.
func (f *Forwarder) stillTargets(rows []store.Row) []store.Row {
	f.mu.RLock()
	defer f.mu.RUnlock()
	live := map[int64]bool{}
	for _, ids := range f.byApp {
		for _, id := range ids {
			live[id] = true
		}
	}
	kept := rows[:0]
	for _, r := range rows {
		if live[r.TargetID] {
			kept = append(kept, r)
		}
	}
	return kept
}
