// The tag chart's data: the props it accepts, the points of
// GET /api/tag/tagdata and what the chart needs of them, as pure functions.

// ChartKey is one data key the chart offers.
export interface ChartKey {
  key: string;
  label: string;
  unit: string;
  decimals?: number;
  // latest is when the key's latest value was recorded, when known.
  latest?: Date;
}

// TagChartProps are the island's props after validation.
export interface TagChartProps {
  tagId: number;
  keys: ChartKey[];
  defaultKey?: string;
}

// TagDatum is one point of GET /api/tag/tagdata: a data key, its value and
// when it was recorded.
export interface TagDatum {
  key: string;
  value: number | string | null;
  createdAt: string | null;
}

// ChartPoint is a number at a time.
export interface ChartPoint {
  time: Date;
  value: number;
}

// readProps keeps the props that have the right type; tagId must be a
// positive integer and keys must name at least one key for the chart to
// draw anything, else it is null.
export function readProps(raw: unknown): TagChartProps | null {
  if (typeof raw !== "object" || raw === null) return null;
  const p = raw as Record<string, unknown>;
  if (typeof p.tagId !== "number" || !Number.isInteger(p.tagId) || p.tagId <= 0) return null;
  const keys: ChartKey[] = [];
  if (Array.isArray(p.keys)) {
    for (const k of p.keys as unknown[]) {
      if (typeof k !== "object" || k === null) continue;
      const e = k as Record<string, unknown>;
      if (typeof e.key !== "string" || e.key === "" || keys.some((x) => x.key === e.key)) continue;
      const key: ChartKey = {
        key: e.key,
        label: typeof e.label === "string" ? e.label : "",
        unit: typeof e.unit === "string" ? e.unit : "",
      };
      if (typeof e.decimals === "number" && Number.isInteger(e.decimals) && e.decimals >= 0 && e.decimals <= 10) {
        key.decimals = e.decimals;
      }
      const latest = typeof e.latest === "string" ? new Date(e.latest) : null;
      if (latest && !Number.isNaN(latest.getTime())) key.latest = latest;
      keys.push(key);
    }
  }
  const props: TagChartProps = { tagId: p.tagId, keys };
  if (typeof p.defaultKey === "string" && keys.some((k) => k.key === p.defaultKey)) props.defaultKey = p.defaultKey;
  return props;
}

// firstKey is the key the chart starts with: the default key, else the
// first.
export function firstKey(props: TagChartProps): string | null {
  return props.defaultKey ?? props.keys[0]?.key ?? null;
}

// shiftedRange is the range to show instead of an empty one: the same span
// ending just after the key's latest value, when that value lies before the
// range; else null.
export function shiftedRange(range: { from: Date; to: Date }, latest: Date | undefined): { from: Date; to: Date } | null {
  if (!latest || latest.getTime() >= range.from.getTime()) return null;
  const to = new Date(latest.getTime() + 1000);
  return { from: new Date(to.getTime() - (range.to.getTime() - range.from.getTime())), to };
}

// maxPointsFor is how many points to ask for a plot of the given width in
// CSS pixels: about one per pixel, within what the API accepts.
export function maxPointsFor(width: number): number {
  return Math.min(10_000, Math.max(2, Math.round(width)));
}

// dataPath is the API call for the points of key of the tag in [from, to).
export function dataPath(tagId: number, key: string, from: Date, to: Date, max: number): string {
  const q = new URLSearchParams({
    tagId: String(tagId),
    key,
    from: from.toISOString(),
    to: to.toISOString(),
    max: String(max),
  });
  return `/api/tag/tagdata?${q.toString()}`;
}

// toPoints keeps the numbers among the data, in time order.
export function toPoints(data: readonly TagDatum[]): ChartPoint[] {
  const out: ChartPoint[] = [];
  for (const d of data) {
    if (typeof d.value !== "number" || !Number.isFinite(d.value) || d.createdAt === null) continue;
    const time = new Date(d.createdAt);
    if (Number.isNaN(time.getTime())) continue;
    out.push({ time, value: d.value });
  }
  return out.sort((a, b) => a.time.getTime() - b.time.getTime());
}

// Summary is what the chart says in words: how many values, the lowest,
// the highest and the latest.
export interface Summary {
  count: number;
  min: ChartPoint;
  max: ChartPoint;
  last: ChartPoint;
}

export function summarise(points: readonly ChartPoint[]): Summary | null {
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last) return null;
  let min = first;
  let max = first;
  for (const p of points) {
    if (p.value < min.value) min = p;
    if (p.value > max.value) max = p;
  }
  return { count: points.length, min, max, last };
}

// stepIndex moves a keyboard cursor over n points; it returns null for a
// key that does not move it.
export function stepIndex(current: number | null, n: number, key: string): number | null {
  if (n === 0) return null;
  const at = current ?? n - 1;
  const page = Math.max(1, Math.round(n / 10));
  switch (key) {
    case "ArrowLeft":
    case "ArrowDown":
      return current === null ? n - 1 : Math.max(0, at - 1);
    case "ArrowRight":
    case "ArrowUp":
      return current === null ? n - 1 : Math.min(n - 1, at + 1);
    case "PageDown":
      return Math.max(0, at - page);
    case "PageUp":
      return Math.min(n - 1, at + page);
    case "Home":
      return 0;
    case "End":
      return n - 1;
    default:
      return null;
  }
}
