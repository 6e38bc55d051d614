package nodes

import (
	"context"
	"time"
)

// AlarmStates answers which nodes have open alarms: the alarms module
// registers itself (Module.RegisterAlarmStates), so that a node's
// activeAlarm reflects its unacknowledged firings without nodes knowing
// about alarms.
type AlarmStates interface {
	// OpenAlarmTags answers which of tagIDs have open alarms.
	OpenAlarmTags(ctx context.Context, tagIDs []int64) (map[int64]bool, error)
}

// AlarmRegistry takes the module that answers nodes' activeAlarm.
type AlarmRegistry interface {
	// RegisterAlarmStates makes a the source of activeAlarm; one at most.
	RegisterAlarmStates(a AlarmStates)
}

// SilentTag is a node whose latest uplink lies before some time.
type SilentTag struct {
	ID         int64     `bun:"id"`
	CompanyID  int64     `bun:"company_id"`
	Name       string    `bun:"name"`
	DevEUI     string    `bun:"deveui"`
	LatestTime time.Time `bun:"latest_time"`
}

// Silence finds silent nodes for the inactivity alarm. Nodes are grouped
// by their expected uplink interval (NodeSetup.UplinkInterval, set by their
// device profile; 0 for none), since the alarm counts each group silent
// after a different time.
type Silence interface {
	// UplinkIntervals lists the expected uplink intervals that nodes have,
	// each once, without 0.
	UplinkIntervals(ctx context.Context) ([]time.Duration, error)
	// SilentTags lists up to limit nodes of expected uplink interval every
	// (0: the nodes without one) whose latest uplink time lies after
	// (after, afterID) in (latest time, id) order, and at or before until,
	// in that order: one range scan of an index, so that a job walks the
	// nodes that fell silent since its last run.
	SilentTags(ctx context.Context, every time.Duration, after time.Time, afterID int64, until time.Time, limit int) ([]SilentTag, error)
}
