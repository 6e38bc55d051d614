// The first-uplink island's model: its props, and what the live feed says
// about an application's first uplink. Pure, so that the browser tests can
// compile and check it.
import type { LiveEvent } from "@/lib/live-feed/events";
import type { LogEntry } from "@/lib/live-feed/logs";

// ReportedNode is a node that sent an uplink, with its time (ISO 8601).
export interface ReportedNode {
  name: string;
  deveui: string;
  time: string;
}

// FirstUplinkProps are the island's props, drawn by the netservers module
// on the application page: the company whose feed it follows (a
// SuperAdmin's chosen one), the application, its nodes' DevEUIs (upper
// case) and the node that reported last, when one has.
export interface FirstUplinkProps {
  companyId?: number;
  applicationId: number;
  deveuis: string[];
  last?: ReportedNode;
}

// poolMessageId is the log entry of a DevEUI heard without a node, which
// went to the node pool (modules/ingest, logs.entry.pool).
export const poolMessageId = "logs.entry.pool";

// pooledWindowMs is how far back a pooled DevEUI of the log counts: what
// was heard before the page opened, but not last week's strays.
export const pooledWindowMs = 24 * 3600 * 1000;

// maxPooled is how many pooled DevEUIs the island lists.
export const maxPooled = 5;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

// readProps keeps the props that have the right type; null when the
// application is missing.
export function readProps(raw: unknown): FirstUplinkProps | null {
  if (!isObject(raw)) return null;
  const { companyId, applicationId, deveuis, last } = raw;
  if (typeof applicationId !== "number" || !Number.isSafeInteger(applicationId) || applicationId <= 0) return null;
  const props: FirstUplinkProps = {
    applicationId,
    deveuis: Array.isArray(deveuis) ? deveuis.filter((d): d is string => typeof d === "string").map((d) => d.toUpperCase()) : [],
  };
  if (typeof companyId === "number" && Number.isSafeInteger(companyId) && companyId > 0) props.companyId = companyId;
  if (isObject(last) && typeof last.name === "string" && typeof last.deveui === "string" && typeof last.time === "string" && !Number.isNaN(Date.parse(last.time))) {
    props.last = { name: last.name, deveui: last.deveui.toUpperCase(), time: last.time };
  }
  return props;
}

// liveUplink is the newest uplink of the feed from one of the
// application's nodes, null while none came.
export function liveUplink(events: readonly LiveEvent[], deveuis: readonly string[]): ReportedNode | null {
  const own = new Set(deveuis);
  const ev = events.find((e) => own.has(e.tag.deveui.toUpperCase()));
  return ev ? { name: ev.tag.name, deveui: ev.tag.deveui.toUpperCase(), time: ev.date } : null;
}

// pooledDevEUIs are the DevEUIs the company's network server sent that no
// node has (known: the application's nodes and the company's nodes the
// feed loaded), newest first, each once, from the last pooledWindowMs.
export function pooledDevEUIs(log: readonly LogEntry[], known: readonly string[], now: number): string[] {
  const skip = new Set(known.map((d) => d.toUpperCase()));
  const out: string[] = [];
  for (const e of log) {
    const eui = e.deveui.toUpperCase();
    if (e.messageId !== poolMessageId || eui === "" || skip.has(eui)) continue;
    if (now - Date.parse(e.createdAt) > pooledWindowMs) continue;
    skip.add(eui);
    out.push(eui);
    if (out.length === maxPooled) break;
  }
  return out;
}

// addNodePath is where a pooled DevEUI becomes a node of the application.
export function addNodePath(deveui: string, applicationId: number): string {
  return `/tag/create/${encodeURIComponent(deveui)}?applicationId=${applicationId}`;
}
