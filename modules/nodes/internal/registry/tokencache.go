package registry

import (
	"sync"
	"time"
)

// lastUseEvery is how often a token's last use is written, so that a busy
// integration does not write on every call.
const lastUseEvery = time.Minute

// tokenCacheFor is how long a looked-up integration token is taken without
// asking the database again. A few tokens carry all the uplinks, so nearly
// every ingest request is spared a query; the price is that a token deleted
// on another instance still works for up to this long (on the instance
// that deletes it, at once).
const tokenCacheFor = 5 * time.Second

// tokenCacheSize bounds the cache: beyond it the cache starts afresh.
const tokenCacheSize = 10_000

// tokenCache keeps recently presented integration tokens by hash. Unknown
// tokens are not kept, so that guessing cannot fill it.
type tokenCache struct {
	mu sync.Mutex
	m  map[string]*cachedToken
}

type cachedToken struct {
	id, company int64
	until       time.Time // the entry's end
	noted       time.Time // the last use written to the database (guarded by the cache's mu)
}

func (c *tokenCache) get(hash string, at time.Time) (*cachedToken, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.m[hash]
	if !ok || !at.Before(t.until) {
		return nil, false
	}
	return t, true
}

func (c *tokenCache) put(hash string, t *cachedToken) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= tokenCacheSize {
		c.m = map[string]*cachedToken{}
	}
	c.m[hash] = t
}

// drop forgets a token, as when it is deleted.
func (c *tokenCache) drop(hash string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, hash)
}

// due reports whether t's use at at should be written, at most once per
// lastUseEvery for each token, and claims the write when so.
func (c *tokenCache) due(t *cachedToken, at time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if at.Sub(t.noted) <= lastUseEvery {
		return false
	}
	t.noted = at
	return true
}
