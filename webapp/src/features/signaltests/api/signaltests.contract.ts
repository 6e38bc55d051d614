// The signal tests' API types against the OpenAPI document; see
// lib/openapi-contract.ts. tsc checks it; nothing imports it.
import type { Expect, Reads, Sends } from "@/lib/openapi-contract";
import type { Node, Peek, SignalTest, StartRequest } from "@/features/signaltests/api/signaltests";

export type Contract = [
  Expect<Reads<"/api/signaltest/{companyId}", "get", SignalTest[]>>,
  Expect<Sends<"/api/signaltest/{companyId}/{deveui}", "post", StartRequest>>,
  Expect<Reads<"/api/signaltest/{companyId}/{deveui}", "post", SignalTest>>,
  Expect<Reads<"/api/signaltest/peek/{testId}", "get", Peek>>,
  Expect<Reads<"/api/signaltest/end/{testId}", "put", SignalTest>>,
  Expect<Reads<"/api/tag/{tagId}/keys", "get", { key: string }[]>>,
  Expect<Reads<"/api/tag/{scope}/{companyId}", "get", Node[]>>,
];
