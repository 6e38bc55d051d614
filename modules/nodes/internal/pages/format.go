package pages

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

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
