// mount renders the category tree into its island element. Props:
// {companyId, canEdit, mode}. In mode "page" (the /dashboard chooser) the
// tree is drawn in place; in mode "dialog" the element holds the top bar's
// button (data-category-tree-trigger), which opens the tree in a modal.
import { createRoot } from "react-dom/client";
import { Intl } from "@/lib/i18n";
import { CategoryTree } from "@/features/dashboards/components/category-tree";
import { NavigationDialog } from "@/features/dashboards/components/nav-dialog";

interface Props {
  companyId?: number;
  canEdit: boolean;
  mode: "page" | "dialog";
}

export function mount(el: HTMLElement, raw: unknown, activated = false): void {
  const props = readProps(raw);
  try {
    if (props.mode === "dialog") {
      const trigger = el.querySelector<HTMLButtonElement>("button[data-category-tree-trigger]");
      if (!trigger) {
        console.error("category-tree: the dialog island has no trigger button");
        return;
      }
      // React owns a container of its own: the button stays the server's.
      const host = document.createElement("div");
      host.className = "fh-tree-nav__host";
      el.append(host);
      createRoot(host).render(
        <Intl>
          <NavigationDialog trigger={trigger} companyId={props.companyId} canEdit={props.canEdit} open={activated} />
        </Intl>,
      );
      return;
    }
    createRoot(el).render(
      <Intl>
        <CategoryTree companyId={props.companyId} canEdit={props.canEdit} mode="page" />
      </Intl>,
    );
  } catch (err) {
    console.error("category-tree: mount failed", err);
  }
}

// readProps keeps the props that have the right type; anything else falls
// back to the safe side (no editing, the page mode).
function readProps(raw: unknown): Props {
  const props: Props = { canEdit: false, mode: "page" };
  if (typeof raw !== "object" || raw === null) return props;
  const p = raw as Record<string, unknown>;
  if (typeof p.companyId === "number" && Number.isSafeInteger(p.companyId) && p.companyId > 0) props.companyId = p.companyId;
  if (p.canEdit === true) props.canEdit = true;
  if (p.mode === "dialog") props.mode = "dialog";
  return props;
}
