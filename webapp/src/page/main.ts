// The script of every server page: htmx, the snackbar, the menu toggle and
// the dark-theme switch. It stays small; interactive widgets are islands.
import htmx from "htmx.org";
import "@/styles/app.css";
import { showToast, takeToastCookie } from "@/page/toast";
import { setDark } from "@/page/theme";

declare global {
  interface Window {
    htmx: typeof htmx;
  }
}
window.htmx = htmx;

// The pages' Content-Security-Policy refuses inline styles, inline scripts
// and eval: htmx's indicator style is in app.css instead of a <style> it
// would inject, and no page uses hx-on, js: values or trigger filters, which
// htmx evaluates. htmx reads its configuration when the page has loaded,
// after this module has run.
htmx.config.includeIndicatorStyles = false;
htmx.config.allowEval = false;
htmx.config.allowScriptTags = false;

// A form refused for its fields comes back as 200 with its messages
// (ui.FormStatus): a 4xx would have the browser log "Failed to load
// resource" for what is only a field to correct. 400, 409 and 422 are still
// swapped for a fragment of another kind; other errors leave the page as it
// is and show their message (an HX-Trigger toast, else the generic one).
htmx.config.responseHandling = [
  { code: "204", swap: false },
  { code: "[23]..", swap: true },
  { code: "(400|409|422)", swap: true, error: false },
  { code: "[45]..", swap: false, error: true },
];

document.addEventListener("fieldhub:toast", (e) => {
  const detail = (e as CustomEvent<{ level: string; text: string }>).detail;
  takeToastCookie(); // shown here, so not again on the next page
  showToast(detail.text, detail.level === "error" ? "error" : "success");
});

document.addEventListener("htmx:responseError", (e) => {
  const xhr = (e as CustomEvent<{ xhr: XMLHttpRequest }>).detail.xhr;
  if (!xhr.getResponseHeader("HX-Trigger")) {
    showToast(document.body.dataset.genericError ?? "Error", "error");
  }
});

document.addEventListener("htmx:sendError", () => {
  showToast(document.body.dataset.noConnection ?? "No connection", "error");
});

function toggleMenu(open?: boolean): void {
  const shell = document.querySelector<HTMLElement>(".shell");
  if (!shell) return;
  const next = open ?? !shell.classList.contains("menu-open");
  shell.classList.toggle("menu-open", next);
  const toggle = document.querySelector<HTMLElement>("[data-menu-toggle]");
  toggle?.setAttribute("aria-expanded", String(next));
  const menu = document.getElementById("side-menu");
  if (next) {
    // The menu comes before the toggle in the page: take the focus into it.
    menu?.querySelector<HTMLElement>("a, button, input, select")?.focus();
  } else if (menu?.contains(document.activeElement)) {
    toggle?.focus();
  }
}

// closeNotifications closes the bell's list, if open, giving the focus back
// to the bell when it was inside.
function closeNotifications(): void {
  const open = document.querySelector<HTMLDetailsElement>("details.notifications[open]");
  if (!open) return;
  const inside = open.contains(document.activeElement);
  open.open = false;
  if (inside) open.querySelector<HTMLElement>("summary")?.focus();
}

document.addEventListener("click", (e) => {
  const target = e.target as Element;
  if (!target.closest("details.notifications")) closeNotifications();
  if (target.closest("[data-menu-toggle]")) toggleMenu();
  else if (target.closest("[data-menu-scrim]")) toggleMenu(false);
});

document.addEventListener("keydown", (e) => {
  if (e.key !== "Escape") return;
  if (document.querySelector("details.notifications[open]")) closeNotifications();
  else toggleMenu(false);
});

document.addEventListener("change", (e) => {
  const target = e.target as HTMLInputElement;
  if (target.matches("[data-theme-toggle]")) void setDark(target.checked, target.dataset.signedIn === "true");
});

// Copy buttons (data-copy names the input whose value they copy) need the
// clipboard, so they stay hidden until this script shows them.
function showCopyButtons(root: ParentNode): void {
  root.querySelectorAll<HTMLButtonElement>("button[data-copy][hidden]").forEach((b) => (b.hidden = false));
}
showCopyButtons(document);
document.addEventListener("htmx:afterSettle", (e) => showCopyButtons(e.target as ParentNode));
document.addEventListener("click", (e) => {
  const button = (e.target as Element).closest<HTMLButtonElement>("button[data-copy]");
  if (!button) return;
  const input = document.getElementById(button.dataset.copy ?? "") as HTMLInputElement | null;
  const done = () => showToast(button.dataset.copied ?? "", "success");
  const failed = () => {
    input?.select();
    showToast(button.dataset.copyFailed ?? "", "error");
  };
  if (!input || !navigator.clipboard) return failed();
  navigator.clipboard.writeText(input.value).then(done, failed);
});

// The bell of a signed-in page: its code (and the API client it uses) is
// fetched only by pages that have one, so a visitor's pages load this file
// alone.
if (document.querySelector("details[data-notifications]")) {
  void import("@/page/notifications").then((m) => m.startBell());
}

const pending = takeToastCookie();
if (pending) showToast(pending.text, pending.level === "error" ? "error" : "success");
