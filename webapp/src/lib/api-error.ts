// The messages of refused calls, for every island. The server's error answer
// (kernel/web Problem) carries its text in the language of the request and
// the catalog key beside it: message and id for the call, errors and
// errorIds per invalid field. The request's language need not be the page's
// (the lang cookie may differ), so an island shows a message from the page's
// own catalog when it knows the key, and the server's text otherwise.
//
// A feature names the keys its calls may answer with (translator's known):
// the browser's catalog keeps only the keys the sources name (vite.config.ts).
// A message with placeholders is left to the server, which has their values.
import type { IntlShape, MessageFormatElement } from "react-intl";
import { ApiError } from "@/lib/api";

// Translate gives a key's message in the page's language, or null.
export type Translate = (id: string) => string | null;

// literalOnly tells whether a catalog message needs no values.
const literalOnly = (m: string | MessageFormatElement[] | undefined): boolean =>
  typeof m === "string" ? !/[{}]/.test(m) : Array.isArray(m) && m.every((e) => e.type === 0);

// translator looks the known keys up in the page's catalog.
export function translator(intl: IntlShape, known: readonly string[]): Translate {
  const ids = new Set(known);
  return (id) => (ids.has(id) && literalOnly(intl.messages[id]) ? intl.formatMessage({ id }) : null);
}

const first = (list: unknown): string | null => (Array.isArray(list) && typeof list[0] === "string" ? list[0] : null);

// fieldErrors are the messages per field of a refused form (400), keyed by
// the JSON field name.
export function fieldErrors(err: unknown, translate: Translate): Record<string, string> {
  if (!(err instanceof ApiError) || err.status !== 400) return {};
  const body = err.body as { errors?: Record<string, unknown>; errorIds?: Record<string, unknown> } | null;
  const errors = body?.errors;
  if (typeof errors !== "object" || errors === null) return {};
  const out: Record<string, string> = {};
  for (const [field, list] of Object.entries(errors)) {
    const id = first(body?.errorIds?.[field]);
    const text = (id && translate(id)) ?? first(list);
    if (text) out[field] = text;
  }
  return out;
}

// serverMessage is the message of a refused call, or null when the answer
// carried none a person should read. explains says which statuses carry
// one: by default those below 500 (a server failure says nothing useful).
export function serverMessage(err: unknown, translate: Translate, explains: (status: number) => boolean = (s) => s < 500): string | null {
  if (!(err instanceof ApiError) || !explains(err.status)) return null;
  const body = err.body as { id?: unknown; message?: unknown } | null;
  const translated = typeof body?.id === "string" ? translate(body.id) : null;
  if (translated) return translated;
  return typeof body?.message === "string" && body.message !== "" ? body.message : null;
}
