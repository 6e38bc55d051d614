// AlarmPreview draws the last 24 hours of the rule's key with its limits
// (and their hysteresis band) over them, with the shared chart parts, and
// says in words how many values crossed the limits. It follows the rule's
// form as it is edited.
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { useIntl } from "react-intl";
import { Group } from "@visx/group";
import { scaleLinear, scaleTime } from "@visx/scale";
import { Line } from "@visx/shape";
import { ChartAxis } from "@/components/chart/axis";
import { ChartGrid } from "@/components/chart/grid";
import { LineSeries } from "@/components/chart/line-series";
import { api } from "@/lib/api";
import { dateTimeWithZone, pageTimeZone } from "@/lib/i18n";
import { useWidth } from "@/lib/use-width";
import { breaches, dataPath, domain, toPoints, type Datum, type Point, type PreviewRule } from "@/features/alarms/utils/preview";

const colors = {
  line: "var(--fh-chart-line)",
  axis: "var(--fh-chart-axis)",
  grid: "var(--fh-chart-grid)",
  limit: "var(--fh-alarm-limit, #d32f2f)",
};
const margin = { top: 12, right: 24, bottom: 32, left: 56 };
const height = 220;

type State = { kind: "idle" } | { kind: "loading" } | { kind: "error" } | { kind: "ready"; points: Point[]; from: Date; to: Date };

export function AlarmPreview({ rule }: { rule: PreviewRule }): ReactNode {
  const intl = useIntl();
  const [ref, width] = useWidth();
  const [state, setState] = useState<State>({ kind: "idle" });

  const { tagId, key } = rule;
  useEffect(() => {
    if (tagId === 0 || key === "") {
      setState({ kind: "idle" });
      return;
    }
    let live = true;
    const to = new Date();
    const from = new Date(to.getTime() - 24 * 3600 * 1000);
    setState({ kind: "loading" });
    api<Datum[]>("GET", dataPath({ tagId, key }, from, to))
      .then((data) => live && setState({ kind: "ready", points: toPoints(data ?? []), from, to }))
      .catch(() => live && setState({ kind: "error" }));
    return () => {
      live = false;
    };
  }, [tagId, key]);

  const fmt = useMemo(() => new Intl.NumberFormat(intl.locale, { maximumFractionDigits: 3 }), [intl.locale]);
  const tick = useMemo(() => new Intl.DateTimeFormat(intl.locale, { hour: "2-digit", minute: "2-digit", timeZone: pageTimeZone() }), [intl.locale]);
  const full = useMemo(() => new Intl.DateTimeFormat(intl.locale, { ...dateTimeWithZone, timeZone: pageTimeZone() }), [intl.locale]);

  if (state.kind === "idle") return <p className="muted">{intl.formatMessage({ id: "alarms.preview.choose" })}</p>;
  if (state.kind === "loading") return <p className="muted" role="status">{intl.formatMessage({ id: "alarms.preview.loading" })}</p>;
  if (state.kind === "error") return <p className="error" role="alert">{intl.formatMessage({ id: "alarms.preview.error" })}</p>;

  const { points, from, to } = state;
  const innerW = Math.max(0, width - margin.left - margin.right);
  const innerH = height - margin.top - margin.bottom;
  const xScale = scaleTime<number>({ domain: [from, to], range: [0, innerW] });
  const yScale = scaleLinear<number>({ domain: domain(points, rule), range: [innerH, 0], nice: true });
  const limits: { value: number; id: string; dashed: boolean }[] = [];
  if (rule.limitHigh !== undefined) {
    limits.push({ value: rule.limitHigh, id: "alarms.preview.high", dashed: false });
    if (rule.hysteresis) limits.push({ value: rule.limitHigh - rule.hysteresis, id: "", dashed: true });
  }
  if (rule.limitLow !== undefined) {
    limits.push({ value: rule.limitLow, id: "alarms.preview.low", dashed: false });
    if (rule.hysteresis) limits.push({ value: rule.limitLow + rule.hysteresis, id: "", dashed: true });
  }
  const last = points[points.length - 1];
  const summary =
    last === undefined
      ? intl.formatMessage({ id: "alarms.preview.empty" })
      : intl.formatMessage(
          { id: "alarms.preview.summary" },
          { count: points.length, over: breaches(points, rule), latest: fmt.format(last.value), time: full.format(last.time) },
        );
  return (
    <div ref={ref} className="alarm-preview__chart">
      <svg width={width} height={height} role="img" aria-label={summary}>
        <Group left={margin.left} top={margin.top}>
          <ChartGrid direction="rows" scale={yScale} length={innerW} numTicks={5} stroke={colors.grid} />
          <ChartAxis orientation="bottom" top={innerH} scale={xScale} numTicks={width < 480 ? 3 : 6}
            tickFormat={(d) => tick.format(new Date(d.valueOf()))} stroke={colors.axis} text={colors.axis} fontSize={12} tickLength={4} />
          <ChartAxis orientation="left" scale={yScale} numTicks={5} tickFormat={(v) => fmt.format(Number(v))}
            stroke={colors.axis} text={colors.axis} fontSize={12} tickLength={4} />
          <LineSeries data={points} x={(p) => xScale(p.time)} y={(p) => yScale(p.value)} stroke={colors.line} strokeWidth={2} />
          {limits.map((l, i) => (
            <g key={i}>
              <Line from={{ x: 0, y: yScale(l.value) }} to={{ x: innerW, y: yScale(l.value) }} stroke={colors.limit}
                strokeWidth={l.dashed ? 1 : 2} strokeDasharray={l.dashed ? "4 4" : undefined} />
              {l.id ? (
                <text x={innerW - 4} y={yScale(l.value) - 4} textAnchor="end" fontSize={12} fill={colors.limit}>
                  {intl.formatMessage({ id: l.id }, { value: fmt.format(l.value) })}
                </text>
              ) : null}
            </g>
          ))}
        </Group>
      </svg>
      <p className="muted">{summary}</p>
    </div>
  );
}
