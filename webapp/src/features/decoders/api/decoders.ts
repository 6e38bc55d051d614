// The calls of the decoder editor (docs/decisions.md "Decoder pages"): a
// company's own decoders, their versions and the test call.
import { api } from "@/lib/api";

export type Kind = "js" | "wasm";

export interface VersionInfo {
  version: number;
  hash: string;
  size: number;
  active: boolean;
  createdBy: number | null;
  createdByName: string;
  createdAt: string;
}

export interface Decoder {
  id: number;
  companyId: number;
  name: string;
  kind: Kind;
  key: string;
  activeVersion: number;
  // versions come only in the answers about one decoder (GET, PUT,
  // activate), and are left out when there are none.
  versions?: VersionInfo[];
  source?: string;
  updatedAt: string;
}

export interface Version extends VersionInfo {
  source?: string;
  module?: string;
}

export interface TestResult {
  data: Record<string, unknown> | null;
  warnings: string[];
  errors: string[];
  log: string[];
  micros: number;
}

// CodecBody is a version's content: a JavaScript source or a WebAssembly
// module in base64.
export type CodecBody = { source: string } | { module: string };

export function fetchDecoder(id: number): Promise<Decoder> {
  return api<Decoder>("GET", `/api/decoders/${id}`);
}

export function fetchVersion(id: number, version: number): Promise<Version> {
  return api<Version>("GET", `/api/decoders/${id}/versions/${version}`);
}

export function createDecoder(companyId: number, name: string, kind: Kind, body: CodecBody): Promise<Decoder> {
  return api<Decoder>("POST", `/api/companies/${companyId}/decoders`, { name, kind, ...body });
}

export function addVersion(id: number, body: CodecBody): Promise<VersionInfo> {
  return api<VersionInfo>("POST", `/api/decoders/${id}/versions`, { ...body, activate: true });
}

export function activate(id: number, version: number): Promise<Decoder> {
  return api<Decoder>("POST", `/api/decoders/${id}/versions/${version}/activate`);
}

export function rename(id: number, name: string): Promise<Decoder> {
  return api<Decoder>("PUT", `/api/decoders/${id}`, { name });
}

// TestCodec is what a test runs: the editor's script, an uploaded module,
// or the saved decoder by its key.
export type TestCodec = { script: string } | { wasm: string } | { key: string };

export interface TestInput {
  fPort: number;
  payload: string;
  format: "hex" | "base64";
}

// runTest calls POST /api/decoder/test for companyId (whose limits apply;
// the query names it for a SuperAdmin, and is the caller's own otherwise).
export function runTest(companyId: number, codec: TestCodec, input: TestInput): Promise<TestResult> {
  const payload = input.format === "hex" ? { bytes: input.payload } : { base64: input.payload };
  return api<TestResult>("POST", `/api/decoder/test?companyId=${companyId}`, { ...codec, fPort: input.fPort, ...payload });
}

// The ids of the refusals the editor's calls may answer with, which it shows
// in the page's language (see lib/api-error.ts).
export const decoderErrorIds = [
  "decoders.codec.one",
  "decoders.kind.invalid",
  "decoders.name.taken",
  "decoders.module.base64",
  "decoders.test.hex",
  "decoders.test.base64",
  "decoders.test.payloadOne",
  "decoders.test.fPort",
  "decoders.test.codecNeeded",
  "decoders.notStarted",
  "validation.required",
  "validation.max255",
  "error.notFound",
  "error.forbidden",
];
