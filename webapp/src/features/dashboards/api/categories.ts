// The calls of the category tree (docs/api/dashboards.md, "Categories" and
// "Dashboards").
import type { IntlShape } from "react-intl";
import { api, ApiError } from "@/lib/api";
import { fromDTO, type IndexPayload, type TreeNode } from "@/features/dashboards/utils/category-tree";

export interface Category {
  dashboardCategoryId: number;
  guid: string;
  parentGuid: string | null;
  title: string;
  icon: string;
  color: string;
  index: number;
}

export interface Dashboard {
  dashboardId: number;
  name: string;
  categoryId: number | null;
}

export interface CategoryInput {
  title: string;
  icon: string;
  color: string;
}

export async function fetchTree(companyId: number): Promise<TreeNode[]> {
  return fromDTO(await api<unknown>("GET", `/api/dashboards/categories/${companyId}`));
}

// createCategory makes a category at the root, or under the category whose
// guid is parentGuid.
export function createCategory(companyId: number, input: CategoryInput, parentGuid: string | null): Promise<Category> {
  return api<Category>("POST", `/api/dashboards/categories/${companyId}`, parentGuid ? { ...input, parentGuid } : input);
}

export function updateCategory(id: number, input: CategoryInput): Promise<Category> {
  return api<Category>("PUT", `/api/dashboards/categories/${id}`, input);
}

export function deleteCategory(id: number): Promise<void> {
  return api<void>("DELETE", `/api/dashboards/categories/${id}`);
}

// createDashboard makes a dashboard in companyId. POST /dashboards makes it
// in the caller's company; companyId in the query names the company for a
// SuperAdmin (the one chosen in the switcher), and the others' own company
// is the one the tree shows anyway.
export function createDashboard(companyId: number, name: string, categoryId: number | null): Promise<Dashboard> {
  return api<Dashboard>("POST", `/api/dashboards?companyId=${companyId}`, { name, categoryId });
}

// CopySkipped is thrown when there is no dashboard to copy: SPEC.md section
// 5 skips the call when the selected id is missing or not positive.
export class CopySkipped extends Error {}

export function copyDashboard(id: number | null | undefined, name: string): Promise<Dashboard> {
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id <= 0) return Promise.reject(new CopySkipped("no dashboard to copy"));
  return api<Dashboard>("POST", `/api/dashboards/${id}/duplicate`, { name });
}

export function deleteDashboard(id: number): Promise<void> {
  return api<void>("DELETE", `/api/dashboards/${id}`);
}

export function saveIndexes(payload: IndexPayload): Promise<void> {
  return api<void>("PUT", "/api/dashboards/categories/indexes", payload);
}

// The ids of the refusals the tree's calls may answer with. The server
// writes its message in the language of the request (its lang cookie or
// Accept-Language), which need not be the page's; the island shows them in
// the page's language from its own catalog, which carries these ids because
// they are named here (vite.config.ts keeps the ids the sources name).
const knownIds = new Set([
  "dashboards.categoryNotEmpty",
  "dashboards.parent.cycle",
  "dashboards.parent.unknown",
  "dashboards.category.unknown",
  "dashboards.dashboard.unknown",
  "dashboards.color.invalid",
  "dashboards.icon.invalid",
  "validation.required",
  "validation.max255",
]);

type Translate = (id: string) => string | null;

// translator looks ids up in the page's catalog.
export function translator(intl: IntlShape): Translate {
  return (id) => (knownIds.has(id) && id in intl.messages ? intl.formatMessage({ id }) : null);
}

// fieldErrors are the messages per field of a refused form (400), keyed by
// the JSON field name, in the page's language where the catalog has them.
export function fieldErrors(err: unknown, translate: Translate): Record<string, string> {
  if (!(err instanceof ApiError) || err.status !== 400) return {};
  const body = err.body as { errors?: Record<string, unknown>; errorIds?: Record<string, unknown> } | null;
  const errors = body?.errors;
  if (typeof errors !== "object" || errors === null) return {};
  const out: Record<string, string> = {};
  for (const [field, list] of Object.entries(errors)) {
    const ids = body?.errorIds?.[field];
    const id = Array.isArray(ids) && typeof ids[0] === "string" ? ids[0] : null;
    const text = (id && translate(id)) ?? (Array.isArray(list) && typeof list[0] === "string" ? list[0] : null);
    if (text) out[field] = text;
  }
  return out;
}

// serverMessage is the message of a refused call, in the page's language
// where the catalog has it, else as the server wrote it; null when the
// answer carried none a person should read.
export function serverMessage(err: unknown, translate: Translate): string | null {
  if (!(err instanceof ApiError) || err.status >= 500) return null;
  const body = err.body as { id?: unknown; message?: unknown } | null;
  const translated = typeof body?.id === "string" ? translate(body.id) : null;
  if (translated) return translated;
  return typeof body?.message === "string" && body.message !== "" ? body.message : null;
}
