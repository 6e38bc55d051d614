// The gateways' shapes as GET /api/gateway/company/{id} and .../unknown
// answer them (docs/api/gateways.md), and the islands' props.
export type GatewayState = "online" | "offline" | "never";

// stateLabel is the catalog id of a state's name (named literally, so that
// the islands' catalog keeps them).
export const stateLabel: Record<string, string> = {
  online: "gateways.state.online",
  offline: "gateways.state.offline",
  never: "gateways.state.never",
};

export interface Stats {
  lastSeen: string | null;
  uplinks24h: number;
  medianRssi: number | null;
  medianSnr: number | null;
  state: GatewayState;
}

export interface Gateway extends Stats {
  id: number;
  companyId: number;
  applicationId: number;
  name: string;
  macAddress: string;
  latitude: number;
  longitude: number;
  createdAt: string;
}

export interface UnknownGateway extends Stats {
  macAddress: string;
}

export interface Application {
  id: number;
  name: string;
}

export interface ListProps {
  companyId: number;
  canManage: boolean;
  tileUrl: string;
  offlineSeconds: number;
}

export interface CreateProps {
  companyId: number;
  tileUrl: string;
  geocode: boolean;
  eui: string;
}

function obj(v: unknown): Record<string, unknown> | null {
  return typeof v === "object" && v !== null ? (v as Record<string, unknown>) : null;
}

export function readListProps(v: unknown): ListProps | null {
  const o = obj(v);
  if (!o || typeof o.companyId !== "number" || o.companyId <= 0) return null;
  return {
    companyId: o.companyId,
    canManage: o.canManage === true,
    tileUrl: typeof o.tileUrl === "string" ? o.tileUrl : "",
    offlineSeconds: typeof o.offlineSeconds === "number" ? o.offlineSeconds : 600,
  };
}

export function readCreateProps(v: unknown): CreateProps | null {
  const o = obj(v);
  if (!o || typeof o.companyId !== "number" || o.companyId <= 0) return null;
  return {
    companyId: o.companyId,
    tileUrl: typeof o.tileUrl === "string" ? o.tileUrl : "",
    geocode: o.geocode === true,
    eui: typeof o.eui === "string" ? o.eui : "",
  };
}

// fieldErrors are the per-field messages of a refused call (the Problem
// body's errors), by field.
export function fieldErrors(body: unknown): Record<string, string> {
  const errs = obj(obj(body)?.errors);
  const out: Record<string, string> = {};
  if (!errs) return out;
  for (const [k, v] of Object.entries(errs)) {
    if (Array.isArray(v) && typeof v[0] === "string") out[k] = v[0];
  }
  return out;
}
