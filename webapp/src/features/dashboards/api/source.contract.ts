// The dashboard's API types against the OpenAPI document; see
// lib/openapi-contract.ts. tsc checks it; nothing imports it. The answers
// are read leniently (utils/dashboard-model.ts), field by field into these
// types, so the check holds the field names and kinds they read to the
// document.
import type { ExampleFits, Expect, Reads, Sends } from "@/lib/openapi-contract";
import type { examples } from "@/lib/openapi-examples.gen";
import type { ModuleInput } from "@/features/dashboards/api/source";
import type { DashModule } from "@/features/dashboards/utils/dashboard-model";

type ModuleBody = Omit<ModuleInput, "image">;

// A value a function button writes (writeValue).
type WrittenValue = { key: string; value: number | string | boolean };

// The answer's image is null without a picture, which readModule turns
// into "".
type ModuleAnswer = Omit<DashModule, "image"> & { image: string | null };

export type Contract = [
  Expect<Reads<"/api/dashboards/modules/{moduleId}", "put", ModuleAnswer>>,
  Expect<Sends<"/api/dashboards/modules/{moduleId}", "put", ModuleBody>>,
  Expect<Sends<"/api/dashboards/{dashboardId}/{part}", "post", ModuleBody>>,
  Expect<Reads<"/api/dashboards/{dashboardId}/{part}", "post", ModuleAnswer>>,
  Expect<Sends<"/api/dashboards/modules/multiple", "put", ModuleBody[]>>,
  Expect<Reads<"/api/dashboards/modules/multiple", "put", ModuleAnswer[]>>,
  Expect<Sends<"/api/tag/{tagId}/tagdata", "post", WrittenValue>>,
  Expect<ExampleFits<(typeof examples)["POST /api/tag/{tagId}/tagdata"]["request"], WrittenValue>>,
  Expect<Sends<"/api/downlink/{tagId}", "post", { port: number; payload: string; payloadType: string; confirmed: boolean }>>,
];
