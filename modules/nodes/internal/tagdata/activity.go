package tagdata

import (
	"net/http"
	"time"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/access"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/store"
)

// tagActivity answers GET /companies/{companyId}/tag/activity: each tag's
// latest uplink time and whether it is active, by the same rule as a tag's
// activeData (an uplink within nodes.ActiveWindow).
func (a *API) tagActivity(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	company, err := access.VisibleCompanyID(ctx, r, a.accounts)
	if err != nil {
		return err
	}
	tags, err := store.Tags(ctx, a.db, company)
	if err != nil {
		return err
	}
	now := time.Now()
	out := make([]NodeActivity, len(tags))
	for i, t := range tags {
		out[i] = NodeActivity{ID: t.ID, Name: t.Name, DevEUI: t.DevEUI, LatestTime: t.LatestTime,
			Active: t.LatestTime != nil && now.Sub(*t.LatestTime) < nodes.ActiveWindow}
	}
	return web.OK(w, out)
}

// tagBatteries answers GET /companies/{companyId}/tag/batteries: the tags
// that have reported a battery (a percent, a voltage or both), with it.
func (a *API) tagBatteries(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	company, err := access.VisibleCompanyID(ctx, r, a.accounts)
	if err != nil {
		return err
	}
	tags, err := store.Tags(ctx, a.db, company)
	if err != nil {
		return err
	}
	out := []NodeBattery{}
	for _, t := range tags {
		if t.Battery != nil || t.BatteryVoltage != nil {
			out = append(out, NodeBattery{ID: t.ID, Name: t.Name, DevEUI: t.DevEUI, Battery: t.Battery,
				BatteryVoltage: t.BatteryVoltage, VDD: t.BatteryVoltage, LatestTime: t.LatestTime})
		}
	}
	return web.OK(w, out)
}
