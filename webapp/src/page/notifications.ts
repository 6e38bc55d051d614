// The bell of the top bar (webapp/ui's notificationBell): it loads the
// user's unread notifications when the page loads, every 10 minutes (SPEC
// section 9), whenever the list is opened, and whenever the live feed says
// they changed (a {"type":"Notification"} message on a user-only
// connection to /api/events). A click on one marks it read and opens its
// route; "Mark all as read" marks them all. The server draws the bell with
// its count and every text, so this needs no catalog and no React.
import { api } from "@/lib/api";
import { backoffMs } from "@/lib/live-feed/events";
import { showToast } from "@/page/toast";

// refreshMs is how often the list is loaded without being asked (SPEC: 600000 ms).
export const refreshMs = 600_000;

// Close codes of the live feed (modules/events).
const closeSessionExpired = 4001;
const closeTooMany = 4029;

// Notice is a notification as GET /api/notification/{userId} lists it.
export interface Notice {
  notificationId: number;
  label: string;
  message: string;
  route: string;
  read: boolean;
  createdAt: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

// parseNotices reads the list, leaving out what is not a notification.
export function parseNotices(raw: unknown): Notice[] {
  if (!Array.isArray(raw)) return [];
  const out: Notice[] = [];
  for (const n of raw) {
    if (!isObject(n) || typeof n.notificationId !== "number" || typeof n.label !== "string") continue;
    out.push({
      notificationId: n.notificationId,
      label: n.label,
      message: typeof n.message === "string" ? n.message : "",
      route: typeof n.route === "string" ? n.route : "",
      read: n.read === true,
      createdAt: typeof n.createdAt === "string" ? n.createdAt : "",
    });
  }
  return out;
}

// safeRoute is a route the bell may open: a path of the portal, never
// another site (the server refuses others; this is the second lock).
export function safeRoute(route: string): string | null {
  return /^\/(?![/\\])[^\s]*$/.test(route) ? route : null;
}

class Bell {
  private notices: Notice[] = [];
  private loaded = false;
  private loading = false;
  private again = false;
  private socket: WebSocket | null = null;
  private failures = 0;

  constructor(
    private readonly el: HTMLDetailsElement,
    private readonly userId: number,
  ) {
    // The server counted none: its empty list stands until a load says
    // otherwise, so the bell opens on it at once.
    this.loaded = el.dataset.unread === "0";
  }

  private part<T extends HTMLElement>(selector: string): T {
    return this.el.querySelector<T>(selector) as T;
  }

  start(): void {
    this.el.addEventListener("toggle", () => {
      if (this.el.open) void this.load();
    });
    this.part(".notifications-list").addEventListener("click", (e) => void this.open(e));
    this.part("[data-notifications-mark-all]").addEventListener("click", () => void this.markAll());
    this.part("[data-notifications-retry]").addEventListener("click", () => void this.load());
    void this.load();
    window.setInterval(() => void this.load(), refreshMs);
    this.connect(false);
  }

  // load fetches the list; a load asked for while one runs runs after it,
  // so that the last change is always shown.
  async load(): Promise<void> {
    if (this.loading) {
      this.again = true;
      return;
    }
    this.loading = true;
    this.render("loading");
    try {
      this.notices = parseNotices(await api<unknown>("GET", `/api/notification/${this.userId}`));
      this.loaded = true;
      this.render("ready");
    } catch {
      this.render("failed");
    } finally {
      this.loading = false;
      if (this.again) {
        this.again = false;
        void this.load();
      }
    }
  }

  // render draws the count and the list. While a load runs, what was shown
  // stays; the loading line shows only before there is anything to show.
  private render(state: "loading" | "ready" | "failed"): void {
    this.el.setAttribute("aria-busy", String(state === "loading"));
    if (state === "loading" && this.loaded) return;
    const count = this.notices.length;
    const ready = state === "ready";
    if (ready) this.setCount(count);
    const list = this.part<HTMLUListElement>(".notifications-list");
    this.part(".notifications-loading").hidden = state !== "loading";
    this.part(".notifications-error").hidden = state !== "failed";
    list.hidden = !ready || count === 0;
    this.part(".empty").hidden = !ready || count > 0;
    this.part(".notifications-actions").hidden = !ready || count === 0;
    if (!ready) return;
    // A reload while the user tabs through the list keeps their place.
    const focused = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>("[data-notification-id]");
    const keep = focused && list.contains(focused) ? focused.dataset.notificationId : undefined;
    list.replaceChildren(...this.notices.map((n) => this.item(n)));
    if (keep !== undefined) {
      const again = list.querySelector<HTMLElement>(`[data-notification-id="${keep}"]`);
      (again ?? this.part("summary")).focus();
    }
  }

  private setCount(count: number): void {
    const before = Number(this.el.dataset.unread);
    this.el.dataset.unread = String(count);
    const badge = this.part(".badge");
    badge.hidden = count === 0;
    badge.textContent = count > 99 ? "99+" : String(count);
    const summary = this.part("summary");
    const label = (summary.dataset.label ?? "{count}").replace("{count}", String(count));
    summary.setAttribute("aria-label", label);
    // More than before: screen readers say the new count.
    const news = document.querySelector<HTMLElement>("[data-notifications-news]");
    if (news && count > before) news.textContent = label;
  }

  private item(n: Notice): HTMLLIElement {
    const li = document.createElement("li");
    const route = safeRoute(n.route);
    const target = document.createElement(route ? "a" : "button");
    if (target instanceof HTMLAnchorElement) target.href = route ?? "";
    else target.type = "button";
    target.className = "notification";
    target.dataset.notificationId = String(n.notificationId);
    const label = document.createElement("strong");
    label.textContent = n.label;
    const message = document.createElement("span");
    message.className = "message";
    message.textContent = n.message;
    target.append(label, message);
    const when = Date.parse(n.createdAt);
    if (!Number.isNaN(when)) {
      const time = document.createElement("time");
      time.dateTime = n.createdAt;
      time.className = "muted";
      time.textContent = formatTime(when);
      target.append(time);
    }
    li.append(target);
    return li;
  }

  // open marks the clicked notification read, then opens its route (a
  // click with a modifier key is left to the browser: a new tab).
  private async open(e: MouseEvent): Promise<void> {
    const target = (e.target as Element).closest<HTMLElement>("[data-notification-id]");
    if (!target || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || e.button !== 0) return;
    e.preventDefault();
    const id = Number(target.dataset.notificationId);
    const href = target instanceof HTMLAnchorElement ? target.getAttribute("href") : null;
    try {
      await api("PUT", `/api/notification/deactivate/${id}`);
    } catch {
      showToast(document.body.dataset.genericError ?? "Error", "error");
      return;
    }
    this.notices = this.notices.filter((n) => n.notificationId !== id);
    this.render("ready");
    if (href) window.location.assign(href);
    else this.part("summary").focus();
  }

  private async markAll(): Promise<void> {
    try {
      await api("PUT", `/api/notification/deactivate/all/${this.userId}`);
    } catch {
      showToast(document.body.dataset.genericError ?? "Error", "error");
      return;
    }
    this.notices = [];
    this.loaded = true;
    this.render("ready");
    // The button is gone: the focus goes back to the bell.
    this.part("summary").focus();
  }

  // connect opens the live feed of the user's own messages, and opens it
  // again after any loss (renewing the session first when it lapsed).
  private connect(renew: boolean): void {
    const open = async (): Promise<void> => {
      if (renew) await api("POST", "/api/users/refresh").catch(() => undefined);
      const scheme = location.protocol === "https:" ? "wss:" : "ws:";
      const socket = new WebSocket(`${scheme}//${location.host}/api/events?only=user`);
      this.socket = socket;
      let opened = false;
      socket.onopen = () => {
        opened = true;
        this.failures = 0;
        // Whatever changed while the feed was away.
        if (this.loaded) void this.load();
      };
      socket.onmessage = (m: MessageEvent) => {
        if (typeof m.data !== "string") return;
        try {
          const msg: unknown = JSON.parse(m.data);
          if (isObject(msg) && msg.type === "Notification") void this.load();
        } catch {
          // not a message of ours
        }
      };
      socket.onclose = (e: CloseEvent) => {
        if (this.socket !== socket) return;
        this.socket = null;
        let delay = backoffMs(opened ? 0 : this.failures++);
        if (e.code === closeSessionExpired) delay = 0;
        // Over the connection caps: the 10-minute refresh still works.
        if (e.code === closeTooMany) delay = 60_000;
        window.setTimeout(() => this.connect(e.code === closeSessionExpired || !opened), delay);
      };
    };
    void open();
  }
}

function formatTime(ms: number): string {
  const timeZone = document.documentElement.dataset.timeZone || undefined;
  try {
    return new Intl.DateTimeFormat(document.documentElement.lang || "en", { dateStyle: "short", timeStyle: "short", timeZone }).format(ms);
  } catch {
    return new Date(ms).toLocaleString();
  }
}

// startBell runs the page's bell, if it has one.
export function startBell(): void {
  const el = document.querySelector<HTMLDetailsElement>("details[data-notifications]");
  const userId = Number(el?.dataset.userId);
  if (!el || !Number.isSafeInteger(userId) || userId <= 0) return;
  new Bell(el, userId).start();
}
