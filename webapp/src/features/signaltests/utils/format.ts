// Numbers and times as the pages show them.
import type { IntlShape } from "react-intl";
import { dateTimeWithZone } from "@/lib/i18n";

// signal is a dBm or dB value with at most one decimal and its unit, "–"
// when unset.
export function signal(intl: IntlShape, v: number | null | undefined, unit: "dBm" | "dB"): string {
  return v === null || v === undefined ? "–" : `${intl.formatNumber(v, { maximumFractionDigits: 1 })} ${unit}`;
}

// exact is a point's own value as the network server gave it (up to two
// decimals), "–" when unset.
export function exact(intl: IntlShape, v: number | null | undefined): string {
  return v === null || v === undefined ? "–" : intl.formatNumber(v, { maximumFractionDigits: 2 });
}

export function when(intl: IntlShape, iso: string | null): string {
  return iso ? intl.formatDate(iso, dateTimeWithZone) : "–";
}

export function position(intl: IntlShape, lat: number, lng: number): string {
  const f = (v: number): string => intl.formatNumber(v, { minimumFractionDigits: 5, maximumFractionDigits: 5 });
  return `${f(lat)}, ${f(lng)}`;
}
