// Package alarmstate holds the source of the alarm states the dashboard
// modules show, set once the alarms module exists.
package alarmstate

import (
	"context"
	"strconv"
	"sync/atomic"

	"github.com/fieldhub/fieldhub/modules/dashboards"
)

// Source answers alarm states through the dashboards.AlarmStates set last;
// without one it knows no alarm.
type Source struct {
	states atomic.Pointer[dashboards.AlarmStates]
}

// Set makes s the source of the states.
func (src *Source) Set(s dashboards.AlarmStates) { src.states.Store(&s) }

// Known reports whether a source is set.
func (src *Source) Known() bool { return src.states.Load() != nil }

// Of returns the state of the alarm an alarm_id attribute names, nil when
// it names none of the company's alarms (or no source is set).
func (src *Source) Of(ctx context.Context, companyID int64, alarmID string) (*dashboards.AlarmState, error) {
	s := src.states.Load()
	if s == nil || alarmID == "" {
		return nil, nil
	}
	id, err := strconv.ParseInt(alarmID, 10, 64)
	if err != nil || id <= 0 {
		return nil, nil
	}
	m, err := (*s).AlarmStates(ctx, companyID, []int64{id})
	if err != nil {
		return nil, err
	}
	st, ok := m[id]
	if !ok {
		return nil, nil
	}
	return &st, nil
}
