// Playwright (playwright-core) driving Debian's Chromium: one browser per test
// file, a new context (fresh cookies) per test.
import assert from "node:assert/strict";
import { after, afterEach } from "node:test";
import { chromium } from "playwright-core";
import { chromiumArgs, chromiumPath, fullChromiumPath, t } from "./env.mjs";

/**
 * launchBrowser starts the tests' Chromium (env.mjs's chromiumPath, the
 * headless shell), or the full browser with full: what measures a page as
 * its users' browser draws it (perf.test.mjs, bench/*-browser) runs in the
 * browser its figures in docs/performance.md were taken with.
 */
export function launchBrowser({ full = false } = {}) {
  return chromium.launch({ executablePath: full ? fullChromiumPath : chromiumPath, args: chromiumArgs, headless: true });
}

// The portal's origin by context, for the posts signIn makes.
const origins = new WeakMap();

/**
 * newContext opens a fresh browser context on the server: no cookies, the
 * given browser language (Accept-Language) and preferred colour scheme.
 * Wide enough (1280 px) that the side menu, once open, sits beside the content.
 */
export async function newContext(browser, server, { locale = "en-GB", colorScheme = "light", viewport, ...rest } = {}) {
  const context = await browser.newContext({
    baseURL: server.baseURL,
    locale,
    colorScheme,
    viewport: viewport ?? { width: 1280, height: 800 },
    reducedMotion: "reduce",
    ...rest,
  });
  // Generous: run.mjs runs two files side by side on a machine that others
  // share, where a full-page screenshot of a long page or a navigation can
  // take many seconds. Every wait is for a condition, so a long limit only
  // costs time when the test fails anyway.
  context.setDefaultTimeout(30000);
  context.setDefaultNavigationTimeout(45000);
  origins.set(context, new URL(server.baseURL).origin);
  await watchContentSecurity(context, server);
  await context.addInitScript(recordSnackbar);
  // The test network has no tile server: the default tile address's
  // tiles (the gateway maps, on pages any walk reaches) are answered empty.
  await context.route("https://tile.openstreetmap.org/**", (route) => route.fulfill({ status: 204 }));
  return context;
}

/*
 * Content-Security-Policy violations. The portal's pages run under a strict
 * policy (kernel/web/headers.go); whatever a page does that the policy
 * refuses (an inline style or script, eval, a source it does not list) is a
 * bug, so every test fails that caused one. Each context newContext opens
 * listens for the securitypolicyviolation events of every document the
 * portal serves (in any frame) and reports them here. They fail the test:
 * through watchPage's check() (with the page's other problems, and never
 * allowed), else in the afterEach hook below, which fails the test that was
 * running when they happened; any still left when the file ends fail it.
 */
const violations = []; // {page, text, reported}
const watched = new Set(); // the open contexts

async function watchContentSecurity(context, server) {
  watched.add(context);
  context.on("close", () => watched.delete(context));
  const port = new URL(server.baseURL).port;
  await context.exposeBinding("__fieldhubCSPViolation", ({ page }, v) => {
    // Only the portal's own documents (any host name on its port): a framed
    // page of another site answers to its own policy.
    let ours = false;
    try {
      ours = new URL(v.documentURI).port === port;
    } catch {
      ours = false;
    }
    if (!ours) return;
    const where = v.sourceFile ? ` at ${v.sourceFile}:${v.lineNumber}:${v.columnNumber}` : "";
    const sample = v.sample ? ` (${v.sample})` : "";
    const text = `CSP violation on ${new URL(v.documentURI).pathname}: ${v.disposition} ${v.effectiveDirective} refused ${v.blockedURI || "inline"}${sample}${where}`;
    violations.push({ page, text, reported: false });
  });
  await context.addInitScript(() => {
    document.addEventListener(
      "securitypolicyviolation",
      (e) => {
        const report = window.__fieldhubCSPViolation;
        if (typeof report !== "function") return;
        void report({
          documentURI: e.documentURI,
          effectiveDirective: e.effectiveDirective,
          blockedURI: e.blockedURI,
          sample: e.sample,
          sourceFile: e.sourceFile,
          lineNumber: e.lineNumber,
          columnNumber: e.columnNumber,
          disposition: e.disposition,
        });
      },
      true,
    );
  });
}

/**
 * takeReported returns the violations that have arrived and were not yet
 * reported (of page, or of every page), and marks them reported.
 */
function takeReported(page) {
  const left = violations.filter((v) => !v.reported && (!page || v.page === page));
  for (const v of left) v.reported = true;
  return left.map((v) => v.text);
}

/**
 * takeViolations is takeReported after a round trip to each open page, so
 * that the reports the pages have sent arrive first.
 */
export async function takeViolations(page) {
  const pages = page ? [page] : [...watched].flatMap((c) => c.pages());
  await Promise.all(pages.filter((p) => !p.isClosed()).map((p) => p.evaluate(() => 0).catch(() => undefined)));
  return takeReported(page);
}

afterEach(async () => {
  const left = await takeViolations();
  if (left.length) throw new Error(`the pages broke their Content-Security-Policy:\n  ${left.join("\n  ")}`);
});

after(() => {
  const left = violations.filter((v) => !v.reported).map((v) => v.text);
  if (left.length) throw new Error(`the pages broke their Content-Security-Policy:\n  ${left.join("\n  ")}`);
});

/**
 * signIn logs account in through the login form's plain POST (no page
 * needed), so that the context's pages are signed in; the UI flow itself is
 * tested in auth.test.mjs.
 */
export async function signIn(context, account) {
  const res = await context.request.post("/login", {
    form: { email: account.email, password: account.password, next: "/" },
    // The portal takes a form post from its own origin only, as a browser names it.
    headers: { Origin: origins.get(context) },
    maxRedirects: 0,
  });
  if (res.status() !== 303) throw new Error(`sign in as ${account.email}: ${res.status()} ${await res.text()}`);
  const cookies = await context.cookies();
  if (!cookies.some((c) => c.httpOnly)) throw new Error(`sign in as ${account.email}: no session cookie`);
  // The "Logged in" message waits in a cookie for the next page; this
  // sign-in is no part of what the test looks at.
  await context.clearCookies({ name: "fieldhub_toast" });
}

/**
 * Collects what goes wrong in a page: uncaught script errors, console
 * errors, failed requests and answers of 400 and above (but the favicon,
 * which the portal does not have). Call check() at the end of a test, with
 * patterns of the problems the test expects.
 */
export function watchPage(page) {
  const problems = [];
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("console", (msg) => {
    // A failed load is reported below with its address, a
    // Content-Security-Policy violation by watchContentSecurity.
    const text = msg.text();
    if (msg.type() === "error" && !text.startsWith("Failed to load resource") && !/violates the following Content Security Policy directive/.test(text)) {
      problems.push(`console error: ${text}`);
    }
  });
  page.on("requestfailed", (req) => {
    const failure = req.failure()?.errorText ?? "";
    // A navigation that replaces the page aborts its pending requests.
    if (failure !== "net::ERR_ABORTED") problems.push(`request failed: ${req.method()} ${req.url()} ${failure}`);
  });
  page.on("response", (res) => {
    if (res.status() >= 400 && new URL(res.url()).pathname !== "/favicon.ico") {
      problems.push(`HTTP ${res.status()}: ${res.request().method()} ${new URL(res.url()).pathname}`);
    }
  });
  return {
    problems,
    /**
     * check throws when the page had problems but those allow matches.
     * Content-Security-Policy violations are never allowed.
     */
    check(allow = []) {
      const csp = takeReported(page);
      const left = [...problems.filter((p) => !allow.some((re) => re.test(p))), ...csp];
      if (left.length) throw new Error(`the page had problems:\n  ${left.join("\n  ")}`);
    },
  };
}

/**
 * The frame of every page (webapp/ui/layout.templ), found by structure, not
 * by text, since the page's language depends on the viewer.
 */
export function frame(page) {
  const sideMenu = page.locator("#side-menu");
  return {
    sideMenu,
    mainMenu: sideMenu.locator("nav").first(),
    menuToggle: page.locator("[data-menu-toggle]"),
    themeToggle: page.locator("[data-theme-toggle]"),
    companySwitcher: page.locator("select#company-switcher"),
    snackbar: page.locator("#snackbar"),
    logout: sideMenu.locator('form[action="/logout"] button'),
  };
}

/** pageLang is the language the page is drawn in (<html lang>). */
export function pageLang(page) {
  return page.evaluate(() => document.documentElement.lang);
}

/** tr returns a translator into the page's current language. */
export async function tr(page) {
  const lang = await pageLang(page);
  return (id) => t(lang, id);
}

/**
 * recordSnackbar runs in every document before its scripts (an init script
 * of newContext) and keeps each message the snackbar (#snackbar) shows in
 * window.__fieldhubSnackbar, as {text, read}. The snackbar shows a message
 * for 3 s and then clears it: on a busy machine a test can look only after
 * that, so readSnackbar reads this record instead of the snackbar itself.
 */
function recordSnackbar() {
  const shown = [];
  window.__fieldhubSnackbar = shown;
  new MutationObserver((records) => {
    // One entry per batch: page/toast.ts sets the text, then the class.
    const bar = records.map((r) => r.target).find((el) => el.id === "snackbar" || el.parentNode?.id === "snackbar");
    const el = bar?.id === "snackbar" ? bar : bar?.parentNode;
    const text = el?.classList.contains("visible") ? el.textContent.trim() : "";
    if (text) shown.push({ text, read: false });
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["class"] });
}

/**
 * readSnackbar returns the newest message the snackbar of this document has
 * shown since the last readSnackbar (marking it and older ones read), or ""
 * when it shows none within 15 s. Call it after the action or navigation, and
 * assert later, so one missing message does not hide what the rest of the test
 * would find. A message an earlier action showed and no test read counts too,
 * until the next one arrives.
 */
export async function readSnackbar(page) {
  try {
    await page.waitForFunction(() => (window.__fieldhubSnackbar ?? []).some((m) => !m.read), null, { timeout: 15000 });
  } catch {
    return "";
  }
  return page.evaluate(() => {
    const unread = window.__fieldhubSnackbar.filter((m) => !m.read);
    for (const m of unread) m.read = true;
    return unread[unread.length - 1].text;
  });
}

/** assertSnackbar checks a text read with readSnackbar against the wanted ones. */
export function assertSnackbar(got, want, what) {
  const texts = [want].flat();
  assert.ok(texts.includes(got), `snackbar ${what}: ${got ? `"${got}"` : "nothing"}, want "${texts.join('" or "')}"`);
}

/**
 * menuEntries lists the side menu's main entries as {href, text}: links by
 * their address, the logout form's button as "POST /logout".
 */
export async function menuEntries(page) {
  return frame(page).mainMenu.locator(":scope > ul > li").evaluateAll((items) =>
    items.map((li) => {
      const a = li.querySelector("a");
      if (a) return { href: a.getAttribute("href"), text: a.textContent.trim() };
      const form = li.querySelector("form");
      return { href: `${(form?.method || "").toUpperCase()} ${form?.getAttribute("action")}`, text: li.textContent.trim() };
    }),
  );
}

/** openMenu opens the side menu with its toggle (when it is not open already). */
export async function openMenu(page) {
  const toggle = frame(page).menuToggle.first();
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await page.waitForFunction(() => {
    const r = document.querySelector("#side-menu").getBoundingClientRect();
    return document.querySelector("[data-menu-toggle]").getAttribute("aria-expanded") === "true" && r.left >= 0 && r.width > 0;
  });
}

/**
 * focusFromTop moves the sequential focus starting point to the start of the
 * document, so that the next Tab goes to the first control, whatever was
 * (auto)focused. Blurring alone does not do it: Chromium then goes on from
 * the element that lost focus.
 */
export async function focusFromTop(page) {
  await page.evaluate(() => {
    const body = document.body;
    body.setAttribute("tabindex", "-1");
    body.focus();
    body.removeAttribute("tabindex");
  });
}

/** closeMenu closes the side menu with Escape (when it is open). */
export async function closeMenu(page) {
  const { menuToggle } = frame(page);
  if ((await menuToggle.first().getAttribute("aria-expanded")) !== "true") return;
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => document.querySelector("[data-menu-toggle]").getAttribute("aria-expanded") === "false");
}

/**
 * setTheme switches the page to the dark or light theme the way a user does,
 * with the dark-theme switch in the side menu, and waits until the page shows
 * it and (signed in) the choice is stored. It leaves the menu as it was.
 */
export async function setTheme(page, dark) {
  const want = dark ? "dark" : "light";
  if ((await page.locator("html").getAttribute("data-theme")) === want) return;
  const { menuToggle, themeToggle } = frame(page);
  const wasOpen = (await menuToggle.first().getAttribute("aria-expanded")) === "true";
  await openMenu(page);
  const signedIn = (await themeToggle.getAttribute("data-signed-in")) === "true";
  const stored = signedIn
    ? page.waitForResponse((r) => new URL(r.url()).pathname === "/api/settings" && r.request().method() === "POST")
    : null;
  await themeToggle.setChecked(dark);
  await page.waitForFunction((w) => document.documentElement.dataset.theme === w, want);
  if (stored) {
    const res = await stored;
    assert.ok(res.ok(), `storing the theme: POST /api/settings answered ${res.status()}`);
  }
  if (!wasOpen) await closeMenu(page);
}

/**
 * waitForIslands waits until every React island on the page has mounted and
 * drawn something, so that checks see the page as a user does. A deferred
 * island (the event hub) counts once the loader has armed it: until used it
 * is the server's markup.
 */
export async function waitForIslands(page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll("[data-island]")].every(
      (el) => (el.dataset.mounted === "true" || el.dataset.mounted === "deferred") && el.childElementCount > 0,
    ),
  );
}

/**
 * waitForSwapSettled waits until htmx has finished with content it swapped
 * in. htmx binds the new content's hx- attributes and moves the focus to its
 * [autofocus] field only when it settles, 20 ms after the swap: a test that
 * types into a swapped form before then can have its text land in the field
 * that takes the focus (a reset form once got "Passwords do not match" for two
 * equal passwords that way), or submit the form without htmx.
 */
export async function waitForSwapSettled(page) {
  await page.waitForFunction(() => document.querySelector(".htmx-request, .htmx-swapping, .htmx-added, .htmx-settling") === null);
}
