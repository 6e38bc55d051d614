package pipeline

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// WriteValues stores values written to a node's keys (ingest.Values): a
// manual value, or a script's. They join a batch as an uplink does, so
// that they share the uplinks' tag lookup (from memory, by id),
// transaction, key registration and state statement, and are announced as
// an uplink is, with their source.
//
// The node's latest data takes the values when they are not older than its
// latest uplink; its latest time stays the uplink's, since no uplink came
// (an inactivity alarm must still see a silent node as silent), unless the
// node never sent one (nodes.State.Written).
func (p *Pipeline) WriteValues(ctx context.Context, w ingest.Write) (ingest.Written, error) {
	at := w.Time
	if at.IsZero() {
		at = p.now()
	}
	at = at.UTC().Truncate(time.Microsecond)
	values, err := checkWrite(w, at, p.now())
	if err != nil {
		return ingest.Written{}, err
	}
	j := &job{company: w.CompanyID, write: &written{tagID: w.TagID, at: at, values: values}}
	if err := p.batches.do(ctx, j); err != nil {
		return ingest.Written{}, err
	}
	tag := j.tag
	p.host.Bus.Publish(ctx, ingest.UplinkReceived{CompanyID: w.CompanyID, TagID: tag.ID, DevEUI: j.msg.DevEUI, Name: tag.Name,
		Time: at, Data: values, Source: w.Source})
	return ingest.Written{TagID: tag.ID, DevEUI: tag.DevEUI, Time: at, Values: values}, nil
}

// written is what a job of written values writes (WriteValues).
type written struct {
	tagID  int64
	at     time.Time
	values map[string]any
}

// prepareWritten prepares a job of written values once the batch found
// its tag: the points, the keys the tag does not have yet, and the merge
// into the node's latest data.
func prepareWritten(j *job) error {
	w := j.write
	deveui := strings.ToLower(j.tag.DevEUI)
	j.msg = ingest.Message{Kind: ingest.KindUplink, DevEUI: deveui, Time: w.at}
	for _, k := range slices.Sorted(maps.Keys(w.values)) {
		s := tsdb.Series{Company: j.company, DevEUI: deveui, Key: k}
		switch v := w.values[k].(type) {
		case float64:
			j.points = append(j.points, tsdb.Number(s, w.at, v))
		case string:
			j.points = append(j.points, tsdb.Text(s, w.at, v))
		}
		if !slices.Contains(j.tag.Keys, k) {
			j.keys = append(j.keys, k)
		}
	}
	j.state = &nodes.State{Time: &w.at, Data: w.values, Written: true}
	return tsdb.ValidatePoints(j.points)
}

// checkWrite validates a write's keys, values and time and returns the
// values as stored: float64 for numbers and booleans, clean text.
func checkWrite(w ingest.Write, at, now time.Time) (map[string]any, error) {
	v := &errs.Validation{}
	if len(w.Values) == 0 {
		v.Add("key", errs.IDRequired)
	}
	if len(w.Values) > ingest.MaxValues {
		v.AddArgs("value", ingest.IDValuesTooMany, map[string]any{"max": ingest.MaxValues})
	}
	if at.Before(tsdb.MinTime) || !at.Before(tsdb.MaxTime) || at.After(now.Add(ingest.MaxFuture)) {
		v.Add("time", ingest.IDValueTime)
	}
	out := make(map[string]any, len(w.Values))
	for k, x := range w.Values {
		switch {
		case k == "":
			v.Add("key", errs.IDRequired)
			continue
		case ingest.ReservedKey(k):
			v.Add("key", ingest.IDValueKeyReserved)
			continue
		case !ingest.ValidKey(k):
			v.Add("key", ingest.IDValueKeyFormat)
			continue
		}
		value, ok := storable(x)
		if !ok {
			v.Add("value", ingest.IDValueType)
			continue
		}
		out[k] = value
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// storable converts a written value as Flatten converts an uplink's: ok is
// false for anything but a finite number, a string or a boolean.
func storable(x any) (any, bool) {
	switch x.(type) {
	case string, bool, json.Number, float64, float32, int, int64, int32, uint, uint64, uint32:
		flat, err := ingest.Flatten(map[string]any{"v": x})
		return flat["v"], err == nil
	}
	return nil, false
}
