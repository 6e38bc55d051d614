package pages

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// How the pages write numbers, values and times.

// formatNumber shows a value with the key's decimals when they are set.
func formatNumber(v float64, decimals *int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	if decimals != nil {
		return strconv.FormatFloat(v, 'f', *decimals, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// formatValue shows a reported value: numbers as numbers, texts as they
// are, anything else as JSON would write it.
func formatValue(v any, decimals *int) string {
	switch x := v.(type) {
	case nil:
		return ""
	case float64:
		return formatNumber(x, decimals)
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

// optNumber shows an optional reading, "" when there is none.
func optNumber(v *float64) string {
	if v == nil {
		return ""
	}
	return formatNumber(*v, nil)
}

// batteryPercent writes a node's battery charge ("87 %"), "" when unknown
// or when it is no percent (above 100).
func batteryPercent(ctx context.Context, t *nodes.Tag) string {
	if t.Battery == nil || nodes.BatteryPercent(*t.Battery) == nil {
		return ""
	}
	return ui.Quantity(ctx, *t.Battery, 0, "%")
}

// batteryVoltage writes a node's battery voltage ("3,6 V"), "" when unknown.
func batteryVoltage(ctx context.Context, t *nodes.Tag) string {
	if t.BatteryVoltage == nil {
		return ""
	}
	return ui.Quantity(ctx, *t.BatteryVoltage, 2, "V")
}

// batteryText writes what a node reported of its battery: "87 %", "3,6 V"
// or both ("87 % · 3,6 V"); "" when neither.
func batteryText(ctx context.Context, t *nodes.Tag) string {
	var parts []string
	for _, s := range []string{batteryPercent(ctx, t), batteryVoltage(ctx, t)} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " · ")
}

// isoTime is the machine-readable form of a time, for <time datetime>.
func isoTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// shownTime is how the pages write a time: in the viewer's time zone, to
// the second, with the zone named.
func shownTime(ctx context.Context, t time.Time) string { return ui.DateTime(ctx, t) }

// age writes how long ago t was, in the page's language.
func age(ctx context.Context, t time.Time) string {
	d := time.Since(t)
	switch {
	case d < time.Minute:
		return ui.T(ctx, "page.tag.age.now")
	case d < time.Hour:
		return ui.Tf(ctx, "page.tag.age.minutes", "n", int(d/time.Minute))
	case d < 48*time.Hour:
		return ui.Tf(ctx, "page.tag.age.hours", "n", int(d/time.Hour))
	}
	return ui.Tf(ctx, "page.tag.age.days", "n", int(d/(24*time.Hour)))
}

// clockOff is how far the time the node's latest uplink carries is from its
// arrival, and whether that is far enough for the page to say so
// (nodes.ClockSkewWarning).
func clockOff(t *nodes.Tag) (time.Duration, bool) {
	off, ok := t.ClockOffset()
	return off, ok && (off > nodes.ClockSkewWarning || off < -nodes.ClockSkewWarning)
}

// offsetText writes a clock offset in its largest whole unit: years, days
// or hours, in the page's language.
func offsetText(ctx context.Context, d time.Duration) string {
	d = d.Abs()
	unit := func(one, many string, n int) string {
		if n == 1 {
			return ui.T(ctx, one)
		}
		return ui.Tf(ctx, many, "n", n)
	}
	switch day := 24 * time.Hour; {
	case d >= 365*day:
		return unit("page.tag.offset.year", "page.tag.offset.years", int(d/(365*day)))
	case d >= day:
		return unit("page.tag.offset.day", "page.tag.offset.days", int(d/day))
	}
	return unit("page.tag.offset.hour", "page.tag.offset.hours", int(d/time.Hour))
}
