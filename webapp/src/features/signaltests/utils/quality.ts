// The signal quality of a point, from its best gateway's RSSI and SNR, in
// the bands the map's legend names (docs/decisions.md "Field signal
// tests"): good when RSSI ≥ −100 dBm and SNR ≥ 0 dB, fair when RSSI ≥ −115
// dBm and SNR ≥ −7.5 dB (SF7's demodulation floor), poor below either;
// "none" when the uplink named no signal. A point is as good as the worse
// of its two values.
export type Quality = "good" | "fair" | "poor" | "none";

export const QUALITIES: readonly Quality[] = ["good", "fair", "poor", "none"];

export const BANDS = {
  rssi: { good: -100, fair: -115 },
  snr: { good: 0, fair: -7.5 },
} as const;

function band(value: number, limits: { good: number; fair: number }): Quality {
  if (value >= limits.good) return "good";
  if (value >= limits.fair) return "fair";
  return "poor";
}

const rank: Record<Quality, number> = { good: 0, fair: 1, poor: 2, none: 3 };

export function qualityOf(rssi: number | null, snr: number | null): Quality {
  if (rssi === null && snr === null) return "none";
  const parts: Quality[] = [];
  if (rssi !== null) parts.push(band(rssi, BANDS.rssi));
  if (snr !== null) parts.push(band(snr, BANDS.snr));
  return parts.reduce((worst, q) => (rank[q] > rank[worst] ? q : worst), "good" as Quality);
}

// average is the mean of the values that are set, null when none is: the
// server's averages are computed the same way from the same points.
export function average(values: (number | null)[]): number | null {
  const set = values.filter((v): v is number => v !== null);
  return set.length === 0 ? null : set.reduce((a, v) => a + v, 0) / set.length;
}
