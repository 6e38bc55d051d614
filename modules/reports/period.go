package reports

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Period is the window [From, To) a send covers: a local day, Monday to
// Sunday, or month, so 23 or 25 hours on the days the clocks change.
type Period struct {
	From, To time.Time
}

// periodEnd is the start (local midnight) of the day, week or month that
// holds t, the end of the period before it.
func periodEnd(tempo int, t time.Time) time.Time {
	y, m, d := t.Date()
	switch tempo {
	case TempoWeekly:
		d -= (int(t.Weekday()) + 6) % 7 // back to Monday
	case TempoMonthly:
		d = 1
	}
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}

// periodBefore is the period of tempo that ends at end (a local midnight).
// It counts in dates, not hours, so that daylight-saving days stay whole.
func periodBefore(tempo int, end time.Time) Period {
	y, m, d := end.Date()
	switch tempo {
	case TempoWeekly:
		d -= 7
	case TempoMonthly:
		m--
	default:
		d--
	}
	return Period{From: time.Date(y, m, d, 0, 0, 0, 0, end.Location()), To: end}
}

// LastFinished is the latest period of tempo in loc that has ended by now:
// yesterday, last week, last month. "Send now" sends it.
func LastFinished(tempo int, now time.Time, loc *time.Location) Period {
	return periodBefore(tempo, periodEnd(tempo, now.In(loc)))
}

// LatestDue is the latest period of tempo in loc whose send time (SendHour
// on the local day after it) has come by now. The schedule sends it unless
// it was sent already; periods before it that were missed (the portal was
// down) are not sent: a restart catches up once.
func LatestDue(tempo int, now time.Time, loc *time.Location) Period {
	local := now.In(loc)
	end := periodEnd(tempo, local)
	if local.Before(SendTime(end)) {
		end = periodBefore(tempo, end).From
	}
	return periodBefore(tempo, end)
}

// SendTime is when the period ending at end is due: SendHour on its day.
func SendTime(end time.Time) time.Time {
	y, m, d := end.Date()
	return time.Date(y, m, d, SendHour, 0, 0, 0, end.Location())
}

// ValidTempo reports whether t is a tempo.
func ValidTempo(t int) bool { return t == TempoDaily || t == TempoWeekly || t == TempoMonthly }

// ValidType reports whether t is a report type.
func ValidType(t string) bool { return t == TypeRegular || t == TypeTrend }

// ValidResolution reports whether r is a trend resolution.
func ValidResolution(r string) bool { return r == ResolutionHour || r == ResolutionDay }

var unsafeName = regexp.MustCompile(`[^\p{L}\p{N}._-]+`)

// FileName names a report's file: its name (or "report") and the date,
// with the format's extension (SPEC.md section 9), e.g.
// "Cold-room-2026-03-29.xlsx".
func FileName(name string, date time.Time, format string) string {
	base := strings.Trim(unsafeName.ReplaceAllString(name, "-"), "-.")
	if base == "" {
		base = "report"
	}
	if len(base) > 80 {
		base = base[:80]
	}
	return fmt.Sprintf("%s-%s.%s", base, date.Format(time.DateOnly), format)
}

// ContentType is the MIME type of a format.
func ContentType(format string) string {
	if format == FormatCSV {
		return "text/csv; charset=utf-8"
	}
	return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
}
