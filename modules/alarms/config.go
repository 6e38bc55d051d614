package alarms

import (
	"time"

	"github.com/fieldhub/fieldhub/kernel/config"
)

// Config is the alarms module's part of the configuration.
type Config struct {
	// DelayUnit is the length of one unit of an alarm's alarmDelay,
	// renotifyInterval and escalateAfter: a minute in production; tests
	// shorten it.
	DelayUnit time.Duration // FIELDHUB_ALARM_DELAY_UNIT
	// SweepInterval is how often the job that fires alarms whose delay has
	// passed without a new uplink, re-notifies and escalates runs.
	SweepInterval time.Duration // FIELDHUB_ALARM_SWEEP_INTERVAL
	// InactivityAfter is how long a node must be silent before its
	// company's inactivity contact is mailed (SPEC.md section 9: 6 hours),
	// unless its device profile gives it an expected uplink interval
	// (MissedUplinks).
	InactivityAfter time.Duration // FIELDHUB_INACTIVITY_AFTER
	// InactivityInterval is how often the inactivity job runs.
	InactivityInterval time.Duration // FIELDHUB_INACTIVITY_INTERVAL
}

// MissedUplinks is how many of its expected uplinks a node with an
// expected uplink interval (its device profile's) misses before it counts
// as silent: MissedUplinks times the interval replaces InactivityAfter for
// it, shorter or longer (docs/decisions.md, "Inactivity after a profile's
// interval").
const MissedUplinks = 3

// Section declares the module's options, read into c.
func (c *Config) Section() config.Section {
	return config.Section{Name: "alarms", Options: []config.Option{
		{Name: "FIELDHUB_ALARM_DELAY_UNIT", Default: "1m", Help: "the unit of an alarm's alarmDelay, renotifyInterval and escalateAfter (minutes; tests shorten it)", Set: config.Duration(&c.DelayUnit)},
		{Name: "FIELDHUB_ALARM_SWEEP_INTERVAL", Default: "30s", Help: "how often alarms whose delay has passed without a new uplink fire, and open alarms are re-notified and escalated", Set: config.Duration(&c.SweepInterval)},
		{Name: "FIELDHUB_INACTIVITY_AFTER", Default: "6h", Help: "how long a node must be silent before its company's inactivity contact (INACTIVITY_EMAIL) gets one mail about it", Set: config.Duration(&c.InactivityAfter)},
		{Name: "FIELDHUB_INACTIVITY_INTERVAL", Default: "5m", Help: "how often the inactivity job looks for silent nodes", Set: config.Duration(&c.InactivityInterval)},
	}}
}
