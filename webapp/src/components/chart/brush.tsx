// ChartBrush picks a part of a time range by dragging across a small plot
// (a zoom slider): horizontal, resizable at both ends.
import type { ReactNode } from "react";
import { Brush, type Bounds } from "@visx/brush";
import type { AxisScale } from "@visx/axis";

export type { Bounds };

export interface ChartBrushProps {
  xScale: AxisScale<number>;
  yScale: AxisScale<number>;
  width: number;
  height: number;
  // start and end are the x positions the brush starts at, if any.
  start?: number;
  end?: number;
  onChange: (bounds: Bounds | null) => void;
  onClick: () => void;
  fill: string;
  stroke: string;
}

export function ChartBrush(props: ChartBrushProps): ReactNode {
  const { xScale, yScale, width, height, start, end, onChange, onClick, fill, stroke } = props;
  return (
    <Brush
      initialBrushPosition={start !== undefined && end !== undefined ? { start: { x: start }, end: { x: end } } : undefined}
      xScale={xScale}
      yScale={yScale}
      width={width}
      height={height}
      handleSize={8}
      resizeTriggerAreas={["left", "right"]}
      brushDirection="horizontal"
      onChange={onChange}
      onClick={onClick}
      selectedBoxStyle={{ fill, fillOpacity: 0.25, stroke, strokeWidth: 1 }}
      useWindowMoveEvents
    />
  );
}
