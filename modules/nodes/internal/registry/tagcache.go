package registry

import (
	"context"
	"sync"

	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/store"
)

// tagCache keeps what the ingest looks up for every uplink: tags by DevEUI,
// without their state, and by id for the values written to nodes
// (CachedTags). It is valid for one generation
// of the tags' identities (store.TagGeneration), read at the start of each
// lookup: a change committed on any instance before a lookup began is seen
// by it, as it would be by a query. Unknown DevEUIs are not kept, so a tag created later is found.
type tagCache struct {
	mu   sync.Mutex
	gen  int64
	tags map[string]*nodes.Tag
	byID map[int64]*nodes.Tag
}

// tagCacheMax bounds the tags kept; the cache is emptied when it is full.
const tagCacheMax = 50_000

// CachedTags is TagsByDevEUI for the ingest, from memory, with one read of
// the generation: the tags of the uplinks' DevEUIs, keyed as TagsByDevEUI
// keys them, and of the ids of the nodes values are written to. Each tag's
// identity, decoder and keys are as committed when the call began, but
// what uplinks change (latest data and time, battery, signal, alarm) and
// the AppKey are left empty. The tags are shared between calls: callers
// must not change them.
func (g *Registry) CachedTags(ctx context.Context, deveuis []string, ids []int64) (map[string]*nodes.Tag, map[int64]*nodes.Tag, error) {
	byEUI := make(map[string]*nodes.Tag, len(deveuis))
	byID := make(map[int64]*nodes.Tag, len(ids))
	if len(deveuis) == 0 && len(ids) == 0 {
		return byEUI, byID, nil
	}
	gen, err := store.TagGeneration(ctx, g.db)
	if err != nil {
		return nil, nil, err
	}
	var kept []*nodes.Tag
	if missing := g.tagCache.lookUp(gen, deveuis, byEUI); len(missing) > 0 {
		found, err := g.TagsByDevEUI(ctx, missing)
		if err != nil {
			return nil, nil, err
		}
		for eui, t := range found {
			byEUI[eui] = identityOf(t)
			kept = append(kept, byEUI[eui])
		}
	}
	if missing := g.tagCache.lookUpIDs(gen, ids, byID); len(missing) > 0 {
		rows, err := store.TagsWithKeysByID(ctx, g.db, missing)
		if err != nil {
			return nil, nil, err
		}
		found, err := g.withKeys(ctx, rows, false)
		if err != nil {
			return nil, nil, err
		}
		for _, t := range found {
			byID[t.ID] = identityOf(t)
			kept = append(kept, byID[t.ID])
		}
	}
	g.tagCache.keep(gen, kept)
	return byEUI, byID, nil
}

// lookUp puts the kept tags of deveuis into out and returns the DevEUIs it
// has none for. A generation newer than the cache's empties it; an older
// one (a lookup that began before another's) uses nothing kept.
func (c *tagCache) lookUp(gen int64, deveuis []string, out map[string]*nodes.Tag) (missing []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.renew(gen)
	for _, d := range deveuis {
		eui := nodes.NormaliseEUI(d)
		if t, ok := c.tags[eui]; ok && gen == c.gen {
			out[eui] = t
		} else {
			missing = append(missing, d)
		}
	}
	return missing
}

// lookUpIDs is lookUp by tag id; it returns the distinct ids it has no
// tag for.
func (c *tagCache) lookUpIDs(gen int64, ids []int64, out map[int64]*nodes.Tag) (missing []int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.renew(gen)
	asked := make(map[int64]bool, len(ids))
	for _, id := range ids {
		if asked[id] {
			continue
		}
		asked[id] = true
		if t, ok := c.byID[id]; ok && gen == c.gen {
			out[id] = t
		} else {
			missing = append(missing, id)
		}
	}
	return missing
}

// renew empties the cache for a generation newer than its own; c.mu is
// held.
func (c *tagCache) renew(gen int64) {
	if gen > c.gen || c.tags == nil {
		c.gen, c.tags, c.byID = gen, make(map[string]*nodes.Tag), make(map[int64]*nodes.Tag)
	}
}

// keep adds tags read in generation gen, unless the cache has moved on.
func (c *tagCache) keep(gen int64, tags []*nodes.Tag) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if len(c.tags)+len(tags) > tagCacheMax {
		c.tags, c.byID = make(map[string]*nodes.Tag), make(map[int64]*nodes.Tag)
	}
	for _, t := range tags {
		c.tags[t.DevEUI] = t
		c.byID[t.ID] = t
	}
}

// identityOf is a copy of t without its state and secrets.
func identityOf(t *nodes.Tag) *nodes.Tag {
	c := *t
	c.SealedAppKey, c.AppKey = "", ""
	c.Battery, c.BatteryVoltage, c.VDD, c.RSSI, c.ActiveAlarm = nil, nil, nil, nil, false
	c.LatestTime, c.LatestData, c.Data, c.LatestValue, c.ActiveData = nil, "", nil, nil, false
	return &c
}
