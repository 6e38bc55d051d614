package engine

import (
	"context"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/modules/alarms"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/store"
)

// ruleCacheTTL is how long the active rules are kept: a rule made or
// switched on through another instance is evaluated here at most this much
// later; changes through this instance apply at once.
const ruleCacheTTL = 2 * time.Second

// ruleCache keeps the active rules by node, with their conditions and the
// state the last batch left them in, so that a batch of uplinks costs no
// query to read them. A state another instance (or the sweep) moved
// meanwhile is caught by the state version that the batch's write checks
// (store.SaveEvaluations); the rule is then evaluated under its lock and
// the cache read again.
type ruleCache struct {
	mu     sync.Mutex
	byTag  map[int64][]*alarms.Alarm
	loaded time.Time
}

// rulesOf answers the active rules of the nodes tagIDs, by node. It reads
// them all again when they are older than ruleCacheTTL or were forgotten.
func (e *Engine) rulesOf(ctx context.Context, tagIDs []int64) (map[int64][]*alarms.Alarm, error) {
	c := &e.rules
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byTag == nil || time.Since(c.loaded) > ruleCacheTTL {
		list, err := store.ActiveRules(ctx, e.db)
		if err != nil {
			return nil, err
		}
		c.byTag, c.loaded = map[int64][]*alarms.Alarm{}, time.Now()
		for _, a := range list {
			c.byTag[a.TagID] = append(c.byTag[a.TagID], a)
		}
	}
	out := make(map[int64][]*alarms.Alarm, len(tagIDs))
	for _, id := range tagIDs {
		if rules := c.byTag[id]; len(rules) > 0 {
			out[id] = rules
		}
	}
	return out, nil
}

// RulesChanged forgets the active rules, after a rule was made, changed,
// switched or deleted through this instance, or evaluated under its lock.
func (e *Engine) RulesChanged() {
	e.rules.mu.Lock()
	e.rules.byTag = nil
	e.rules.mu.Unlock()
}
