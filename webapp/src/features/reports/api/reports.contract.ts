// The report islands' API types against the OpenAPI document; see
// lib/openapi-contract.ts. tsc checks it; nothing imports it.
import type { Expect, Reads, Sends } from "@/lib/openapi-contract";
import type { ExportBody, Preview, Report, ReportBody } from "@/features/reports/api/reports";

export type Contract = [
  Expect<Reads<"/api/report/{reportId}", "get", Report>>,
  Expect<Sends<"/api/report/{reportId}", "put", ReportBody>>,
  Expect<Reads<"/api/report/{reportId}", "put", Report>>,
  Expect<Sends<"/api/report", "post", ReportBody>>,
  Expect<Reads<"/api/report", "post", Report>>,
  Expect<Sends<"/api/report/preview", "post", ExportBody>>,
  Expect<Reads<"/api/report/preview", "post", Preview>>,
  Expect<Sends<"/api/report/multiexport", "post", ExportBody>>,
];
