// The date-range picker's rules (the presets, the default of the last 24
// hours, custom ranges widened to whole days, the time offset) as pure
// functions of plain Dates, so that they can be tested without a DOM.

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

// adjustCustomRange widens the days of start and end, in either order, to
// 00:00:00.000 of the first day and 23:59:59.999 of the last day in local
// time.
export function adjustCustomRange(start: Date, end: Date): Range {
  const [first, last] = start.getTime() <= end.getTime() ? [start, end] : [end, start];
  return {
    from: new Date(first.getFullYear(), first.getMonth(), first.getDate(), 0, 0, 0, 0),
    to: new Date(last.getFullYear(), last.getMonth(), last.getDate(), 23, 59, 59, 999),
    preset: null,
  };
}

// offsetMs is the range's time offset, which a dashboard module stores:
// now minus the start of the range.
export function offsetMs(range: Range, now: Date): number {
  return now.getTime() - range.from.getTime();
}

// isWholeDays tells whether range starts at 00:00 and ends at 23:59:59.999
// local time, as a custom range does after adjustCustomRange.
export function isWholeDays(range: Range): boolean {
  const { from, to } = range;
  return (
    from.getHours() === 0 &&
    from.getMinutes() === 0 &&
    from.getSeconds() === 0 &&
    from.getMilliseconds() === 0 &&
    to.getHours() === 23 &&
    to.getMinutes() === 59 &&
    to.getSeconds() === 59 &&
    to.getMilliseconds() === 999
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
