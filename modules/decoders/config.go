package decoders

import (
	"fmt"
	"strconv"
	"time"

	"github.com/fieldhub/fieldhub/kernel/config"
)

// Config is the decoders module's part of the configuration: each
// company's decode budget on an instance, and when a company's decoder
// that keeps breaking its limits is switched off (docs/decisions.md,
// "Decode budgets and switch-off").
type Config struct {
	// Concurrency is how many decodes of one company's uplinks run at once
	// on an instance; 0 takes half the processor cores, at least 1.
	Concurrency int // FIELDHUB_DECODE_CONCURRENCY
	// TimePerSecond is how much codec time one company's decodes may use
	// per second on an instance; 0 takes an eighth of the processor cores'
	// time (250 ms a second on 2 cores).
	TimePerSecond time.Duration // FIELDHUB_DECODE_TIME_PER_SECOND
	// SwitchOffAfter is how many decodes in a row that break a sandbox
	// limit (time, memory, stack, output) switch a company's own decoder
	// off; 0 never switches one off.
	SwitchOffAfter int // FIELDHUB_DECODER_SWITCH_OFF_AFTER
}

// Section declares the module's options, read into c.
func (c *Config) Section() config.Section {
	return config.Section{Name: "decoders", Options: []config.Option{
		{Name: "FIELDHUB_DECODE_CONCURRENCY", Default: "0", Help: "how many decodes of one company's uplinks run at once on an instance, so that one company's slow decoder holds up only its own uplinks; 0 takes half the processor cores (at least 1)", Set: func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 1024 {
				return fmt.Errorf("want a whole number from 0 (half the cores) to 1024")
			}
			c.Concurrency = n
			return nil
		}},
		{Name: "FIELDHUB_DECODE_TIME_PER_SECOND", Default: "0", Help: "codec time one company's decodes may use per second on an instance (a Go duration such as 500ms); a company past it waits, its uplinks only; 0 takes an eighth of the processor cores' time (250ms on 2 cores)", Set: func(v string) error {
			if v == "0" {
				c.TimePerSecond = 0
				return nil
			}
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 || d > time.Hour {
				return fmt.Errorf("want 0 or a positive duration up to 1h, such as 500ms or 2s")
			}
			c.TimePerSecond = d
			return nil
		}},
		{Name: "FIELDHUB_DECODER_SWITCH_OFF_AFTER", Default: "10", Help: "decodes in a row that break the sandbox's limits after which a company's own decoder is switched off (its uplinks are then stored raw, and its log and node pages say so) until a new version is saved or it is switched on again; 0 never switches one off", Set: func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 1_000_000 {
				return fmt.Errorf("want a whole number from 0 (never) to 1000000")
			}
			c.SwitchOffAfter = n
			return nil
		}},
	}}
}
