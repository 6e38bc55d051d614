package core

import (
	"context"
	"encoding/hex"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/parse"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Every uplink of a node is kept as it came, beside its decoded values: one
// text point under decoders.UplinkKey holding the payload, the port, the
// radio values and the decode errors (decoders.UplinkRecord), written in the
// same tsdb.Store.Write as the values. It is not a key of the node (never
// registered, not in the node's data or the live feed), and it is what
// Redecode decodes again after the node's decoder changed.

// Limits of what an uplink's record keeps of its decode errors: a codec may
// answer a megabyte of them, the record is written for every uplink.
const (
	recordErrors     = 5
	recordErrorBytes = 300
)

// uplinkPoint is the record point of a prepared uplink job; ok is false for
// a device status and for an uplink without a payload (a generic body with
// values alone), which has nothing to decode again and whose radio values
// are stored as rssi and snr already.
func uplinkPoint(j *job) (tsdb.Point, bool) {
	u := j.msg.Uplink
	if u == nil || len(u.Payload) == 0 {
		return tsdb.Point{}, false
	}
	rec := decoders.UplinkRecord{Payload: hex.EncodeToString(u.Payload), FPort: u.FPort, RSSI: u.RSSI, SNR: u.SNR}
	for i, e := range j.decodeErrors {
		if i == recordErrors {
			rec.Errors = append(rec.Errors, fmt.Sprintf("… %d more", len(j.decodeErrors)-i))
			break
		}
		rec.Errors = append(rec.Errors, clipText(e, recordErrorBytes))
	}
	s := tsdb.Series{Company: j.company, DevEUI: j.devEUI(), Key: decoders.UplinkKey}
	return tsdb.Text(s, j.msg.Time, rec.Text()), true
}

// clipText cuts s to at most n bytes of valid UTF-8, without NUL (which
// PostgreSQL refuses in text).
func clipText(s string, n int) string {
	s = strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "")
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}

// prepareAll prepares the jobs of a batch (prepare: decoding, points,
// keys, state) on up to GOMAXPROCS goroutines, since decoding runs
// JavaScript and a codec that breaks its time limit would otherwise hold
// up the uplinks after it in the batch. It finishes the jobs that cannot
// be prepared and returns the others, in their order.
func (m *Module) prepareAll(ctx context.Context, batch []*job) []*job {
	failed := make([]error, len(batch))
	if workers := min(runtime.GOMAXPROCS(0), len(batch)); workers <= 1 {
		for i, j := range batch {
			failed[i] = m.prepare(ctx, j)
		}
	} else {
		var wg sync.WaitGroup
		next := make(chan int)
		for range workers {
			wg.Go(func() {
				for i := range next {
					failed[i] = m.prepare(ctx, batch[i])
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

// Redecode decodes again, with the node's current decoder, the kept
// uplinks of tag tagID of company in [from, to), at most limit of them (the
// newest), and stores their values over the old ones: the same keys at the
// same times replace, new keys are registered. Keys the old decoder made
// and the new one does not stay as they were. The node's state follows when
// the newest uplink is among them. An unknown tag, or one of another
// company, is an errs.NotFound error.
func (m *Module) Redecode(ctx context.Context, company, tagID int64, from, to time.Time, limit int) (decoders.RedecodeBatch, error) {
	var out decoders.RedecodeBatch
	tag, err := m.deps.Nodes.Tag(ctx, tagID)
	if err != nil {
		return out, err
	}
	if tag.CompanyID != company {
		return out, errs.New(errs.NotFound, errs.IDNotFound)
	}
	deveui := strings.ToLower(tag.DevEUI)
	kept, err := m.deps.TSDB.Range(ctx, tsdb.Series{Company: company, DevEUI: deveui, Key: decoders.UplinkKey}, from, to, limit)
	if err != nil {
		return out, fmt.Errorf("read the uplinks of tag %d: %w", tagID, err)
	}
	if len(kept) == 0 {
		return out, nil
	}
	jobs := make([]*job, 0, len(kept))
	for _, p := range kept {
		rec, err := decoders.ParseUplinkRecord(p.Text)
		if err != nil {
			m.log.Warn("unreadable uplink record skipped", "tag_id", tagID, "time", p.Time, "err", err)
			continue
		}
		payload, err := hex.DecodeString(rec.Payload)
		if err != nil {
			m.log.Warn("unreadable uplink record skipped", "tag_id", tagID, "time", p.Time, "err", err)
			continue
		}
		u := &parse.Uplink{DevEUI: deveui, Time: p.Time, FPort: rec.FPort, Payload: payload, RSSI: rec.RSSI, SNR: rec.SNR}
		jobs = append(jobs, &job{company: company, tag: tag, done: make(chan struct{}),
			msg: parse.Message{Kind: parse.KindUplink, DevEUI: deveui, Time: p.Time, Uplink: u}})
	}
	out.Oldest = kept[0].Time
	live := m.prepareAll(ctx, jobs)
	var points []tsdb.Point
	newKeys := map[string]bool{}
	var newest *job
	for _, j := range live {
		points = append(points, j.points...)
		for _, k := range j.keys {
			newKeys[k] = true
		}
		if len(j.decodeErrors) > 0 {
			out.Failed++
		}
		if newest == nil || j.msg.Time.After(newest.msg.Time) {
			newest = j
		}
	}
	out.Uplinks = len(kept)
	out.Failed += len(kept) - len(live)
	if len(points) > 0 {
		if err := m.deps.TSDB.Write(ctx, points); err != nil {
			return out, fmt.Errorf("store the re-decoded values of tag %d: %w", tagID, err)
		}
	}
	if len(newKeys) > 0 {
		if err := m.deps.Nodes.EnsureKeys(ctx, tagID, slices.Sorted(maps.Keys(newKeys))); err != nil {
			return out, fmt.Errorf("register keys of tag %d: %w", tagID, err)
		}
	}
	if newest != nil && newest.state != nil && tag.LatestTime != nil && newest.msg.Time.Equal(*tag.LatestTime) {
		if err := m.deps.Nodes.UpdateStates(ctx, []nodes.TagState{{TagID: tagID, State: *newest.state}}); err != nil {
			return out, fmt.Errorf("update state of tag %d: %w", tagID, err)
		}
	}
	return out, nil
}
