// Live values for the widgets. Signed in, the dashboard follows the event
// hub's WebSocket feed (its EventFeed, the same client the top bar's panel
// uses); a public page polls each module's latest values every 30 s
// instead, since the socket needs a session. Either way the widgets get
// LiveUpdates: a node's new values at a time, and pick the keys they draw.
import { createContext, useContext, useEffect, useRef } from "react";
import { EventFeed } from "@/lib/live-feed/client";
import type { LiveEvent } from "@/lib/live-feed/events";
import type { Latest, SeriesRef } from "@/features/dashboards/utils/dashboard-model";

export interface LiveUpdate {
  deveui: string;
  time: number;
  values: Record<string, number | string>;
}

type Listener = (u: LiveUpdate) => void;

// publicPollMs is how often a public page asks for the latest values.
export const publicPollMs = 30_000;

export class LiveHub {
  private readonly listeners = new Set<Listener>();
  private feed: EventFeed | null = null;
  private unsubscribeFeed: (() => void) | null = null;
  private readonly seen = new Set<string>();
  // lastTimes remembers the newest time per node and key, so that a polled
  // value is passed on only once.
  private readonly lastTimes = new Map<string, number>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(u: LiveUpdate): void {
    for (const l of this.listeners) l(u);
  }

  // follow connects to the event feed of the company.
  follow(companyId: number | undefined): void {
    if (this.feed) return;
    const feed = new EventFeed(companyId);
    this.feed = feed;
    this.unsubscribeFeed = feed.subscribe(() => {
      const events = feed.getState().events;
      // The feed keeps the newest first; pass on the unseen ones oldest first.
      const fresh = events.filter((e) => !this.seen.has(e.id)).reverse();
      for (const e of fresh) {
        this.seen.add(e.id);
        this.emit(fromEvent(e));
      }
      if (this.seen.size > 2000) {
        this.seen.clear();
        for (const e of events) this.seen.add(e.id);
      }
    });
    feed.start();
  }

  // offerLatest passes on the polled latest values that are newer than the
  // ones seen before (the first poll only records them).
  offerLatest(list: readonly Latest[], first: boolean): void {
    const byNode = new Map<string, LiveUpdate>();
    for (const l of list) {
      if (l.time === null || (l.value === null && l.text === null)) continue;
      const k = `${l.deveui}|${l.key}`;
      const before = this.lastTimes.get(k);
      this.lastTimes.set(k, Math.max(before ?? 0, l.time));
      if (first || (before !== undefined && l.time <= before)) continue;
      const u = byNode.get(`${l.deveui}|${l.time}`) ?? { deveui: l.deveui, time: l.time, values: {} };
      u.values[l.key] = l.value ?? l.text ?? "";
      byNode.set(`${l.deveui}|${l.time}`, u);
    }
    for (const u of byNode.values()) this.emit(u);
  }

  stop(): void {
    this.unsubscribeFeed?.();
    this.feed?.stop();
    this.feed = null;
  }
}

// fromEvent reads an uplink event: its data flattened to dotted keys, the
// way the ingest stores them ("door.open"), numbers and texts only.
export function fromEvent(e: LiveEvent): LiveUpdate {
  const values: Record<string, number | string> = {};
  const walk = (prefix: string, v: unknown): void => {
    if (typeof v === "number" && Number.isFinite(v)) values[prefix] = v;
    else if (typeof v === "boolean") values[prefix] = v ? 1 : 0;
    else if (typeof v === "string") values[prefix] = v;
    else if (typeof v === "object" && v !== null && !Array.isArray(v)) {
      for (const [k, inner] of Object.entries(v)) walk(prefix ? `${prefix}.${k}` : k, inner);
    }
  };
  walk("", e.data);
  const t = Date.parse(e.date);
  return { deveui: e.tag.deveui.toUpperCase(), time: Number.isNaN(t) ? Date.now() : t, values };
}

export const LiveContext = createContext<LiveHub | null>(null);

// useLive calls onValue for each new value of the given series; refs and
// onValue may change between renders without resubscribing.
export function useLive(refs: readonly SeriesRef[], onValue: (ref: SeriesRef, time: number, value: number | string) => void): void {
  const hub = useContext(LiveContext);
  const current = useRef({ refs, onValue });
  current.current = { refs, onValue };
  useEffect(() => {
    if (!hub) return;
    return hub.subscribe((u) => {
      for (const ref of current.current.refs) {
        if (ref.deveui !== u.deveui) continue;
        const v = u.values[ref.key];
        if (v !== undefined) current.current.onValue(ref, u.time, v);
      }
    });
  }, [hub]);
}

// useLiveNodes calls onUplink for every uplink of any of the nodes (or of
// every node when deveuis is null).
export function useLiveNodes(deveuis: readonly string[] | null, onUplink: (u: LiveUpdate) => void): void {
  const hub = useContext(LiveContext);
  const current = useRef({ deveuis, onUplink });
  current.current = { deveuis, onUplink };
  useEffect(() => {
    if (!hub) return;
    return hub.subscribe((u) => {
      const { deveuis: want, onUplink: fn } = current.current;
      if (want === null || want.includes(u.deveui)) fn(u);
    });
  }, [hub]);
}
