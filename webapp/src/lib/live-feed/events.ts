// The live feed's data: the events the server pushes, the nodes they can
// be filtered by, and the rules of the feed (newest first, at most 40 kept).

// LiveEvent is one uplink as GET /api/events pushes it.
export interface LiveEvent {
  id: string;
  date: string;
  tag: { name: string; deveui: string };
  data: Record<string, unknown>;
}

// FeedNode is a node the feed can be filtered by (GET /api/tag).
export interface FeedNode {
  deveui: string;
  name: string;
  nameWithDeveui: string;
}

// maxEvents is how many events the feed keeps; older ones are dropped.
export const maxEvents = 40;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

// parseMessage returns the event of a BroadcastEvent message, or null for
// any other message.
export function parseMessage(raw: unknown): LiveEvent | null {
  if (!isObject(raw) || raw.type !== "BroadcastEvent" || !isObject(raw.event)) return null;
  const { id, date, tag, data } = raw.event;
  if (typeof id !== "string" || typeof date !== "string" || Number.isNaN(Date.parse(date))) return null;
  if (!isObject(tag) || typeof tag.deveui !== "string") return null;
  return {
    id,
    date,
    tag: { name: typeof tag.name === "string" ? tag.name : "", deveui: tag.deveui.toUpperCase() },
    data: isObject(data) ? data : {},
  };
}

// addEvent puts ev first and drops the oldest beyond maxEvents; an event
// seen already (a reconnect may repeat one) is not added twice.
export function addEvent(list: readonly LiveEvent[], ev: LiveEvent): LiveEvent[] {
  if (list.some((e) => e.id === ev.id)) return list as LiveEvent[];
  return [ev, ...list].slice(0, maxEvents);
}

// parseNodes reads GET /api/tag, sorted by name.
export function parseNodes(raw: unknown): FeedNode[] {
  if (!Array.isArray(raw)) return [];
  const nodes: FeedNode[] = [];
  for (const t of raw) {
    if (!isObject(t) || typeof t.deveui !== "string") continue;
    const deveui = t.deveui.toUpperCase();
    const name = typeof t.name === "string" ? t.name : "";
    const nameWithDeveui = typeof t.nameWithDeveui === "string" ? t.nameWithDeveui : `${name} ${deveui}`;
    nodes.push({ deveui, name, nameWithDeveui });
  }
  return nodes.sort((a, b) => a.name.localeCompare(b.name) || a.deveui.localeCompare(b.deveui));
}

// matchesNodes keeps the events of the chosen nodes; none chosen keeps all.
export function matchesNodes(ev: LiveEvent, chosen: ReadonlySet<string>): boolean {
  return chosen.size === 0 || chosen.has(ev.tag.deveui);
}

// RelativeParts is an age for Intl.RelativeTimeFormat.
export interface RelativeParts {
  value: number;
  unit: "second" | "minute" | "hour" | "day";
}

// relativeParts is the age of date at now in the largest whole unit. Under a
// minute reads as "now": the ages are refreshed every 30 s, so counting
// seconds would be wrong most of the time.
export function relativeParts(date: number, now: number): RelativeParts {
  const seconds = Math.round((date - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return { value: 0, unit: "second" };
  if (abs < 3600) return { value: Math.trunc(seconds / 60), unit: "minute" };
  if (abs < 86400) return { value: Math.trunc(seconds / 3600), unit: "hour" };
  return { value: Math.trunc(seconds / 86400), unit: "day" };
}

// backoffMs is the pause before reconnecting after the attempt-th failure
// in a row: doubling from 0.5 s to at most 30 s, with jitter so that the
// clients of a restarted server do not all come back at once.
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000, 500 * 2 ** Math.min(attempt, 10));
  return Math.round(base * (0.5 + random() / 2));
}
