// How the node modules show a node's battery: `battery` is percent (0-100)
// and `batteryVoltage` volts, each null until the node reported it (the
// server reads both from the decoded values, see docs/decoders.md).
import type { IntlShape } from "react-intl";
import type { NodeInfo } from "@/features/dashboards/utils/dashboard-model";

type Battery = Pick<NodeInfo, "battery" | "batteryVoltage">;

// A no-break space keeps a number and its unit together in narrow cells.
const nbsp = "\u00a0";

// percentOf is the node's charge, null when unknown or when it is no
// percent (above 100).
const percentOf = (n: Battery): number | null => (n.battery !== null && n.battery >= 0 && n.battery <= 100 ? n.battery : null);

// batteryText writes "87 %", "3,6 V" (in Swedish), both joined by " · ",
// or "–" when the node reported neither.
export function batteryText(intl: IntlShape, n: Battery): string {
  const parts: string[] = [];
  const pct = percentOf(n);
  if (pct !== null) parts.push(`${intl.formatNumber(pct, { maximumFractionDigits: 0 })}${nbsp}%`);
  if (n.batteryVoltage !== null) parts.push(`${intl.formatNumber(n.batteryVoltage, { maximumFractionDigits: 2 })}${nbsp}V`);
  return parts.join(" · ") || "–";
}

// Without a percent, the icon estimates one from the voltage of a lithium
// cell (2.8 V empty, 3.6 V full).
export function batteryIcon(n: Battery): string {
  let pct = percentOf(n);
  if (pct === null && n.batteryVoltage !== null) pct = ((n.batteryVoltage - 2.8) / (3.6 - 2.8)) * 100;
  if (pct === null) return "mdi-battery-unknown";
  if (pct < 15) return "mdi-battery-alert-variant-outline";
  if (pct < 50) return "mdi-battery-30";
  if (pct < 85) return "mdi-battery-70";
  return "mdi-battery";
}
