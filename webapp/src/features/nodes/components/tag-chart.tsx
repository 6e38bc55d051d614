// TagChart shows one key of a node over a date range: a key picker, the
// date-range picker and a line chart of the stored values, with loading,
// empty and error states. The chart follows the keyboard too: the arrow
// keys step through the values and the tooltip shows each one.
import { Suspense, lazy, useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/field";
import { ListBox, ListBoxItem } from "@/components/ui/list-box";
import { Popover } from "@/components/ui/popover";
import { Select, SelectValue } from "@/components/ui/select";
import { defineMessages, useIntl, type NoMessageValues } from "react-intl";
import { api } from "@/lib/api";
import { useWidth } from "@/lib/use-width";
import { DateRangePicker, type RangeDetail } from "@/components/date-range-picker/date-range-picker";
import { defaultPreset, presetRange, type Preset } from "@/components/date-range-picker/range";
import {
  dataPath,
  firstKey,
  maxPointsFor,
  shiftedRange,
  stepIndex,
  summarise,
  toPoints,
  type ChartKey,
  type ChartPoint,
  type TagChartProps,
  type TagDatum,
} from "@/features/nodes/utils/tag-data";
import "@/features/nodes/components/tag-chart.css";
import { dateTimeWithZone } from "@/lib/i18n";

const LineChart = lazy(() => import("@/features/nodes/components/line-chart"));

const messages = defineMessages<{
  key: NoMessageValues;
  loading: NoMessageValues;
  noData: NoMessageValues;
  outOfRange: { time: string };
  textOnly: NoMessageValues;
  error: NoMessageValues;
  retry: NoMessageValues;
  label: { key: string; range: string };
  summary: { count: number; min: string; max: string; last: string };
  hint: NoMessageValues;
  point: { time: string; value: string };
}>({
  key: { id: "chart.key", defaultMessage: "Key" },
  loading: { id: "chart.loading", defaultMessage: "Loading data…" },
  noData: { id: "chart.noData", defaultMessage: "No data found" },
  outOfRange: {
    id: "chart.outOfRange",
    defaultMessage: "No values in the chosen range. Showing the same span up to the latest value ({time}).",
  },
  textOnly: { id: "chart.textOnly", defaultMessage: "The values of this key are texts and cannot be drawn" },
  error: { id: "error.generic", defaultMessage: "An error occured, try again later" },
  retry: { id: "chart.retry", defaultMessage: "Try again" },
  label: { id: "chart.label", defaultMessage: "Chart of {key}, {range}" },
  summary: {
    id: "chart.summary",
    defaultMessage: "{count, plural, one {# value} other {# values}}: lowest {min}, highest {max}, latest {last}",
  },
  hint: { id: "chart.hint", defaultMessage: "Arrow keys step through the values." },
  point: { id: "chart.point", defaultMessage: "{time}: {value}" },
});

const presetLabels = defineMessages<Record<Preset, NoMessageValues>>({
  "1h": { id: "picker.preset.1h", defaultMessage: "Last hour" },
  "5h": { id: "picker.preset.5h", defaultMessage: "Last 5 hours" },
  "24h": { id: "picker.preset.24h", defaultMessage: "Last 24 hours" },
  "7d": { id: "picker.preset.7d", defaultMessage: "Last 7 days" },
  "30d": { id: "picker.preset.30d", defaultMessage: "Last 30 days" },
});

const chartHeight = 300;

// Load is where the data of the chosen key and range stand.
type Load =
  | { state: "loading" }
  | { state: "error" }
  | { state: "done"; points: ChartPoint[]; texts: boolean; from: Date; to: Date; shifted: boolean };

interface ChartRange {
  from: Date;
  to: Date;
  preset: Preset | null;
}

export function TagChart(props: TagChartProps): ReactNode {
  const { tagId, keys } = props;
  const intl = useIntl();
  const [key, setKey] = useState<string | null>(() => firstKey(props));
  const [range, setRange] = useState<ChartRange>(() => presetRange(defaultPreset, new Date()));
  const [attempt, setAttempt] = useState(0);
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [cursor, setCursor] = useState<number | null>(null);
  const [plot, width] = useWidth();
  const hintId = useId();
  const summaryId = useId();
  const chosen: ChartKey | undefined = keys.find((k) => k.key === key);

  // One request per key, range and width step; an answer that arrives after
  // a newer request was sent is dropped.
  const maxPoints = width > 0 ? maxPointsFor(Math.ceil(width / 100) * 100) : 0;
  const seq = useRef(0);
  useEffect(() => {
    if (key === null || maxPoints === 0) return;
    const mine = ++seq.current;
    setLoad({ state: "loading" });
    setCursor(null);
    const latest = keys.find((k) => k.key === key)?.latest;
    const read = async (): Promise<Load> => {
      const data = (await api<TagDatum[]>("GET", dataPath(tagId, key, range.from, range.to, maxPoints))) ?? [];
      const points = toPoints(data);
      const done = { state: "done" as const, points, texts: points.length === 0 && data.length > 0, from: range.from, to: range.to, shifted: false };
      // A device whose clock is off sends times outside any recent range:
      // rather than an empty chart, show the same span up to its latest value.
      const back = data.length === 0 ? shiftedRange(range, latest) : null;
      if (!back) return done;
      const older = toPoints((await api<TagDatum[]>("GET", dataPath(tagId, key, back.from, back.to, maxPoints))) ?? []);
      return older.length > 0 ? { ...done, points: older, from: back.from, to: back.to, shifted: true } : done;
    };
    read().then(
      (l) => {
        if (mine === seq.current) setLoad(l);
      },
      () => {
        if (mine === seq.current) setLoad({ state: "error" });
      },
    );
  }, [tagId, key, keys, range, maxPoints, attempt]);

  const formatValue = useCallback(
    (v: number): string => {
      const text = intl.formatNumber(v, { maximumFractionDigits: chosen?.decimals ?? 2 });
      return chosen?.unit ? `${text} ${chosen.unit}` : text;
    },
    [intl, chosen],
  );
  const formatTime = useCallback((d: Date): string => intl.formatDate(d, dateTimeWithZone), [intl]);
  const spanMs = range.to.getTime() - range.from.getTime();
  const formatTick = useCallback(
    (d: Date): string =>
      spanMs <= 36 * 3600_000
        ? intl.formatTime(d, { hour: "2-digit", minute: "2-digit" })
        : intl.formatDate(d, { day: "numeric", month: "short" }),
    [intl, spanMs],
  );

  const keyName = chosen ? chosen.label || chosen.key : (key ?? "");
  const rangeName = range.preset
    ? intl.formatMessage(presetLabels[range.preset])
    : intl.formatDateTimeRange(range.from, range.to, { dateStyle: "medium" });
  const points = useMemo(() => (load.state === "done" ? load.points : []), [load]);
  const summary = useMemo(() => summarise(points), [points]);
  const focused = cursor === null ? undefined : points[cursor];

  function onRangeChange(detail: RangeDetail): void {
    setRange({ from: new Date(detail.from), to: new Date(detail.to), preset: detail.preset });
  }

  function onPlotKey(e: KeyboardEvent<HTMLDivElement>): void {
    if (e.key === "Escape") {
      setCursor(null);
      return;
    }
    const next = stepIndex(cursor, points.length, e.key);
    if (next === null) return;
    e.preventDefault();
    setCursor(next);
  }

  let body: ReactNode;
  if (key === null) {
    body = <p className="fh-tag-chart__message">{intl.formatMessage(messages.noData)}</p>;
  } else if (load.state === "loading") {
    body = (
      <p className="fh-tag-chart__message" role="status">
        <span className="mdi mdi-loading mdi-spin" aria-hidden="true" /> {intl.formatMessage(messages.loading)}
      </p>
    );
  } else if (load.state === "error") {
    body = (
      <div className="fh-tag-chart__message fh-tag-chart__message--error" role="alert">
        <span>{intl.formatMessage(messages.error)}</span>
        <Button className="fh-tag-chart__retry" onPress={() => setAttempt((n) => n + 1)}>
          {intl.formatMessage(messages.retry)}
        </Button>
      </div>
    );
  } else if (load.points.length === 0) {
    body = (
      <p className="fh-tag-chart__message" role="status">
        {intl.formatMessage(load.texts ? messages.textOnly : messages.noData)}
      </p>
    );
  } else {
    const label = intl.formatMessage(messages.label, { key: keyName, range: rangeName });
    body = (
      <>
        {load.shifted ? (
          <p className="fh-tag-chart__shifted" role="status">
            {intl.formatMessage(messages.outOfRange, { time: formatTime(load.to) })}
          </p>
        ) : null}
        <div
          className="fh-tag-chart__plot-area"
          role="group"
          tabIndex={0}
          aria-label={label}
          aria-describedby={`${summaryId} ${hintId}`}
          onKeyDown={onPlotKey}
          onBlur={() => setCursor(null)}
        >
          <Suspense fallback={<div className="fh-tag-chart__placeholder" style={{ height: chartHeight }} />}>
            <LineChart
              points={load.points}
              from={load.from}
              to={load.to}
              width={width}
              height={chartHeight}
              label={label}
              cursor={cursor}
              formatValue={formatValue}
              formatTime={formatTime}
              formatTick={formatTick}
            />
          </Suspense>
        </div>
        <p className="fh-tag-chart__summary" id={summaryId}>
          {summary
            ? intl.formatMessage(messages.summary, {
                count: summary.count,
                min: formatValue(summary.min.value),
                max: formatValue(summary.max.value),
                last: formatValue(summary.last.value),
              })
            : null}
          <span className="fh-tag-chart__hint" id={hintId}>
            {" "}
            {intl.formatMessage(messages.hint)}
          </span>
        </p>
        <p className="fh-tag-chart__live" aria-live="polite">
          {focused ? intl.formatMessage(messages.point, { time: formatTime(focused.time), value: formatValue(focused.value) }) : ""}
        </p>
      </>
    );
  }

  return (
    <div className="fh-tag-chart">
      <div className="fh-tag-chart__controls">
        {keys.length > 0 ? (
          <Select className="fh-tag-chart__select" value={key} onChange={(k) => k !== null && setKey(String(k))}>
            <Label className="fh-tag-chart__label">{intl.formatMessage(messages.key)}</Label>
            <Button className="fh-tag-chart__select-button">
              <SelectValue className="fh-tag-chart__select-value" />
              <span className="mdi mdi-menu-down" aria-hidden="true" />
            </Button>
            <Popover className="fh-tag-chart__popover" placement="bottom start">
              <ListBox className="fh-tag-chart__listbox" items={keys}>
                {(k) => (
                  <ListBoxItem id={k.key} className="fh-tag-chart__option" textValue={k.label || k.key}>
                    {k.label || k.key}
                    {k.unit ? <span className="fh-tag-chart__unit"> ({k.unit})</span> : null}
                  </ListBoxItem>
                )}
              </ListBox>
            </Popover>
          </Select>
        ) : null}
        <DateRangePicker preset={defaultPreset} onRangeChange={onRangeChange} />
      </div>
      <div className="fh-tag-chart__plot" ref={plot}>
        {body}
      </div>
    </div>
  );
}
