package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// job is one uplink or device status of a company in a batch (commit.go).
// An uplink whose payload a codec decodes goes through two batches: the
// first looks its tag up and hands it back to its request, which decodes
// it within its company's decode budget, and the second writes it.
type job struct {
	company int64
	msg     ingest.Message // KindUplink or KindStatus
	// received is when the message arrived; zero for an uplink decoded
	// again, which did not arrive now.
	received time.Time

	// The outcome of a batch, set before done is closed.

	// tag is the DevEUI's tag, nil when the company has none: nothing is
	// stored, and an uplink goes to the pool.
	tag *nodes.Tag
	// decode is set when the batch handed the job back for its request to
	// decode: the uplink is not stored yet.
	decode bool
	// prepared is set by the request once it decoded and prepared the
	// job: the next batch only writes it.
	prepared bool
	// write is set on a job of values written to a node: the batch looks
	// its tag up by id, rather than by the message's DevEUI.
	write *written
	res   ingest.UplinkResult    // of an uplink
	event *ingest.UplinkReceived // of an uplink, for the request to publish
	err   error
	done  chan struct{}

	// decodeErrors are what the decoder failed with or reported as errors,
	// kept in the uplink's record (uplinkPoint); switchOff is set when this
	// uplink's decode switched its decoder off.
	decodeErrors []string
	switchOff    *decoders.SwitchOff

	// What the batch writes for the job.
	points []tsdb.Point
	keys   []string // keys the tag does not have yet
	state  *nodes.State
}

// finish sets j's outcome: the batch does nothing with j afterwards.
func (j *job) finish(err error) {
	j.err = err
	close(j.done)
}

// devEUI is the DevEUI the job is about, lower case.
func (j *job) devEUI() string {
	if j.msg.Uplink != nil {
		return j.msg.Uplink.DevEUI
	}
	return j.msg.DevEUI
}

// runBatch carries out a batch of jobs: it looks the tags of the new ones
// up at once, hands back to their requests the uplinks a codec decodes
// (needsCodec: no batch waits for a codec, so that one company's slow
// codec holds up that company's uplinks alone) and prepares the others,
// then writes the points of those and of the jobs their requests prepared
// in one transaction, registers their new keys in one statement and
// updates their nodes' states in one statement. A step that fails for a batch of
// several is done again job by job, so that one job's problem (a value the
// database refuses, a tag deleted meanwhile) is not every job's; a job is
// answered once every step is through with it. Each step has a context of
// its own: a batch belongs to no single request, so no request's
// cancellation may cut it short.
//
// On PostgreSQL the nodes' states are written at the same time as the
// points, on another connection: each commit waits for a WAL flush, and the
// two flushes then overlap instead of adding up. A job whose points fail is
// then answered with the error although its node's state may already show
// it (docs/decisions.md, "Decoders and ingest"). SQLite takes one writer at a
// time, so there the states are written after the points, for the jobs
// whose points were stored, rather than queue for its lock.
func (p *Pipeline) runBatch(batch []*job) {
	var fresh, live []*job
	for _, j := range batch {
		if j.prepared {
			live = append(live, j)
		} else {
			fresh = append(fresh, j)
		}
	}
	live = append(live, p.lookUp(fresh)...)
	if len(live) == 0 {
		return
	}
	pointsErr := make([]error, len(live))
	stateErr := make([]error, len(live))
	var wg sync.WaitGroup
	if p.overlap {
		wg.Go(func() { p.updateStates(live, stateErr) })
	}
	p.writePoints(live, pointsErr)
	p.registerKeys(live, pointsErr) // the keys of stored points only
	p.record(live, pointsErr)       // of stored uplinks only, before anyone is told of them
	if !p.overlap {
		copy(stateErr, pointsErr) // a job whose points failed changes nothing more
		p.updateStates(live, stateErr)
	}
	wg.Wait()
	for i, j := range live {
		j.finish(cmp.Or(pointsErr[i], stateErr[i]))
	}
}

// stepContext is the context of one step of a batch.
func stepContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), batchTimeout)
}

// lookUp finds the tags of new jobs and prepares the jobs of the company's
// tags that need no codec; it finishes the others at once: those without a
// tag of the company, those that cannot be prepared, and the uplinks a
// codec decodes (with their tag, and decode set: their requests decode
// them and bring them back). An uplink needs the tag's identity, decoder
// and keys, which the nodes module keeps in memory; a device status reads
// the tag's latest data too (prepare), so its tag is read from the
// database.
func (p *Pipeline) lookUp(batch []*job) []*job {
	if len(batch) == 0 {
		return nil
	}
	ctx, cancel := stepContext()
	defer cancel()
	var uplinks, statuses []string
	var writes []int64
	for _, j := range batch {
		switch eui := j.devEUI(); {
		case j.write != nil:
			writes = append(writes, j.write.tagID)
		case eui == "":
		case j.msg.Kind == ingest.KindUplink:
			uplinks = append(uplinks, eui)
		default:
			statuses = append(statuses, eui)
		}
	}
	cached, byID, err := p.deps.Tags.CachedTags(ctx, uplinks, writes)
	fresh := map[string]*nodes.Tag{}
	if err == nil && len(statuses) > 0 {
		fresh, err = p.deps.Tags.TagsByDevEUI(ctx, statuses)
	}
	if err != nil {
		for _, j := range batch {
			j.finish(fmt.Errorf("look up the tags of %d messages: %w", len(batch), err))
		}
		return nil
	}
	live := make([]*job, 0, len(batch))
	for _, j := range batch {
		if j.write != nil {
			// Another company's node is as absent as a missing one.
			t := byID[j.write.tagID]
			if t == nil || t.CompanyID != j.company {
				j.finish(errs.New(errs.NotFound, errs.IDNotFound))
				continue
			}
			j.tag = t
			if err := prepareWritten(j); err != nil {
				j.finish(err)
				continue
			}
			live = append(live, j)
			continue
		}
		eui := j.devEUI()
		tags := cached
		if j.msg.Kind != ingest.KindUplink {
			tags = fresh
		}
		t := tags[nodes.NormaliseEUI(eui)]
		// A DevEUI without a tag and one of another company's tag look the
		// same, so that a token learns nothing about other companies.
		if eui == "" || t == nil || t.CompanyID != j.company {
			j.finish(nil)
			continue
		}
		j.tag = t
		if needsCodec(j) {
			j.decode = true
			j.finish(nil)
			continue
		}
		if err := p.prepare(ctx, j); err != nil {
			j.finish(err)
			continue
		}
		live = append(live, j)
	}
	return live
}

// needsCodec reports whether an uplink's payload is decoded by a codec
// (decode): its request decodes it, outside the batches.
func needsCodec(j *job) bool {
	u := j.msg.Uplink
	return u != nil && len(u.Payload) > 0 && j.tag.Decoder != decoders.Raw
}

// prepare decodes a job's message into the points, keys and state that the
// batch writes for it.
func (p *Pipeline) prepare(ctx context.Context, j *job) error {
	var values map[string]any
	if j.msg.Kind == ingest.KindUplink {
		u := j.msg.Uplink
		d, err := p.decode(ctx, j.tag, u, j.msg.DecodeWait)
		if err != nil {
			return err
		}
		values, j.decodeErrors, j.switchOff = d.values, d.errors, d.switchOff
		warnings := d.warnings
		if u.Values != nil {
			own, err := ingest.Flatten(u.Values)
			if err != nil {
				return err
			}
			maps.Copy(values, own)
		}
		if u.Battery != nil {
			setDefault(values, "battery", *u.Battery)
		}
		if u.RSSI != nil {
			setDefault(values, "rssi", *u.RSSI)
		}
		if u.SNR != nil {
			setDefault(values, "snr", *u.SNR)
		}
		t := u.Time
		percent, volts := nodes.BatteryOf(values)
		j.state = &nodes.State{Time: &t, Data: values, RSSI: u.RSSI, Battery: percent, BatteryVoltage: volts}
		if !j.received.IsZero() {
			j.state.Received = &j.received
		}
		j.state.DecodeError = decodeError(j)
		j.event = &ingest.UplinkReceived{CompanyID: j.company, TagID: j.tag.ID, DevEUI: u.DevEUI, Name: j.tag.Name, Time: t, Data: values,
			FCnt: u.FCnt, SpreadingFactor: u.SpreadingFactor, Receptions: u.Receptions}
		j.res = ingest.UplinkResult{DevEUI: u.DevEUI, TagID: j.tag.ID, Time: &t, Warnings: warnings}
	} else {
		s := j.msg.Status
		values = map[string]any{}
		if s.BatteryLevel != nil {
			values["batteryLevel"] = *s.BatteryLevel
		}
		if s.Margin != nil {
			values["margin"] = *s.Margin
		}
		// The network server's battery level becomes the tag's battery
		// (percent) only for nodes whose uplinks report no percent of
		// their own: a decoder's reading is more precise than the
		// network server's estimate, and the two would alternate.
		if s.BatteryLevel != nil {
			if own, _ := nodes.BatteryOf(j.tag.Data); own == nil {
				if level := nodes.BatteryPercent(*s.BatteryLevel); level != nil {
					j.state = &nodes.State{Battery: level}
				}
			}
		}
	}
	keys := slices.Sorted(maps.Keys(values))
	j.res.Keys = keys
	j.points = make([]tsdb.Point, 0, len(keys))
	for _, k := range keys {
		s := tsdb.Series{Company: j.company, DevEUI: j.devEUI(), Key: k}
		switch v := values[k].(type) {
		case float64:
			j.points = append(j.points, tsdb.Number(s, j.msg.Time, v))
		case string:
			j.points = append(j.points, tsdb.Text(s, j.msg.Time, v))
		}
		if !slices.Contains(j.tag.Keys, k) {
			j.keys = append(j.keys, k)
		}
	}
	if p, ok := uplinkPoint(j); ok {
		j.points = append(j.points, p)
	}
	// A bad point fails its own job here rather than the batch's write.
	return tsdb.ValidatePoints(j.points)
}

// writePoints writes the points of the jobs in one tsdb.Store.Write and
// sets the error of each job whose points were not stored.
func (p *Pipeline) writePoints(live []*job, failed []error) {
	n := 0
	for _, j := range live {
		n += len(j.points)
	}
	if n == 0 {
		return
	}
	points := make([]tsdb.Point, 0, n)
	for _, j := range live {
		points = append(points, j.points...)
	}
	err := p.writeAlone(points)
	if err == nil {
		return
	}
	many := len(live) > 1
	if many {
		p.log.Warn("batch of uplinks failed, writing them one by one", "uplinks", len(live), "points", n, "err", err)
	}
	for i, j := range live {
		if len(j.points) == 0 {
			continue
		}
		if many {
			err = p.writeAlone(j.points)
		}
		if err != nil {
			if errs.KindOf(err) != errs.Invalid && errs.KindOf(err) != errs.Unavailable {
				err = fmt.Errorf("store %d values of %s: %w", len(j.points), j.devEUI(), err)
			}
			failed[i] = err
		}
	}
}

func (p *Pipeline) writeAlone(points []tsdb.Point) error {
	ctx, cancel := stepContext()
	defer cancel()
	return p.deps.TSDB.Write(ctx, slices.Clip(points))
}

// registerKeys registers the keys the jobs' tags do not have yet, most
// often none, in one statement, for the jobs without an error yet, and sets
// the error of each job whose keys were not registered.
func (p *Pipeline) registerKeys(live []*job, failed []error) {
	ctx, cancel := stepContext()
	defer cancel()
	missing := map[int64][]string{}
	for i, j := range live {
		if len(j.keys) > 0 && failed[i] == nil {
			missing[j.tag.ID] = append(missing[j.tag.ID], j.keys...)
		}
	}
	if len(missing) == 0 {
		return
	}
	if err := p.deps.NodeData.EnsureKeysOfTags(ctx, missing); err == nil {
		return
	}
	for i, j := range live {
		if len(j.keys) > 0 && failed[i] == nil {
			if err := p.deps.NodeData.EnsureKeys(ctx, j.tag.ID, j.keys); err != nil {
				failed[i] = fmt.Errorf("register keys of tag %d: %w", j.tag.ID, err)
			}
		}
	}
}

// updateStates records the nodes' states in one statement, in the order of
// the jobs, for the jobs without an error yet, and sets the error of each
// job whose state was not recorded.
func (p *Pipeline) updateStates(live []*job, failed []error) {
	ctx, cancel := stepContext()
	defer cancel()
	states := make([]nodes.TagState, 0, len(live))
	for i, j := range live {
		if j.state != nil && failed[i] == nil {
			states = append(states, nodes.TagState{TagID: j.tag.ID, State: *j.state})
		}
	}
	if len(states) == 0 {
		return
	}
	err := p.deps.NodeData.UpdateStates(ctx, states)
	if err == nil {
		return
	}
	for i, j := range live {
		if j.state == nil || failed[i] != nil {
			continue
		}
		if len(states) > 1 {
			err = p.deps.NodeData.UpdateStates(ctx, []nodes.TagState{{TagID: j.tag.ID, State: *j.state}})
		}
		if err != nil {
			failed[i] = fmt.Errorf("update state of tag %d: %w", j.tag.ID, err)
		}
	}
}

// prepareAll prepares the jobs of a re-decode batch (prepare: decoding,
// points, keys, state) on up to GOMAXPROCS goroutines, each decode within
// the company's decode budget. It finishes the jobs that cannot be
// prepared and returns the others, in their order.
func (p *Pipeline) prepareAll(ctx context.Context, batch []*job) []*job {
	failed := make([]error, len(batch))
	if workers := min(runtime.GOMAXPROCS(0), len(batch)); workers <= 1 {
		for i, j := range batch {
			failed[i] = p.prepare(ctx, j)
		}
	} else {
		var wg sync.WaitGroup
		next := make(chan int)
		for range workers {
			wg.Go(func() {
				for i := range next {
					failed[i] = p.prepare(ctx, batch[i])
				}
			})
		}
		for i := range batch {
			next <- i
		}
		close(next)
		wg.Wait()
	}
	live := batch[:0]
	for i, j := range batch {
		if failed[i] != nil {
			j.finish(failed[i])
			continue
		}
		live = append(live, j)
	}
	return live
}

// record hands the uplinks whose points were stored to the registered
// Recorders (ingest.Recorder), in the order of the batch, and sets the
// error of each job of a Recorder that failed: its request is answered
// with it, so that its sender sends it again.
func (p *Pipeline) record(live []*job, failed []error) {
	if len(p.recorders) == 0 {
		return
	}
	var stored []ingest.StoredUplink
	var idx []int
	for i, j := range live {
		if failed[i] != nil || j.event == nil {
			continue
		}
		u := ingest.StoredUplink{UplinkReceived: *j.event, ApplicationID: j.tag.ApplicationID}
		if up := j.msg.Uplink; up != nil {
			u.Payload, u.FPort = up.Payload, up.FPort
		}
		stored = append(stored, u)
		idx = append(idx, i)
	}
	if len(stored) == 0 {
		return
	}
	ctx, cancel := stepContext()
	defer cancel()
	for _, r := range p.recorders {
		if err := r.RecordUplinks(ctx, stored); err != nil {
			p.log.Error("record stored uplinks", "uplinks", len(stored), "err", err)
			for _, i := range idx {
				failed[i] = fmt.Errorf("record the stored uplink of %s: %w", live[i].devEUI(), err)
			}
			return
		}
	}
}
