// ChartAxis is an axis of a chart: along the bottom or the left, its line,
// ticks and labels in the colours the chart gives (CSS colours, custom
// properties too, so that the themes apply).
import type { ReactNode } from "react";
import { AxisBottom, AxisLeft, type AxisScale } from "@visx/axis";

export interface ChartAxisProps {
  orientation: "bottom" | "left";
  scale: AxisScale;
  // top moves a bottom axis down to the foot of the plot.
  top?: number;
  numTicks: number;
  tickFormat: (value: Date | number | { valueOf(): number }) => string;
  label?: string;
  labelOffset?: number;
  className?: string;
  // stroke is the colour of the line and ticks, text that of the labels.
  stroke: string;
  text: string;
  fontSize: number;
  tickLength?: number;
}

export function ChartAxis(props: ChartAxisProps): ReactNode {
  const { orientation, scale, top, numTicks, tickFormat, label, labelOffset, className, stroke, text, fontSize, tickLength } = props;
  const Axis = orientation === "bottom" ? AxisBottom : AxisLeft;
  return (
    <Axis
      top={top}
      scale={scale}
      numTicks={numTicks}
      tickFormat={(v) => tickFormat(v)}
      label={label}
      labelOffset={labelOffset}
      axisClassName={className}
      stroke={stroke}
      tickStroke={stroke}
      tickLength={tickLength}
      tickLabelProps={{ fill: text, fontSize, fontFamily: "inherit" }}
      labelProps={{ fill: text, fontSize, fontFamily: "inherit", textAnchor: "middle" }}
    />
  );
}
