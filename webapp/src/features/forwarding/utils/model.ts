// The forwarding targets of an application as the API answers them
// (modules/forwarding: GET /api/applications/{id}/forwarding), the island's
// props, and the headers' text form ("Name: value" per line).
export type Kind = "webhook" | "mqtt";

export interface TargetError {
  time: string;
  message: string;
}

export interface Target {
  id: number;
  name: string;
  kind: Kind;
  enabled: boolean;
  url: string;
  headers: Record<string, string>;
  hasSecret: boolean;
  username: string;
  hasPassword: boolean;
  topic: string;
  delivered: number;
  queued: number;
  failures: number;
  lastSuccess?: string;
  lastErrors: TargetError[];
  disabledReason?: string;
}

export interface TestResult {
  ok: boolean;
  message?: string;
  status?: number;
}

export interface ForwardingProps {
  applicationId: number;
}

export function readProps(raw: unknown): ForwardingProps | null {
  const id = (raw as { applicationId?: unknown } | null)?.applicationId;
  return typeof id === "number" && Number.isInteger(id) && id > 0 ? { applicationId: id } : null;
}

// headersText writes headers one per line.
export function headersText(h: Record<string, string>): string {
  return Object.entries(h)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n");
}

// parseHeaders reads "Name: value" lines; a line without a colon becomes a
// header without a value, which the server refuses with its message.
export function parseHeaders(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const at = line.indexOf(":");
    const name = (at < 0 ? line : line.slice(0, at)).trim();
    out[name] = at < 0 ? "" : line.slice(at + 1).trim();
  }
  return out;
}

// The catalog keys the API answers with, translated on the page.
export const knownErrors = [
  "forwarding.name.invalid",
  "forwarding.kind.invalid",
  "forwarding.url.invalid",
  "forwarding.url.private",
  "forwarding.headers.invalid",
  "forwarding.secret.invalid",
  "forwarding.topic.invalid",
  "forwarding.username.invalid",
  "forwarding.password.invalid",
  "forwarding.targets.tooMany",
] as const;

// kindLabels are the catalog keys of the kinds, named whole so that the
// browser's catalog keeps them.
export const kindLabels: Record<Kind, string> = {
  webhook: "page.application.forwarding.kind.webhook",
  mqtt: "page.application.forwarding.kind.mqtt",
};
