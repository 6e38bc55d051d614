package ui

import (
	"context"
	"time"

	"github.com/fieldhub/fieldhub/kernel/web"
)

// The pages show times in the viewer's time zone (web.Viewer.Location: the
// user's choice, else the company's), named by its abbreviation, so that a
// time in a table or a tooltip says which clock it is on.

// Location is the time zone the page is drawn in; UTC when the viewer has
// none.
func Location(ctx context.Context) *time.Location {
	if loc := ViewerOf(ctx).Location; loc != nil {
		return loc
	}
	return time.UTC
}

// DateTime writes t to the second in the viewer's zone, with the zone
// named: "2026-11-27 06:27:29 CET".
func DateTime(ctx context.Context, t time.Time) string {
	return t.In(Location(ctx)).Format("2006-01-02 15:04:05 MST")
}

// DateTimeMinutes writes t to the minute in the viewer's zone, with the
// zone named: "2026-11-27 06:27 CET".
func DateTimeMinutes(ctx context.Context, t time.Time) string {
	return t.In(Location(ctx)).Format("2006-01-02 15:04 MST")
}

// Date writes the viewer's local date of t: "2026-11-27".
func Date(ctx context.Context, t time.Time) string {
	return t.In(Location(ctx)).Format(time.DateOnly)
}

// ISOTime is the machine-readable form of t for a <time datetime>
// attribute, in UTC.
func ISOTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// zoneName is the IANA name of the viewer's zone, which the islands format
// times in (Intl.DateTimeFormat's timeZone).
func zoneName(v *web.Viewer) string {
	if v.Location == nil {
		return "UTC"
	}
	return v.Location.String()
}
