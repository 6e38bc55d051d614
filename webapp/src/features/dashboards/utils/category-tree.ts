// The category tree as the island holds it: categories (with sub-categories)
// and dashboards as leaves, read from GET /api/dashboards/categories/{cid}
// (docs/api/dashboards.md), and the pure operations on it: finding a node,
// checking and applying a drag-and-drop move, and the index payload that
// PUT /api/dashboards/categories/indexes stores.
//
// It imports nothing, so that the browser tests can compile it on its own
// (webapp/e2e/category-tree.test.mjs).

// The colour and icon a new category starts with; the icons also stand in
// for a category's or a dashboard's missing or invalid icon.
export const defaultColor = "#2196F3";
export const defaultCategoryIcon = "mdi-shape-outline";
export const dashboardIcon = "mdi-view-dashboard";

export interface CategoryNode {
  kind: "category";
  key: string;
  id: number;
  guid: string;
  title: string;
  icon: string;
  color: string;
  children: TreeNode[];
}

export interface DashboardNode {
  kind: "dashboard";
  key: string;
  id: number;
  title: string;
  icon: string;
  color: string;
}

export type TreeNode = CategoryNode | DashboardNode;

// Keys are unique across both kinds: category 3 and dashboard 3 differ.
export const categoryKey = (id: number): string => `c${id}`;
export const dashboardKey = (id: number): string => `d${id}`;

// TreeNodeDTO is a node of the server's tree answer.
export interface TreeNodeDTO {
  title?: unknown;
  isLeaf?: unknown;
  data?: {
    icon?: unknown;
    color?: unknown;
    dashboardCategoryId?: unknown;
    dashboardId?: unknown;
    guid?: unknown;
  } | null;
  children?: unknown;
}

// isIconName tells whether value looks like an mdi-* class name, which is
// safe to put into a class attribute.
export function isIconName(value: unknown): value is string {
  return typeof value === "string" && /^mdi-[a-z0-9]+(-[a-z0-9]+)*$/.test(value);
}

const isId = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0;

// isColor tells whether v is a #rrggbb colour, safe to put into a style.
export const isColor = (v: unknown): v is string => typeof v === "string" && /^#[0-9a-fA-F]{6}$/.test(v);

// fromDTO reads the server's tree; a node it cannot read (no id, say) is
// left out with its children rather than shown broken. Inside each level
// categories come before dashboards, as the server orders them.
export function fromDTO(raw: unknown): TreeNode[] {
  if (!Array.isArray(raw)) throw new Error("the category tree is not a list");
  return normalise(raw.flatMap((n: TreeNodeDTO) => readNode(n)));
}

function readNode(n: TreeNodeDTO): TreeNode[] {
  if (typeof n !== "object" || n === null) return [];
  const data = n.data ?? {};
  const title = typeof n.title === "string" ? n.title : "";
  const color = isColor(data.color) ? data.color : "";
  if (n.isLeaf === true) {
    if (!isId(data.dashboardId)) return [];
    const icon = isIconName(data.icon) ? data.icon : dashboardIcon;
    return [{ kind: "dashboard", key: dashboardKey(data.dashboardId), id: data.dashboardId, title, icon, color }];
  }
  if (!isId(data.dashboardCategoryId) || typeof data.guid !== "string" || data.guid === "") return [];
  const children = Array.isArray(n.children) ? n.children.flatMap((c: TreeNodeDTO) => readNode(c)) : [];
  return [
    {
      kind: "category",
      key: categoryKey(data.dashboardCategoryId),
      id: data.dashboardCategoryId,
      guid: data.guid,
      title,
      icon: isIconName(data.icon) ? data.icon : defaultCategoryIcon,
      color: color || defaultColor,
      children: normalise(children),
    },
  ];
}

// normalise puts the categories of one level before its dashboards, keeping
// the order within each kind.
function normalise(nodes: TreeNode[]): TreeNode[] {
  return [...nodes.filter((n) => n.kind === "category"), ...nodes.filter((n) => n.kind === "dashboard")];
}

// Found is a node with where it sits: its parent (null at the root) and its
// position among its siblings.
export interface Found {
  node: TreeNode;
  parent: CategoryNode | null;
  index: number;
}

export function findNode(tree: readonly TreeNode[], key: string, parent: CategoryNode | null = null): Found | null {
  for (const [index, node] of tree.entries()) {
    if (node.key === key) return { node, parent, index };
    if (node.kind === "category") {
      const found = findNode(node.children, key, node);
      if (found) return found;
    }
  }
  return null;
}

// contains tells whether key is node itself or one of its descendants.
export function contains(node: TreeNode, key: string): boolean {
  if (node.key === key) return true;
  return node.kind === "category" && node.children.some((c) => contains(c, key));
}

// categoryKeys lists the keys of every category, for "expand all".
export function categoryKeys(tree: readonly TreeNode[]): string[] {
  return tree.flatMap((n) => (n.kind === "category" ? [n.key, ...categoryKeys(n.children)] : []));
}

// countNodes counts categories and dashboards.
export function countNodes(tree: readonly TreeNode[]): { categories: number; dashboards: number } {
  let categories = 0;
  let dashboards = 0;
  const walk = (nodes: readonly TreeNode[]): void => {
    for (const n of nodes) {
      if (n.kind === "category") {
        categories++;
        walk(n.children);
      } else dashboards++;
    }
  };
  walk(tree);
  return { categories, dashboards };
}

// DropTarget is where a drag ends, as React Aria's drag and drop names it.
export type DropTarget = { type: "root" } | { type: "item"; key: string; dropPosition: "on" | "before" | "after" };

// canDrop tells whether the nodes of keys may be dropped at target: "on" a
// category only (never on a dashboard), never into a dragged category or
// its descendants, and so that every level keeps its categories before its
// dashboards (a category lands among categories, a dashboard among
// dashboards). Dropping a node next to itself is no move.
export function canDrop(tree: readonly TreeNode[], keys: readonly string[], target: DropTarget): boolean {
  const dragged = keys.map((k) => findNode(tree, k));
  if (dragged.length === 0 || dragged.some((d) => d === null)) return false;
  if (target.type === "root") return true;
  const at = findNode(tree, target.key);
  if (!at) return false;
  const parent = target.dropPosition === "on" ? at.node : at.parent;
  if (target.dropPosition === "on" && at.node.kind !== "category") return false;
  for (const d of dragged as Found[]) {
    if (d.node.key === target.key) return false;
    if (parent && contains(d.node, parent.key)) return false;
  }
  if (target.dropPosition === "on") return true;
  const siblings = (at.parent ? at.parent.children : tree).filter((n) => !keys.includes(n.key));
  const i = siblings.findIndex((n) => n.key === target.key);
  const before = target.dropPosition === "before" ? siblings[i - 1] : at.node;
  const after = target.dropPosition === "before" ? at.node : siblings[i + 1];
  return (dragged as Found[]).every(({ node }) =>
    node.kind === "category" ? before?.kind !== "dashboard" : after?.kind !== "category",
  );
}

// moveNodes returns the tree with the nodes of keys moved to target (which
// canDrop allowed), and the keys of the levels whose order changed (null is
// the root). A node dropped on a category goes last among its kind there.
export function moveNodes(
  tree: readonly TreeNode[],
  keys: readonly string[],
  target: DropTarget,
): { tree: TreeNode[]; levels: Set<string | null> } {
  const next = structuredClone(tree) as TreeNode[];
  const levels = new Set<string | null>();
  const moving: TreeNode[] = [];
  for (const key of keys) {
    const found = findNode(next, key);
    if (!found) continue;
    const siblings = found.parent ? found.parent.children : next;
    siblings.splice(found.index, 1);
    levels.add(found.parent?.key ?? null);
    moving.push(found.node);
  }
  let parent: CategoryNode | null = null;
  let position: number | null = null; // null: last among its kind
  if (target.type === "item") {
    const at = findNode(next, target.key);
    if (!at) throw new Error(`no node ${target.key}`);
    if (target.dropPosition === "on") {
      if (at.node.kind !== "category") throw new Error(`${target.key} is not a category`);
      parent = at.node;
    } else {
      parent = at.parent;
      position = target.dropPosition === "before" ? at.index : at.index + 1;
    }
  }
  const siblings = parent ? parent.children : next;
  if (position === null) {
    for (const node of moving) {
      const categories = siblings.filter((n) => n.kind === "category").length;
      siblings.splice(node.kind === "category" ? categories : siblings.length, 0, node);
    }
  } else {
    siblings.splice(position, 0, ...moving);
  }
  const ordered = normalise(siblings);
  siblings.splice(0, siblings.length, ...ordered);
  levels.add(parent?.key ?? null);
  return { tree: next, levels };
}

// IndexPayload is the body of PUT /api/dashboards/categories/indexes.
export interface IndexPayload {
  categories: { dashboardCategoryId: number; index: number; parentGuid: string | null }[];
  dashboards: { dashboardId: number; dashboardCategoryId: number | null; index: number }[];
}

// indexPayload lists the place of every node on the given levels: its
// parent and its index among the nodes of its kind there.
export function indexPayload(tree: readonly TreeNode[], levels: Iterable<string | null>): IndexPayload {
  const payload: IndexPayload = { categories: [], dashboards: [] };
  for (const level of levels) {
    let parent: CategoryNode | null = null;
    if (level !== null) {
      const found = findNode(tree, level);
      if (!found || found.node.kind !== "category") continue;
      parent = found.node;
    }
    const siblings = parent ? parent.children : tree;
    let c = 0;
    let d = 0;
    for (const node of siblings) {
      if (node.kind === "category") {
        payload.categories.push({ dashboardCategoryId: node.id, index: c++, parentGuid: parent?.guid ?? null });
      } else {
        payload.dashboards.push({ dashboardId: node.id, dashboardCategoryId: parent?.id ?? null, index: d++ });
      }
    }
  }
  return payload;
}
