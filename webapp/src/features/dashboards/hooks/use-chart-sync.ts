// ChartSync ties the charts of one dashboard together: charts with
// sync_chart share the hovered time (each draws a crosshair there), and
// charts with sync_y share one y domain, the union of their data.
import { createContext, useContext, useEffect, useSyncExternalStore } from "react";

type Domain = [number, number];

export class ChartSync {
  private hover: { time: number; source: number } | null = null;
  private readonly domains = new Map<number, Domain>();
  private union: Domain | null = null;
  private readonly hoverListeners = new Set<() => void>();
  private readonly domainListeners = new Set<() => void>();

  readonly getHover = (): { time: number; source: number } | null => this.hover;
  readonly getUnion = (): Domain | null => this.union;

  readonly subscribeHover = (l: () => void): (() => void) => {
    this.hoverListeners.add(l);
    return () => this.hoverListeners.delete(l);
  };

  readonly subscribeDomain = (l: () => void): (() => void) => {
    this.domainListeners.add(l);
    return () => this.domainListeners.delete(l);
  };

  setHover(time: number | null, source: number): void {
    if (time === null) {
      if (this.hover?.source !== source) return;
      this.hover = null;
    } else {
      if (this.hover?.time === time && this.hover.source === source) return;
      this.hover = { time, source };
    }
    for (const l of this.hoverListeners) l();
  }

  setDomain(id: number, d: Domain | null): void {
    if (d) this.domains.set(id, d);
    else this.domains.delete(id);
    let next: Domain | null = null;
    for (const [lo, hi] of this.domains.values()) next = next ? [Math.min(next[0], lo), Math.max(next[1], hi)] : [lo, hi];
    if (next?.[0] === this.union?.[0] && next?.[1] === this.union?.[1]) return;
    this.union = next;
    for (const l of this.domainListeners) l();
  }
}

export const SyncContext = createContext<ChartSync>(new ChartSync());

// useSyncedHover is the time another synced chart points at, or null.
export function useSyncedHover(enabled: boolean): { time: number; source: number } | null {
  const sync = useContext(SyncContext);
  const hover = useSyncExternalStore(sync.subscribeHover, sync.getHover);
  return enabled ? hover : null;
}

// useSyncedDomain registers the chart's own y extent and returns the
// dashboard's common one (or the own extent when not synced).
export function useSyncedDomain(enabled: boolean, id: number, own: Domain | null): Domain | null {
  const sync = useContext(SyncContext);
  const union = useSyncExternalStore(sync.subscribeDomain, sync.getUnion);
  const lo = own?.[0];
  const hi = own?.[1];
  useEffect(() => {
    if (!enabled || lo === undefined || hi === undefined) return;
    sync.setDomain(id, [lo, hi]);
    return () => sync.setDomain(id, null);
  }, [sync, enabled, id, lo, hi]);
  return enabled ? (union ?? own) : own;
}
