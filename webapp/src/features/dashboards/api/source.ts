// Source is where the dashboard reads and writes: the signed-in routes of
// docs/api/dashboards.md, or the public routes of a shared link, which read
// the same answers without a session and cannot write.
import { ApiError, api } from "@/lib/api";
import {
  readDashboard,
  readAlarmState,
  readInfo,
  readLatest,
  readModule,
  readModules,
  readTagData,
  readWeather,
  type AlarmState,
  type DashModule,
  type Dashboard,
  type Info,
  type Latest,
  type Resolution,
  type TagData,
  type Weather,
} from "@/features/dashboards/utils/dashboard-model";

// The ids of the refusals the dashboard's calls may answer with, which it
// shows in the page's language (see lib/api-error.ts).
export const dashboardErrorIds = [
  "dashboards.module.tag",
  "validation.required",
  "validation.max255",
  "error.notFound",
  "error.forbidden",
  "dashboards.function.kind",
  "dashboards.function.script",
  "dashboards.function.scriptUnknown",
  "dashboards.function.node",
  "dashboards.function.key",
  "dashboards.function.inputType",
  "dashboards.function.dashboard",
  "dashboards.function.payloadType",
  "dashboards.function.payload",
  "dashboards.press.notScript",
  "dashboards.press.noScripts",
];

export interface Loaded {
  dashboard: Dashboard;
  modules: DashModule[];
  companyName: string;
  expiresAt: number | null;
}

export interface TagDataQuery {
  from: Date;
  to: Date;
  points?: number;
  resolution?: Resolution;
}

// ModuleInput is a module as the create and update calls take it.
export type ModuleInput = Omit<DashModule, "dashboardModuleId" | "dashboardId"> &
  Partial<Pick<DashModule, "dashboardModuleId" | "dashboardId">>;

export class Source {
  readonly isPublic: boolean;

  constructor(
    readonly dashboardId: number,
    readonly publicToken: string,
    readonly timeZone = "",
  ) {
    this.isPublic = publicToken !== "";
  }

  private moduleBase(id: number): string {
    return this.isPublic
      ? `/api/dashboards/public/${encodeURIComponent(this.publicToken)}/modules/${id}`
      : `/api/dashboards/modules/${id}`;
  }

  async load(): Promise<Loaded> {
    if (this.isPublic) {
      const raw = await api<Record<string, unknown>>("GET", `/api/dashboards/public/${encodeURIComponent(this.publicToken)}`);
      const dashboard = readDashboard(raw?.dashboard);
      if (!dashboard) throw new ApiError(404, "no dashboard", raw);
      const company = raw?.company as { name?: unknown } | undefined;
      const expires = typeof raw?.expiresAt === "string" ? Date.parse(raw.expiresAt) : NaN;
      return {
        dashboard,
        modules: readModules(raw?.modules),
        companyName: typeof company?.name === "string" ? company.name : "",
        expiresAt: Number.isNaN(expires) ? null : expires,
      };
    }
    const [d, mods] = await Promise.all([
      api<unknown>("GET", `/api/dashboards/${this.dashboardId}`),
      api<unknown>("GET", `/api/dashboards/${this.dashboardId}/modules`),
    ]);
    const dashboard = readDashboard(d);
    if (!dashboard) throw new ApiError(404, "no dashboard", d);
    return { dashboard, modules: readModules(mods), companyName: "", expiresAt: null };
  }

  async tagdata(m: DashModule, q: TagDataQuery): Promise<TagData> {
    const params = new URLSearchParams({ from: q.from.toISOString(), to: q.to.toISOString() });
    if (q.points) params.set("points", String(q.points));
    if (q.resolution) {
      params.set("resolution", q.resolution);
      // Day and week buckets start at midnight where the viewer is.
      if (this.timeZone) params.set("tz", this.timeZone);
    }
    return readTagData(await api<unknown>("GET", `${this.moduleBase(m.dashboardModuleId)}/tagdata?${params}`));
  }

  async latest(m: DashModule): Promise<Latest[]> {
    return readLatest(await api<unknown>("GET", `${this.moduleBase(m.dashboardModuleId)}/tagdata/latest`));
  }

  // alarm reads the state of the alarm the module names (alarm_id), null
  // when it names none of the company's alarms.
  async alarm(m: DashModule): Promise<AlarmState | null> {
    return readAlarmState(await api<unknown>("GET", `${this.moduleBase(m.dashboardModuleId)}/alarm`));
  }

  async info(m: DashModule): Promise<Info> {
    return readInfo(await api<unknown>("GET", `${this.moduleBase(m.dashboardModuleId)}/info`));
  }

  async weather(m: DashModule): Promise<Weather> {
    return readWeather(await api<unknown>("GET", `${this.moduleBase(m.dashboardModuleId)}/weather`));
  }

  // imageUrl is where the module's picture is served, "" when it has none
  // (on a public page the server already points it at the public route).
  imageUrl(m: DashModule): string {
    return m.image;
  }

  // The calls below change the dashboard; only the signed-in page makes them.

  async create(input: ModuleInput): Promise<DashModule> {
    const m = readModule(await api<unknown>("POST", `/api/dashboards/${this.dashboardId}/modules`, body(input)));
    if (!m) throw new Error("create module: bad answer");
    return m;
  }

  async update(m: DashModule): Promise<DashModule> {
    const saved = readModule(await api<unknown>("PUT", `/api/dashboards/modules/${m.dashboardModuleId}`, body(m)));
    if (!saved) throw new Error("update module: bad answer");
    return saved;
  }

  async saveLayout(ms: readonly DashModule[]): Promise<DashModule[]> {
    return readModules(await api<unknown>("PUT", "/api/dashboards/modules/multiple", ms.map(body)));
  }

  async copy(m: DashModule): Promise<DashModule> {
    const c = readModule(await api<unknown>("POST", `/api/dashboards/modules/copy/${m.dashboardModuleId}`));
    if (!c) throw new Error("copy module: bad answer");
    return c;
  }

  async remove(m: DashModule): Promise<void> {
    await api("DELETE", `/api/dashboards/modules/${m.dashboardModuleId}`);
  }

  // uploadImage sends a picture as the request body; on a lapsed session it
  // renews it once through the refresh cookie, as api() does.
  async uploadImage(m: DashModule, file: Blob): Promise<DashModule> {
    const send = (): Promise<Response> =>
      fetch(`/api/dashboards/modules/${m.dashboardModuleId}/image`, {
        method: "POST",
        credentials: "same-origin",
        headers: { Accept: "application/json", "Content-Type": file.type || "application/octet-stream" },
        body: file,
      });
    let res = await send();
    if (res.status === 401 && (await fetch("/api/users/refresh", { method: "POST", credentials: "same-origin" })).ok) {
      res = await send();
    }
    const text = await res.text();
    const data: unknown = text ? JSON.parse(text) : null;
    if (!res.ok) throw new ApiError(res.status, (data as { message?: string } | null)?.message ?? res.statusText, data);
    const saved = readModule(data);
    if (!saved) throw new Error("upload image: bad answer");
    return saved;
  }

  async removeImage(m: DashModule): Promise<void> {
    await api("DELETE", `/api/dashboards/modules/${m.dashboardModuleId}/image`);
  }

  // The calls of function buttons: only the signed-in page makes them, and
  // the public page never shows a button.

  // press runs a SCRIPT button's script (POST .../press).
  async press(m: DashModule): Promise<ScriptRun> {
    const raw = await api<Record<string, unknown> | null>("POST", `/api/dashboards/modules/${m.dashboardModuleId}/press`);
    return { result: typeof raw?.result === "string" ? raw.result : "", error: typeof raw?.error === "string" ? raw.error : "" };
  }
}

// ScriptRun is what a pressed SCRIPT button's script returned, or the
// message it stopped with.
export interface ScriptRun {
  result: string;
  error: string;
}

// writeValue stores a manual value for a node's key (POST /api/tag/{id}/tagdata).
export async function writeValue(tagId: number, key: string, value: number | string | boolean): Promise<void> {
  await api("POST", `/api/tag/${tagId}/tagdata`, { key, value });
}

// queueDownlink queues a downlink for a node (POST /api/downlink/{tagId}).
export async function queueDownlink(tagId: number, d: { port: number; payload: string; payloadType: string; confirmed: boolean }): Promise<void> {
  await api("POST", `/api/downlink/${tagId}`, d);
}

export interface ScriptOption {
  id: number;
  name: string;
}

// loadScripts lists the company's invoked scripts, which a SCRIPT button
// may run (GET /api/dashboards/scripts/{companyId}).
export async function loadScripts(companyId: number): Promise<ScriptOption[]> {
  const raw = await api<unknown>("GET", `/api/dashboards/scripts/${companyId}`);
  if (!Array.isArray(raw)) return [];
  return (raw as Record<string, unknown>[])
    .filter((s) => typeof s?.id === "number")
    .map((s) => ({ id: s.id as number, name: typeof s.name === "string" ? s.name : "" }));
}

// nodeIds caches the company's nodes by DevEUI, which the buttons that
// write to a node need the id of.
const nodeIds = new Map<number, Promise<Map<string, number>>>();

// tagIdOf is the id of the company's node deveui, null when it has none.
export async function tagIdOf(companyId: number, deveui: string): Promise<number | null> {
  let known = nodeIds.get(companyId);
  if (!known) {
    known = loadNodes(companyId).then((ns) => new Map(ns.map((n) => [n.deveui, n.id])));
    known.catch(() => nodeIds.delete(companyId));
    nodeIds.set(companyId, known);
  }
  return (await known).get(deveui.toUpperCase()) ?? null;
}

// body is a module as the API takes it: without the image URL, which only
// the image routes change.
function body(m: ModuleInput): Record<string, unknown> {
  const { image: _image, ...rest } = m;
  return rest;
}

// NodeOption is a node of the company for the settings dialog.
export interface NodeOption {
  id: number;
  deveui: string;
  name: string;
  keys: string[];
  lat: number | null;
  long: number | null;
}

export interface KeyOption {
  key: string;
  label: string;
  unit: string;
}

// loadNodes lists the company's nodes (GET /api/tag/company/{id}).
export async function loadNodes(companyId: number): Promise<NodeOption[]> {
  const raw = await api<unknown>("GET", `/api/tag/company/${companyId}`);
  if (!Array.isArray(raw)) return [];
  const out: NodeOption[] = [];
  for (const t of raw as Record<string, unknown>[]) {
    if (typeof t?.deveui !== "string" || typeof t.id !== "number") continue;
    out.push({
      id: t.id,
      deveui: t.deveui.toUpperCase(),
      name: typeof t.name === "string" ? t.name : "",
      keys: Array.isArray(t.keys) ? t.keys.filter((k): k is string => typeof k === "string") : [],
      lat: typeof t.lat === "number" ? t.lat : null,
      long: typeof t.long === "number" ? t.long : null,
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name) || a.deveui.localeCompare(b.deveui));
}

export interface AlarmOption {
  id: number;
  name: string;
}

// loadAlarms lists the company's alarms (GET /api/companies/{id}/alarm),
// which a module may name.
export async function loadAlarms(companyId: number): Promise<AlarmOption[]> {
  const raw = await api<unknown>("GET", `/api/companies/${companyId}/alarm`);
  if (!Array.isArray(raw)) return [];
  const out: AlarmOption[] = [];
  for (const a of raw as Record<string, unknown>[]) {
    if (typeof a?.id !== "number") continue;
    out.push({ id: a.id, name: typeof a.name === "string" ? a.name : "" });
  }
  return out;
}

// loadKeys lists a node's keys with labels and units (GET /api/tag/{id}/keys).
export async function loadKeys(tagId: number): Promise<KeyOption[]> {
  const raw = await api<unknown>("GET", `/api/tag/${tagId}/keys`);
  if (!Array.isArray(raw)) return [];
  const out: KeyOption[] = [];
  for (const k of raw as Record<string, unknown>[]) {
    if (typeof k?.key !== "string") continue;
    out.push({ key: k.key, label: typeof k.label === "string" ? k.label : "", unit: typeof k.unit === "string" ? k.unit : "" });
  }
  return out;
}

export interface DashboardOption {
  id: number;
  name: string;
}

// loadDashboards lists the company's dashboards, which a DASHBOARD button
// may open (GET /api/companies/{id}/dashboards).
export async function loadDashboards(companyId: number): Promise<DashboardOption[]> {
  const raw = await api<unknown>("GET", `/api/companies/${companyId}/dashboards`);
  if (!Array.isArray(raw)) return [];
  return (raw as Record<string, unknown>[])
    .filter((d) => typeof d?.dashboardId === "number")
    .map((d) => ({ id: d.dashboardId as number, name: typeof d.name === "string" ? d.name : "" }));
}
