// The islands' props, as the pages (modules/signaltests/internal/pages)
// write them.
export interface ListProps {
  companyId: number;
}

export interface PeekProps {
  testId: number;
  tileUrl: string;
}

const positive = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v > 0;

export function readListProps(raw: unknown): ListProps | null {
  const p = raw as { companyId?: unknown } | null;
  return p && positive(p.companyId) ? { companyId: p.companyId } : null;
}

export function readPeekProps(raw: unknown): PeekProps | null {
  const p = raw as { testId?: unknown; tileUrl?: unknown } | null;
  if (!p || !positive(p.testId)) return null;
  return { testId: p.testId, tileUrl: typeof p.tileUrl === "string" ? p.tileUrl : "" };
}
