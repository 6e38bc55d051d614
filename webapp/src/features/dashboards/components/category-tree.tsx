// CategoryTree is the dashboard category tree viewer: the company's
// categories as a tree (sub-categories inside their parent) with its
// dashboards as leaves. Activating a dashboard opens it (reloading when it is
// already open) and closes the viewer it sits in.
//
// Admin roles (canEdit) also get:
// - an edit switch: with edit mode off the nodes are neither draggable nor
//   selectable, with it on they are both, and drag and drop (pointer, or the
//   keyboard through each row's drag handle) moves categories among their
//   siblings or into another category and dashboards between categories; the
//   new order is saved with PUT /api/dashboards/categories/indexes;
// - a context menu on every node (right click, the context-menu key or
//   Shift+F10, and a visible "more" button): create category, edit category,
//   create dashboard, remove on a category; copy dashboard, remove on a
//   dashboard; and buttons that create a category or a dashboard at the top.
import {
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from "react";
import { Collection, I18nProvider, useDragAndDrop, type Key, type Selection } from "react-aria-components";
import { Button } from "@/components/ui/button";
import { Menu, MenuItem } from "@/components/ui/menu";
import { Popover } from "@/components/ui/popover";
import { Switch } from "@/components/ui/switch";
import { Tree, TreeItem, TreeItemContent } from "@/components/ui/tree";
import { defineMessages, useIntl, type NoMessageValues } from "react-intl";
import {
  copyDashboard,
  createCategory,
  createDashboard,
  deleteCategory,
  deleteDashboard,
  fetchTree,
  saveIndexes,
  updateCategory,
} from "@/features/dashboards/api/categories";
import { CategoryDialog, DashboardDialog, RemoveDialog, type DialogState } from "@/features/dashboards/components/category-dialogs";
import {
  canDrop,
  categoryKey,
  categoryKeys,
  dashboardKey,
  findNode,
  indexPayload,
  moveNodes,
  type DropTarget,
  type TreeNode,
} from "@/features/dashboards/utils/category-tree";
import "@/features/dashboards/components/category-tree.css";
import { toast, toastOnNextPage } from "@/lib/toast";
import { editPath } from "@/features/dashboards/utils/edit-request";

const messages = defineMessages<{
  tree: NoMessageValues;
  loading: NoMessageValues;
  failed: NoMessageValues;
  retry: NoMessageValues;
  empty: NoMessageValues;
  emptyAdmin: NoMessageValues;
  noCompany: NoMessageValues;
  edit: NoMessageValues;
  editHint: NoMessageValues;
  newCategory: NoMessageValues;
  newDashboard: NoMessageValues;
  createDashboard: NoMessageValues;
  more: { title: string };
  actions: { title: string };
  drag: { title: string };
  expand: { title: string };
  menuCreateCategory: NoMessageValues;
  menuEditCategory: NoMessageValues;
  menuCreateDashboard: NoMessageValues;
  menuCopy: NoMessageValues;
  menuRemove: NoMessageValues;
  categoryCreated: NoMessageValues;
  categoryUpdated: NoMessageValues;
  categoryRemoved: NoMessageValues;
  dashboardCreated: NoMessageValues;
  dashboardCopied: NoMessageValues;
  dashboardRemoved: NoMessageValues;
  orderSaved: NoMessageValues;
  orderFailed: NoMessageValues;
  current: NoMessageValues;
}>({
  tree: { id: "tree.label", defaultMessage: "Dashboards" },
  loading: { id: "tree.loading", defaultMessage: "Loading dashboards…" },
  failed: { id: "tree.failed", defaultMessage: "The dashboards could not be loaded" },
  retry: { id: "tree.retry", defaultMessage: "Try again" },
  empty: { id: "tree.empty", defaultMessage: "No dashboards yet" },
  emptyAdmin: { id: "tree.empty.admin", defaultMessage: "Create the first dashboard, or a category to keep dashboards in." },
  noCompany: { id: "tree.noCompany", defaultMessage: "Choose a company to see its dashboards" },
  edit: { id: "tree.edit", defaultMessage: "Edit" },
  editHint: {
    id: "tree.edit.hint",
    defaultMessage:
      "Drag a row by its handle to move it. With the keyboard: the right arrow reaches the handle, Enter picks the row up, the arrow keys choose the place and Enter drops it.",
  },
  newCategory: { id: "tree.toolbar.newCategory", defaultMessage: "New category" },
  newDashboard: { id: "tree.toolbar.newDashboard", defaultMessage: "New dashboard" },
  createDashboard: { id: "tree.empty.create", defaultMessage: "Create dashboard" },
  more: { id: "tree.more", defaultMessage: "More actions for {title}" },
  actions: { id: "tree.menu.label", defaultMessage: "Actions for {title}" },
  drag: { id: "tree.drag", defaultMessage: "Move {title}" },
  expand: { id: "tree.expand", defaultMessage: "Show or hide the contents of {title}" },
  menuCreateCategory: { id: "tree.menu.createCategory", defaultMessage: "Create category" },
  menuEditCategory: { id: "tree.menu.editCategory", defaultMessage: "Edit category" },
  menuCreateDashboard: { id: "tree.menu.createDashboard", defaultMessage: "Create dashboard" },
  menuCopy: { id: "tree.menu.copyDashboard", defaultMessage: "Copy dashboard" },
  menuRemove: { id: "tree.menu.remove", defaultMessage: "Remove" },
  categoryCreated: { id: "tree.category.created", defaultMessage: "Category created" },
  categoryUpdated: { id: "tree.category.updated", defaultMessage: "Category updated" },
  categoryRemoved: { id: "tree.category.removed", defaultMessage: "Category removed" },
  dashboardCreated: { id: "tree.dashboard.created", defaultMessage: "Dashboard created" },
  dashboardCopied: { id: "tree.dashboard.copied", defaultMessage: "Dashboard copied" },
  dashboardRemoved: { id: "tree.dashboard.removed", defaultMessage: "Dashboard removed" },
  orderSaved: { id: "tree.order.saved", defaultMessage: "The new order is saved" },
  orderFailed: { id: "tree.order.failed", defaultMessage: "The new order could not be saved" },
  current: { id: "tree.current", defaultMessage: "open now" },
});

// The drag type of the tree's own rows: drops from elsewhere are refused.
const dragType = "application/x-fieldhub-tree-node";

export interface CategoryTreeProps {
  companyId?: number;
  canEdit: boolean;
  mode: "page" | "dialog";
  // onNavigate closes the viewer before a dashboard opens (dialog mode).
  onNavigate?: () => void;
}

type Loaded = { status: "loading" } | { status: "error" } | { status: "ready"; tree: TreeNode[] };

// openDashboard goes to the dashboard, or reloads it when it is the page.
function openDashboard(id: number): void {
  const path = `/dashboard/${id}`;
  if (window.location.pathname === path) window.location.reload();
  else window.location.assign(path);
}

// currentDashboard is the id of the dashboard the page shows, if any.
function currentDashboard(): number | null {
  const m = /^\/dashboard\/(\d+)$/.exec(window.location.pathname);
  return m ? Number(m[1]) : null;
}

// The expanded categories are kept per company in the browser, so that the
// tree opens as it was left; with nothing kept, everything is expanded.
const expandedStore = (companyId: number): string => `fieldhub.tree.expanded.${companyId}`;

function readExpanded(companyId: number): Set<Key> | null {
  try {
    const raw = window.localStorage.getItem(expandedStore(companyId));
    const list: unknown = raw ? JSON.parse(raw) : null;
    return Array.isArray(list) ? new Set(list.filter((k): k is string => typeof k === "string")) : null;
  } catch {
    return null;
  }
}

function writeExpanded(companyId: number, keys: Set<Key>): void {
  try {
    window.localStorage.setItem(expandedStore(companyId), JSON.stringify([...keys].map(String)));
  } catch {
    // Storage may be full or off; the tree then opens expanded next time.
  }
}

export function CategoryTree({ companyId, canEdit, mode, onNavigate }: CategoryTreeProps): ReactNode {
  const intl = useIntl();
  const [loaded, setLoaded] = useState<Loaded>({ status: "loading" });
  const [editing, setEditing] = useState(false);
  const [expanded, setExpanded] = useState<Set<Key>>(() => (companyId ? readExpanded(companyId) : null) ?? new Set());
  const expandAll = useRef(companyId ? readExpanded(companyId) === null : false);
  const [selected, setSelected] = useState<Selection>(new Set());
  const [menu, setMenu] = useState<TreeNode | null>(null);
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const menuAnchor = useRef<Element | null>(null);
  const pointAnchor = useRef<HTMLSpanElement>(null);
  const container = useRef<HTMLDivElement>(null);
  const focusAfter = useRef<string | null>(null);
  const hintId = useId();
  const tree = loaded.status === "ready" ? loaded.tree : null;
  const treeRef = useRef<TreeNode[]>([]);
  treeRef.current = tree ?? [];
  const current = useMemo(currentDashboard, []);
  const shown = useRef(false);

  const load = useCallback(async (): Promise<void> => {
    if (!companyId) return;
    try {
      const next = await fetchTree(companyId);
      if (expandAll.current) {
        expandAll.current = false;
        setExpanded(new Set(categoryKeys(next)));
      }
      shown.current = true;
      setLoaded({ status: "ready", tree: next });
    } catch (err) {
      console.error("category-tree: loading the tree failed", err);
      // A tree already shown stays; the failure is told in the snackbar.
      if (shown.current) toast("error", intl.formatMessage(messages.failed));
      else setLoaded({ status: "error" });
    }
  }, [companyId, intl]);

  useEffect(() => {
    void load();
  }, [load]);

  function changeExpanded(keys: Set<Key>): void {
    setExpanded(keys);
    if (companyId) writeExpanded(companyId, keys);
  }

  function expand(key: string): void {
    if (!expanded.has(key)) changeExpanded(new Set([...expanded, key]));
  }

  // After a dialog closes, the focus goes to the row it was about (or the
  // row it made), which React Aria's own return would not find any more.
  useEffect(() => {
    if (dialog !== null || menu !== null || focusAfter.current === null) return;
    const key = focusAfter.current;
    const frame = requestAnimationFrame(() => {
      const row = container.current?.querySelector<HTMLElement>(`[data-node="${CSS.escape(key)}"]`);
      if (row) {
        focusAfter.current = null;
        row.focus();
      }
    });
    return () => cancelAnimationFrame(frame);
  }, [dialog, menu, loaded]);

  // Drag and drop. The dragged keys are kept while the drag lasts, so that
  // every proposed drop target can be checked against the tree.
  const dragged = useRef<string[]>([]);
  const { dragAndDropHooks } = useDragAndDrop<TreeNode>({
    isDisabled: !editing,
    acceptedDragTypes: [dragType],
    getAllowedDropOperations: () => ["move"],
    getItems: (keys, items) => {
      dragged.current = [...keys].map(String);
      return items.map((n) => ({ [dragType]: n.key, "text/plain": n.title }));
    },
    onDragStart: (e) => {
      dragged.current = [...e.keys].map(String);
    },
    onDragEnd: () => {
      dragged.current = [];
    },
    getDropOperation: (target) => (canDrop(treeRef.current, dragged.current, toTarget(target)) ? "move" : "cancel"),
    shouldAcceptItemDrop: (target) => canDrop(treeRef.current, dragged.current, toTarget(target)),
    onMove: (e) => void move([...e.keys].map(String), toTarget(e.target)),
  });

  async function move(keys: string[], target: DropTarget): Promise<void> {
    const before = treeRef.current;
    // Saved only for admins with edit mode on; without both no drag
    // starts in the first place.
    if (!canEdit || !editing || !canDrop(before, keys, target)) return;
    const { tree: next, levels } = moveNodes(before, keys, target);
    setLoaded({ status: "ready", tree: next });
    if (target.type === "item" && target.dropPosition === "on") expand(target.key);
    try {
      await saveIndexes(indexPayload(next, levels));
      setAnnouncement(intl.formatMessage(messages.orderSaved));
    } catch (err) {
      console.error("category-tree: saving the order failed", err);
      toast("error", intl.formatMessage(messages.orderFailed));
      await load();
    }
  }

  function onAction(key: Key): void {
    const found = findNode(treeRef.current, String(key));
    if (!found) return;
    if (found.node.kind === "dashboard") {
      onNavigate?.();
      openDashboard(found.node.id);
    } else {
      const next = new Set(expanded);
      if (next.has(found.node.key)) next.delete(found.node.key);
      else next.add(found.node.key);
      changeExpanded(next);
    }
  }

  function openMenu(node: TreeNode, anchor: Element): void {
    menuAnchor.current = anchor;
    setMenu(node);
  }

  function onContextMenu(node: TreeNode, e: MouseEvent): void {
    if (!canEdit) return;
    e.preventDefault();
    const point = pointAnchor.current;
    if (point) {
      point.style.left = `${e.clientX}px`;
      point.style.top = `${e.clientY}px`;
    }
    openMenu(node, point ?? e.currentTarget);
  }

  // The keyboard's way to the context menu: the context-menu key or
  // Shift+F10 on a row (or on anything inside it).
  function onKeyDownCapture(e: KeyboardEvent<HTMLDivElement>): void {
    if (!canEdit || !(e.key === "ContextMenu" || (e.shiftKey && e.key === "F10"))) return;
    const row = (e.target as Element).closest<HTMLElement>("[data-node]");
    const found = row?.dataset.node ? findNode(treeRef.current, row.dataset.node) : null;
    if (!row || !found) return;
    e.preventDefault();
    e.stopPropagation();
    openMenu(found.node, row);
  }

  function onMenuAction(node: TreeNode, action: Key): void {
    // A menu closed without a choice gives the focus back where it was
    // (React Aria's popover does); after a dialog it goes to the node's row.
    focusAfter.current = node.key;
    setMenu(null);
    switch (action) {
      case "create-category":
        if (node.kind === "category") setDialog({ type: "category-create", parent: node });
        break;
      case "edit-category":
        if (node.kind === "category") setDialog({ type: "category-edit", node });
        break;
      case "create-dashboard":
        if (node.kind === "category") setDialog({ type: "dashboard-create", parent: node });
        break;
      case "copy-dashboard":
        setDialog({ type: "dashboard-copy", node });
        break;
      case "remove":
        setDialog({ type: "remove", node });
        break;
    }
  }

  function closeDialog(): void {
    setDialog(null);
  }

  // done closes the dialog after a change, shows what happened and reads
  // the tree again, so that it shows what the server stored.
  async function done(text: string, focusKey: string | null, expandKey?: string): Promise<void> {
    focusAfter.current = focusKey;
    if (expandKey) expand(expandKey);
    setDialog(null);
    toast("success", text);
    await load();
  }

  function renderDialog(): ReactNode {
    if (!dialog || !companyId) return null;
    switch (dialog.type) {
      case "category-create": {
        const parent = dialog.parent;
        return (
          <CategoryDialog
            parent={parent}
            onClose={closeDialog}
            onSubmit={async (input) => {
              const c = await createCategory(companyId, input, parent?.guid ?? null);
              await done(intl.formatMessage(messages.categoryCreated), categoryKey(c.dashboardCategoryId), parent?.key);
            }}
          />
        );
      }
      case "category-edit": {
        const node = dialog.node;
        return (
          <CategoryDialog
            category={node}
            onClose={closeDialog}
            onSubmit={async (input) => {
              await updateCategory(node.id, input);
              await done(intl.formatMessage(messages.categoryUpdated), node.key);
            }}
          />
        );
      }
      case "dashboard-create": {
        const parent = dialog.parent;
        return (
          <DashboardDialog
            parent={parent}
            onClose={closeDialog}
            onSubmit={async (name) => {
              const d = await createDashboard(companyId, name, parent?.id ?? null);
              // A new dashboard is empty: it opens in edit mode, to have
              // modules added; the snackbar tells of it there.
              toastOnNextPage("success", intl.formatMessage(messages.dashboardCreated));
              if (parent) expand(parent.key); // kept for the tree's next showing
              onNavigate?.();
              window.location.assign(editPath(d.dashboardId));
            }}
          />
        );
      }
      case "dashboard-copy": {
        const node = dialog.node;
        return (
          <DashboardDialog
            copyOf={node}
            onClose={closeDialog}
            onSubmit={async (name) => {
              const d = await copyDashboard(node.kind === "dashboard" ? node.id : null, name);
              await done(intl.formatMessage(messages.dashboardCopied), dashboardKey(d.dashboardId));
            }}
          />
        );
      }
      case "remove": {
        const node = dialog.node;
        const at = findNode(treeRef.current, node.key);
        const siblings = at ? (at.parent ? at.parent.children : treeRef.current) : [];
        const neighbour = siblings[at ? at.index + 1 : 0] ?? siblings[at ? at.index - 1 : 0] ?? at?.parent ?? null;
        return (
          <RemoveDialog
            node={node}
            onClose={closeDialog}
            onConfirm={async () => {
              if (node.kind === "category") await deleteCategory(node.id);
              else await deleteDashboard(node.id);
              const text = node.kind === "category" ? messages.categoryRemoved : messages.dashboardRemoved;
              await done(intl.formatMessage(text), neighbour && neighbour.key !== node.key ? neighbour.key : null);
            }}
          />
        );
      }
    }
  }

  // The rows are drawn again when what they show besides their node changes.
  const rowDependencies = [editing, canEdit, current, intl];

  function renderNode(node: TreeNode): ReactNode {
    return (
      <TreeItem
        id={node.key}
        key={node.key}
        textValue={node.title}
        className="fh-tree__item"
        data-node={node.key}
        data-kind={node.kind}
        onContextMenu={(e: MouseEvent) => onContextMenu(node, e)}
      >
        <TreeItemContent>
          {({ hasChildItems, isExpanded }) => (
            <div className="fh-tree__row">
              {editing ? (
                <Button slot="drag" className="fh-tree__handle" aria-label={intl.formatMessage(messages.drag, { title: node.title })}>
                  <span className="mdi mdi-drag" aria-hidden="true" />
                </Button>
              ) : null}
              {hasChildItems ? (
                <Button
                  slot="chevron"
                  className="fh-tree__chevron"
                  aria-label={intl.formatMessage(messages.expand, { title: node.title })}
                  data-expanded={isExpanded || undefined}
                >
                  <span className="mdi mdi-chevron-right" aria-hidden="true" />
                </Button>
              ) : (
                <span className="fh-tree__spacer" aria-hidden="true" />
              )}
              <span
                className={`mdi ${node.icon} fh-tree__icon`}
                style={node.color ? { color: node.color } : undefined}
                aria-hidden="true"
              />
              <span className="fh-tree__title">{node.title}</span>
              {node.kind === "dashboard" && node.id === current ? (
                <span className="fh-tree__current">{intl.formatMessage(messages.current)}</span>
              ) : null}
              {canEdit ? (
                <Button
                  className="fh-tree__more"
                  aria-label={intl.formatMessage(messages.more, { title: node.title })}
                  aria-haspopup="menu"
                  onPress={(e) => openMenu(node, e.target)}
                >
                  <span className="mdi mdi-dots-vertical" aria-hidden="true" />
                </Button>
              ) : null}
            </div>
          )}
        </TreeItemContent>
        {node.kind === "category" ? (
          <Collection items={node.children} dependencies={rowDependencies}>
            {renderNode}
          </Collection>
        ) : null}
      </TreeItem>
    );
  }

  function renderMenu(node: TreeNode): ReactNode {
    const items =
      node.kind === "category"
        ? [
            { id: "create-category", icon: "mdi-folder-plus-outline", label: messages.menuCreateCategory },
            { id: "edit-category", icon: "mdi-pencil-outline", label: messages.menuEditCategory },
            { id: "create-dashboard", icon: "mdi-view-dashboard-outline", label: messages.menuCreateDashboard },
            { id: "remove", icon: "mdi-delete-outline", label: messages.menuRemove },
          ]
        : [
            { id: "copy-dashboard", icon: "mdi-content-copy", label: messages.menuCopy },
            { id: "remove", icon: "mdi-delete-outline", label: messages.menuRemove },
          ];
    return (
      <Popover
        className="fh-tree__menu-popover"
        aria-label={intl.formatMessage(messages.actions, { title: node.title })}
        triggerRef={menuAnchor}
        isOpen
        onOpenChange={(open) => {
          if (!open) setMenu(null);
        }}
        placement="bottom start"
      >
        <Menu
          className="fh-tree__menu"
          aria-label={intl.formatMessage(messages.actions, { title: node.title })}
          autoFocus="first"
          onAction={(action) => onMenuAction(node, action)}
          onClose={() => setMenu(null)}
        >
          {items.map((item) => (
            <MenuItem key={item.id} id={item.id} className="fh-tree__menu-item" data-danger={item.id === "remove" || undefined}>
              <span className={`mdi ${item.icon}`} aria-hidden="true" />
              <span>{intl.formatMessage(item.label)}</span>
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    );
  }

  function renderBody(): ReactNode {
    if (!companyId) return <p className="fh-tree__note">{intl.formatMessage(messages.noCompany)}</p>;
    if (loaded.status === "loading") {
      return (
        <p className="fh-tree__note" role="status">
          <span className="mdi mdi-loading mdi-spin" aria-hidden="true" /> {intl.formatMessage(messages.loading)}
        </p>
      );
    }
    if (loaded.status === "error") {
      return (
        <div className="fh-tree__note fh-tree__note--error" role="alert">
          <span>{intl.formatMessage(messages.failed)}</span>
          <Button className="fh-tree-button fh-tree-button--secondary" onPress={() => void retry()}>
            {intl.formatMessage(messages.retry)}
          </Button>
        </div>
      );
    }
    return (
      // The capture handler sees the context-menu keys before the tree's
      // own key handling does.
      <div className="fh-tree__frame" onKeyDownCapture={onKeyDownCapture}>
        <Tree<TreeNode>
          className="fh-tree__tree"
          aria-label={intl.formatMessage(messages.tree)}
          aria-describedby={editing ? hintId : undefined}
          items={loaded.tree}
          dependencies={rowDependencies}
          expandedKeys={expanded}
          onExpandedChange={changeExpanded}
          selectionMode={editing ? "single" : "none"}
          selectionBehavior="replace"
          selectedKeys={selected}
          onSelectionChange={setSelected}
          onAction={onAction}
          dragAndDropHooks={dragAndDropHooks}
          renderEmptyState={() => (
            <div className="fh-tree__empty">
              <span className="mdi mdi-view-dashboard-outline" aria-hidden="true" />
              <p>{intl.formatMessage(messages.empty)}</p>
              {canEdit ? <p className="fh-tree__muted">{intl.formatMessage(messages.emptyAdmin)}</p> : null}
            </div>
          )}
        >
          {renderNode}
        </Tree>
        {canEdit && loaded.tree.length === 0 ? (
          <div className="fh-tree__empty-actions">
            <Button className="fh-tree-button" onPress={() => setDialog({ type: "dashboard-create", parent: null })}>
              <span className="mdi mdi-plus" aria-hidden="true" />
              {intl.formatMessage(messages.createDashboard)}
            </Button>
          </div>
        ) : null}
      </div>
    );
  }

  async function retry(): Promise<void> {
    setLoaded({ status: "loading" });
    await load();
  }

  const toggleEditing = (on: boolean): void => {
    setEditing(on);
    if (!on) setSelected(new Set());
  };

  return (
    <I18nProvider locale={intl.locale}>
      <div className={`fh-tree fh-tree--${mode}`} ref={container} data-editing={editing || undefined}>
        {canEdit && companyId ? (
          <div className="fh-tree__toolbar">
            <Switch className="fh-tree__switch" isSelected={editing} onChange={toggleEditing}>
              <span className="fh-tree__switch-track" aria-hidden="true">
                <span className="fh-tree__switch-thumb" />
              </span>
              {intl.formatMessage(messages.edit)}
            </Switch>
            <span className="fh-tree__toolbar-gap" />
            <Button
              className="fh-tree-button fh-tree-button--secondary"
              isDisabled={loaded.status !== "ready"}
              onPress={() => {
                focusAfter.current = null;
                setDialog({ type: "category-create", parent: null });
              }}
            >
              <span className="mdi mdi-folder-plus-outline" aria-hidden="true" />
              {intl.formatMessage(messages.newCategory)}
            </Button>
            <Button
              className="fh-tree-button fh-tree-button--secondary"
              isDisabled={loaded.status !== "ready"}
              onPress={() => {
                focusAfter.current = null;
                setDialog({ type: "dashboard-create", parent: null });
              }}
            >
              <span className="mdi mdi-plus" aria-hidden="true" />
              {intl.formatMessage(messages.newDashboard)}
            </Button>
          </div>
        ) : null}
        {editing ? (
          <p className="fh-tree__hint" id={hintId}>
            {intl.formatMessage(messages.editHint)}
          </p>
        ) : null}
        {renderBody()}
        <span className="fh-tree__anchor" ref={pointAnchor} aria-hidden="true" />
        <div className="sr-only" role="status" aria-live="polite">
          {announcement}
        </div>
        {menu ? renderMenu(menu) : null}
        {renderDialog()}
      </div>
    </I18nProvider>
  );
}

// toTarget turns React Aria's drop target into the model's.
function toTarget(t: { type: "root" } | { type: "item"; key: Key; dropPosition: "on" | "before" | "after" }): DropTarget {
  return t.type === "root" ? { type: "root" } : { type: "item", key: String(t.key), dropPosition: t.dropPosition };
}
