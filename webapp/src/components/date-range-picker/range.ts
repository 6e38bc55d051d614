// The date-range picker's rules (the presets, the default of the last 24
// hours, custom ranges widened to whole days, the time offset) as pure
// functions of plain Dates, so that they can be tested without a DOM. Days
// are those of the time zone the page names (the viewer's, see
// pageTimeZone), so that a custom range runs from 00:00 to 23:59 on the
// viewer's clock whatever the browser's zone, 23- and 25-hour days included.
import { CalendarDate, fromDate, toCalendarDate, type DateValue } from "@internationalized/date";

// Preset is one of the quick ranges, each ending now.
export type Preset = "1h" | "5h" | "24h" | "7d" | "30d";

const hour = 60 * 60 * 1000;

// presetDurations is how far back each preset reaches, in milliseconds.
export const presetDurations: Readonly<Record<Preset, number>> = {
  "1h": hour,
  "5h": 5 * hour,
  "24h": 24 * hour,
  "7d": 7 * 24 * hour,
  "30d": 30 * 24 * hour,
};

// presets lists the presets in the order the picker shows them.
export const presets: readonly Preset[] = ["1h", "5h", "24h", "7d", "30d"];

// defaultPreset is the range the picker starts with: the last 24 hours.
export const defaultPreset: Preset = "24h";

// Range is a chosen interval; preset is null for a custom range.
export interface Range {
  from: Date;
  to: Date;
  preset: Preset | null;
}

// isPreset tells whether value is one of the preset names.
export function isPreset(value: unknown): value is Preset {
  return typeof value === "string" && Object.hasOwn(presetDurations, value);
}

// presetRange is the range of preset ending at now.
export function presetRange(preset: Preset, now: Date): Range {
  const to = now.getTime();
  return { from: new Date(to - presetDurations[preset]), to: new Date(to), preset };
}

// adjustCustomRange widens the calendar days start and end, in either
// order, to 00:00:00.000 of the first day and 23:59:59.999 of the last day
// in timeZone.
export function adjustCustomRange(start: DateValue, end: DateValue, timeZone: string): Range {
  const [first, last] = start.compare(end) <= 0 ? [start, end] : [end, start];
  const day = (d: DateValue): CalendarDate => new CalendarDate(d.year, d.month, d.day);
  return {
    from: day(first).toDate(timeZone),
    // The next day's midnight, less a millisecond: 23:59:59.999 even on a
    // day of 23 or 25 hours.
    to: new Date(day(last).add({ days: 1 }).toDate(timeZone).getTime() - 1),
    preset: null,
  };
}

// dayOf is the calendar day of d in timeZone.
export function dayOf(d: Date, timeZone: string): CalendarDate {
  return toCalendarDate(fromDate(d, timeZone));
}

// offsetMs is the range's time offset, which a dashboard module stores:
// now minus the start of the range.
export function offsetMs(range: Range, now: Date): number {
  return now.getTime() - range.from.getTime();
}

// isWholeDays tells whether range starts at 00:00 and ends at 23:59:59.999
// in timeZone, as a custom range does after adjustCustomRange.
export function isWholeDays(range: Range, timeZone: string): boolean {
  const from = fromDate(range.from, timeZone);
  const to = fromDate(range.to, timeZone);
  return (
    from.hour === 0 &&
    from.minute === 0 &&
    from.second === 0 &&
    from.millisecond === 0 &&
    to.hour === 23 &&
    to.minute === 59 &&
    to.second === 59 &&
    to.millisecond === 999
  );
}

// initialRange is the range the picker starts with: preset if it is one,
// otherwise from and to if both are valid dates in order, otherwise the
// default preset.
export function initialRange(preset: unknown, from: unknown, to: unknown, now: Date): Range {
  if (isPreset(preset)) return presetRange(preset, now);
  const start = parseDate(from);
  const end = parseDate(to);
  if (start && end && start.getTime() <= end.getTime()) return { from: start, to: end, preset: null };
  return presetRange(defaultPreset, now);
}

// parseDate reads an ISO 8601 string, or returns null.
export function parseDate(value: unknown): Date | null {
  if (typeof value !== "string" || value === "") return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}
