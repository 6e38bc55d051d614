// The live log list's data: the log entries GET /api/logs lists and the
// feed's LogEntry messages carry, and the list's rules: newest first, at
// most 200 kept.

// LogType is the type of a log entry.
export type LogType = "SMS" | "APP" | "WARNING" | "ERROR" | "USEREVENT" | "LOGIN";

// logTypes lists the types in the order the type filter shows them.
export const logTypes: readonly LogType[] = ["SMS", "APP", "WARNING", "ERROR", "USEREVENT", "LOGIN"];

// LogEntry is one log entry.
export interface LogEntry {
  id: number;
  type: LogType;
  // message is English; messageId, when set, names it in the catalogs with
  // data filling its placeholders.
  message: string;
  messageId: string;
  // deveui is upper case, "" when the entry names no node.
  deveui: string;
  data: Record<string, unknown>;
  createdAt: string;
}

// maxLogEntries is how many entries the live log list keeps; GET
// /api/logs?limit= loads as many.
export const maxLogEntries = 200;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const isLogType = (v: unknown): v is LogType => typeof v === "string" && (logTypes as readonly string[]).includes(v);

// parseEntry reads one entry, or null when it is not one.
export function parseEntry(raw: unknown): LogEntry | null {
  if (!isObject(raw)) return null;
  const { id, type, message, messageId, deveui, data, createdAt } = raw;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || !isLogType(type) || typeof message !== "string") return null;
  if (typeof createdAt !== "string" || Number.isNaN(Date.parse(createdAt))) return null;
  return {
    id,
    type,
    message,
    messageId: typeof messageId === "string" ? messageId : "",
    deveui: typeof deveui === "string" ? deveui.toUpperCase() : "",
    data: isObject(data) ? data : {},
    createdAt,
  };
}

// parseLogMessage returns the entry of a LogEntry message of the feed, or
// null for any other message.
export function parseLogMessage(raw: unknown): LogEntry | null {
  if (!isObject(raw) || raw.type !== "LogEntry") return null;
  return parseEntry(raw.entry);
}

// parseLogList reads GET /api/logs.
export function parseLogList(raw: unknown): LogEntry[] {
  if (!Array.isArray(raw)) return [];
  const out: LogEntry[] = [];
  for (const r of raw) {
    const e = parseEntry(r);
    if (e) out.push(e);
  }
  return out;
}

// newestFirst orders entries by time, then by id (the later written first).
function newestFirst(a: LogEntry, b: LogEntry): number {
  return Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id;
}

// mergeEntries is the live log list after more entries arrived (a pushed
// one, or the list loaded while pushed ones came): each entry once, newest
// first, the oldest dropped beyond maxLogEntries. An entry already listed
// is not added again (a reconnect, or the load, may bring it twice).
export function mergeEntries(list: readonly LogEntry[], more: readonly LogEntry[]): LogEntry[] {
  const seen = new Set(list.map((e) => e.id));
  const fresh = more.filter((e) => {
    if (seen.has(e.id)) return false;
    seen.add(e.id);
    return true;
  });
  if (fresh.length === 0) return list as LogEntry[];
  return [...list, ...fresh].sort(newestFirst).slice(0, maxLogEntries);
}

// addEntry puts a pushed entry into the list; see mergeEntries.
export function addEntry(list: readonly LogEntry[], entry: LogEntry): LogEntry[] {
  return mergeEntries(list, [entry]);
}

// matchesTypes keeps the entries of the chosen types; none chosen keeps all.
export function matchesTypes(entry: LogEntry, chosen: ReadonlySet<LogType>): boolean {
  return chosen.size === 0 || chosen.has(entry.type);
}

// entryValues are an entry's data as the values of its message: texts and
// numbers as they are, anything else as JSON.
export function entryValues(entry: LogEntry): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(entry.data)) {
    out[k] = typeof v === "string" || typeof v === "number" ? v : JSON.stringify(v);
  }
  return out;
}

// AuditChange is one field an audit entry (a USEREVENT of kind "audit")
// shows: its value before and after the change, as text ("" for none).
export interface AuditChange {
  field: string;
  before: string;
  after: string;
}

const shown = (v: unknown): string => {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
};

// auditChanges lists the fields an audit entry's data holds before and
// after, by field name; an entry of another kind, or without them, has none.
export function auditChanges(entry: LogEntry): AuditChange[] {
  const { kind, before, after } = entry.data;
  if (kind !== "audit" || (!isObject(before) && !isObject(after))) return [];
  const b = isObject(before) ? before : {};
  const a = isObject(after) ? after : {};
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])].sort();
  return fields.map((field) => ({ field, before: shown(b[field]), after: shown(a[field]) }));
}

// auditCompany is the name of the company an audit entry belongs to, ""
// for none (the installation's, or another kind of entry).
export function auditCompany(entry: LogEntry): string {
  const { kind, company } = entry.data;
  return kind === "audit" && typeof company === "string" ? company : "";
}
