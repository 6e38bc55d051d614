package pipeline

import (
	"context"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Redecode decodes again, with the node's current decoder, the kept
// uplinks of tag tagID of company in [from, to), at most limit of them (the
// newest), and stores their values over the old ones: the same keys at the
// same times replace, new keys are registered. Keys the old decoder made
// and the new one does not stay as they were. The node's state follows when
// the newest uplink is among them. An unknown tag, or one of another
// company, is an errs.NotFound error.
func (p *Pipeline) Redecode(ctx context.Context, company, tagID int64, from, to time.Time, limit int) (ingest.RedecodeBatch, error) {
	var out ingest.RedecodeBatch
	tag, err := p.deps.Tags.Tag(ctx, tagID)
	if err != nil {
		return out, err
	}
	if tag.CompanyID != company {
		return out, errs.New(errs.NotFound, errs.IDNotFound)
	}
	deveui := strings.ToLower(tag.DevEUI)
	kept, err := p.deps.TSDB.Range(ctx, tsdb.Series{Company: company, DevEUI: deveui, Key: ingest.UplinkKey}, from, to, limit)
	if err != nil {
		return out, fmt.Errorf("read the uplinks of tag %d: %w", tagID, err)
	}
	if len(kept) == 0 {
		return out, nil
	}
	jobs := make([]*job, 0, len(kept))
	for _, pt := range kept {
		rec, err := ingest.ParseUplinkRecord(pt.Text)
		if err != nil {
			p.log.Warn("unreadable uplink record skipped", "tag_id", tagID, "time", pt.Time, "err", err)
			continue
		}
		payload, err := hex.DecodeString(rec.Payload)
		if err != nil {
			p.log.Warn("unreadable uplink record skipped", "tag_id", tagID, "time", pt.Time, "err", err)
			continue
		}
		u := &ingest.Uplink{DevEUI: deveui, Time: pt.Time, FPort: rec.FPort, Payload: payload, RSSI: rec.RSSI, SNR: rec.SNR}
		jobs = append(jobs, &job{company: company, tag: tag, done: make(chan struct{}),
			msg: ingest.Message{Kind: ingest.KindUplink, DevEUI: deveui, Time: pt.Time, Uplink: u}})
	}
	out.Oldest = kept[0].Time
	live := p.prepareAll(ctx, jobs)
	var points []tsdb.Point
	newKeys := map[string]bool{}
	var newest *job
	for _, j := range jobs {
		if j.switchOff != nil {
			p.logDecoderOff(ctx, company, deveui, j.switchOff)
		}
	}
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
		if err := p.deps.TSDB.Write(ctx, points); err != nil {
			return out, fmt.Errorf("store the re-decoded values of tag %d: %w", tagID, err)
		}
	}
	if len(newKeys) > 0 {
		if err := p.deps.NodeData.EnsureKeys(ctx, tagID, slices.Sorted(maps.Keys(newKeys))); err != nil {
			return out, fmt.Errorf("register keys of tag %d: %w", tagID, err)
		}
	}
	if newest != nil && newest.state != nil && tag.LatestTime != nil && newest.msg.Time.Equal(*tag.LatestTime) {
		if err := p.deps.NodeData.UpdateStates(ctx, []nodes.TagState{{TagID: tagID, State: *newest.state}}); err != nil {
			return out, fmt.Errorf("update state of tag %d: %w", tagID, err)
		}
	}
	return out, nil
}
