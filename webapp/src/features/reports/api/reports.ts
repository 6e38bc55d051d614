// The reports API (docs/api/reports.md) as the report islands call it.
import { api, ApiError } from "@/lib/api";

export type ReportType = "regular" | "trend";
export type Tempo = 0 | 1 | 2;
export type Resolution = "hour" | "day";

export interface Report {
  id: number;
  companyId: number;
  name: string;
  type: ReportType;
  tempo: Tempo;
  refrenceDate: string;
  reportContacts: string[];
  nodes: number[];
  keys: string[];
  resolution: Resolution;
  createdAt: string;
  updatedAt: string;
  lastSent: string | null;
}

export type ReportBody = Pick<Report, "name" | "type" | "tempo" | "refrenceDate" | "reportContacts" | "nodes" | "keys" | "resolution">;

// NodeChoice is a node the page offers, with its keys.
export interface NodeChoice {
  id: number;
  name: string;
  deveui: string;
  keys: { key: string; label: string; unit: string }[];
}

export interface ExportBody {
  nodes: number[];
  keys: string[];
  from: string;
  to: string;
  type: ReportType;
  format: "xlsx" | "csv";
  resolution: Resolution;
}

export interface Preview {
  node: string;
  columns: string[];
  rows: { time: string; values: (number | string | null)[] }[];
}

// The message ids the report calls may answer with, for api-error's translator.
export const reportErrorIds = [
  "reports.noData",
  "reports.fetchFailed",
  "reports.type.invalid",
  "reports.tempo.invalid",
  "reports.refrenceDate.invalid",
  "reports.contacts.none",
  "reports.nodes.unknown",
  "reports.resolution.invalid",
  "reports.format.invalid",
  "reports.name.invalid",
  "validation.required",
  "validation.max255",
] as const;

export const fetchReport = (id: number): Promise<Report> => api<Report>("GET", `/api/report/${id}`);

export const saveReport = (id: number | undefined, body: ReportBody): Promise<Report> =>
  id ? api<Report>("PUT", `/api/report/${id}`, body) : api<Report>("POST", "/api/report", body);

export const previewReport = (body: ExportBody): Promise<Preview> => api<Preview>("POST", "/api/report/preview", body);

// exportFile downloads an export: the file and its name, or an ApiError
// (404 when the window holds no data).
export async function exportFile(body: ExportBody): Promise<{ blob: Blob; name: string }> {
  const send = (): Promise<Response> =>
    fetch("/api/report/multiexport", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept-Language": document.documentElement.lang || "en" },
      body: JSON.stringify(body),
    });
  let res = await send();
  if (res.status === 401) {
    await api("POST", "/api/users/refresh");
    res = await send();
  }
  if (!res.ok) {
    const data: unknown = await res.json().catch(() => null);
    const message = (data as { message?: string } | null)?.message ?? res.statusText;
    throw new ApiError(res.status, message, data);
  }
  const disposition = res.headers.get("Content-Disposition") ?? "";
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `report.${body.format}`;
  return { blob: await res.blob(), name };
}

// saveBlob hands a downloaded file to the browser.
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// readNodes checks the nodes of an island's props.
export function readNodes(raw: unknown): NodeChoice[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (n): n is NodeChoice =>
      typeof n === "object" && n !== null && typeof (n as NodeChoice).id === "number" && typeof (n as NodeChoice).name === "string" && Array.isArray((n as NodeChoice).keys),
  );
}

// keyChoices are the keys of the chosen nodes, each once, by name.
export function keyChoices(nodes: NodeChoice[], chosen: number[]): { key: string; heading: string }[] {
  const out = new Map<string, string>();
  for (const n of nodes) {
    if (!chosen.includes(n.id)) continue;
    for (const k of n.keys) {
      if (!out.has(k.key)) out.set(k.key, `${k.label || k.key}${k.unit ? ` (${k.unit})` : ""}`);
    }
  }
  return [...out.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([key, heading]) => ({ key, heading }));
}
