// TimeChart draws series over time with visx: line, area, bar, scatter, or
// "vertical" (time running down the y axis, values along x); a min/mean/max
// band for trend buckets; dashed lines at the module's min and max; a
// crosshair and tooltip that follow the pointer or the arrow keys and, with
// sync_chart, the pointer over the other synced charts; a y domain shared
// with the other sync_y charts; and a zoom slider (a brush over an overview
// of the whole range) when zoom_slider is on.
import { useContext, useId, useMemo, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from "react";
import { localPoint } from "@visx/event";
import { Group } from "@visx/group";
import { scaleLinear, scaleTime } from "@visx/scale";
import { Area } from "@visx/shape";
import { ChartAxis } from "@/components/chart/axis";
import { ChartBrush, type Bounds } from "@/components/chart/brush";
import { ChartGrid } from "@/components/chart/grid";
import { LineSeries } from "@/components/chart/line-series";
import { ChartTooltip, Crosshair, Glyph, nearestIndex } from "@/components/chart/tooltip";
import { Button } from "@/components/ui/button";
import { useIntl } from "react-intl";
import { padDomain } from "@/features/dashboards/utils/format";
import { useWidth } from "@/lib/use-width";
import { msg } from "@/features/dashboards/utils/messages";
import type { Bucket, ChartKind, Point } from "@/features/dashboards/utils/dashboard-model";
import { SyncContext, useSyncedDomain, useSyncedHover } from "@/features/dashboards/hooks/use-chart-sync";
import { dateTimeWithZone } from "@/lib/i18n";

export interface ChartSeries {
  id: string;
  label: string;
  unit: string;
  points: Point[];
  buckets: Bucket[] | null;
}

export interface TimeChartProps {
  moduleId: number;
  series: ChartSeries[];
  from: number;
  to: number;
  kind: ChartKind;
  height: number;
  minLine: number | null;
  maxLine: number | null;
  syncChart: boolean;
  syncY: boolean;
  zoomSlider: boolean;
  axisLabel: string;
  decimals: number | null;
  label: string;
  // compact drops axes and interaction (a sparkline).
  compact?: boolean;
}

export const seriesColor = (i: number): string => `var(--fh-dash-series-${i % 11})`;

const overviewHeight = 44;

// valuesOf are the points a series draws: its buckets' means for a trend.
const valuesOf = (s: ChartSeries): Point[] => (s.buckets ? s.buckets.map((b) => ({ t: b.t, v: b.mean })) : s.points);

// nearest is the index of the point of pts closest to t (pts sorted by t).
const nearest = (pts: readonly Point[], t: number): number => nearestIndex(pts, t, (p) => p.t);

export default function TimeChart(props: TimeChartProps): ReactNode {
  const { moduleId, series, from, to, kind, height, minLine, maxLine, syncChart, syncY, zoomSlider, axisLabel, decimals, label, compact } = props;
  const intl = useIntl();
  const sync = useContext(SyncContext);
  const [box, width] = useWidth();
  const [zoom, setZoom] = useState<[number, number] | null>(null);
  const [own, setOwn] = useState<number | null>(null);
  const [cursor, setCursor] = useState<number | null>(null);
  const synced = useSyncedHover(syncChart);
  const hintId = useId();
  const vertical = kind === "vertical";

  // The data's own y extent: values, bands and the min/max lines.
  const extent = useMemo((): [number, number] | null => {
    let lo = Infinity;
    let hi = -Infinity;
    for (const s of series) {
      if (s.buckets) {
        for (const b of s.buckets) {
          lo = Math.min(lo, b.min);
          hi = Math.max(hi, b.max);
        }
      } else {
        for (const p of s.points) {
          lo = Math.min(lo, p.v);
          hi = Math.max(hi, p.v);
        }
      }
    }
    for (const l of [minLine, maxLine]) {
      if (l !== null) {
        lo = Math.min(lo, l);
        hi = Math.max(hi, l);
      }
    }
    if (kind === "bar") {
      lo = Math.min(lo, 0);
      hi = Math.max(hi, 0);
    }
    return Number.isFinite(lo) ? [lo, hi] : null;
  }, [series, minLine, maxLine, kind]);
  const domain = useSyncedDomain(syncY, moduleId, extent);

  const margin = compact
    ? { top: 4, right: 4, bottom: 4, left: 4 }
    : { top: 10, right: 16, bottom: 28, left: axisLabel ? 66 : 52 };
  const showOverview = zoomSlider && !compact && !vertical;
  const innerW = Math.max(10, width - margin.left - margin.right);
  const innerH = Math.max(10, height - margin.top - margin.bottom - (showOverview ? overviewHeight + 8 : 0));
  const [t0, t1] = zoom ?? [from, to];
  const [v0, v1] = padDomain(domain?.[0] ?? 0, domain?.[1] ?? 1);

  const timeScale = useMemo(
    () => scaleTime<number>({ domain: [new Date(t0), new Date(t1)], range: vertical ? [0, innerH] : [0, innerW] }),
    [t0, t1, innerW, innerH, vertical],
  );
  const valueScale = useMemo(
    () => scaleLinear<number>({ domain: [v0, v1], range: vertical ? [0, innerW] : [innerH, 0], nice: true }),
    [v0, v1, innerW, innerH, vertical],
  );
  const tx = (t: number): number => timeScale(new Date(t)) ?? 0;
  const vy = (v: number): number => valueScale(v) ?? 0;

  const first = series[0] ? valuesOf(series[0]) : [];
  const visible = (p: Point): boolean => p.t >= t0 && p.t <= t1;
  const shown = useMemo(() => series.map((s) => ({ ...s, pts: valuesOf(s).filter((p) => p.t >= t0 && p.t <= t1) })), [series, t0, t1]);

  const format = (v: number): string => intl.formatNumber(v, { maximumFractionDigits: decimals ?? 2, minimumFractionDigits: decimals ?? 0 });
  const span = t1 - t0;
  const tick = (d: Date | { valueOf(): number }): string => {
    const date = new Date(d.valueOf());
    return span <= 36 * 3600_000 ? intl.formatTime(date, { hour: "2-digit", minute: "2-digit" }) : intl.formatDate(date, { day: "numeric", month: "short" });
  };

  // The time the crosshair stands at: the keyboard's point, else the
  // pointer over this chart, else a synced chart's pointer.
  const cursorPoint = cursor !== null ? first[cursor] : undefined;
  const hoverTime = cursorPoint?.t ?? own ?? (synced && synced.source !== moduleId ? synced.time : null);

  function pointerTime(e: PointerEvent<SVGRectElement>): number | null {
    const p = localPoint(e);
    if (!p) return null;
    const pos = vertical ? p.y - margin.top : p.x - margin.left;
    return timeScale.invert(pos).getTime();
  }

  function onMove(e: PointerEvent<SVGRectElement>): void {
    const t = pointerTime(e);
    if (t === null) return;
    // Snap to the nearest point of the first series, so the tooltip names
    // a real value.
    const i = nearest(first.filter(visible), t);
    const snapped = i >= 0 ? (first.filter(visible)[i]?.t ?? t) : t;
    setOwn(snapped);
    if (syncChart) sync.setHover(snapped, moduleId);
  }

  function onLeave(): void {
    setOwn(null);
    if (syncChart) sync.setHover(null, moduleId);
  }

  function onKey(e: KeyboardEvent<HTMLDivElement>): void {
    if (first.length === 0) return;
    let next: number | null;
    if (e.key === "Escape") next = null;
    else if (e.key === "ArrowRight" || e.key === "ArrowDown") next = cursor === null ? first.length - 1 : Math.min(first.length - 1, cursor + 1);
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = cursor === null ? first.length - 1 : Math.max(0, cursor - 1);
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = first.length - 1;
    else return;
    e.preventDefault();
    setCursor(next);
    const p = next === null ? undefined : first[next];
    if (syncChart) sync.setHover(p ? p.t : null, moduleId);
  }

  const tooltip =
    hoverTime !== null && !compact
      ? shown
          .map((s, i) => {
            const j = nearest(s.pts, hoverTime);
            const p = s.pts[j];
            return p ? { i, label: s.label, unit: s.unit, v: p.v, t: p.t } : null;
          })
          .filter((r): r is { i: number; label: string; unit: string; v: number; t: number } => r !== null)
      : [];
  const tipTime = tooltip[0]?.t ?? hoverTime;
  const tipPos = tipTime !== null ? tx(tipTime) : 0;

  const barWidth = (n: number): number => Math.max(1, Math.min(24, (innerW / Math.max(1, n)) * 0.8) / Math.max(1, shown.length));

  const plot = (
    <svg width={width} height={height - (showOverview ? overviewHeight + 8 : 0)} role="img" aria-label={label} className="fh-dash-chart__svg">
      <Group left={margin.left} top={margin.top}>
        {!compact ? (
          vertical ? (
            <ChartGrid direction="columns" scale={valueScale} length={innerH} numTicks={4} className="fh-dash-chart__grid" />
          ) : (
            <ChartGrid direction="rows" scale={valueScale} length={innerW} numTicks={4} className="fh-dash-chart__grid" />
          )
        ) : null}
        {shown.map((s, i) => {
          const color = seriesColor(i);
          const key = s.id;
          if (s.buckets && !vertical) {
            const bs = s.buckets.filter((b) => b.t >= t0 && b.t <= t1);
            return (
              <g key={key}>
                <Area<Bucket>
                  data={bs}
                  x={(b) => tx(b.t)}
                  y0={(b) => vy(b.min)}
                  y1={(b) => vy(b.max)}
                  fill={color}
                  fillOpacity={0.2}
                  className="fh-dash-chart__band"
                />
                <LineSeries<Bucket> data={bs} x={(b) => tx(b.t)} y={(b) => vy(b.mean)} stroke={color} strokeWidth={2} className="fh-dash-chart__line" />
              </g>
            );
          }
          switch (kind) {
            case "bar": {
              const w = barWidth(s.pts.length);
              return (
                <g key={key} className="fh-dash-chart__bars">
                  {s.pts.map((p) => {
                    const y = vy(p.v);
                    const base = vy(0);
                    return <rect key={p.t} x={tx(p.t) - (w * shown.length) / 2 + i * w} y={Math.min(y, base)} width={w} height={Math.abs(base - y)} fill={color} />;
                  })}
                </g>
              );
            }
            case "scatter":
              return (
                <g key={key} className="fh-dash-chart__dots">
                  {s.pts.map((p) => (
                    <circle key={p.t} cx={tx(p.t)} cy={vy(p.v)} r={compact ? 1.5 : 2.5} fill={color} />
                  ))}
                </g>
              );
            case "vertical":
              return <LineSeries<Point> key={key} data={s.pts} x={(p) => vy(p.v)} y={(p) => tx(p.t)} stroke={color} strokeWidth={2} className="fh-dash-chart__line" />;
            case "area":
              return (
                <g key={key}>
                  <Area<Point> data={s.pts} x={(p) => tx(p.t)} y0={innerH} y1={(p) => vy(p.v)} fill={color} fillOpacity={0.22} />
                  <LineSeries<Point> data={s.pts} x={(p) => tx(p.t)} y={(p) => vy(p.v)} stroke={color} strokeWidth={2} className="fh-dash-chart__line" />
                </g>
              );
            default:
              return <LineSeries<Point> key={key} data={s.pts} x={(p) => tx(p.t)} y={(p) => vy(p.v)} stroke={color} strokeWidth={compact ? 1.5 : 2} className="fh-dash-chart__line" />;
          }
        })}
        {[
          { v: minLine, name: "min" as const },
          { v: maxLine, name: "max" as const },
        ].map(({ v, name }) =>
          v === null ? null : vertical ? (
            <line key={name} x1={vy(v)} x2={vy(v)} y1={0} y2={innerH} className={`fh-dash-chart__limit fh-dash-chart__limit--${name}`} />
          ) : (
            <g key={name}>
              <line x1={0} x2={innerW} y1={vy(v)} y2={vy(v)} className={`fh-dash-chart__limit fh-dash-chart__limit--${name}`} />
              {!compact ? (
                <text x={innerW - 2} y={vy(v) - 3} textAnchor="end" className="fh-dash-chart__limit-label">
                  {intl.formatMessage(name === "min" ? msg.chartMin : msg.chartMax, { value: format(v) })}
                </text>
              ) : null}
            </g>
          ),
        )}
        {hoverTime !== null && !compact ? (
          vertical ? (
            <Crosshair y={tipPos} length={innerW} className="fh-dash-chart__crosshair" />
          ) : (
            <Crosshair x={tipPos} length={innerH} className="fh-dash-chart__crosshair" />
          )
        ) : null}
        {tooltip.map((r) =>
          vertical ? (
            <Glyph key={r.i} cx={vy(r.v)} cy={tx(r.t)} fill={seriesColor(r.i)} className="fh-dash-chart__glyph" />
          ) : (
            <Glyph key={r.i} cx={tx(r.t)} cy={vy(r.v)} fill={seriesColor(r.i)} className="fh-dash-chart__glyph" />
          ),
        )}
        {!compact ? (
          vertical ? (
            <>
              <ChartAxis orientation="left" scale={timeScale} numTicks={5} tickFormat={tick} {...axisStyle} />
              <ChartAxis orientation="bottom" top={innerH} scale={valueScale} numTicks={width < 360 ? 3 : 5} tickFormat={(v) => format(Number(v))} label={axisLabel} {...axisStyle} />
            </>
          ) : (
            <>
              <ChartAxis orientation="bottom" top={innerH} scale={timeScale} numTicks={width < 360 ? 3 : width < 600 ? 4 : 6} tickFormat={tick} {...axisStyle} />
              <ChartAxis orientation="left" scale={valueScale} numTicks={4} tickFormat={(v) => format(Number(v))} label={axisLabel} labelOffset={36} {...axisStyle} />
            </>
          )
        ) : null}
        {!compact ? (
          <rect
            width={innerW}
            height={innerH}
            fill="transparent"
            onPointerMove={onMove}
            onPointerDown={onMove}
            onPointerLeave={onLeave}
            className="fh-dash-chart__overlay"
          />
        ) : null}
      </Group>
    </svg>
  );

  if (compact) {
    return (
      <div ref={box} className="fh-dash-chart fh-dash-chart--compact" style={{ height }}>
        {width > 0 ? plot : null}
      </div>
    );
  }

  const tipLeft = margin.left + (vertical ? innerW / 2 : tipPos);
  const tipTop = margin.top + (vertical ? tipPos : 0);
  return (
    <div ref={box} className="fh-dash-chart">
      <div
        className="fh-dash-chart__plot"
        role="group"
        tabIndex={0}
        aria-label={label}
        aria-describedby={hintId}
        onKeyDown={onKey}
        onBlur={() => {
          setCursor(null);
          if (syncChart && cursor !== null) sync.setHover(null, moduleId);
        }}
      >
        {width > 0 ? plot : <div style={{ height: height - (showOverview ? overviewHeight + 8 : 0) }} />}
        {tooltip.length > 0 && tipTime !== null ? (
          <ChartTooltip
            className={`fh-dash-chart__tooltip${tipLeft > width / 2 ? " fh-dash-chart__tooltip--left" : ""}`}
            left={tipLeft}
            top={tipTop}
            live={cursor !== null}
          >
            <span className="fh-dash-chart__tooltip-time">{intl.formatDate(new Date(tipTime), dateTimeWithZone)}</span>
            {tooltip.map((r) => (
              <span key={r.i} className="fh-dash-chart__tooltip-row">
                <span className="fh-dash-chart__swatch" style={{ background: seriesColor(r.i) }} aria-hidden="true" />
                {r.label ? `${r.label}: ` : ""}
                <strong>
                  {format(r.v)}
                  {r.unit ? ` ${r.unit}` : ""}
                </strong>
              </span>
            ))}
          </ChartTooltip>
        ) : null}
      </div>
      <p className="sr-only" id={hintId}>
        {intl.formatMessage(msg.chartHint)}
      </p>
      {showOverview && width > 0 ? (
        <Overview
          series={series}
          from={from}
          to={to}
          width={width}
          margin={margin}
          zoom={zoom}
          onZoom={setZoom}
        />
      ) : null}
      {series.length > 1 ? (
        <ul className="fh-dash-chart__legend">
          {series.map((s, i) => (
            <li key={s.id}>
              <span className="fh-dash-chart__swatch" style={{ background: seriesColor(i) }} aria-hidden="true" />
              {s.label}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

const axisStyle = { className: "fh-dash-chart__axis", stroke: "var(--fh-dash-axis)", text: "var(--fh-dash-axis-text)", fontSize: 11 };

// Overview is the zoom slider: the first series over the whole range with
// a brush that picks the part the chart above shows.
function Overview(props: {
  series: ChartSeries[];
  from: number;
  to: number;
  width: number;
  margin: { left: number; right: number };
  zoom: [number, number] | null;
  onZoom: (z: [number, number] | null) => void;
}): ReactNode {
  const { series, from, to, width, margin, zoom, onZoom } = props;
  const intl = useIntl();
  const innerW = Math.max(10, width - margin.left - margin.right);
  const pts = series[0] ? valuesOf(series[0]) : [];
  const xs = scaleTime<number>({ domain: [new Date(from), new Date(to)], range: [0, innerW] });
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of pts) {
    lo = Math.min(lo, p.v);
    hi = Math.max(hi, p.v);
  }
  const [a, b] = padDomain(Number.isFinite(lo) ? lo : 0, Number.isFinite(hi) ? hi : 1);
  const ys = scaleLinear<number>({ domain: [a, b], range: [overviewHeight - 4, 4] });
  const [key, setKey] = useState(0);

  // The buttons halve or double the shown part around its middle: the
  // keyboard's way to zoom. The brush is drawn anew to show it.
  function step(factor: number): void {
    const [a0, a1] = zoom ?? [from, to];
    const mid = (a0 + a1) / 2;
    const half = Math.max(60_000, ((a1 - a0) * factor) / 2);
    const next: [number, number] = [Math.max(from, mid - half), Math.min(to, mid + half)];
    onZoom(next[0] <= from && next[1] >= to ? null : next);
    setKey((k) => k + 1);
  }

  function onChange(bounds: Bounds | null): void {
    if (!bounds || bounds.x1 - bounds.x0 < 1000) {
      onZoom(null);
      return;
    }
    onZoom([bounds.x0, bounds.x1]);
  }

  return (
    <div className="fh-dash-chart__overview">
      <svg width={width} height={overviewHeight} aria-label={intl.formatMessage(msg.chartZoom)} role="img">
        <Group left={margin.left}>
          <rect width={innerW} height={overviewHeight} className="fh-dash-chart__overview-bg" />
          <LineSeries<Point> data={pts} x={(p) => xs(new Date(p.t)) ?? 0} y={(p) => ys(p.v) ?? 0} stroke={seriesColor(0)} strokeWidth={1} />
          <ChartBrush
            key={key}
            start={zoom ? (xs(new Date(zoom[0])) ?? 0) : undefined}
            end={zoom ? (xs(new Date(zoom[1])) ?? innerW) : undefined}
            xScale={xs}
            yScale={ys}
            width={innerW}
            height={overviewHeight}
            onChange={onChange}
            onClick={() => onZoom(null)}
            fill="var(--fh-dash-brush)"
            stroke="var(--fh-dash-axis)"
          />
        </Group>
      </svg>
      <div className="fh-dash-chart__overview-tools">
        <Button className="fh-dash-icon-button" aria-label={intl.formatMessage(msg.chartZoomIn)} onPress={() => step(0.5)}>
          <span className="mdi mdi-magnify-plus-outline" aria-hidden="true" />
        </Button>
        <Button className="fh-dash-icon-button" aria-label={intl.formatMessage(msg.chartZoomOut)} onPress={() => step(2)} isDisabled={zoom === null}>
          <span className="mdi mdi-magnify-minus-outline" aria-hidden="true" />
        </Button>
        {zoom !== null ? (
          <Button
            className="fh-dash-button fh-dash-button--small fh-dash-button--quiet"
            onPress={() => {
              onZoom(null);
              setKey((k) => k + 1);
            }}
          >
            {intl.formatMessage(msg.chartResetZoom)}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
