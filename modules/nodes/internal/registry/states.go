package registry

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/store"
)

// What the ingest records of each uplink (nodes.States): the node's state
// and its data keys, one at a time or batched for a whole group commit.

// UpdateState records what a node reported, as UpdateStates does. A tag
// that does not exist (any more) is not an error: the uplink raced its
// deletion.
func (g *Registry) UpdateState(ctx context.Context, tagID int64, s nodes.State) error {
	return g.UpdateStates(ctx, []nodes.TagState{{TagID: tagID, State: s}})
}

// UpdateStates records what many nodes reported, each as UpdateState does,
// in one statement (or one per repetition, when a tag comes more than once:
// its states then apply in the order given).
func (g *Registry) UpdateStates(ctx context.Context, states []nodes.TagState) error {
	var rounds [][]store.StateRow // a tag at most once in each
	seen := make(map[int64]int, len(states))
	for _, s := range states {
		r, ok, err := newStateRow(s)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		i := seen[s.TagID]
		seen[s.TagID]++
		if i == len(rounds) {
			rounds = append(rounds, nil)
		}
		rounds[i] = append(rounds[i], r)
	}
	for _, round := range rounds {
		if err := store.UpdateStates(ctx, g.db, round); err != nil {
			return fmt.Errorf("update the state of %d tags: %w", len(round), err)
		}
	}
	return nil
}

// newStateRow encodes s; ok is false when it changes nothing.
func newStateRow(s nodes.TagState) (store.StateRow, bool, error) {
	r := store.StateRow{ID: s.TagID, Written: s.Written}
	finite := func(v *float64) *float64 {
		if v == nil || math.IsNaN(*v) || math.IsInf(*v, 0) {
			return nil
		}
		return v
	}
	r.Battery, r.RSSI, r.BatteryVoltage = finite(s.Battery), finite(s.RSSI), finite(s.BatteryVoltage)
	if s.Time != nil {
		t := s.Time.UTC().Truncate(time.Microsecond)
		data := s.Data
		if data == nil {
			data = map[string]any{}
		}
		raw, err := json.Marshal(data)
		if err != nil {
			return r, false, fmt.Errorf("encode latest data of tag %d: %w", s.TagID, err)
		}
		text := string(raw)
		r.Time, r.Data = &t, &text
		if s.Received != nil {
			at := s.Received.UTC().Truncate(time.Microsecond)
			r.Received = &at
		}
		if s.DecodeError != nil {
			raw, err := json.Marshal(s.DecodeError)
			if err != nil {
				return r, false, fmt.Errorf("encode decode error of tag %d: %w", s.TagID, err)
			}
			text := string(raw)
			r.DecodeError = &text
		}
	}
	return r, r.Time != nil || r.Battery != nil || r.RSSI != nil || r.BatteryVoltage != nil, nil
}

// EnsureKeys registers the keys of a tag that are not known yet, as the
// ingest does for the keys of each decoded uplink. Malformed names are
// skipped.
func (g *Registry) EnsureKeys(ctx context.Context, tagID int64, keys []string) error {
	for _, name := range keys {
		if !ValidKey(name) {
			continue
		}
		if err := store.EnsureKey(ctx, g.db, tagID, name); err != nil {
			return err
		}
	}
	return nil
}

// EnsureKeysOfTags is EnsureKeys for many tags (by id) in one statement.
// Malformed names are skipped, and so are tags that do not exist (any
// more).
func (g *Registry) EnsureKeysOfTags(ctx context.Context, keys map[int64][]string) error {
	var pairs []store.KeyOfTag
	for id, names := range keys {
		for _, k := range names {
			if ValidKey(k) {
				pairs = append(pairs, store.KeyOfTag{TagID: id, Key: k})
			}
		}
	}
	return store.EnsureKeysOfTags(ctx, g.db, pairs)
}
