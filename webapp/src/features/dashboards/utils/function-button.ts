// The function button module (type 12): its four kinds (SPEC.md section 3)
// and the settings each reads from the module's attributes, as
// docs/api/dashboards.md defines them.
import type { DashModule } from "@/features/dashboards/utils/dashboard-model";

// Kind is a function button's function_type.
export const Kind = { script: 0, valueInput: 1, dashboard: 2, downlink: 3 } as const;
export type KindNumber = (typeof Kind)[keyof typeof Kind];
export const kinds: readonly KindNumber[] = [Kind.script, Kind.valueInput, Kind.dashboard, Kind.downlink];

// InputType is what a VALUEINPUT button writes.
export type InputType = "number" | "text" | "bool";
export const inputTypes: readonly InputType[] = ["number", "text", "bool"];

export type PayloadType = "hex" | "json";
export const payloadTypes: readonly PayloadType[] = ["hex", "json"];

// kindOf is a module's kind, null when it has none.
export function kindOf(m: DashModule): KindNumber | null {
  const k = Number(m.attributes.function_type ?? "");
  return m.attributes.function_type !== undefined && (kinds as readonly number[]).includes(k) ? (k as KindNumber) : null;
}

export function inputTypeOf(m: DashModule): InputType {
  const t = m.attributes.input_type;
  return t === "text" || t === "bool" ? t : "number";
}

// Downlink is the downlink a DOWNLINK button queues, as POST
// /api/downlink/{tagId} takes it.
export interface Downlink {
  port: number;
  payload: string;
  payloadType: PayloadType;
  confirmed: boolean;
}

export function downlinkOf(m: DashModule): Downlink {
  const a = m.attributes;
  return {
    port: Number(a.downlink_port ?? "0"),
    payload: a.downlink_payload ?? "",
    payloadType: a.downlink_payload_type === "json" ? "json" : "hex",
    confirmed: a.downlink_confirmed === "true",
  };
}

// defaultIcons are the buttons' icons when the module names none.
export const defaultIcons: Record<KindNumber, string> = {
  [Kind.script]: "mdi-play-circle-outline",
  [Kind.valueInput]: "mdi-pencil-outline",
  [Kind.dashboard]: "mdi-view-dashboard-outline",
  [Kind.downlink]: "mdi-send-outline",
};

export const iconPattern = /^mdi-[a-z0-9-]+$/;

// needsRights tells whether pressing the kind needs the rights behind it
// (running scripts, writing a node's values, queueing its downlinks);
// opening a dashboard needs none beyond seeing this one.
export const needsRights = (k: KindNumber): boolean => k !== Kind.dashboard;

// Problem names a missing or wrong setting of a function button, by the
// attribute (or field) it is about.
export type Problem = "function_type" | "scriptid" | "tag" | "tagkey" | "dashboard_id" | "downlink_port" | "downlink_payload" | "icon";

// problems are what a function button's settings lack, by field: the same
// rules the server checks (internal/validate/function.go), so that the
// editor marks them before saving.
export function problems(m: DashModule): Partial<Record<Problem, "required" | "port" | "hex" | "json" | "key" | "icon">> {
  const a = m.attributes;
  const out: Partial<Record<Problem, "required" | "port" | "hex" | "json" | "key" | "icon">> = {};
  const k = kindOf(m);
  if (a.icon && !iconPattern.test(a.icon)) out.icon = "icon";
  if (k === null) {
    out.function_type = "required";
    return out;
  }
  if ((k === Kind.valueInput || k === Kind.downlink) && !m.tag) out.tag = "required";
  if (k === Kind.script && !a.scriptid) out.scriptid = "required";
  if (k === Kind.dashboard && !a.dashboard_id) out.dashboard_id = "required";
  if (k === Kind.valueInput) {
    const key = (a.tagkey ?? "").trim();
    if (key === "") out.tagkey = "required";
    else if (key.includes(",") || key.startsWith("$")) out.tagkey = "key";
  }
  if (k === Kind.downlink) {
    const d = downlinkOf(m);
    if (!Number.isInteger(d.port) || d.port < 1 || d.port > 223) out.downlink_port = "port";
    const p = d.payload.trim();
    if (p === "") out.downlink_payload = "required";
    else if (d.payloadType === "hex" && !/^([0-9a-f]{2}[\s:-]?)+$/i.test(p)) out.downlink_payload = "hex";
    else if (d.payloadType === "json" && !isObject(p)) out.downlink_payload = "json";
  }
  return out;
}

function isObject(s: string): boolean {
  try {
    const v: unknown = JSON.parse(s);
    return typeof v === "object" && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

// typedValue turns what a VALUEINPUT button's field holds into the value
// the tag data route takes; null when it is not a value of the type (or out
// of the module's min_value..max_value).
export function typedValue(m: DashModule, text: string): number | string | boolean | null {
  const t = inputTypeOf(m);
  if (t === "bool") return text === "true" ? true : text === "false" ? false : null;
  if (t === "text") return text.trim() === "" ? null : text;
  if (text.trim() === "") return null;
  const n = Number(text.trim().replace(",", "."));
  if (!Number.isFinite(n)) return null;
  const lo = m.attributes.min_value;
  const hi = m.attributes.max_value;
  if ((lo !== undefined && lo !== "" && n < Number(lo)) || (hi !== undefined && hi !== "" && n > Number(hi))) return null;
  return n;
}
