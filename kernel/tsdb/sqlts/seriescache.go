package sqlts

import (
	"sync"

	"github.com/fieldhub/fieldhub/kernel/tsdb"
)

// seriesCacheSize bounds the series ids a store keeps in memory: about 100
// bytes each, so 10 MiB at most. A full cache is emptied and fills again
// from the next writes' lookups.
const seriesCacheSize = 100_000

// seriesCache maps series to the ids of their rows, as found committed.
type seriesCache struct {
	mu  sync.RWMutex
	ids map[tsdb.Series]int64
}

// lookUp puts the known ids of series into ids and returns the others.
func (c *seriesCache) lookUp(series []tsdb.Series, ids map[tsdb.Series]int64) (unknown []tsdb.Series) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, se := range series {
		if id, ok := c.ids[se]; ok {
			ids[se] = id
		} else {
			unknown = append(unknown, se)
		}
	}
	return unknown
}

// add keeps found, ids of rows that were committed when they were read.
func (c *seriesCache) add(found map[tsdb.Series]int64) {
	if len(found) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ids == nil || len(c.ids)+len(found) > seriesCacheSize {
		c.ids = make(map[tsdb.Series]int64, len(found))
	}
	for se, id := range found {
		c.ids[se] = id
	}
}
