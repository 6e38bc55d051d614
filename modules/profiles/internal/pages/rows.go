package pages

import (
	"fmt"
	"strconv"

	"github.com/fieldhub/fieldhub/modules/alarms"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/profiles"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// keyRows are the key rows of the form: the profile's, then spare ones.
func keyRows(p *profiles.Profile) []profiles.KeyLabel {
	return append(append([]profiles.KeyLabel{}, p.Keys...), make([]profiles.KeyLabel, spareRows)...)
}

// alarmRows are the alarm template rows: the profile's, then spare ones.
func alarmRows(p *profiles.Profile) []alarms.Template {
	rows := append([]alarms.Template{}, p.Alarms...)
	for range spareRows {
		rows = append(rows, alarms.Template{LimitType: alarms.LimitHigh, Priority: alarms.PriorityC})
	}
	return rows
}

// moduleRows are the dashboard template rows: the profile's, then spare
// ones.
func moduleRows(p *profiles.Profile) []profiles.DashboardModule {
	return append(append([]profiles.DashboardModule{}, p.Dashboard...), make([]profiles.DashboardModule, spareRows)...)
}

// limit is the limit of a template's type, as written.
func limit(t alarms.Template) string {
	v := t.LimitHigh
	if t.LimitType == alarms.LimitLow {
		v = t.LimitLow
	}
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

// field names field of row i of list.
func field(list string, i int, name string) string { return fmt.Sprintf("%s[%d].%s", list, i, name) }

func itoa(n int) string { return strconv.Itoa(n) }

var limitTypes = []ui.Option{{Value: alarms.LimitHigh, LabelID: "profiles.alarm.high"}, {Value: alarms.LimitLow, LabelID: "profiles.alarm.low"}}

var priorities = []ui.Option{{Value: "0", LabelID: "profiles.alarm.priorityA"}, {Value: "1", LabelID: "profiles.alarm.priorityB"},
	{Value: "2", LabelID: "profiles.alarm.priorityC"}}

var moduleTypes = []ui.Option{{Value: itoa(dashboards.TypeChart), LabelID: "profiles.module.chart"},
	{Value: itoa(dashboards.TypeGauge), LabelID: "profiles.module.gauge"},
	{Value: itoa(dashboards.TypeLatest), LabelID: "profiles.module.latest"},
	{Value: itoa(dashboards.TypeTrend), LabelID: "profiles.module.trend"}}
