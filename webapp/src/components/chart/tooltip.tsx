// The parts that show the values at a time: a Crosshair across the plot at
// that time, a Glyph on each series' point, and the ChartTooltip beside them
// (a box placed over the chart; its container is positioned).
import type { CSSProperties, ReactNode } from "react";

// nearestIndex is the index of the item of items (sorted by time) closest to
// t, or -1 when there is none.
export function nearestIndex<T>(items: readonly T[], t: number, timeOf: (item: T) => number): number {
  if (items.length === 0) return -1;
  let lo = 0;
  let hi = items.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const item = items[mid];
    if (item !== undefined && timeOf(item) < t) lo = mid + 1;
    else hi = mid;
  }
  const prev = items[lo - 1];
  const here = items[lo];
  if (prev !== undefined && here !== undefined && Math.abs(timeOf(prev) - t) <= Math.abs(timeOf(here) - t)) return lo - 1;
  return lo;
}

// Crosshair is a line across the plot: vertical at x, or horizontal at y.
export function Crosshair(props: { x?: number; y?: number; length: number; className?: string; style?: CSSProperties }): ReactNode {
  const { x, y, length, className, style } = props;
  return x !== undefined ? (
    <line x1={x} x2={x} y1={0} y2={length} className={className} style={style} />
  ) : (
    <line x1={0} x2={length} y1={y} y2={y} className={className} style={style} />
  );
}

// Glyph marks a point.
export function Glyph(props: { cx: number; cy: number; fill: string; className?: string; style?: CSSProperties }): ReactNode {
  const { cx, cy, fill, className, style } = props;
  return <circle cx={cx} cy={cy} r={4} fill={fill} className={className} style={style} />;
}

export interface ChartTooltipProps {
  className: string;
  left: number;
  top: number;
  // flip puts the box on the left of the point (near the right edge).
  flip?: boolean;
  live?: boolean;
  children: ReactNode;
}

export function ChartTooltip({ className, left, top, flip, live, children }: ChartTooltipProps): ReactNode {
  return (
    <div className={className} style={{ left, top, ...(flip ? { transform: "translateX(-100%)" } : {}) }} aria-live={live ? "polite" : undefined}>
      {children}
    </div>
  );
}
