package registry

import (
	"context"
	"fmt"
	"time"

	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/store"
)

// RegisterAlarmStates makes a the source of the tags' activeAlarm. It is
// called while the application is wired, before any request.
func (g *Registry) RegisterAlarmStates(a nodes.AlarmStates) { g.alarms = a }

// markAlarms sets the activeAlarm of tags from the registered alarm states
// in one question; without them the stored flag stays.
func (g *Registry) markAlarms(ctx context.Context, tags []*nodes.Tag) error {
	if g.alarms == nil || len(tags) == 0 {
		return nil
	}
	ids := make([]int64, len(tags))
	for i, t := range tags {
		ids[i] = t.ID
	}
	open, err := g.alarms.OpenAlarmTags(ctx, ids)
	if err != nil {
		return fmt.Errorf("alarm states of tags: %w", err)
	}
	for _, t := range tags {
		t.ActiveAlarm = t.ActiveAlarm || open[t.ID]
	}
	return nil
}

// UplinkIntervals lists the nodes' expected uplink intervals; see
// nodes.Silence.
func (g *Registry) UplinkIntervals(ctx context.Context) ([]time.Duration, error) {
	return store.UplinkIntervals(ctx, g.db)
}

// SilentTags lists the nodes silent since a time; see nodes.Silence.
func (g *Registry) SilentTags(ctx context.Context, every time.Duration, after time.Time, afterID int64, until time.Time, limit int) ([]nodes.SilentTag, error) {
	return store.SilentTags(ctx, g.db, every, after, afterID, until, limit)
}
