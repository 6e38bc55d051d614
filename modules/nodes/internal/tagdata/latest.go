package tagdata

import (
	"context"
	"net/http"
	"sync"

	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/access"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/store"
)

// currents answers GET /tag/{tagId}/currents: the latest value of every key
// of the tag, null for a key without one.
func (a *API) currents(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	t, err := a.pathTag(ctx, r)
	if err != nil {
		return err
	}
	keys, err := store.KeysOfTags(ctx, a.db, []int64{t.ID})
	if err != nil {
		return err
	}
	items := make([]latestItem, len(keys))
	for i, k := range keys {
		items[i] = latestItem{tag: t, key: k}
	}
	out, err := a.latestValues(ctx, items, true)
	if err != nil {
		return err
	}
	return web.OK(w, out)
}

// latestItem is one series whose latest value an answer lists.
type latestItem struct {
	tag *nodes.Tag
	key nodes.Key
}

// latestValues reads the latest value of each item, a few at a time, and returns
// them in the items' order; without keepEmpty, items without a value are
// left out.
func (a *API) latestValues(ctx context.Context, items []latestItem, keepEmpty bool) ([]TagDatum, error) {
	type result struct {
		p   tsdb.Point
		ok  bool
		err error
	}
	results := make([]result, len(items))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(latestWorkers, len(items)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				p, ok, err := a.series.Latest(ctx, seriesOf(items[i].tag, items[i].key.Key))
				results[i] = result{p, ok, err}
			}
		}()
	}
	for i := range items {
		next <- i
	}
	close(next)
	wg.Wait()
	out := make([]TagDatum, 0, len(items))
	for i, res := range results {
		if res.err != nil {
			return nil, res.err
		}
		if res.ok || keepEmpty {
			out = append(out, datum(items[i].tag, items[i].key, res.p, res.ok))
		}
	}
	return out, nil
}

// companyTagsAndKeys loads the tags of the path's company, by name, and
// their keys by tag id.
func (a *API) companyTagsAndKeys(ctx context.Context, r *http.Request) ([]*nodes.Tag, map[int64][]nodes.Key, error) {
	company, err := access.VisibleCompanyID(ctx, r, a.accounts)
	if err != nil {
		return nil, nil, err
	}
	tags, err := store.Tags(ctx, a.db, company)
	if err != nil {
		return nil, nil, err
	}
	ids := make([]int64, len(tags))
	for i, t := range tags {
		ids[i] = t.ID
	}
	keys, err := store.KeysOfTags(ctx, a.db, ids)
	if err != nil {
		return nil, nil, err
	}
	byTag := map[int64][]nodes.Key{}
	for _, k := range keys {
		byTag[k.TagID] = append(byTag[k.TagID], k)
	}
	return tags, byTag, nil
}

// companyDefaults answers GET /companies/{companyId}/defaults: each tag's
// default key with its latest value (null when it has none). Tags without a
// default key are left out.
func (a *API) companyDefaults(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	tags, keys, err := a.companyTagsAndKeys(ctx, r)
	if err != nil {
		return err
	}
	var items []latestItem
	for _, t := range tags {
		for _, k := range keys[t.ID] {
			if k.Default {
				items = append(items, latestItem{tag: t, key: k})
			}
		}
	}
	out, err := a.latestValues(ctx, items, true)
	if err != nil {
		return err
	}
	return web.OK(w, out)
}

// companyLatest answers GET /companies/{companyId}/latesttagdata: the
// latest value of every key of every tag of the company that has one, each
// marked whether it is its tag's default key.
func (a *API) companyLatest(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	tags, keys, err := a.companyTagsAndKeys(ctx, r)
	if err != nil {
		return err
	}
	var items []latestItem
	for _, t := range tags {
		for _, k := range keys[t.ID] {
			items = append(items, latestItem{tag: t, key: k})
		}
	}
	out, err := a.latestValues(ctx, items, false)
	if err != nil {
		return err
	}
	return web.OK(w, out)
}
