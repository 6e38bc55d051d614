// The script engine's API types against the OpenAPI document; see
// lib/openapi-contract.ts. tsc checks it; nothing imports it.
import type { ExampleFits, Expect, Reads, Sends } from "@/lib/openapi-contract";
import type { examples } from "@/lib/openapi-examples.gen";
import type { Outcome, Run, Script, ScriptInput, TestInput } from "@/features/scripts/api/scripts";

export type Contract = [
  Expect<Reads<"/api/script/{scriptId}", "get", Script>>,
  Expect<Reads<"/api/script/{scriptId}", "put", Script>>,
  Expect<Sends<"/api/script/{scriptId}", "put", ScriptInput>>,
  Expect<Reads<"/api/script/{companyId}", "post", Script>>,
  Expect<Sends<"/api/script/{companyId}", "post", ScriptInput>>,
  Expect<Sends<"/api/script/test/{companyId}", "post", TestInput>>,
  Expect<ExampleFits<(typeof examples)["POST /api/script/test/{companyId}"]["request"], TestInput>>,
  Expect<ExampleFits<(typeof examples)["POST /api/script/test/{companyId}"]["response"], Outcome>>,
  Expect<Reads<"/api/script/test/{companyId}", "post", Outcome>>,
  Expect<Reads<"/api/script/run/{scriptId}", "get", Outcome>>,
  Expect<Reads<"/api/script/history/{scriptId}", "get", Run[]>>,
];
