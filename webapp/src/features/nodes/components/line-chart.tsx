// LineChart draws the points of one key with visx. It is a chunk of its
// own, loaded after the island's controls, so that the key picker and the
// date-range picker do not wait for the chart library.
import { useContext, useEffect, useMemo, type ReactNode } from "react";
import {
  Axis,
  DataContext,
  Grid,
  LineSeries,
  Tooltip,
  TooltipContext,
  XYChart,
  buildChartTheme,
  type TooltipContextType,
} from "@visx/xychart";
import type { ChartPoint } from "@/features/nodes/utils/tag-data";

// ChartColors are the theme's colours, read from CSS custom properties.
export interface ChartColors {
  line: string;
  axis: string;
  grid: string;
  text: string;
}

export interface LineChartProps {
  points: ChartPoint[];
  from: Date;
  to: Date;
  width: number;
  height: number;
  colors: ChartColors;
  label: string;
  // cursor is the index of the point the keyboard chose, or null.
  cursor: number | null;
  formatValue: (v: number) => string;
  formatTime: (d: Date) => string;
  formatTick: (d: Date) => string;
}

const seriesKey = "values";
const x = (p: ChartPoint): Date => p.time;
const y = (p: ChartPoint): number => p.value;

export default function LineChart(props: LineChartProps): ReactNode {
  const { points, from, to, width, height, colors, label, cursor, formatValue, formatTime, formatTick } = props;
  const theme = useMemo(
    () =>
      buildChartTheme({
        backgroundColor: "transparent",
        colors: [colors.line],
        gridColor: colors.grid,
        gridColorDark: colors.grid,
        tickLength: 4,
        svgLabelSmall: { fill: colors.axis, fontSize: 12, fontFamily: "inherit" },
        svgLabelBig: { fill: colors.text, fontSize: 12, fontFamily: "inherit" },
        xAxisLineStyles: { stroke: colors.axis },
        yAxisLineStyles: { stroke: colors.axis },
        xTickLineStyles: { stroke: colors.axis },
        yTickLineStyles: { stroke: colors.axis },
      }),
    [colors],
  );
  const narrow = width < 480;
  return (
    <XYChart
      width={width}
      height={height}
      theme={theme}
      accessibilityLabel={label}
      margin={{ top: 12, right: 28, bottom: 32, left: 56 }}
      xScale={{ type: "time", domain: [from, to] }}
      yScale={{ type: "linear", nice: true, zero: false }}
    >
      <Grid columns={false} numTicks={5} />
      <Axis orientation="bottom" numTicks={narrow ? 3 : 6} tickFormat={(d: Date) => formatTick(d)} />
      <Axis orientation="left" numTicks={5} tickFormat={(v: number) => formatValue(v)} />
      <LineSeries dataKey={seriesKey} data={points} xAccessor={x} yAccessor={y} strokeWidth={2} className="fh-tag-chart__line" />
      <KeyboardCursor points={points} cursor={cursor} />
      <Tooltip<ChartPoint>
        snapTooltipToDatumX
        snapTooltipToDatumY
        showVerticalCrosshair
        showSeriesGlyphs
        unstyled
        applyPositionStyle
        className="fh-tag-chart__tooltip"
        glyphStyle={{ fill: colors.line, stroke: colors.text, strokeWidth: 1 }}
        verticalCrosshairStyle={{ stroke: colors.axis, strokeDasharray: "3 3" }}
        renderTooltip={({ tooltipData }) => {
          const p = tooltipData?.nearestDatum?.datum;
          if (!p) return null;
          return (
            <>
              <strong className="fh-tag-chart__tooltip-value">{formatValue(p.value)}</strong>
              <span className="fh-tag-chart__tooltip-time">{formatTime(p.time)}</span>
            </>
          );
        }}
      />
    </XYChart>
  );
}

// KeyboardCursor shows the tooltip of the point the keyboard chose, as the
// pointer would.
function KeyboardCursor({ points, cursor }: { points: ChartPoint[]; cursor: number | null }): null {
  const tooltip = useContext(TooltipContext) as TooltipContextType<ChartPoint> | null;
  const data = useContext(DataContext);
  useEffect(() => {
    if (!tooltip || !data.xScale || !data.yScale) return;
    const p = cursor === null ? undefined : points[cursor];
    if (!p || cursor === null) {
      tooltip.hideTooltip();
      return;
    }
    const px = Number(data.xScale(p.time)) + (data.margin?.left ?? 0);
    const py = Number(data.yScale(p.value)) + (data.margin?.top ?? 0);
    tooltip.showTooltip({ key: seriesKey, index: cursor, datum: p, distanceX: 0, distanceY: 0, svgPoint: { x: px, y: py } });
    // The tooltip's functions are stable; the scales change with the data.
  }, [cursor, points, data.xScale, data.yScale]);
  return null;
}
