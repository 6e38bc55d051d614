package nodes_test

import (
	"math"
	"testing"

	"github.com/fieldhub/fieldhub/modules/nodes"
)

func TestBatteryOfReadsPercentAndVoltsFromDecodedValues(t *testing.T) {
	none := -1.0 // want: not set
	for _, c := range []struct {
		name           string
		values         map[string]any
		percent, volts float64
	}{
		{"Elsys vdd in millivolts becomes volts", map[string]any{"temperature": 21.5, "vdd": 3600.0}, none, 3.6},
		{"vdd in volts stays volts", map[string]any{"vdd": 3.31}, none, 3.31},
		{"batteryVoltage in volts", map[string]any{"batteryVoltage": 3.05}, none, 3.05},
		{"Decentlab battery_voltage in volts", map[string]any{"battery_voltage": 3.027}, none, 3.027},
		{"voltage key matched without regard to case", map[string]any{"VDD": 3612.0}, none, 3.612},
		{"battery as volts is a voltage, not a percent", map[string]any{"battery": 3.5}, none, 3.5},
		{"battery as millivolts is a voltage", map[string]any{"battery": 3600.0}, none, 3.6},
		{"Milesight battery in percent", map[string]any{"battery": 92.0}, 92, none},
		{"battery of 100 percent", map[string]any{"battery": 100.0}, 100, none},
		{"battery of 0 percent", map[string]any{"battery": 0.0}, 0, none},
		{"batteryLevel is a percent", map[string]any{"batteryLevel": 87.0}, 87, none},
		{"percent and volts together", map[string]any{"batteryLevel": 40.0, "battery": 3.05}, 40, 3.05},
		{"vdd wins over a volts battery", map[string]any{"vdd": 3300.0, "battery": 3.5}, none, 3.3},
		{"percent and a millivolt vdd", map[string]any{"battery": 87.0, "vdd": 3600.0}, 87, 3.6},
		{"percent above 100 is refused", map[string]any{"batteryLevel": 140.0}, none, none},
		{"refused percent key leaves a volts battery", map[string]any{"batteryLevel": 101.0, "battery": 3.4}, none, 3.4},
		{"battery between the scales is refused", map[string]any{"battery": 250.0}, none, none},
		{"battery beyond millivolts is refused", map[string]any{"battery": 250_000.0}, none, none},
		{"negative battery is refused", map[string]any{"battery": -3.0}, none, none},
		{"zero vdd is refused", map[string]any{"vdd": 0.0}, none, none},
		{"non-finite vdd is refused", map[string]any{"vdd": math.Inf(1)}, none, none},
		{"text battery is not a reading", map[string]any{"battery": "low"}, none, none},
		{"no battery at all", map[string]any{"temperature": 21.5}, none, none},
		{"no values", nil, none, none},
	} {
		t.Run(c.name, func(t *testing.T) {
			percent, volts := nodes.BatteryOf(c.values)
			check := func(what string, got *float64, want float64) {
				switch {
				case want == none && got != nil:
					t.Errorf("%s = %v, want none", what, *got)
				case want != none && got == nil:
					t.Errorf("%s none, want %v", what, want)
				case want != none && *got != want:
					t.Errorf("%s = %v, want %v", what, *got, want)
				}
			}
			check("percent", percent, c.percent)
			check("volts", volts, c.volts)
		})
	}
}

func TestBatteryPercentRefusesWhatIsNoCharge(t *testing.T) {
	for _, c := range []struct {
		v  float64
		ok bool
	}{{0, true}, {55.5, true}, {100, true}, {100.1, false}, {3600, false}, {-1, false}, {math.NaN(), false}} {
		if got := nodes.BatteryPercent(c.v); (got != nil) != c.ok || (got != nil && *got != c.v) {
			t.Errorf("BatteryPercent(%v) = %v, want ok %v", c.v, got, c.ok)
		}
	}
}
