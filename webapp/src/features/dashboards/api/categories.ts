// The calls of the category tree (docs/api/dashboards.md, "Categories" and
// "Dashboards").
import { api } from "@/lib/api";
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

// CopySkipped is thrown when there is no dashboard to copy: the call is
// skipped when the selected id is missing or not positive.
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

// The ids of the refusals the tree's calls may answer with, which the
// dialogs show in the page's language (see lib/api-error.ts).
export const categoryErrorIds = [
  "dashboards.categoryNotEmpty",
  "dashboards.parent.cycle",
  "dashboards.parent.unknown",
  "dashboards.category.unknown",
  "dashboards.dashboard.unknown",
  "dashboards.color.invalid",
  "dashboards.icon.invalid",
  "validation.required",
  "validation.max255",
];
