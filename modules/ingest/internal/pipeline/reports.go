package pipeline

import (
	"context"
	"fmt"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/parse"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// downlink records what the network server reports about a downlink the
// worker sent: the report names it by DownlinkRef. A report about a
// downlink of another company, or of another node than it names, changes
// nothing; so does one that would move a downlink back (a late txack after
// the device's ack).
func (p *Pipeline) downlink(ctx context.Context, company int64, msg parse.Message) error {
	id := int64(0)
	for _, ref := range msg.Downlink.Refs {
		if n, ok := ingest.ParseDownlinkRef(ref); ok {
			id = n
			break
		}
	}
	if id == 0 {
		return nil
	}
	d, err := p.deps.Reports.Downlink(ctx, id)
	switch {
	case errs.Is(err, errs.NotFound):
		return nil
	case err != nil:
		return fmt.Errorf("load downlink %d: %w", id, err)
	case d.CompanyID != company || msg.DevEUI != "" && parse.NormaliseEUI(d.DevEUI) != msg.DevEUI:
		p.log.Warn("downlink report about a downlink of another node", "downlink_id", id, "company_id", company, "dev_eui", msg.DevEUI)
		return nil
	}
	status, detail := "", ""
	switch msg.Kind {
	case parse.KindDownlinkSent:
		if d.Status != nodes.DownlinkQueued && d.Status != nodes.DownlinkSent {
			return nil
		}
		status = nodes.DownlinkSent
		if msg.Downlink.GatewayID != "" {
			detail = "transmitted by gateway " + msg.Downlink.GatewayID
		}
	case parse.KindDownlinkAck:
		status = nodes.DownlinkAcknowledged
		if !msg.Downlink.Acknowledged {
			status, detail = nodes.DownlinkFailed, "the device did not acknowledge the downlink"
		}
	case parse.KindDownlinkFailed:
		status, detail = nodes.DownlinkFailed, msg.Downlink.Error
	}
	if err := p.deps.Reports.SetDownlinkStatus(ctx, id, status, detail); err != nil && !errs.Is(err, errs.NotFound) {
		return fmt.Errorf("set status of downlink %d: %w", id, err)
	}
	return nil
}

// downlinkReported records a network server's report about a downlink
// (see downlink) and reports what changed: a downlink of company that the
// report moved to another state, or that a gateway transmitted.
func (p *Pipeline) downlinkReported(ctx context.Context, company int64, msg parse.Message) error {
	before := p.reportedDownlink(ctx, company, msg)
	if err := p.downlink(ctx, company, msg); err != nil || before == nil {
		return err
	}
	after, err := p.deps.Reports.Downlink(ctx, before.ID)
	if err != nil {
		return nil // deleted meanwhile: nothing to tell
	}
	transmitted := msg.Kind == parse.KindDownlinkSent && after.Status == nodes.DownlinkSent
	if after.Status == before.Status && !transmitted {
		return nil
	}
	e := ingest.DeviceEvent{CompanyID: company, DevEUI: parse.NormaliseEUI(after.DevEUI), Kind: ingest.EventDownlink, Level: ingest.LevelInfo,
		Args: map[string]any{"id": after.ID, "status": after.Status}}
	switch {
	case transmitted && msg.Downlink.GatewayID != "":
		e.MessageID, e.Args["gateway"] = ingest.IDLogDownlinkSentBy, msg.Downlink.GatewayID
	case transmitted:
		e.MessageID = ingest.IDLogDownlinkSent
	case after.Status == nodes.DownlinkAcknowledged:
		e.MessageID = ingest.IDLogDownlinkAcked
	case after.Status == nodes.DownlinkFailed:
		e.Level, e.MessageID, e.Args["reason"] = ingest.LevelError, ingest.IDLogDownlinkFailed, after.Detail
	default:
		return nil
	}
	p.events.Report(ctx, e)
	return nil
}

// reportedDownlink returns the downlink of company that a report names, as
// it was before the report; nil for none.
func (p *Pipeline) reportedDownlink(ctx context.Context, company int64, msg parse.Message) *nodes.Downlink {
	for _, ref := range msg.Downlink.Refs {
		id, ok := ingest.ParseDownlinkRef(ref)
		if !ok {
			continue
		}
		d, err := p.deps.Reports.Downlink(ctx, id)
		if err != nil || d.CompanyID != company || msg.DevEUI != "" && parse.NormaliseEUI(d.DevEUI) != msg.DevEUI {
			return nil
		}
		return d
	}
	return nil
}
