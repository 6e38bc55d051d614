package core

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/uptrace/bun"
)

// State is what an uplink or a device status reports of a node. Nil fields
// (and a nil Data) are left as they are.
type State struct {
	// Time is when the uplink was received; with it, Data becomes the
	// node's latest data. An uplink older than the node's latest changes
	// nothing, so that a late redelivery does not turn the clock back.
	Time *time.Time
	// Data is the decoded uplink, keyed as the data keys are; stored only
	// together with Time.
	Data    map[string]any
	Battery *float64
	RSSI    *float64
	VDD     *float64
}

// UpdateState records what a node reported. A tag that does not exist (any
// more) is not an error: the uplink raced its deletion.
func (m *Module) UpdateState(ctx context.Context, tagID int64, s State) error {
	q := m.db.NewUpdate().Model((*Tag)(nil)).Where("id = ?", tagID)
	set := 0
	for _, f := range []struct {
		column string
		value  *float64
	}{{"battery", s.Battery}, {"rssi", s.RSSI}, {"vdd", s.VDD}} {
		if f.value != nil && !math.IsNaN(*f.value) && !math.IsInf(*f.value, 0) {
			q = q.Set("? = ?", bun.Ident(f.column), *f.value)
			set++
		}
	}
	if s.Time != nil {
		t := s.Time.UTC().Truncate(time.Microsecond)
		data := s.Data
		if data == nil {
			data = map[string]any{}
		}
		raw, err := json.Marshal(data)
		if err != nil {
			return fmt.Errorf("encode latest data of tag %d: %w", tagID, err)
		}
		q = q.Set("latest_time = ?", t).Set("latest_data = ?", string(raw)).
			Where("(latest_time IS NULL OR latest_time <= ?)", t)
		set++
	}
	if set == 0 {
		return nil
	}
	if _, err := q.Exec(ctx); err != nil {
		return fmt.Errorf("update state of tag %d: %w", tagID, err)
	}
	return nil
}
