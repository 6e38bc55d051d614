// The script engine's API (modules/scripts): a script, its test and its
// run history.
import { api } from "@/lib/api";

export type ScriptType = 0 | 1 | 2;

export interface Script {
  id: number;
  name: string;
  type: ScriptType;
  interval: number;
  enabled: boolean;
  boundTag: number | null;
  content: string;
  lastRun: string | null;
  lastResult: string;
  lastError: string;
}

export interface ScriptInput {
  name: string;
  type: ScriptType;
  interval?: number;
  enabled: boolean;
  boundTag: number;
  content: string;
}

export interface TestInput {
  content: string;
  boundTag?: number;
}

export interface Action {
  kind: "write" | "downlink" | "notify" | "mail" | "sms" | "log";
  tagId?: number;
  values?: Record<string, unknown>;
  time?: string;
  port?: number;
  payload?: string;
  to?: string[];
  subject?: string;
  text?: string;
}

export interface Outcome {
  valid: boolean;
  result: unknown;
  error?: string;
  line?: number;
  actions: Action[];
  log: string[];
}

export interface Run {
  id: number;
  startedAt: string;
  durationMs: number;
  cause: "loop" | "invoke" | "trigger";
  result: string;
  error: string;
  actions: number;
}

// The keys the script calls may answer with, for the page's catalog.
export const scriptErrorIds = [
  "validation.required",
  "validation.max255",
  "scripts.interval.required",
  "scripts.interval.min",
  "scripts.type.invalid",
  "scripts.boundTag.required",
  "scripts.boundTag.unknown",
] as const;

export const fetchScript = (id: number): Promise<Script> => api<Script>("GET", `/api/script/${id}`);

export const saveScript = (companyId: number, id: number | undefined, body: ScriptInput): Promise<Script> =>
  id ? api<Script>("PUT", `/api/script/${id}`, body) : api<Script>("POST", `/api/script/${companyId}`, body);

export const testScript = (companyId: number, content: string, boundTag: number): Promise<Outcome> =>
  api<Outcome>("POST", `/api/script/test/${companyId}`, (boundTag ? { content, boundTag } : { content }) satisfies TestInput);

export const runScript = (id: number): Promise<Outcome> => api<Outcome>("GET", `/api/script/run/${id}`);

export const fetchRuns = (id: number): Promise<Run[]> => api<Run[]>("GET", `/api/script/history/${id}`);
