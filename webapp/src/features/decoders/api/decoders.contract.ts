// The decoder editor's API types against the OpenAPI document; see
// lib/openapi-contract.ts. tsc checks it; nothing imports it.
import type { Expect, Reads, Sends } from "@/lib/openapi-contract";
import type { CodecBody, Decoder, Kind, TestCodec, TestResult, Version, VersionInfo } from "@/features/decoders/api/decoders";

export type Contract = [
  Expect<Reads<"/api/decoders/{decoderId}", "get", Decoder>>,
  Expect<Reads<"/api/decoders/{decoderId}/versions/{version}", "get", Version>>,
  Expect<Sends<"/api/companies/{companyId}/decoders", "post", { name: string; kind: Kind } & CodecBody>>,
  Expect<Reads<"/api/companies/{companyId}/decoders", "post", Decoder>>,
  Expect<Sends<"/api/decoders/{decoderId}/versions", "post", CodecBody & { activate: boolean }>>,
  Expect<Reads<"/api/decoders/{decoderId}/versions", "post", VersionInfo>>,
  Expect<Reads<"/api/decoders/{decoderId}/versions/{version}/activate", "post", Decoder>>,
  Expect<Sends<"/api/decoders/{decoderId}", "put", { name: string }>>,
  Expect<Reads<"/api/decoders/{decoderId}", "put", Decoder>>,
  Expect<Sends<"/api/decoder/test", "post", TestCodec & { fPort: number } & ({ bytes: string } | { base64: string })>>,
  Expect<Reads<"/api/decoder/test", "post", TestResult>>,
];
