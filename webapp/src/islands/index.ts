// The islands loader: every element with data-island="name" gets that
// island, mounted with the JSON in its data-props. An island's code is
// fetched only by pages that have one. An island marked data-island-defer
// (the event hub, in the frame of every page) works through the server's
// markup until first used: pointing at it or focusing it fetches its code,
// and a click mounts it (data-mounted="deferred" until then).
//
// Each island is its feature's mount file (src/features/<feature>/mount-<island>.tsx);
// the islands import nothing from each other. The links beside this file
// (category-tree/model.ts, icon-selector/icon-names.ts, event-hub/logs.ts)
// point at the modules the browser tests compile from their old paths.
import type { IslandModule } from "@/islands/island";

const islands: Record<string, () => Promise<IslandModule>> = {
  "alarm-preview": () => import("@/features/alarms/mount-alarm-preview"),
  dashboard: () => import("@/features/dashboards/mount-dashboard"),
  "category-tree": () => import("@/features/dashboards/mount-category-tree"),
  "date-range-picker": () => import("@/features/settings/mount-date-range-picker"),
  "decoder-editor": () => import("@/features/decoders/mount-decoder-editor"),
  "event-hub": () => import("@/features/events/mount-event-hub"),
  "first-uplink": () => import("@/features/netservers/mount-first-uplink"),
  forwarding: () => import("@/features/forwarding/mount-forwarding"),
  "gateway-create": () => import("@/features/gateways/mount-gateway-create"),
  "gateway-list": () => import("@/features/gateways/mount-gateway-list"),
  "icon-selector": () => import("@/features/dashboards/mount-icon-selector"),
  "report-editor": () => import("@/features/reports/mount-report-editor"),
  "report-export": () => import("@/features/reports/mount-report-export"),
  "script-editor": () => import("@/features/scripts/mount-script-editor"),
  "tag-chart": () => import("@/features/nodes/mount-tag-chart"),
  "signal-tests": () => import("@/features/signaltests/mount-signal-tests"),
  "signal-test-peek": () => import("@/features/signaltests/mount-signal-test-peek"),
};

// The catalog (and with it React and react-intl) is fetched with the first
// island, so that a page whose only island is deferred loads just this file.
let catalog: Promise<void> | undefined;
const ensureCatalog = (): Promise<void> => (catalog ??= import("@/lib/i18n").then((m) => m.loadCatalog()));

async function mountOne(el: HTMLElement, activated: boolean): Promise<void> {
  const load = islands[el.dataset.island ?? ""];
  if (!load) {
    console.error(`unknown island ${el.dataset.island ?? ""}`);
    return;
  }
  el.dataset.mounted = "true";
  const props: unknown = JSON.parse(el.dataset.props ?? "{}");
  const [mod] = await Promise.all([load(), ensureCatalog()]);
  mod.mount(el, props, activated);
}

function defer(el: HTMLElement): void {
  el.dataset.mounted = "deferred";
  const prefetch = (): void => {
    void islands[el.dataset.island ?? ""]?.();
    void ensureCatalog();
  };
  el.addEventListener("pointerenter", prefetch, { once: true });
  el.addEventListener("focusin", prefetch, { once: true });
  el.addEventListener("click", () => void mountOne(el, true), { once: true });
}

export async function mountAll(root: ParentNode = document): Promise<void> {
  const nodes = root.querySelectorAll<HTMLElement>("[data-island]:not([data-mounted])");
  await Promise.all(
    Array.from(nodes).map((el) => (el.dataset.islandDefer === undefined ? mountOne(el, false) : defer(el))),
  );
}

void mountAll();
// Islands inside fragments that htmx swaps in are mounted too.
document.addEventListener("htmx:afterSettle", (e) => void mountAll(e.target as ParentNode));
