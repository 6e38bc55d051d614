package nodes

import (
	"math"
	"strings"
)

// A node's battery is two readings, each set only when known: Battery, the
// charge in percent (0-100), and BatteryVoltage, in volts. Decoders name and
// scale them in many ways (Elsys' `vdd` in millivolts, Decentlab's
// `battery_voltage` in volts, Milesight's `battery` in percent, the generic
// form's `battery` in any of the three); BatteryOf is the one place that
// reads them, so that every page and answer shows the same numbers.

// Keys of decoded values that hold a battery reading, matched without regard
// to case. The first one present wins.
var (
	percentKeys = []string{"batteryLevel", "battery_level", "batteryPercent", "battery_percent"}
	voltageKeys = []string{"batteryVoltage", "battery_voltage", "vdd"}
)

// Scales that tell the unit of a bare reading: a battery voltage is at most
// maxVolts, a reading from minMillivolts on is millivolts, and a `battery` up
// to maxBatteryVolts is volts (a cell's 3.6 V is not a charge of 3.6 %).
const (
	maxVolts        = 100
	minMillivolts   = 1000
	maxMillivolts   = 100_000
	maxBatteryVolts = 5
)

// BatteryOf reads a node's battery from an uplink's decoded values: percent
// (0-100) and volts, each nil when the values do not say. Explicit keys come
// first (see percentKeys and voltageKeys); a plain `battery` fills what they
// leave open, by its size: up to 5 volts, up to 100 percent, from 1000
// millivolts. A reading that fits no scale (a percent above 100, a `battery`
// of 250) is left out rather than guessed.
func BatteryOf(values map[string]any) (percent, volts *float64) {
	if v, ok := number(values, percentKeys...); ok {
		percent = BatteryPercent(v)
	}
	if v, ok := number(values, voltageKeys...); ok {
		volts = voltage(v)
	}
	v, ok := number(values, "battery")
	switch {
	case !ok:
	case v > 0 && v <= maxBatteryVolts:
		if volts == nil {
			volts = &v
		}
	case v <= 100:
		if percent == nil {
			percent = BatteryPercent(v)
		}
	default:
		if volts == nil {
			volts = voltage(v)
		}
	}
	return percent, volts
}

// BatteryPercent is v as a battery charge: nil unless 0-100.
func BatteryPercent(v float64) *float64 {
	if math.IsNaN(v) || v < 0 || v > 100 {
		return nil
	}
	return &v
}

// voltage is v in volts, v given in volts or millivolts; nil when it is
// neither (zero, negative, between the scales or beyond them).
func voltage(v float64) *float64 {
	switch {
	case v > 0 && v <= maxVolts:
		return &v
	case v >= minMillivolts && v <= maxMillivolts:
		// Whole millivolts: a decoder's fraction of one is noise.
		v = math.Round(v) / 1000
		return &v
	}
	return nil
}

// number is the first finite number among values under one of keys, the
// keys matched without regard to case.
func number(values map[string]any, keys ...string) (float64, bool) {
	for _, want := range keys {
		for k, v := range values {
			if f, ok := v.(float64); ok && strings.EqualFold(k, want) && !math.IsNaN(f) && !math.IsInf(f, 0) {
				return f, true
			}
		}
	}
	return 0, false
}
