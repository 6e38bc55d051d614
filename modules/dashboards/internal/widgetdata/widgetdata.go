// Package widgetdata reads the data a dashboard module shows: its series
// as points or trend buckets, their latest values, facts about its company
// and nodes, and the position of its weather forecast. An answer is the
// same whether a signed-in caller or a public link asks (but for the
// company logo, whose route needs a session).
package widgetdata

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Reader reads the data of modules: the nodes, their keys and stored
// series, and the companies' facts.
type Reader struct {
	accounts dashboards.Accounts
	nodes    dashboards.Nodes
	series   dashboards.Series
}

// New returns a Reader that asks acc, nodes and series.
func New(acc dashboards.Accounts, nodes dashboards.Nodes, series dashboards.Series) *Reader {
	return &Reader{accounts: acc, nodes: nodes, series: series}
}

// Limits and defaults of the data reads.
const (
	defaultPoints = 1000
	maxPoints     = 10_000
	// latestAhead is how far past now lastTwo looks: the ingest takes
	// times up to an hour ahead.
	latestAhead = time.Hour + time.Minute
	// readers bounds the series one answer reads at once.
	readers = 4
)

// seriesRef is one series a module shows, with what people see of it.
type seriesRef struct {
	DevEUI string
	Key    string
	Name   string
	Label  string
	Unit   string
}

func (s seriesRef) tsdb(companyID int64) tsdb.Series {
	return tsdb.Series{Company: companyID, DevEUI: strings.ToLower(s.DevEUI), Key: s.Key}
}

// nodeInfo caches the nodes of one answer.
type nodeInfo struct {
	r     *Reader
	ctx   context.Context
	tags  map[string]*nodes.Tag
	keys  map[int64][]nodes.Key
	owner int64
}

func (r *Reader) nodeInfo(ctx context.Context, companyID int64) *nodeInfo {
	return &nodeInfo{r: r, ctx: ctx, tags: map[string]*nodes.Tag{}, keys: map[int64][]nodes.Key{}, owner: companyID}
}

// tag returns the node of a DevEUI if it (still) belongs to the
// dashboard's company.
func (n *nodeInfo) tag(deveui string) (*nodes.Tag, error) {
	if t, ok := n.tags[deveui]; ok {
		return t, nil
	}
	t, err := n.r.nodes.TagByDevEUI(n.ctx, deveui)
	if err != nil {
		if errs.Is(err, errs.NotFound) || errs.Is(err, errs.Invalid) {
			n.tags[deveui] = nil
			return nil, nil
		}
		return nil, err
	}
	if t.CompanyID != n.owner {
		t = nil
	}
	n.tags[deveui] = t
	return t, nil
}

// tagKeys returns the registered keys of a node.
func (n *nodeInfo) tagKeys(t *nodes.Tag) ([]nodes.Key, error) {
	if ks, ok := n.keys[t.ID]; ok {
		return ks, nil
	}
	ks, err := n.r.nodes.TagKeys(n.ctx, t.ID)
	if err != nil {
		return nil, err
	}
	n.keys[t.ID] = ks
	return ks, nil
}

// ref describes the series of a node's key; ok is false when the node is
// not (or no longer) the company's.
func (n *nodeInfo) ref(deveui, key string) (seriesRef, bool, error) {
	t, err := n.tag(deveui)
	if err != nil || t == nil {
		return seriesRef{}, false, err
	}
	ref := seriesRef{DevEUI: t.DevEUI, Key: key, Name: t.Name, Label: key}
	ks, err := n.tagKeys(t)
	if err != nil {
		return ref, false, err
	}
	for _, k := range ks {
		if k.Key == key {
			if k.Label != "" {
				ref.Label = k.Label
			}
			ref.Unit = k.Unit
		}
	}
	return ref, true, nil
}

// seriesOf lists the series a module shows: its "series" attribute (multi
// chart, map), its image-map "positions", the x and y tilt keys, or its
// node's "tagkey" keys (comma separated), else its node's default key.
func (r *Reader) seriesOf(ctx context.Context, wd *dashboards.Widget, companyID int64) ([]seriesRef, error) {
	n := r.nodeInfo(ctx, companyID)
	var want []dashboards.SeriesRef
	switch {
	case wd.Attributes["series"] != "":
		_ = json.Unmarshal([]byte(wd.Attributes["series"]), &want)
	case wd.Attributes["positions"] != "":
		var ps []dashboards.Position
		_ = json.Unmarshal([]byte(wd.Attributes["positions"]), &ps)
		for _, p := range ps {
			want = append(want, dashboards.SeriesRef{DevEUI: p.DevEUI, Key: p.Key})
		}
	case wd.Type == dashboards.TypeTilt && wd.Tag != "":
		for _, k := range []string{wd.Attributes["tagkey_x"], wd.Attributes["tagkey_y"]} {
			if k != "" {
				want = append(want, dashboards.SeriesRef{DevEUI: wd.Tag, Key: k})
			}
		}
	case wd.Tag != "" && wd.Attributes["tagkey"] != "":
		for _, k := range strings.Split(wd.Attributes["tagkey"], ",") {
			if k = strings.TrimSpace(k); k != "" {
				want = append(want, dashboards.SeriesRef{DevEUI: wd.Tag, Key: k})
			}
		}
	case wd.Tag != "":
		t, err := n.tag(wd.Tag)
		if err != nil || t == nil {
			return nil, err
		}
		ks, err := n.tagKeys(t)
		if err != nil {
			return nil, err
		}
		for _, k := range ks {
			if k.Default {
				want = append(want, dashboards.SeriesRef{DevEUI: wd.Tag, Key: k.Key})
			}
		}
	}
	out := []seriesRef{}
	seen := map[dashboards.SeriesRef]bool{}
	for _, w := range want {
		if seen[w] {
			continue
		}
		seen[w] = true
		ref, ok, err := n.ref(w.DevEUI, w.Key)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, ref)
		}
	}
	return out, nil
}

// parallel runs f for 0..n-1 with at most readers at once and returns the
// first error.
func parallel(n int, f func(i int) error) error {
	var wg sync.WaitGroup
	errc := make(chan error, n)
	sem := make(chan struct{}, readers)
	for i := 0; i < n; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			if err := f(i); err != nil {
				errc <- err
			}
		}(i)
	}
	wg.Wait()
	close(errc)
	return <-errc
}
