// EventFeed keeps the live feed's connection: it loads the node list first,
// opens the WebSocket at /api/events with the session cookie, collects the
// events and the log entries it pushes, and reconnects after any loss. The
// live log list is loaded from GET /api/logs when it is first shown, and the
// pushed entries merged in. React reads its state through subscribe and
// getState (useSyncExternalStore).
import { api } from "@/lib/api";
import { addEvent, backoffMs, parseMessage, parseNodes, type FeedNode, type LiveEvent } from "@/lib/live-feed/events";
import { addEntry, maxLogEntries, mergeEntries, parseLogList, parseLogMessage, type LogEntry } from "@/lib/live-feed/logs";

// FeedStatus is the state of the connection.
export type FeedStatus = "idle" | "connecting" | "live" | "reconnecting";

// LogStatus is the state of the live log list's first load.
export type LogStatus = "idle" | "loading" | "loaded" | "failed";

export interface FeedState {
  status: FeedStatus;
  events: LiveEvent[];
  // nodes is null until the node list has loaded.
  nodes: FeedNode[] | null;
  nodesFailed: boolean;
  // log is the live log list, newest first; logStatus says whether the
  // entries written before the panel opened have been loaded.
  log: LogEntry[];
  logStatus: LogStatus;
}

// Close codes of the server (modules/events).
const closeSessionExpired = 4001;
const closeTooSlow = 1013;

// A connection that lasted at least this long ended normally (a restart, a
// network change): the next one is tried at once, not after a backoff.
const stableMs = 5_000;

export class EventFeed {
  private state: FeedState = { status: "idle", events: [], nodes: null, nodesFailed: false, log: [], logStatus: "idle" };
  private readonly listeners = new Set<() => void>();
  private socket: WebSocket | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  private running = false;

  constructor(private readonly companyId?: number) {}

  readonly getState = (): FeedState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  // start connects, once; the connection then lives as long as the page.
  start(): void {
    if (this.running) return;
    this.running = true;
    this.set({ status: "connecting" });
    void this.connect(false);
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000);
    this.set({ status: "idle" });
  }

  // loadNodes (re)loads the nodes the feed can be filtered by.
  async loadNodes(): Promise<void> {
    const query = this.companyId ? `?companyId=${this.companyId}` : "";
    try {
      const tags = await api<unknown>("GET", `/api/tag${query}`);
      this.set({ nodes: parseNodes(tags), nodesFailed: false });
    } catch {
      this.set({ nodesFailed: true });
    }
  }

  // loadLog loads the newest entries of the log, once it is shown (and
  // again after a failure); entries pushed meanwhile are kept.
  async loadLog(): Promise<void> {
    if (this.state.logStatus === "loading" || this.state.logStatus === "loaded") return;
    this.set({ logStatus: "loading" });
    const company = this.companyId ? `&companyId=${this.companyId}` : "";
    try {
      const raw = await api<unknown>("GET", `/api/logs?limit=${maxLogEntries}${company}`);
      this.set({ log: mergeEntries(this.state.log, parseLogList(raw)), logStatus: "loaded" });
    } catch {
      this.set({ logStatus: "failed" });
    }
  }

  private set(patch: Partial<FeedState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  private async connect(renew: boolean): Promise<void> {
    // The node list (GET /api/tag) is loaded before connecting while it is
    // empty.
    if (this.state.nodes === null) await this.loadNodes();
    // A WebSocket cannot renew the session: the refresh cookie buys a new
    // access token first when the last one lapsed or a connection failed.
    if (renew) await api("POST", "/api/users/refresh").catch(() => undefined);
    if (!this.running) return;
    const query = this.companyId ? `?companyId=${this.companyId}` : "";
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/api/events${query}`);
    this.socket = socket;
    let openedAt = 0;
    socket.onopen = () => {
      openedAt = Date.now();
      this.set({ status: "live" });
    };
    socket.onmessage = (m: MessageEvent) => {
      if (typeof m.data !== "string") return;
      let raw: unknown;
      try {
        raw = JSON.parse(m.data);
      } catch {
        return;
      }
      const ev = parseMessage(raw);
      if (ev) {
        this.set({ events: addEvent(this.state.events, ev) });
        return;
      }
      const entry = parseLogMessage(raw);
      if (entry) this.set({ log: addEntry(this.state.log, entry) });
    };
    socket.onclose = (e: CloseEvent) => {
      if (this.socket !== socket || !this.running) return;
      this.socket = null;
      this.set({ status: "reconnecting" });
      const lasted = openedAt > 0 && Date.now() - openedAt >= stableMs;
      let delay: number;
      if (e.code === closeSessionExpired) {
        delay = 0;
      } else if (lasted || e.code === closeTooSlow) {
        this.failures = 0;
        delay = backoffMs(0);
      } else {
        delay = backoffMs(this.failures++);
      }
      this.timer = setTimeout(() => void this.connect(e.code === closeSessionExpired || openedAt === 0), delay);
    };
  }
}
