package pages

import (
	"context"
	"strconv"
	"strings"

	"github.com/fieldhub/fieldhub/modules/alarms"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// priorityLabel is the message id of a priority.
func priorityLabel(p int) string {
	switch p {
	case alarms.PriorityB:
		return "alarms.priority.b"
	case alarms.PriorityC:
		return "alarms.priority.c"
	}
	return "alarms.priority.a"
}

func activeLabel(active bool) string {
	if active {
		return "alarms.status.on"
	}
	return "alarms.status.off"
}

// condition says when a rule holds: "> 10", "< 2 or > 10", "high", ...
func condition(ctx context.Context, a *alarms.Alarm) string {
	if a.SignalType == alarms.SignalDigital {
		switch {
		case a.OnChange():
			return ui.T(ctx, "alarms.condition.change")
		case a.TriggerHigh:
			return ui.T(ctx, "alarms.condition.high")
		default:
			return ui.T(ctx, "alarms.condition.low")
		}
	}
	var parts []string
	if a.LimitLow != nil {
		parts = append(parts, "< "+ui.Number(ctx, *a.LimitLow, 4))
	}
	if a.LimitHigh != nil {
		parts = append(parts, "> "+ui.Number(ctx, *a.LimitHigh, 4))
	}
	return strings.Join(parts, " "+ui.T(ctx, "alarms.condition.or")+" ")
}

// tagOptions are the form's choice of nodes, a prompt first.
func tagOptions(v *formView) []ui.Option {
	out := []ui.Option{{Value: "", LabelID: "alarms.field.tagPrompt"}}
	for _, t := range v.Tags {
		out = append(out, ui.Option{Value: strconv.FormatInt(t.ID, 10), Label: t.Name + " (" + t.DevEUI + ")"})
	}
	return out
}

// errID adds a field's error to what describes it.
func errID(name, msg string) string {
	if msg == "" {
		return ""
	}
	return " e-" + name
}

func joinTo(to []string) string { return strings.Join(to, ", ") }
