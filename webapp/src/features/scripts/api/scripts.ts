// The script engine's API (modules/scripts): a script (JavaScript, or a
// compiled WebAssembly module of sdk/script, base64 in JSON), its test and
// its run history.
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
  // module is the compiled script, run instead of content; absent for a
  // JavaScript script.
  module?: string;
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
  // module replaces the compiled script; "" removes it (back to content).
  module?: string;
}

// TestInput is the body of a test: JavaScript (content) or a compiled
// module, and the node whose trigger it runs with.
export interface TestInput {
  content?: string;
  module?: string;
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
  "scripts.module.tooLarge",
] as const;

// TestCode is what a test runs: the editor's JavaScript or a module.
export type TestCode = { content: string } | { module: string };

export const fetchScript = (id: number): Promise<Script> => api<Script>("GET", `/api/script/${id}`);

export const saveScript = (companyId: number, id: number | undefined, body: ScriptInput): Promise<Script> =>
  id ? api<Script>("PUT", `/api/script/${id}`, body) : api<Script>("POST", `/api/script/${companyId}`, body);

export const testScript = (companyId: number, code: TestCode, boundTag: number): Promise<Outcome> =>
  api<Outcome>("POST", `/api/script/test/${companyId}`, (boundTag ? { ...code, boundTag } : code) satisfies TestInput);

export const runScript = (id: number): Promise<Outcome> => api<Outcome>("GET", `/api/script/run/${id}`);

export const fetchRuns = (id: number): Promise<Run[]> => api<Run[]>("GET", `/api/script/history/${id}`);
