// Data hooks of the widgets: each loads one module route through the
// dashboard's Source, answers loading, error (with a retry) or the data, and
// keeps the data current from the live updates without reloading.
import { createContext, useCallback, useContext, useEffect, useRef, useState } from "react";
import { useIntl } from "react-intl";
import { serverMessage, translator } from "@/lib/api-error";
import { presetDurations, type Preset } from "@/components/date-range-picker/range";
import { useLive, useLiveNodes } from "@/features/dashboards/hooks/use-live";
import {
  refsOf,
  type AlarmState,
  type DashModule,
  type Info,
  type Latest,
  type Resolution,
  type Series,
  type SeriesRef,
  type TagData,
  type Weather,
} from "@/features/dashboards/utils/dashboard-model";
import { dashboardErrorIds, type Source } from "@/features/dashboards/api/source";

export const SourceContext = createContext<Source | null>(null);

// Board is what the island's props tell every widget.
export interface Board {
  companyId: number;
  tileUrl: string;
  // canRun says the viewer's role may do what function buttons do: run the
  // company's scripts, write its nodes' values and queue their downlinks.
  canRun: boolean;
}

export const BoardContext = createContext<Board>({ companyId: 0, tileUrl: "", canRun: false });

export function useSource(): Source {
  const s = useContext(SourceContext);
  if (!s) throw new Error("dashboard: no Source");
  return s;
}

// An error's message is the server's (already in the page's language) for
// answers that explain themselves (400, 502, 503), else none.
export type Load<T> = { state: "loading" } | { state: "error"; retry: () => void; message?: string } | { state: "done"; data: T };

// Range is a module's chosen time range. live ranges end now and slide on
// as values arrive.
export interface Range {
  from: number;
  to: number;
  preset: Preset | null;
  live: boolean;
}

const presetBySeconds = new Map<number, Preset>(
  (Object.entries(presetDurations) as [Preset, number][]).map(([p, ms]) => [ms / 1000, p]),
);

// rangeOfOffset is the range a stored timeOffset stands for: a preset when
// it is one, else the same length ending now.
export function rangeOfOffset(seconds: number, now: number): Range {
  const preset = presetBySeconds.get(seconds) ?? null;
  return { from: now - seconds * 1000, to: now, preset, live: true };
}

function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): [Load<T>, (f: (d: T) => T) => void, () => void] {
  const [state, setState] = useState<Load<T>>({ state: "loading" });
  const intl = useIntl();
  const [attempt, setAttempt] = useState(0);
  const seq = useRef(0);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  useEffect(() => {
    const mine = ++seq.current;
    setState((s) => (s.state === "done" ? s : { state: "loading" }));
    load().then(
      (data) => {
        if (mine === seq.current) setState({ state: "done", data });
      },
      (err: unknown) => {
        if (mine !== seq.current) return;
        const message = serverMessage(err, translator(intl, dashboardErrorIds), (s) => [400, 502, 503].includes(s));
        setState({ state: "error", retry, ...(message !== null ? { message } : {}) });
      },
    );
    // load is a fresh closure each render; deps name what it reads.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps
  }, [...deps, attempt]);
  const update = useCallback((f: (d: T) => T) => {
    setState((s) => (s.state === "done" ? { state: "done", data: f(s.data) } : s));
  }, []);
  return [state, update, retry];
}

// moduleKey changes when anything a module's data depends on changes.
const moduleKey = (m: DashModule): string =>
  JSON.stringify([m.dashboardModuleId, m.tag, m.attributes.tagkey, m.attributes.series, m.attributes.positions, m.attributes.tagkey_x, m.attributes.tagkey_y, m.attributes.weather_lat, m.attributes.weather_lon, m.attributes.resolution, m.image]);

// useSeries loads the module's series over range; live values are appended
// to their series while the range ends now. Trend buckets are reloaded
// instead, at most every 15 s.
export function useSeries(m: DashModule, range: Range, opts: { points?: number; resolution?: Resolution } = {}): Load<TagData> {
  const source = useSource();
  const [load, update, retry] = useLoad(
    () => source.tagdata(m, { from: new Date(range.from), to: new Date(range.to), ...opts }),
    [source, moduleKey(m), range.from, range.to, opts.points, opts.resolution],
  );
  const refs = refsOf(m);
  const reloadAt = useRef(0);
  useLive(refs, (ref, time, value) => {
    if (!range.live || typeof value !== "number") return;
    if (opts.resolution) {
      const now = Date.now();
      if (now - reloadAt.current > 15_000) {
        reloadAt.current = now;
        retry();
      }
      return;
    }
    update((d) => appendPoint(d, ref, time, value, range));
  });
  return load;
}

// appendPoint adds a live value to its series (making the series when the
// range had none) and slides a preset's window to end at the new value.
export function appendPoint(d: TagData, ref: SeriesRef, time: number, value: number, range: Range): TagData {
  const to = Math.max(d.to, time);
  const from = range.preset ? to - presetDurations[range.preset] : d.from;
  let found = false;
  const series = d.series.map((s): Series => {
    if (s.deveui !== ref.deveui || s.key !== ref.key) return s;
    found = true;
    const last = s.points[s.points.length - 1];
    if (last && last.t >= time) return s;
    return { ...s, points: [...s.points.filter((p) => p.t >= from), { t: time, v: value }] };
  });
  if (!found) {
    series.push({ ...ref, name: "", label: "", unit: "", points: [{ t: time, v: value }], texts: [], buckets: null });
  }
  return { from, to, series };
}

// useLatest loads the module's latest values and keeps them current.
export function useLatest(m: DashModule): Load<Latest[]> {
  const source = useSource();
  const [load, update] = useLoad(() => source.latest(m), [source, moduleKey(m)]);
  useLive(refsOf(m), (ref, time, value) => {
    update((list) => applyLatest(list, ref, time, value));
  });
  return load;
}

// applyLatest makes value the latest of its series; the one it replaces
// becomes previous, for the trend icon.
export function applyLatest(list: readonly Latest[], ref: SeriesRef, time: number, value: number | string): Latest[] {
  let found = false;
  const out = list.map((l) => {
    if (l.deveui !== ref.deveui || l.key !== ref.key) return l;
    found = true;
    if (l.time !== null && l.time > time) return l;
    return typeof value === "number"
      ? { ...l, value, text: null, time, previous: l.value ?? l.previous }
      : { ...l, text: value, value: null, time, previous: l.previous };
  });
  if (!found) {
    out.push({
      ...ref,
      name: "",
      label: "",
      unit: "",
      value: typeof value === "number" ? value : null,
      text: typeof value === "string" ? value : null,
      time,
      previous: null,
    });
  }
  return out;
}

// useInfo loads the info route (company and nodes); uplinks update the
// nodes' last seen time, latest value and 24 h count.
export function useInfo(m: DashModule, key?: string): Load<Info> {
  const source = useSource();
  const [load, update] = useLoad(() => source.info(m), [source, moduleKey(m)]);
  useLiveNodes(null, (u) => {
    update((info) => {
      if (!info.nodes.some((n) => n.deveui === u.deveui)) return info;
      return {
        ...info,
        nodes: info.nodes.map((n) => {
          if (n.deveui !== u.deveui) return n;
          const v = key ? u.values[key] : undefined;
          return {
            ...n,
            latestTime: Math.max(n.latestTime ?? 0, u.time),
            activeData: true,
            latestValue: v ?? n.latestValue,
            dataPoints24h: (n.dataPoints24h ?? 0) + Object.keys(u.values).length,
          };
        }),
      };
    });
  });
  return load;
}

export function useWeather(m: DashModule): Load<Weather> {
  const source = useSource();
  const [load] = useLoad(() => source.weather(m), [source, moduleKey(m)]);
  return load;
}

// useNow is the current time, refreshed every interval ms (for ages).
export function useNow(interval = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), interval);
    return () => clearInterval(t);
  }, [interval]);
  return now;
}

// alarmPollMs is how often a module re-reads its alarm's state: an
// acknowledgement comes with no uplink.
export const alarmPollMs = 30_000;

// useAlarmState loads the state of the alarm the module names, and reads it
// again a little after each uplink of its node (the alarm is evaluated
// then) and every alarmPollMs.
export function useAlarmState(m: DashModule): Load<AlarmState | null> {
  const source = useSource();
  const [load, , retry] = useLoad(() => source.alarm(m), [source, moduleKey(m), m.attributes.alarm_id]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useLiveNodes(m.tag ? [m.tag] : [], () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(retry, 2_000);
  });
  useEffect(() => {
    const every = setInterval(retry, alarmPollMs);
    return () => {
      clearInterval(every);
      if (timer.current) clearTimeout(timer.current);
    };
  }, [retry]);
  return load;
}
