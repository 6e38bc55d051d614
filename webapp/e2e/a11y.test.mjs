// Every main page (lib/pages.mjs PAGES), in the light and the dark theme:
// an axe-core check with no serious or critical violation, a screenshot in
// webapp/e2e/artifacts/, and a keyboard walk: Tab reaches every control on
// screen, never lands on one that is hidden or off screen, and shows where
// the focus is.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { checkA11y } from "./lib/axe.mjs";
import { closeMenu, focusFromTop, launchBrowser, newContext, openMenu, setTheme, signIn, waitForIslands, watchPage } from "./lib/browser.mjs";
import { artifactPath } from "./lib/env.mjs";
import { startMailbox } from "./lib/mailbox.mjs";
import { PAGES } from "./lib/pages.mjs";
import { startFieldhub } from "./lib/server.mjs";

let browser, server, mailbox;
// checked are the paths whose axe-core check and keyboard walk ran: the
// walks below check each page once, not again for every role that reaches it.
const checked = new Set();

before(async () => {
  mailbox = await startMailbox(); // the reset page needs a mailed link
  [server, browser] = await Promise.all([startFieldhub({ mailbox }), launchBrowser()]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await mailbox?.close();
});

for (const spec of PAGES) {
  test(`${spec.name}: axe-core, keyboard and screenshots, light and dark`, async (t) => {
    const path = typeof spec.path === "function" ? await spec.path(server) : spec.path;
    // A page whose answer is a 404 on purpose (an invalid reset link) exists.
    if (spec.status !== 404 && !(await server.routeExists(path))) return t.skip(`${path} does not exist yet`);
    const context = await newContext(browser, server);
    t.after(() => context.close());
    if (spec.as) await signIn(context, server.accounts.byRole[spec.as]);
    const page = await context.newPage();
    const watch = watchPage(page);
    const res = await page.goto(path);
    assert.equal(res.status(), spec.status ?? 200, `GET ${path} as ${spec.as ?? "a visitor"}`);
    assert.equal(new URL(page.url()).pathname, path, `${spec.as ?? "a visitor"} stays on ${path}`);
    await waitForIslands(page);

    const failures = [];
    const attempt = async (what, fn) => {
      try {
        await fn();
      } catch (err) {
        failures.push(`${what}: ${err.message}`);
      }
    };
    for (const theme of ["light", "dark"]) {
      await setTheme(page, theme === "dark");
      await attempt(`axe, ${theme}`, async () => {
        const { other } = await checkA11y(page, `${spec.name} (${theme})`);
        for (const v of other) t.diagnostic(`axe ${v.impact} (${theme}): ${v.id} – ${v.help} (${v.nodes.length} node(s))`);
      });
      await page.screenshot({ path: artifactPath(`${spec.name}-${theme}.png`), fullPage: true, animations: "disabled" });
      if (spec.menuOpen) {
        await openMenu(page);
        await attempt(`axe with the menu open, ${theme}`, () => checkA11y(page, `${spec.name} with the menu open (${theme})`));
        await page.screenshot({ path: artifactPath(`${spec.name}-menu-${theme}.png`), animations: "disabled" });
        await closeMenu(page);
      }
      await attempt(`keyboard, ${theme}`, () => keyboardWalk(page));
    }
    await setTheme(page, false); // leave a signed-in user's stored theme as it was
    checked.add(path);
    await attempt("page", () => watch.check(spec.status ? [new RegExp(`^HTTP ${spec.status}: GET ${path}$`)] : []));
    if (failures.length) assert.fail(`${spec.name} (${path}):\n${failures.join("\n")}`);
  });
}

// Pages not in PAGES are covered too: per role, every page reachable from
// the side menu and from the links of those pages (three clicks deep) gets the
// axe-core check and the keyboard walk, so a page that lands is checked
// before anyone adds it to PAGES. A page is checked once: a path that PAGES
// or an earlier role's walk checked is only visited for its links. A higher
// role's view of a page adds controls (edit, delete) to a lower one's rather
// than being another page, so the roles walk from the most rights to the
// fewest, and checking every role's view again (the three company roles
// reached the same 38 pages) doubled the file's time without finding more.
for (const role of ["SuperAdmin", "Admin", "CompanyAdmin", "User", null]) {
  test(`every page ${role ?? "a visitor"} can reach from the menu passes axe-core and the keyboard walk`, async (t) => {
    const context = await newContext(browser, server);
    t.after(() => context.close());
    if (role) await signIn(context, server.accounts.byRole[role]);
    const page = await context.newPage();
    const watch = watchPage(page);
    const start = role ? "/settings" : "/login";
    const queue = [{ path: (await server.routeExists(start)) ? start : "/forgot", depth: 0 }];
    const seen = new Set(queue.map((q) => q.path));
    const failures = [];
    const own = []; // the pages this walk checked
    let visited = 0;
    while (queue.length && visited < 40) {
      const { path, depth } = queue.shift();
      const res = await page.goto(path);
      visited++;
      if (res.status() !== 200 || new URL(page.url()).pathname !== new URL(path, server.baseURL).pathname) {
        failures.push(`${path}: answered ${res.status()} at ${page.url()}`);
        continue;
      }
      await waitForIslands(page);
      if (!checked.has(path)) {
        checked.add(path);
        own.push(path);
        try {
          await checkA11y(page, path);
          await keyboardWalk(page);
        } catch (err) {
          failures.push(`${path}: ${err.message}`);
        }
      }
      if (depth >= 3) continue;
      const links = await page.evaluate(() =>
        [...document.querySelectorAll("#side-menu nav:first-of-type a[href], main a[href]")]
          // A download link (a node's CSV export) leads to a file, not a page.
          .filter((a) => a.origin === location.origin && a.target !== "_blank" && !a.hasAttribute("download"))
          .map((a) => a.pathname),
      );
      for (const l of links) {
        // /logout is a form's target (POST only); /api and /assets are no pages.
        if (seen.has(l) || l === "/logout" || l.startsWith("/api") || l.startsWith("/assets/")) continue;
        seen.add(l);
        queue.push({ path: l, depth: depth + 1 });
      }
    }
    t.diagnostic(`${role ?? "visitor"}: visited ${visited} page(s): ${[...seen].slice(0, visited).join(" ")}`);
    t.diagnostic(`${role ?? "visitor"}: checked ${own.length} of them (the others were checked before): ${own.join(" ")}`);
    try {
      watch.check();
    } catch (err) {
      failures.push(err.message);
    }
    if (failures.length) assert.fail(failures.join("\n"));
  });
}

/**
 * keyboardWalk tabs through the page from the top and checks that every
 * control a sighted user can see is reached, that the focus never goes to
 * one that cannot be seen (a closed menu's links, say), and that the focused
 * control shows a focus indicator.
 */
async function keyboardWalk(page) {
  const expected = await page.evaluate(() => {
    const candidates = document.querySelectorAll(
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex], [contenteditable="true"]',
    );
    const radios = new Set();
    const out = [];
    candidates.forEach((el, i) => {
      el.dataset.e2eKey = String(i);
      if (el.matches('[tabindex^="-"], :disabled') || el.closest("[inert]")) return;
      // The content of a closed <details> is not seen (Chromium still lays
      // it out for getBoundingClientRect); its summary is.
      for (let d = el.closest("details:not([open])"); d; d = d.parentElement?.closest("details:not([open])")) {
        if (!(el.tagName === "SUMMARY" && el.parentElement === d)) return;
      }
      if (el.type === "radio") {
        if (radios.has(el.name)) return;
        radios.add(el.name);
      }
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (r.width === 0 || r.height === 0 || style.visibility === "hidden") return;
      // Left of the page or translated away: not seen, so not expected
      // (the skip link, which shows itself on focus, is the one exception).
      if (r.right + scrollX <= 0 && !el.classList.contains("skip-link")) return;
      out.push({ key: String(i), desc: describe(el) });
    });
    return out;
    function describe(el) {
      const name = el.getAttribute("aria-label") || el.textContent.trim().replace(/\s+/g, " ").slice(0, 40) || el.getAttribute("name") || "";
      return `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}> "${name}"`;
    }
  });

  await focusFromTop(page);
  const reached = new Set();
  let last = null;
  const unseen = [];
  const noIndicator = [];
  for (let i = 0; i < expected.length * 2 + 10; i++) {
    await page.keyboard.press("Tab");
    const now = await page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      const r = el.getBoundingClientRect();
      const onScreen = r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < innerHeight;
      // A visible focus indicator: an outline or a box shadow on the control or its parent.
      const shows = (e) => {
        const s = getComputedStyle(e);
        return (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== "none";
      };
      const name = el.getAttribute("aria-label") || el.textContent.trim().replace(/\s+/g, " ").slice(0, 40) || el.getAttribute("name") || "";
      return {
        key: el.dataset.e2eKey ?? null,
        desc: `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}> "${name}"`,
        onScreen,
        indicator: shows(el) || (el.parentElement ? shows(el.parentElement) : false),
      };
    });
    // A date or time input takes a Tab for each of its parts (day, month,
    // hour...): the focus stays on it, which is not the walk coming round.
    if (now && last && (now.key ?? now.desc) === last) continue;
    if (!now || reached.has(now.key ?? now.desc)) break;
    reached.add(now.key ?? now.desc);
    last = now.key ?? now.desc;
    if (!now.onScreen) unseen.push(now.desc);
    else if (!now.indicator) noIndicator.push(now.desc);
  }
  const missed = expected.filter((e) => !reached.has(e.key)).map((e) => e.desc);
  const problems = [];
  if (unseen.length) problems.push(`Tab moves the focus to controls that cannot be seen: ${unseen.join(", ")}`);
  if (missed.length) problems.push(`Tab never reaches: ${missed.join(", ")}`);
  if (noIndicator.length) problems.push(`no visible focus indicator on: ${noIndicator.join(", ")}`);
  if (problems.length) throw new Error(problems.join("\n  "));
}
