// ChartGrid draws the lines behind a chart at the ticks of a value scale:
// rows across a plot whose values run up, columns down one whose values run
// across.
import type { ReactNode } from "react";
import { GridColumns, GridRows } from "@visx/grid";
import type { AxisScale } from "@visx/axis";

export interface ChartGridProps {
  direction: "rows" | "columns";
  scale: AxisScale;
  // length is the plot's width for rows, its height for columns.
  length: number;
  numTicks: number;
  className?: string;
  stroke?: string;
}

export function ChartGrid({ direction, scale, length, numTicks, className, stroke }: ChartGridProps): ReactNode {
  return direction === "rows" ? (
    <GridRows scale={scale} width={length} numTicks={numTicks} className={className} stroke={stroke} />
  ) : (
    <GridColumns scale={scale} height={length} numTicks={numTicks} className={className} stroke={stroke} />
  );
}
