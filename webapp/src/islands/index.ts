// The islands loader: every element with data-island="name" gets that
// island, mounted with the JSON in its data-props. An island's code is
// fetched only by pages that have one.
import type { IslandModule } from "@/islands/island";
import { loadCatalog } from "@/lib/i18n";

const islands: Record<string, () => Promise<IslandModule>> = {
  "date-range-picker": () => import("@/islands/date-range-picker/mount"),
  "icon-selector": () => import("@/islands/icon-selector/mount"),
};

const catalog = loadCatalog();

export async function mountAll(root: ParentNode = document): Promise<void> {
  const nodes = root.querySelectorAll<HTMLElement>("[data-island]:not([data-mounted])");
  if (nodes.length === 0) return;
  await catalog;
  await Promise.all(
    Array.from(nodes).map(async (el) => {
      const load = islands[el.dataset.island ?? ""];
      if (!load) {
        console.error(`unknown island ${el.dataset.island ?? ""}`);
        return;
      }
      el.dataset.mounted = "true";
      const props: unknown = JSON.parse(el.dataset.props ?? "{}");
      const mod = await load();
      mod.mount(el, props);
    }),
  );
}

void mountAll();
// Islands inside fragments that htmx swaps in are mounted too.
document.addEventListener("htmx:afterSettle", (e) => void mountAll(e.target as ParentNode));
