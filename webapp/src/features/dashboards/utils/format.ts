// Value rules of the widgets as pure functions: decimal rounding, the
// value_match colouring (format in docs/decisions.md), the trend of a value
// against the one before, the fill of a gauge or tank, and the weather
// symbols. No DOM, so they are easy to reason about and to test.

// decimals reads decimal_rounding: 0-10 digits, null when unset or bad.
export function decimals(raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === "") return null;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 0 && n <= 10 ? n : null;
}

// MatchRule is one rule of a value_match attribute.
export interface MatchRule {
  // test tells whether the rule applies to a value (number or text).
  test: (value: number | null, text: string) => boolean;
  color: string;
  text: string;
}

const colorRe = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

// parseValueMatch reads a value_match attribute: rules separated by ";",
// each "condition:colour" or "condition:colour:text", first match wins. A
// condition is an exact value ("1", "open"), a range "a..b" with either end
// left open ("..18", "25.."), or a comparison "<10", "<=10", ">30", ">=30",
// "!=0". The colour is #rgb or #rrggbb or empty (text only); the text, when
// given, is shown instead of the value. Rules it cannot read are skipped.
export function parseValueMatch(raw: string): MatchRule[] {
  const rules: MatchRule[] = [];
  for (const part of raw.split(";")) {
    const trimmed = part.trim();
    if (trimmed === "") continue;
    const [cond = "", color = "", ...rest] = trimmed.split(":");
    const c = color.trim();
    if (c !== "" && !colorRe.test(c)) continue;
    const test = condition(cond.trim());
    if (!test) continue;
    rules.push({ test, color: c, text: rest.join(":").trim() });
  }
  return rules;
}

function condition(cond: string): MatchRule["test"] | null {
  if (cond === "") return null;
  const range = /^(-?[\d.]*)\.\.(-?[\d.]*)$/.exec(cond);
  if (range && cond !== "..") {
    const lo = range[1] === "" ? -Infinity : Number(range[1]);
    const hi = range[2] === "" ? Infinity : Number(range[2]);
    if (Number.isNaN(lo) || Number.isNaN(hi)) return null;
    return (v) => v !== null && v >= lo && v <= hi;
  }
  const cmp = /^(<=|>=|<|>|!=)\s*(-?\d+(?:\.\d+)?)$/.exec(cond);
  if (cmp) {
    const n = Number(cmp[2]);
    switch (cmp[1]) {
      case "<":
        return (v) => v !== null && v < n;
      case "<=":
        return (v) => v !== null && v <= n;
      case ">":
        return (v) => v !== null && v > n;
      case ">=":
        return (v) => v !== null && v >= n;
      default:
        return (v) => v !== null && v !== n;
    }
  }
  const n = Number(cond);
  if (cond.trim() !== "" && Number.isFinite(n)) return (v, text) => (v !== null ? v === n : text === cond);
  return (_v, text) => text.toLowerCase() === cond.toLowerCase();
}

// matchValue returns the first rule that applies, or null.
export function matchValue(rules: readonly MatchRule[], value: number | null, text: string): MatchRule | null {
  return rules.find((r) => r.test(value, text)) ?? null;
}

export type Trend = "up" | "down" | "flat";

// trendOf compares value with the one before it.
export function trendOf(value: number | null, previous: number | null): Trend | null {
  if (value === null || previous === null) return null;
  if (value > previous) return "up";
  if (value < previous) return "down";
  return "flat";
}

// fraction is where value lies between min and max, clamped to 0..1; null
// when the bounds make no range.
export function fraction(value: number, min: number, max: number): number | null {
  if (!(max > min)) return null;
  return Math.min(1, Math.max(0, (value - min) / (max - min)));
}

// niceDomain widens [lo, hi] a little so that lines do not touch the edges,
// and makes a range of a single value visible.
export function padDomain(lo: number, hi: number): [number, number] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  if (lo === hi) {
    const d = Math.abs(lo) > 0 ? Math.abs(lo) * 0.1 : 1;
    return [lo - d, hi + d];
  }
  const pad = (hi - lo) * 0.05;
  return [lo - pad, hi + pad];
}

// weatherIcon maps a forecast symbol to a Material Design icon: SMHI's
// Wsymb2 numbers (1-27) and MET Norway's symbol codes ("partlycloudy_day").
export function weatherIcon(symbol: string | number | null): string {
  if (typeof symbol === "number") return smhiIcons[symbol] ?? "mdi-weather-cloudy";
  if (typeof symbol === "string" && symbol !== "") {
    const n = Number(symbol);
    if (Number.isInteger(n)) return smhiIcons[n] ?? "mdi-weather-cloudy";
    const code = symbol.replace(/_(day|night|polartwilight)$/, "");
    const night = symbol.endsWith("_night");
    if (code === "clearsky" || code === "fair") return night ? "mdi-weather-night" : "mdi-weather-sunny";
    if (code === "partlycloudy") return night ? "mdi-weather-night-partly-cloudy" : "mdi-weather-partly-cloudy";
    if (code === "cloudy") return "mdi-weather-cloudy";
    if (code === "fog") return "mdi-weather-fog";
    if (code.includes("thunder")) return "mdi-weather-lightning-rainy";
    if (code.includes("sleet")) return "mdi-weather-snowy-rainy";
    if (code.includes("snow")) return code.includes("heavy") ? "mdi-weather-snowy-heavy" : "mdi-weather-snowy";
    if (code.includes("rain")) return code.includes("heavy") ? "mdi-weather-pouring" : "mdi-weather-rainy";
  }
  return "mdi-weather-cloudy";
}

const smhiIcons: Record<number, string> = {
  1: "mdi-weather-sunny",
  2: "mdi-weather-sunny",
  3: "mdi-weather-partly-cloudy",
  4: "mdi-weather-partly-cloudy",
  5: "mdi-weather-cloudy",
  6: "mdi-weather-cloudy",
  7: "mdi-weather-fog",
  8: "mdi-weather-rainy",
  9: "mdi-weather-rainy",
  10: "mdi-weather-pouring",
  11: "mdi-weather-lightning",
  12: "mdi-weather-snowy-rainy",
  13: "mdi-weather-snowy-rainy",
  14: "mdi-weather-snowy-rainy",
  15: "mdi-weather-snowy",
  16: "mdi-weather-snowy",
  17: "mdi-weather-snowy-heavy",
  18: "mdi-weather-rainy",
  19: "mdi-weather-rainy",
  20: "mdi-weather-pouring",
  21: "mdi-weather-lightning-rainy",
  22: "mdi-weather-snowy-rainy",
  23: "mdi-weather-snowy-rainy",
  24: "mdi-weather-snowy-rainy",
  25: "mdi-weather-snowy",
  26: "mdi-weather-snowy",
  27: "mdi-weather-snowy-heavy",
};

// FontStyle is font_style_large: {"type", "size", "weight"} as JSON.
export interface FontStyle {
  fontFamily?: string;
  fontStyle?: string;
  fontSize?: string;
  fontWeight?: number | string;
}

// parseFontStyle reads font_style_large. type is a generic family (serif,
// sans-serif, monospace) or a style (normal, italic); size is pixels or a
// CSS length; weight 100-900 or a keyword.
export function parseFontStyle(raw: string): FontStyle {
  if (!raw) return {};
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return {};
  }
  if (typeof v !== "object" || v === null) return {};
  const o = v as Record<string, unknown>;
  const out: FontStyle = {};
  if (typeof o.type === "string") {
    if (["serif", "sans-serif", "monospace"].includes(o.type)) out.fontFamily = o.type;
    else if (["normal", "italic", "oblique"].includes(o.type)) out.fontStyle = o.type;
  }
  const size = fontSize(o.size);
  if (size) out.fontSize = size;
  if (typeof o.weight === "number" && o.weight >= 100 && o.weight <= 900) out.fontWeight = o.weight;
  else if (typeof o.weight === "string" && /^(normal|bold|lighter|bolder|[1-9]00)$/.test(o.weight)) out.fontWeight = o.weight;
  return out;
}

// fontSize reads a font_size: a number of pixels or a CSS length.
export function fontSize(raw: unknown): string | null {
  if (typeof raw === "number" && raw > 0 && raw <= 400) return `${raw}px`;
  if (typeof raw !== "string") return null;
  const s = raw.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s) > 0 && Number(s) <= 400 ? `${s}px` : null;
  return /^\d+(\.\d+)?(px|rem|em|%)$/.test(s) ? s : null;
}

// safeColor returns c when it is a hex colour, else "" (the theme's).
export const safeColor = (c: string): string => (colorRe.test(c.trim()) || /^#[0-9a-f]{8}$/i.test(c.trim()) ? c.trim() : "");

// safeHttpUrl returns u when it is an absolute http(s) address, else null.
export function safeHttpUrl(u: string): URL | null {
  try {
    const url = new URL(u);
    return url.protocol === "https:" || url.protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}

// compassPoint names the direction wind comes from (0-360 degrees) as one
// of 8 points, for the arrow's label.
export function compassPoint(deg: number): "N" | "NE" | "E" | "SE" | "S" | "SW" | "W" | "NW" {
  const points = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"] as const;
  return points[Math.round((((deg % 360) + 360) % 360) / 45) % 8] ?? "N";
}
