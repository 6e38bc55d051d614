// AlarmBadge shows, above a module's widget, the state of the alarm the
// module names (its alarm_id): triggered (unacknowledged) with the value
// and time, active and calm, or switched off. A public link shows the
// same, and nothing else of the rule.
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { useIntl } from "react-intl";
import { useAlarmState } from "@/features/dashboards/hooks/use-module-data";
import { defineMessages, msg } from "@/features/dashboards/utils/messages";
import { formatValue } from "@/features/dashboards/components/widgets/values";
import type { DashModule } from "@/features/dashboards/utils/dashboard-model";

const am = defineMessages({
  firing: { id: "dashboards.alarm.firing", defaultMessage: "Alarm triggered: {value} at {time}" },
  ok: { id: "dashboards.alarm.ok", defaultMessage: "Alarm active, not triggered" },
  inactive: { id: "dashboards.alarm.inactive", defaultMessage: "Alarm switched off" },
  unknown: { id: "dashboards.alarm.unknown", defaultMessage: "The alarm was not found" },
  failed: { id: "dashboards.alarm.failed", defaultMessage: "Could not read the alarm's state" },
});

export function AlarmBadge({ module: m }: { module: DashModule }): ReactNode {
  const intl = useIntl();
  const load = useAlarmState(m);
  if (load.state === "loading") return null;
  if (load.state === "error") {
    return (
      <p className="fh-dash-alarm fh-dash-alarm--unknown" role="status" data-alarm="error">
        <span className="mdi mdi-alarm-off" aria-hidden="true" /> {intl.formatMessage(am.failed)}
        <Button className="fh-dash-button fh-dash-button--small" onPress={load.retry}>
          {intl.formatMessage(msg.retry)}
        </Button>
      </p>
    );
  }
  const a = load.data;
  if (!a) {
    return (
      <p className="fh-dash-alarm fh-dash-alarm--unknown" role="status" data-alarm="unknown">
        <span className="mdi mdi-alarm-off" aria-hidden="true" /> {intl.formatMessage(am.unknown)}
      </p>
    );
  }
  if (a.firing) {
    const value = a.value === null ? "–" : formatValue(intl, m, a.value);
    const time = a.triggered === null ? "–" : intl.formatDate(a.triggered, { dateStyle: "short", timeStyle: "short" });
    return (
      <p className="fh-dash-alarm fh-dash-alarm--firing" role="status" data-alarm="firing">
        <span className="mdi mdi-alarm-light" aria-hidden="true" /> {intl.formatMessage(am.firing, { value, time })}
      </p>
    );
  }
  return (
    <p className={`fh-dash-alarm fh-dash-alarm--${a.active ? "ok" : "off"}`} role="status" data-alarm={a.active ? "ok" : "inactive"}>
      <span className={`mdi ${a.active ? "mdi-alarm-check" : "mdi-alarm-off"}`} aria-hidden="true" /> {intl.formatMessage(a.active ? am.ok : am.inactive)}
    </p>
  );
}
