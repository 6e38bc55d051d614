package queue

import (
	"context"
	"fmt"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/netservers/internal/store"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Report records what a network server reports about a downlink the worker
// sent, for company, and announces what changed (a downlink of company
// that the report moved to another status, or that a gateway transmitted)
// as netservers.DownlinkOutcome. The report names the downlink by
// DownlinkRef. A report about a downlink of another company, or of another
// node than it names, changes nothing; so does one that would move a
// downlink back (a late txack after the device's ack).
func (q *Queue) Report(ctx context.Context, company int64, r *netservers.DownlinkReport) error {
	before := q.reported(ctx, company, r)
	if err := q.record(ctx, company, r); err != nil || before == nil {
		return err
	}
	after, err := store.ByID(ctx, q.db, before.ID)
	if err != nil {
		return nil // deleted meanwhile: nothing to tell
	}
	transmitted := r.Kind == netservers.ReportSent && after.Status == netservers.DownlinkSent
	if after.Status == before.Status && !transmitted {
		return nil
	}
	o := netservers.DownlinkOutcome{CompanyID: company, DevEUI: lowerEUI(after.DevEUI), DownlinkID: after.ID, Status: after.Status}
	switch {
	case transmitted:
		o.Outcome, o.Gateway = netservers.OutcomeTransmitted, r.GatewayID
	case after.Status == netservers.DownlinkAcknowledged:
		o.Outcome = netservers.OutcomeAcknowledged
	case after.Status == netservers.DownlinkFailed:
		o.Outcome, o.Reason = netservers.OutcomeFailed, after.Detail
	default:
		return nil
	}
	q.Announce(ctx, o)
	return nil
}

// Announce publishes o, at the time of now. The bus queues it for the logs
// module, whose handler never waits, so what caused it goes on at once.
func (q *Queue) Announce(ctx context.Context, o netservers.DownlinkOutcome) {
	o.Time = now()
	q.host.Bus.Publish(context.WithoutCancel(ctx), o)
}

// record sets the status a report gives its downlink.
func (q *Queue) record(ctx context.Context, company int64, r *netservers.DownlinkReport) error {
	id := int64(0)
	for _, ref := range r.Refs {
		if n, ok := netservers.ParseDownlinkRef(ref); ok {
			id = n
			break
		}
	}
	if id == 0 {
		return nil
	}
	d, err := store.ByID(ctx, q.db, id)
	switch {
	case errs.Is(err, errs.NotFound):
		return nil
	case err != nil:
		return fmt.Errorf("load downlink %d: %w", id, err)
	case d.CompanyID != company || r.DevEUI != "" && lowerEUI(d.DevEUI) != r.DevEUI:
		q.log.Warn("downlink report about a downlink of another node", "downlink_id", id, "company_id", company, "dev_eui", r.DevEUI)
		return nil
	}
	status, detail := "", ""
	switch r.Kind {
	case netservers.ReportSent:
		if d.Status != netservers.DownlinkQueued && d.Status != netservers.DownlinkSent {
			return nil
		}
		status = netservers.DownlinkSent
		if r.GatewayID != "" {
			detail = "transmitted by gateway " + r.GatewayID
		}
	case netservers.ReportAck:
		status = netservers.DownlinkAcknowledged
		if !r.Acknowledged {
			status, detail = netservers.DownlinkFailed, "the device did not acknowledge the downlink"
		}
	case netservers.ReportFailed:
		status, detail = netservers.DownlinkFailed, r.Error
	}
	if err := q.SetDownlinkStatus(ctx, id, status, detail); err != nil && !errs.Is(err, errs.NotFound) {
		return fmt.Errorf("set status of downlink %d: %w", id, err)
	}
	return nil
}

// reported returns the downlink of company that a report names, as it was
// before the report; nil for none.
func (q *Queue) reported(ctx context.Context, company int64, r *netservers.DownlinkReport) *netservers.Downlink {
	for _, ref := range r.Refs {
		id, ok := netservers.ParseDownlinkRef(ref)
		if !ok {
			continue
		}
		d, err := store.ByID(ctx, q.db, id)
		if err != nil || d.CompanyID != company || r.DevEUI != "" && lowerEUI(d.DevEUI) != r.DevEUI {
			return nil
		}
		return d
	}
	return nil
}

// lowerEUI spells a DevEUI as the time series and the network servers'
// messages do: 16 lower-case hexadecimal digits.
func lowerEUI(s string) string { return strings.ToLower(nodes.NormaliseEUI(s)) }
