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

// Silence finds silent nodes for the inactivity alarm.
type Silence interface {
	// SilentTags lists up to limit nodes whose latest uplink time lies
	// after (after, afterID) in (latest time, id) order, and at or before
	// until, in that order: one range scan of an index, so that a job
	// walks the nodes that fell silent since its last run.
	SilentTags(ctx context.Context, after time.Time, afterID int64, until time.Time, limit int) ([]SilentTag, error)
}
