// The category tree's API types against the OpenAPI document; see
// lib/openapi-contract.ts. tsc checks it; nothing imports it. The copy
// (POST /api/dashboards/{id}/duplicate) shares its route pattern with adding
// a module, which is what the document describes; its body and answer are
// those of POST /api/dashboards, checked here.
import type { Expect, Reads, Sends } from "@/lib/openapi-contract";
import type { Category, CategoryInput, Dashboard } from "@/features/dashboards/api/categories";
import type { IndexPayload } from "@/features/dashboards/utils/category-tree";

export type Contract = [
  Expect<Sends<"/api/dashboards/categories/{companyId}", "post", CategoryInput & { parentGuid?: string }>>,
  Expect<Reads<"/api/dashboards/categories/{companyId}", "post", Category>>,
  Expect<Sends<"/api/dashboards/categories/{categoryId}", "put", CategoryInput>>,
  Expect<Reads<"/api/dashboards/categories/{categoryId}", "put", Category>>,
  Expect<Sends<"/api/dashboards", "post", { name: string; categoryId: number | null }>>,
  Expect<Reads<"/api/dashboards", "post", Dashboard>>,
  Expect<Sends<"/api/dashboards/categories/indexes", "put", IndexPayload>>,
];
