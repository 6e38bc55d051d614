package engine

import (
	"context"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/modules/alarms/internal/store"
)

// ruleTagsTTL is how long the set of nodes with active rules is kept: a
// rule made or switched on through another instance is evaluated here at
// most this much later; changes through this instance apply at once.
const ruleTagsTTL = 2 * time.Second

// ruleTags keeps the ids of the nodes that have active rules, so that an
// uplink of a node without rules (most of them) costs no query.
type ruleTags struct {
	mu     sync.Mutex
	ids    map[int64]bool
	loaded time.Time
}

// hasRules reports whether node tagID may have active rules. When the set
// cannot be read it answers true: the caller then asks the database.
func (e *Engine) hasRules(ctx context.Context, tagID int64) bool {
	r := &e.ruleTags
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ids == nil || time.Since(r.loaded) > ruleTagsTTL {
		ids, err := store.ActiveTags(ctx, e.db)
		if err != nil {
			e.log.Warn("nodes with alarm rules", "err", err)
			return true
		}
		r.ids, r.loaded = ids, time.Now()
	}
	return r.ids[tagID]
}

// RulesChanged forgets the set of nodes with active rules, after a rule was
// made, changed, switched or deleted through this instance.
func (e *Engine) RulesChanged() {
	e.ruleTags.mu.Lock()
	e.ruleTags.ids = nil
	e.ruleTags.mu.Unlock()
}
