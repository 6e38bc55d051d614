// The alarm preview's data: what the island reads of its props and of the
// rule's form, the points of GET /api/tag/tagdata, and the value range that
// shows both the values and the limits, as pure functions.

// PreviewRule is what the preview draws: a node's key, and the limits and
// band of the rule over its values.
export interface PreviewRule {
  tagId: number;
  key: string;
  limitHigh?: number;
  limitLow?: number;
  hysteresis?: number;
}

// Datum is one point of GET /api/tag/tagdata.
export interface Datum {
  key: string;
  value: number | string | null;
  createdAt: string | null;
}

// Point is a number at a time.
export interface Point {
  time: Date;
  value: number;
}

function num(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && v.trim() !== "") {
    const n = Number(v.trim().replace(",", "."));
    if (Number.isFinite(n)) return n;
  }
  return undefined;
}

function withNumbers(rule: PreviewRule, high: unknown, low: unknown, band: unknown): PreviewRule {
  const out: PreviewRule = { tagId: rule.tagId, key: rule.key };
  const h = num(high);
  const l = num(low);
  const b = num(band);
  if (h !== undefined) out.limitHigh = h;
  if (l !== undefined) out.limitLow = l;
  if (b !== undefined && b > 0) out.hysteresis = b;
  return out;
}

// readProps reads the island's props; a missing node or key is 0 and "".
export function readProps(raw: unknown): PreviewRule {
  const p = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
  const tagId = typeof p.tagId === "number" && Number.isInteger(p.tagId) && p.tagId > 0 ? p.tagId : 0;
  const key = typeof p.key === "string" ? p.key.trim() : "";
  return withNumbers({ tagId, key }, p.limitHigh, p.limitLow, p.hysteresis);
}

// readForm reads the rule's form as it is being edited: the preview
// follows it. A digital rule draws no limits.
export function readForm(form: HTMLFormElement): PreviewRule {
  const data = new FormData(form);
  const get = (name: string): string => {
    const v = data.get(name);
    return typeof v === "string" ? v : "";
  };
  const tag = Number(get("tag"));
  const rule: PreviewRule = { tagId: Number.isInteger(tag) && tag > 0 ? tag : 0, key: get("tagDataKey").trim() };
  if (get("signalType") === "1") return rule;
  return withNumbers(rule, get("limitHigh"), get("limitLow"), get("advanced") === "true" ? get("hysteresis") : "");
}

// sameRule reports whether two rules draw the same.
export function sameRule(a: PreviewRule, b: PreviewRule): boolean {
  return a.tagId === b.tagId && a.key === b.key && a.limitHigh === b.limitHigh && a.limitLow === b.limitLow && a.hysteresis === b.hysteresis;
}

// dataPath is the address of the key's values in [from, to).
export function dataPath(rule: PreviewRule, from: Date, to: Date): string {
  const q = new URLSearchParams({ tagId: String(rule.tagId), key: rule.key, from: from.toISOString(), to: to.toISOString(), max: "500" });
  return `/api/tag/tagdata?${q.toString()}`;
}

// toPoints keeps the numbers among the data, in time order.
export function toPoints(data: readonly Datum[]): Point[] {
  const out: Point[] = [];
  for (const d of data) {
    if (typeof d.value !== "number" || !Number.isFinite(d.value) || d.createdAt === null) continue;
    const time = new Date(d.createdAt);
    if (Number.isNaN(time.getTime())) continue;
    out.push({ time, value: d.value });
  }
  return out.sort((a, b) => a.time.getTime() - b.time.getTime());
}

// domain is the value range that holds the points, the limits and their
// band, with a little room; [0, 1] when there is nothing.
export function domain(points: readonly Point[], rule: PreviewRule): [number, number] {
  const values = points.map((p) => p.value);
  const band = rule.hysteresis ?? 0;
  if (rule.limitHigh !== undefined) values.push(rule.limitHigh, rule.limitHigh - band);
  if (rule.limitLow !== undefined) values.push(rule.limitLow, rule.limitLow + band);
  if (values.length === 0) return [0, 1];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (lo === hi) {
    lo -= 1;
    hi += 1;
  }
  const pad = (hi - lo) * 0.05;
  return [lo - pad, hi + pad];
}

// breaches counts the points beyond the limits: how often the rule's
// condition held in the window.
export function breaches(points: readonly Point[], rule: PreviewRule): number {
  return points.filter(
    (p) => (rule.limitHigh !== undefined && p.value > rule.limitHigh) || (rule.limitLow !== undefined && p.value < rule.limitLow),
  ).length;
}
