// The calls of the category tree (docs/api/dashboards.md, "Categories" and
// "Dashboards").
import { api, ApiError } from "@/lib/api";
import { fromDTO, type IndexPayload, type TreeNode } from "@/islands/category-tree/model";

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

// fieldErrors are the messages per field of a refused form (400), keyed by
// the JSON field name, already in the user's language.
export function fieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError) || err.status !== 400) return {};
  const errors = (err.body as { errors?: Record<string, unknown> } | null)?.errors;
  if (typeof errors !== "object" || errors === null) return {};
  const out: Record<string, string> = {};
  for (const [field, list] of Object.entries(errors)) {
    if (Array.isArray(list) && typeof list[0] === "string") out[field] = list[0];
  }
  return out;
}

// serverMessage is the message of a refused call (already translated by
// the server), or null when the answer carried none a person should read.
export function serverMessage(err: unknown): string | null {
  if (!(err instanceof ApiError) || err.status >= 500) return null;
  const message = (err.body as { message?: unknown } | null)?.message;
  return typeof message === "string" && message !== "" ? message : null;
}
