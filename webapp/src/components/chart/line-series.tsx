// LineSeries draws a series as a line through its points.
import type { ReactNode } from "react";
import { LinePath } from "@visx/shape";

export interface LineSeriesProps<D> {
  data: readonly D[];
  x: (d: D) => number;
  y: (d: D) => number;
  stroke: string;
  strokeWidth: number;
  className?: string;
}

export function LineSeries<D>({ data, x, y, stroke, strokeWidth, className }: LineSeriesProps<D>): ReactNode {
  return <LinePath<D> data={data as D[]} x={x} y={y} stroke={stroke} strokeWidth={strokeWidth} className={className} />;
}
