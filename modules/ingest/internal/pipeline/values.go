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
// manual value, or a script's. They join a batch as a job prepared here,
// so that they share the uplinks' transaction, key registration and state
// statement, and are announced as an uplink is, with their source.
//
// The node's latest data takes the values when they are not older than its
// latest uplink; its latest time stays the uplink's, since no uplink came
// (an inactivity alarm must still see a silent node as silent), unless the
// node never sent one.
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
	tag, err := p.deps.Tags.TagLatest(ctx, w.TagID)
	if err != nil {
		return ingest.Written{}, err
	}
	if tag.CompanyID != w.CompanyID {
		return ingest.Written{}, errs.New(errs.NotFound, errs.IDNotFound)
	}
	deveui := strings.ToLower(tag.DevEUI)
	j := &job{company: w.CompanyID, tag: tag, prepared: true,
		msg: ingest.Message{Kind: ingest.KindUplink, DevEUI: deveui, Time: at}}
	keys := slices.Sorted(maps.Keys(values))
	for _, k := range keys {
		s := tsdb.Series{Company: w.CompanyID, DevEUI: deveui, Key: k}
		switch v := values[k].(type) {
		case float64:
			j.points = append(j.points, tsdb.Number(s, at, v))
		case string:
			j.points = append(j.points, tsdb.Text(s, at, v))
		}
		if !slices.Contains(tag.Keys, k) {
			j.keys = append(j.keys, k)
		}
	}
	if err := tsdb.ValidatePoints(j.points); err != nil {
		return ingest.Written{}, err
	}
	j.state = writtenState(tag, at, values)
	if err := p.batches.do(ctx, j); err != nil {
		return ingest.Written{}, err
	}
	p.host.Bus.Publish(ctx, ingest.UplinkReceived{CompanyID: w.CompanyID, TagID: tag.ID, DevEUI: deveui, Name: tag.Name,
		Time: at, Data: values, Source: w.Source})
	return ingest.Written{TagID: tag.ID, DevEUI: tag.DevEUI, Time: at, Values: values}, nil
}

// writtenState is the node's state after values written at at: nil when
// they are older than its latest uplink (the series alone keep them).
func writtenState(tag *nodes.Tag, at time.Time, values map[string]any) *nodes.State {
	if tag.LatestTime == nil {
		return &nodes.State{Time: &at, Data: values}
	}
	latest := tag.LatestTime.UTC().Truncate(time.Microsecond)
	if at.Before(latest) {
		return nil
	}
	data := maps.Clone(tag.Data)
	if data == nil {
		data = map[string]any{}
	}
	maps.Copy(data, values)
	s := &nodes.State{Time: &latest, Data: data}
	// The state statement clears a decode error of the uplink at its time
	// unless it is given again.
	if tag.DecodeError != nil && tag.DecodeErrorAt != nil && tag.DecodeErrorAt.Equal(latest) {
		s.DecodeError = tag.DecodeError
	}
	return s
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
