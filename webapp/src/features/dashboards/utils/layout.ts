// The grid's layout rules: how many of the 12 columns a module size spans
// on small and on mid-and-up screens (docs/decisions.md "Dashboard grid"),
// and the moves that reorder modules, as pure functions.
import type { DashModule, Size } from "@/features/dashboards/utils/dashboard-model";

// smallSpan is the span of sizeSmall below 960 px.
export const smallSpan: Readonly<Record<Size, number>> = { xs: 4, sm: 6, md: 12, lg: 12 };
// midSpan is the span of sizeMid from 960 px on.
export const midSpan: Readonly<Record<Size, number>> = { xs: 3, sm: 4, md: 6, lg: 12 };

// move returns the modules with the one at from moved to position to, each
// given its position as index.
export function move(modules: readonly DashModule[], from: number, to: number): DashModule[] {
  if (from === to || from < 0 || from >= modules.length) return reindex(modules);
  const list = [...modules];
  const [item] = list.splice(from, 1);
  if (!item) return reindex(modules);
  list.splice(Math.max(0, Math.min(list.length, to)), 0, item);
  return reindex(list);
}

// reindex sets every module's index to its position.
export function reindex(modules: readonly DashModule[]): DashModule[] {
  return modules.map((m, i) => (m.index === i ? m : { ...m, index: i }));
}

// changed lists the modules of next that differ from the ones in prev with
// the same id (index or sizes): what a layout save must send.
export function changed(prev: readonly DashModule[], next: readonly DashModule[]): DashModule[] {
  const before = new Map(prev.map((m) => [m.dashboardModuleId, m]));
  return next.filter((m) => {
    const p = before.get(m.dashboardModuleId);
    return !p || p.index !== m.index || p.sizeSmall !== m.sizeSmall || p.sizeMid !== m.sizeMid;
  });
}
