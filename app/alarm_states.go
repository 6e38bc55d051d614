package app

import (
	"context"

	"github.com/fieldhub/fieldhub/modules/alarms"
	"github.com/fieldhub/fieldhub/modules/dashboards"
)

// alarmStates answers the dashboards' question, the state of the alarms
// their modules name, from the alarms module: the rule's status and its
// open firing's value and time, nothing else of the rule.
type alarmStates struct{ alarms alarms.Service }

func (a alarmStates) AlarmStates(ctx context.Context, companyID int64, ids []int64) (map[int64]dashboards.AlarmState, error) {
	states, err := a.alarms.States(ctx, companyID, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]dashboards.AlarmState, len(states))
	for id, st := range states {
		ds := dashboards.AlarmState{AlarmID: id, Active: st.Active}
		if ev := st.Open; ev != nil {
			v, t := ev.Value, ev.TriggeredAt.UTC()
			ds.Firing, ds.Value, ds.Triggered = true, &v, &t
		}
		out[id] = ds
	}
	return out, nil
}
