// The side menu of each role and the two guards of the pages: a visitor
// who is not signed in is sent to /login, a role that is not allowed to /.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { frame, launchBrowser, menuEntries, newContext, openMenu, pageLang, signIn, watchPage } from "./lib/browser.mjs";
import { catalog } from "./lib/env.mjs";
import { GUARDED_ROUTES, MENU, OPEN_ROUTES, ROLES, menuFor, signedInPath } from "./lib/pages.mjs";
import { licenseEnv } from "./lib/license.mjs";
import { startFieldhub } from "./lib/server.mjs";

let browser, server;
const exists = new Map(); // href -> whether the server has the page

before(async () => {
  [server, browser] = await Promise.all([startFieldhub(), launchBrowser()]);
  const paths = new Set([...MENU.map((e) => e.href), ...GUARDED_ROUTES.map((r) => r.path), ...OPEN_ROUTES]);
  for (const p of paths) exists.set(p, p.startsWith("POST ") || (await server.routeExists(p)));
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function pageAs(t, role) {
  const context = await newContext(browser, server);
  t.after(() => context.close());
  if (role) await signIn(context, server.accounts.byRole[role]);
  const page = await context.newPage();
  return { page, watch: watchPage(page) };
}

// The menu a role should see: its entries whose page exists on the server.
function expectedMenu(role) {
  return menuFor(role).filter((e) => exists.get(e.href));
}

async function checkMenu(page, role) {
  const got = await menuEntries(page);
  const want = expectedMenu(role);
  const missing = menuFor(role).filter((e) => !exists.get(e.href)).map((e) => e.href);
  assert.deepEqual(
    got.map((e) => e.href).sort(),
    want.map((e) => e.href).sort(),
    `menu of ${role ?? "a visitor"} (the entries of its role; not built yet: ${missing.join(", ") || "none"})`,
  );
  // Texts come from the catalog of the page's language (when it has the entry's message).
  const messages = catalog(await pageLang(page));
  for (const e of want) {
    const entry = got.find((g) => g.href === e.href);
    if (messages[e.label] !== undefined) assert.equal(entry.text, messages[e.label], `text of the menu entry ${e.href}`);
  }
  if (role) assert.equal(got.at(-1).href, "POST /logout", "Logout is the last entry");
  return got;
}

describe("side menu", () => {
  test("a visitor sees Home, News and Login (those that exist)", async (t) => {
    const { page, watch } = await pageAs(t, null);
    await page.goto("/login");
    await checkMenu(page, null);
    assert.equal(await frame(page).companySwitcher.count(), 0, "no company switcher for a visitor");
    watch.check();
  });

  for (const role of ROLES) {
    test(`${role} sees the side menu entries of its role`, async (t) => {
      const { page, watch } = await pageAs(t, role);
      await page.goto(await signedInPath(server));
      await checkMenu(page, role);
      const switcher = frame(page).companySwitcher;
      assert.equal(await switcher.count(), role === "SuperAdmin" ? 1 : 0, "only a SuperAdmin has the company switcher");
      // Every entry leads somewhere that works for this role (no error page, no bounce to /).
      await openMenu(page);
      for (const e of expectedMenu(role).filter((e) => !e.href.startsWith("POST "))) {
        const res = await page.request.get(e.href, { maxRedirects: 0 });
        assert.ok(res.status() === 200, `${role}: GET ${e.href} from the menu answers ${res.status()}, want 200`);
      }
      watch.check();
    });
  }

  test("the current page's entry is marked aria-current", async (t) => {
    const { page } = await pageAs(t, null);
    await page.goto("/login");
    const current = frame(page).mainMenu.locator('a[aria-current="page"]');
    assert.equal(await current.count(), 1);
    assert.equal(await current.getAttribute("href"), "/login");
  });

  test("the menu toggle opens and closes the menu, with the mouse and the keyboard", async (t) => {
    const { page, watch } = await pageAs(t, "User");
    await page.goto(await signedInPath(server));
    const f = frame(page);
    const onScreen = () => f.sideMenu.evaluate((el) => el.getBoundingClientRect().right > 0);
    assert.equal(await f.menuToggle.getAttribute("aria-expanded"), "false");
    assert.equal(await onScreen(), false, "the menu starts closed");

    await f.menuToggle.click();
    await page.waitForFunction(() => document.querySelector("#side-menu").getBoundingClientRect().left >= 0);
    assert.equal(await f.menuToggle.getAttribute("aria-expanded"), "true");
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => document.querySelector("#side-menu").getBoundingClientRect().right <= 0);
    assert.equal(await f.menuToggle.getAttribute("aria-expanded"), "false", "Escape closes the menu");

    // Keyboard: focus the toggle, open it with Enter, reach a menu link and follow it.
    await f.menuToggle.focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector("[data-menu-toggle]").getAttribute("aria-expanded") === "true");
    const inMenu = () => page.evaluate(() => !!document.activeElement?.closest("#side-menu"));
    let steps = 0;
    while (!(await inMenu())) {
      assert.ok(++steps <= 40, "the open menu's controls can be reached with Tab or Shift+Tab from the toggle");
      await page.keyboard.press("Shift+Tab");
    }
    const box = await page.evaluate(() => {
      const r = document.activeElement.getBoundingClientRect();
      return { left: r.left, right: r.right };
    });
    assert.ok(box.left >= 0, "the focused menu control is on screen");
    // Space on the toggle closes it again.
    await f.menuToggle.focus();
    await page.keyboard.press("Space");
    await page.waitForFunction(() => document.querySelector("[data-menu-toggle]").getAttribute("aria-expanded") === "false");
    watch.check();
  });
});

test("Escape in the open menu closes it and gives the focus back to the toggle", async (t) => {
  const { page } = await pageAs(t, "User");
  await page.goto(await signedInPath(server));
  await openMenu(page);
  await frame(page).mainMenu.locator("a").first().focus();
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => document.querySelector("[data-menu-toggle]").getAttribute("aria-expanded") === "false");
  // The focus may move a frame later; wait for it, then say where it went.
  await page.waitForFunction(() => document.activeElement?.hasAttribute("data-menu-toggle"), null, { timeout: 2000 }).catch(() => {});
  const focused = await page.evaluate(() => {
    const el = document.activeElement;
    return el === document.body ? "nothing (body)" : `<${el.tagName.toLowerCase()}${el.hasAttribute("data-menu-toggle") ? " data-menu-toggle" : ""}> ${el.textContent.trim().slice(0, 30)}`;
  });
  assert.match(focused, /data-menu-toggle/, `after Escape the focus is on ${focused}, not on the menu toggle`);
});

describe("guards", () => {
  test("a visitor opening a guarded page is sent to /login?next=<the page>", async (t) => {
    const routes = GUARDED_ROUTES.filter((r) => exists.get(r.path));
    if (routes.length === 0) return t.skip("no guarded page exists yet");
    const { page } = await pageAs(t, null);
    for (const r of routes) {
      await page.goto(r.path);
      await page.waitForURL(`/login?next=${encodeURIComponent(r.path)}`);
    }
  });

  test("open pages open for a visitor and for every role", async (t) => {
    const routes = OPEN_ROUTES.filter((p) => exists.get(p) && p !== "/login"); // /login sends a signed-in user on
    for (const role of [null, ...ROLES]) {
      const { page, watch } = await pageAs(t, role);
      for (const p of routes) {
        const res = await page.goto(p);
        assert.equal(res.status(), 200, `${role ?? "a visitor"}: GET ${p}`);
        assert.equal(new URL(page.url()).pathname, p, `${role ?? "a visitor"} stays on ${p}`);
      }
      watch.check();
    }
  });

  for (const role of ROLES) {
    test(`${role}: allowed pages open, the others send to /`, async (t) => {
      const routes = GUARDED_ROUTES.filter((r) => exists.get(r.path));
      if (routes.length === 0) return t.skip("no guarded page exists yet");
      const { page, watch } = await pageAs(t, role);
      for (const r of routes) {
        const res = await page.goto(r.path);
        if (r.roles.includes(role)) {
          assert.equal(new URL(page.url()).pathname, r.path, `${role} may open ${r.path}`);
          assert.equal(res.status(), 200, `${role}: GET ${r.path} answers ${res.status()}`);
        } else {
          await page.waitForURL("/", { timeout: 5000 }).catch(() => {
            throw new Error(`${role} may not open ${r.path} but was not sent to / (at ${page.url()})`);
          });
        }
      }
      watch.check();
    });
  }

  test("the guard also stands in front of page actions: the company switch", async (t) => {
    // POST /company/switch is SuperAdmin only (webapp/ui/layout.templ's switcher).
    // The posts name the portal as their origin, as the page's form does.
    const headers = { Origin: server.baseURL };
    const visitor = await pageAs(t, null);
    let res = await visitor.page.request.post("/company/switch", { form: { companyId: "1" }, headers, maxRedirects: 0 });
    assert.equal(res.status(), 303);
    assert.match(res.headers().location, /^\/login\?next=/);
    const user = await pageAs(t, "CompanyAdmin");
    res = await user.page.request.post("/company/switch", { form: { companyId: String(server.accounts.companies[1].id) }, headers, maxRedirects: 0 });
    assert.equal(res.status(), 303);
    assert.equal(res.headers().location, "/");
  });
});

describe("white label", () => {
  test("a white-label installation hides Contact and shows the company's name as the brand", async (t) => {
    const wl = await startFieldhub({ env: licenseEnv({ whiteLabel: true }) });
    t.after(() => wl.stop());
    const context = await newContext(browser, wl);
    t.after(() => context.close());
    const user = wl.accounts.byRole.User;
    await signIn(context, user);
    const page = await context.newPage();
    await page.goto(await signedInPath(wl));
    const hrefs = (await menuEntries(page)).map((e) => e.href);
    assert.ok(!hrefs.includes("/contact"), `no Contact entry in white-label mode (menu: ${hrefs.join(", ")})`);
    assert.ok(hrefs.includes("POST /logout"));
    const company = wl.accounts.companies.find((c) => c.id === user.companyId);
    assert.equal((await frame(page).sideMenu.locator(".brand").textContent()).trim(), company.name);
  });
});
