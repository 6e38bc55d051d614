// RangeCalendar picks a range of days: a CalendarGrid of CalendarCells.
import type { ReactNode } from "react";
import {
  CalendarCell as AriaCalendarCell,
  CalendarGrid as AriaCalendarGrid,
  RangeCalendar as AriaRangeCalendar,
  type CalendarCellProps,
  type CalendarGridProps,
  type DateValue,
  type RangeCalendarProps,
} from "react-aria-components";

export function RangeCalendar<T extends DateValue>(props: RangeCalendarProps<T>): ReactNode {
  return <AriaRangeCalendar<T> {...props} />;
}

export function CalendarGrid(props: CalendarGridProps): ReactNode {
  return <AriaCalendarGrid {...props} />;
}

export function CalendarCell(props: CalendarCellProps): ReactNode {
  return <AriaCalendarCell {...props} />;
}
