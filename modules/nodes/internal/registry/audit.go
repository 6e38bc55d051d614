package registry

import (
	"context"
	"fmt"

	"github.com/fieldhub/fieldhub/kernel/audit"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// announce puts a change to a company's applications, nodes or tokens on
// the audit trail.
func (g *Registry) announce(ctx context.Context, company int64, id string, args, before, after map[string]any) {
	audit.Announce(ctx, g.host.Bus, audit.Change{CompanyID: company, MessageID: id, Args: args, Before: before, After: after})
}

// announceDiff puts a change with the fields that differ between was and
// now on the audit trail, the secrets among them masked; nothing when no
// field changed.
func (g *Registry) announceDiff(ctx context.Context, company int64, id string, args, was, now map[string]any) {
	before, after := audit.Diff(was, now)
	if audit.Empty(after) {
		return
	}
	audit.Mask(secretFields, before, after)
	g.announce(ctx, company, id, args, before, after)
}

// secretFields are the fields of applications and nodes that the audit
// trail shows only as set or not.
var secretFields = []string{"ttsApiKey", "appKey"}

// applicationFields are the fields of an application the audit trail
// shows. The API key of The Things Stack is sealed: one sent again counts
// as changed.
func applicationFields(a *nodes.Application) map[string]any {
	return map[string]any{"name": a.Name, "networkServer": a.NetworkServer, "chirpstackApplicationId": a.ChirpStackApplicationID,
		"ttsDownlinkUrl": a.TTSDownlinkURL, "ttsApiKey": a.SealedTTSAPIKey}
}

// tagFields are the fields of a node the audit trail shows, the AppKey
// opened (to compare; announceDiff masks it).
func tagFields(t *nodes.Tag) map[string]any {
	return map[string]any{"name": t.Name, "deveui": t.DevEUI, "appKey": t.AppKey, "appEui": t.AppEUI,
		"applicationId": t.ApplicationID, "profile": t.Profile, "lat": number(t.Lat), "long": number(t.Long),
		"location": t.Location, "type": t.Type, "decoder": t.Decoder}
}

// keyFields are the fields of a node's key the audit trail shows.
func keyFields(k *nodes.Key) map[string]any {
	return map[string]any{"label": k.Label, "unit": k.Unit, "decimals": number(k.Decimals), "defaultKey": k.Default}
}

// number prints an optional number, "" for none.
func number[T int | float64](p *T) string {
	if p == nil {
		return ""
	}
	return fmt.Sprint(*p)
}
