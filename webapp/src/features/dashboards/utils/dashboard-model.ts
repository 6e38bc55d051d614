// The dashboard's data as docs/api/dashboards.md defines it: dashboards,
// modules with their attributes and settings, and the answers of the module
// data routes. Everything the server sends goes through a read* function
// that fills defaults and drops what has the wrong type, so that the widgets
// can trust their input.

// Size is a module's width class, from extra small to large.
export type Size = "xs" | "sm" | "md" | "lg";
export const sizes: readonly Size[] = ["xs", "sm", "md", "lg"];

// ChartKind is a chart module's so_chart_type.
export type ChartKind = "line" | "area" | "bar" | "scatter" | "vertical";
export const chartKinds: readonly ChartKind[] = ["line", "area", "bar", "scatter", "vertical"];

// Resolution is a trend chart's bucket width; "auto" lets the server choose
// it from the range (hours for a day, days for a month).
export type Resolution = "auto" | "week" | "day" | "hour" | "5hours";
export const resolutions: readonly Resolution[] = ["auto", "week", "day", "hour", "5hours"];

export type MapType = "roadmap" | "satellite" | "terrain";
export const mapTypes: readonly MapType[] = ["roadmap", "satellite", "terrain"];

// T maps each module type to the number the API uses for it.
export const T = {
  chart: 0,
  gauge: 1,
  text: 2,
  image: 3,
  map: 4,
  companyInfo: 5,
  iframe: 6,
  weather: 7,
  latest: 8,
  table: 9,
  multiChart: 10,
  imageMap: 11,
  functionButton: 12,
  nodeInfo: 13,
  trend: 14,
  nodeOverview: 15,
  tilt: 16,
  fillLevel: 17,
} as const;

// editableTypes are the types the editor offers: all of them.
export const editableTypes: readonly number[] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17];

export interface LatLng {
  lat: number;
  lng: number;
}

export interface ModuleSettings {
  // timeOffset is now minus the start of the module's range, in seconds; 0
  // is the default range (24 h).
  timeOffset: number;
  mapZoom: number;
  mapCenter: LatLng | null;
  mapType: MapType;
  imageMapZoom: number;
}

export interface DashModule {
  dashboardModuleId: number;
  dashboardId: number;
  title: string;
  type: number;
  index: number;
  tag: string;
  sizeSmall: Size;
  sizeMid: Size;
  content: string;
  url: string;
  image: string;
  min: number | null;
  max: number | null;
  sync_chart: boolean;
  cardColor: string;
  titleColor: string;
  valueColor: string;
  attributes: Record<string, string>;
  settings: ModuleSettings;
}

export interface Dashboard {
  dashboardId: number;
  companyId: number;
  name: string;
}

// SeriesRef names one key of one node.
export interface SeriesRef {
  deveui: string;
  key: string;
}

// Position is a sensor placed on an image map, x and y in 0..1.
export interface Position extends SeriesRef {
  x: number;
  y: number;
}

export interface Point {
  t: number;
  v: number;
}

export interface Bucket {
  t: number;
  min: number;
  mean: number;
  max: number;
  last: number;
  count: number;
}

export interface Series extends SeriesRef {
  name: string;
  label: string;
  unit: string;
  points: Point[];
  // texts are the points that carry text instead of a number.
  texts: { t: number; s: string }[];
  buckets: Bucket[] | null;
}

export interface TagData {
  from: number;
  to: number;
  series: Series[];
}

export interface Latest extends SeriesRef {
  name: string;
  label: string;
  unit: string;
  value: number | null;
  text: string | null;
  time: number | null;
  previous: number | null;
}

export interface NodeInfo {
  deveui: string;
  name: string;
  lat: number | null;
  long: number | null;
  // battery is percent (0-100) and batteryVoltage volts, as the server
  // reads them from the decoded values.
  battery: number | null;
  batteryVoltage: number | null;
  rssi: number | null;
  snr: number | null;
  latestTime: number | null;
  activeData: boolean;
  latestValue: string | number | null;
  dataPoints24h: number | null;
}

export interface CompanyInfo {
  name: string;
  orgNumber: string;
  postalAdress: string;
  contactPhonenumber: string;
  invoiceAdress: string;
  image: string;
}

export interface Info {
  company: CompanyInfo | null;
  nodes: NodeInfo[];
}

export interface WeatherHour {
  t: number;
  temperature: number | null;
  precipitation: number | null;
  windSpeed: number | null;
  windDirection: number | null;
  symbol: string | number | null;
  cloudCover: number | null;
}

export interface Weather {
  source: string;
  lat: number | null;
  lon: number | null;
  updatedAt: number | null;
  hours: WeatherHour[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown, d = ""): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : d);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const int = (v: unknown, d: number): number => (typeof v === "number" && Number.isFinite(v) ? Math.trunc(v) : d);
const time = (v: unknown): number | null => {
  if (typeof v !== "string" || v === "") return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : t;
};
const oneOf = <K extends string>(v: unknown, all: readonly K[], d: K): K => (all.includes(v as K) ? (v as K) : d);

export const defaultSettings: ModuleSettings = {
  timeOffset: 0,
  mapZoom: 7,
  mapCenter: null,
  mapType: "roadmap",
  imageMapZoom: -1,
};

function readSettings(raw: unknown): ModuleSettings {
  if (!isObj(raw)) return { ...defaultSettings };
  const c = raw.mapCenter;
  const center = isObj(c) && num(c.lat) !== null && num(c.lng) !== null ? { lat: c.lat as number, lng: c.lng as number } : null;
  return {
    timeOffset: Math.max(0, int(raw.timeOffset, 0)),
    mapZoom: int(raw.mapZoom, 7),
    mapCenter: center,
    mapType: oneOf(raw.mapType, mapTypes, "roadmap"),
    imageMapZoom: int(raw.imageMapZoom, -1),
  };
}

export function readModule(raw: unknown): DashModule | null {
  if (!isObj(raw) || typeof raw.dashboardModuleId !== "number") return null;
  const attributes: Record<string, string> = {};
  if (isObj(raw.attributes)) {
    for (const [k, v] of Object.entries(raw.attributes)) if (typeof v === "string") attributes[k] = v;
  }
  return {
    dashboardModuleId: raw.dashboardModuleId,
    dashboardId: int(raw.dashboardId, 0),
    title: str(raw.title),
    type: int(raw.type, 0),
    index: int(raw.index, 0),
    tag: str(raw.tag).toUpperCase(),
    sizeSmall: oneOf(raw.sizeSmall, sizes, "md"),
    sizeMid: oneOf(raw.sizeMid, sizes, "md"),
    content: str(raw.content),
    url: str(raw.url),
    image: str(raw.image),
    min: num(raw.min),
    max: num(raw.max),
    sync_chart: raw.sync_chart === true,
    cardColor: str(raw.cardColor),
    titleColor: str(raw.titleColor),
    valueColor: str(raw.valueColor),
    attributes,
    settings: readSettings(raw.settings),
  };
}

// readModules reads a module list, ordered by index.
export function readModules(raw: unknown): DashModule[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .map(readModule)
    .filter((m): m is DashModule => m !== null)
    .sort((a, b) => a.index - b.index || a.dashboardModuleId - b.dashboardModuleId);
}

export function readDashboard(raw: unknown): Dashboard | null {
  if (!isObj(raw) || typeof raw.dashboardId !== "number") return null;
  return { dashboardId: raw.dashboardId, companyId: int(raw.companyId, 0), name: str(raw.name) };
}

export function readTagData(raw: unknown): TagData {
  const out: TagData = { from: 0, to: 0, series: [] };
  if (!isObj(raw)) return out;
  out.from = time(raw.from) ?? 0;
  out.to = time(raw.to) ?? 0;
  if (!Array.isArray(raw.series)) return out;
  for (const s of raw.series) {
    if (!isObj(s)) continue;
    const points: Point[] = [];
    const texts: { t: number; s: string }[] = [];
    if (Array.isArray(s.points)) {
      for (const p of s.points) {
        if (!isObj(p)) continue;
        const t = time(p.t);
        if (t === null) continue;
        const v = num(p.v);
        if (v !== null) points.push({ t, v });
        else if (typeof p.s === "string") texts.push({ t, s: p.s });
      }
    }
    let buckets: Bucket[] | null = null;
    if (Array.isArray(s.buckets)) {
      buckets = [];
      for (const b of s.buckets) {
        if (!isObj(b)) continue;
        const t = time(b.t);
        const min = num(b.min);
        const mean = num(b.mean);
        const max = num(b.max);
        if (t === null || min === null || mean === null || max === null) continue;
        buckets.push({ t, min, mean, max, last: num(b.last) ?? mean, count: int(b.count, 0) });
      }
      buckets.sort((a, b) => a.t - b.t);
    }
    points.sort((a, b) => a.t - b.t);
    out.series.push({
      deveui: str(s.deveui).toUpperCase(),
      key: str(s.key),
      name: str(s.name),
      label: str(s.label),
      unit: str(s.unit),
      points,
      texts,
      buckets,
    });
  }
  return out;
}

export function readLatest(raw: unknown): Latest[] {
  if (!isObj(raw) || !Array.isArray(raw.series)) return [];
  const out: Latest[] = [];
  for (const s of raw.series) {
    if (!isObj(s)) continue;
    out.push({
      deveui: str(s.deveui).toUpperCase(),
      key: str(s.key),
      name: str(s.name),
      label: str(s.label),
      unit: str(s.unit),
      value: num(s.value),
      text: typeof s.text === "string" && s.text !== "" ? s.text : null,
      time: time(s.time),
      previous: num(s.previous),
    });
  }
  return out;
}

export function readInfo(raw: unknown): Info {
  const out: Info = { company: null, nodes: [] };
  if (!isObj(raw)) return out;
  if (isObj(raw.company)) {
    const c = raw.company;
    out.company = {
      name: str(c.name),
      orgNumber: str(c.orgNumber),
      postalAdress: str(c.postalAdress),
      contactPhonenumber: str(c.contactPhonenumber),
      invoiceAdress: str(c.invoiceAdress),
      image: str(c.image),
    };
  }
  if (Array.isArray(raw.nodes)) {
    for (const n of raw.nodes) {
      if (!isObj(n) || typeof n.deveui !== "string") continue;
      const lv = n.latestValue;
      out.nodes.push({
        deveui: n.deveui.toUpperCase(),
        name: str(n.name),
        lat: num(n.lat),
        long: num(n.long),
        battery: num(n.battery),
        batteryVoltage: num(n.batteryVoltage),
        rssi: num(n.rssi),
        snr: num(n.snr),
        latestTime: time(n.latestTime),
        activeData: n.activeData === true,
        latestValue: typeof lv === "number" || typeof lv === "string" ? lv : null,
        dataPoints24h: num(n.dataPoints24h),
      });
    }
  }
  return out;
}

export function readWeather(raw: unknown): Weather {
  const out: Weather = { source: "", lat: null, lon: null, updatedAt: null, hours: [] };
  if (!isObj(raw)) return out;
  out.source = str(raw.source);
  out.lat = num(raw.lat);
  out.lon = num(raw.lon);
  out.updatedAt = time(raw.updatedAt);
  if (Array.isArray(raw.hours)) {
    for (const h of raw.hours) {
      if (!isObj(h)) continue;
      const t = time(h.t);
      if (t === null) continue;
      const sym = h.symbol;
      out.hours.push({
        t,
        temperature: num(h.temperature),
        precipitation: num(h.precipitation),
        windSpeed: num(h.windSpeed),
        windDirection: num(h.windDirection),
        symbol: typeof sym === "number" || typeof sym === "string" ? sym : null,
        cloudCover: num(h.cloudCover),
      });
    }
    out.hours.sort((a, b) => a.t - b.t);
  }
  return out;
}

// attr reads a module attribute, "" when unset.
export const attr = (m: DashModule, key: string): string => m.attributes[key] ?? "";
export const attrOn = (m: DashModule, key: string): boolean => m.attributes[key] === "true";
export const attrNum = (m: DashModule, key: string): number | null => {
  const v = m.attributes[key];
  if (v === undefined || v.trim() === "") return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};

// parseRefs reads a series attribute: a JSON array of {deveui, key}.
export function parseRefs(raw: string): SeriesRef[] {
  if (!raw) return [];
  try {
    const v: unknown = JSON.parse(raw);
    if (!Array.isArray(v)) return [];
    return v
      .filter((r): r is Obj => isObj(r) && typeof r.deveui === "string")
      .map((r) => ({ deveui: str(r.deveui).toUpperCase(), key: str(r.key) }));
  } catch {
    return [];
  }
}

// parsePositions reads an image map's positions attribute.
export function parsePositions(raw: string): Position[] {
  if (!raw) return [];
  try {
    const v: unknown = JSON.parse(raw);
    if (!Array.isArray(v)) return [];
    const out: Position[] = [];
    for (const r of v) {
      if (!isObj(r) || typeof r.deveui !== "string") continue;
      const x = num(r.x);
      const y = num(r.y);
      if (x === null || y === null) continue;
      out.push({ deveui: r.deveui.toUpperCase(), key: str(r.key), x: clamp01(x), y: clamp01(y) });
    }
    return out;
  } catch {
    return [];
  }
}

export const clamp01 = (v: number): number => Math.min(1, Math.max(0, v));

// keysOf lists the keys of a tagkey attribute (comma separated).
export const keysOf = (tagkey: string): string[] =>
  tagkey
    .split(",")
    .map((k) => k.trim())
    .filter((k) => k !== "");

// refsOf is what a module draws: the series attribute, else its node with
// each key of tagkey (tagkey_x and tagkey_y for the tilt visualizer).
export function refsOf(m: DashModule): SeriesRef[] {
  const series = parseRefs(attr(m, "series"));
  if (m.type === T.imageMap) return parsePositions(attr(m, "positions")).map(({ deveui, key }) => ({ deveui, key }));
  if (series.length > 0 && (m.type === T.multiChart || m.type === T.map)) return series;
  if (!m.tag) return series;
  if (m.type === T.tilt) {
    return [attr(m, "tagkey_x"), attr(m, "tagkey_y")].filter((k) => k !== "").map((key) => ({ deveui: m.tag, key }));
  }
  return keysOf(attr(m, "tagkey")).map((key) => ({ deveui: m.tag, key }));
}

// Types whose data is a time series over the module's range.
export const rangedTypes: ReadonlySet<number> = new Set([T.chart, T.table, T.multiChart, T.trend]);

// Types that show the latest values of their series.
export const latestTypes: ReadonlySet<number> = new Set([T.gauge, T.latest, T.imageMap, T.tilt, T.fillLevel, T.map]);

// Types that read the info route.
export const infoTypes: ReadonlySet<number> = new Set([T.companyInfo, T.nodeInfo, T.nodeOverview, T.map]);

// rangeSeconds is a module's range length: its timeOffset, or 24 h.
export const defaultRangeSeconds = 24 * 3600;
export const rangeSeconds = (m: DashModule): number => (m.settings.timeOffset > 0 ? m.settings.timeOffset : defaultRangeSeconds);

// AlarmState is what a module naming an alarm (alarm_id) shows of it: the
// rule's status and its open (unacknowledged) firing, if any.
export interface AlarmState {
  active: boolean;
  firing: boolean;
  value: number | null;
  triggered: number | null;
}

// alarmTypes are the module types that may name an alarm.
export const alarmTypes: ReadonlySet<number> = new Set([T.chart, T.gauge, T.latest, T.nodeInfo, T.trend, T.tilt, T.fillLevel]);

// readAlarmState reads GET .../alarm; null when the module names no alarm
// of the company.
export function readAlarmState(raw: unknown): AlarmState | null {
  const a = isObj(raw) ? raw.alarm : null;
  if (!isObj(a)) return null;
  const t = typeof a.triggered === "string" ? Date.parse(a.triggered) : NaN;
  return { active: a.active === true, firing: a.firing === true, value: num(a.value), triggered: Number.isNaN(t) ? null : t };
}
