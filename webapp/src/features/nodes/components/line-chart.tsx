// LineChart draws the points of one key with the shared chart parts
// (components/chart). It is a chunk of its own, loaded after the island's
// controls, so that the key picker and the date-range picker do not wait
// for the chart library. Its colours are the theme's --fh-chart-* custom
// properties (tag-chart.css), so it follows a change of theme by itself.
import { useMemo, useState, type PointerEvent, type ReactNode } from "react";
import { localPoint } from "@visx/event";
import { Group } from "@visx/group";
import { scaleLinear, scaleTime } from "@visx/scale";
import { ChartAxis } from "@/components/chart/axis";
import { ChartGrid } from "@/components/chart/grid";
import { LineSeries } from "@/components/chart/line-series";
import { ChartTooltip, Crosshair, Glyph, nearestIndex } from "@/components/chart/tooltip";
import type { ChartPoint } from "@/features/nodes/utils/tag-data";

export interface LineChartProps {
  points: ChartPoint[];
  from: Date;
  to: Date;
  width: number;
  height: number;
  label: string;
  // cursor is the index of the point the keyboard chose, or null.
  cursor: number | null;
  formatValue: (v: number) => string;
  formatTime: (d: Date) => string;
  formatTick: (d: Date) => string;
}

const colors = {
  line: "var(--fh-chart-line)",
  axis: "var(--fh-chart-axis)",
  grid: "var(--fh-chart-grid)",
  text: "var(--fh-chart-text)",
};
const margin = { top: 12, right: 28, bottom: 32, left: 56 };
// tipGap is the room between a point and its tooltip.
const tipGap = 12;
const timeOf = (p: ChartPoint): number => p.time.getTime();

export default function LineChart(props: LineChartProps): ReactNode {
  const { points, from, to, width, height, label, cursor, formatValue, formatTime, formatTick } = props;
  const [hover, setHover] = useState<number | null>(null);
  const innerW = Math.max(0, width - margin.left - margin.right);
  const innerH = Math.max(0, height - margin.top - margin.bottom);
  const xScale = useMemo(() => scaleTime<number>({ domain: [from, to], range: [0, innerW] }), [from, to, innerW]);
  const yScale = useMemo(() => {
    let lo = Infinity;
    let hi = -Infinity;
    for (const p of points) {
      lo = Math.min(lo, p.value);
      hi = Math.max(hi, p.value);
    }
    return scaleLinear<number>({ domain: Number.isFinite(lo) ? [lo, hi] : [0, 1], range: [innerH, 0], nice: true, zero: false });
  }, [points, innerH]);
  const x = (p: ChartPoint): number => xScale(p.time) ?? 0;
  const y = (p: ChartPoint): number => yScale(p.value) ?? 0;

  // The keyboard's point, else the one nearest the pointer.
  const active = cursor ?? hover;
  const point = active === null ? undefined : points[active];

  function onMove(e: PointerEvent<SVGRectElement>): void {
    const at = localPoint(e);
    if (!at) return;
    const i = nearestIndex(points, xScale.invert(at.x - margin.left).getTime(), timeOf);
    setHover(i >= 0 ? i : null);
  }

  return (
    <>
      <svg width={width} height={height} aria-label={label}>
        <Group left={margin.left} top={margin.top}>
          <ChartGrid direction="rows" scale={yScale} length={innerW} numTicks={5} stroke={colors.grid} />
          <ChartAxis
            orientation="bottom"
            top={innerH}
            scale={xScale}
            numTicks={width < 480 ? 3 : 6}
            tickFormat={(d) => formatTick(new Date(d.valueOf()))}
            stroke={colors.axis}
            text={colors.axis}
            fontSize={12}
            tickLength={4}
          />
          <ChartAxis
            orientation="left"
            scale={yScale}
            numTicks={5}
            tickFormat={(v) => formatValue(Number(v))}
            stroke={colors.axis}
            text={colors.axis}
            fontSize={12}
            tickLength={4}
          />
          <LineSeries data={points} x={x} y={y} stroke={colors.line} strokeWidth={2} className="fh-tag-chart__line" />
          {point ? (
            <>
              <Crosshair x={x(point)} length={innerH} style={{ stroke: colors.axis, strokeDasharray: "3 3" }} />
              <Glyph cx={x(point)} cy={y(point)} fill={colors.line} style={{ stroke: colors.text, strokeWidth: 1 }} />
            </>
          ) : null}
          <rect width={innerW} height={innerH} fill="transparent" onPointerMove={onMove} onPointerDown={onMove} onPointerLeave={() => setHover(null)} />
        </Group>
      </svg>
      {point ? (
        <ChartTooltip
          className="fh-tag-chart__tooltip"
          left={margin.left + x(point) + (x(point) > innerW / 2 ? -tipGap : tipGap)}
          top={margin.top + y(point) + tipGap}
          flip={x(point) > innerW / 2}
        >
          <strong className="fh-tag-chart__tooltip-value">{formatValue(point.value)}</strong>
          <span className="fh-tag-chart__tooltip-time">{formatTime(point.time)}</span>
        </ChartTooltip>
      ) : null}
    </>
  );
}
