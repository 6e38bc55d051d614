// Language, theme and the SuperAdmin's company switcher: English and
// Swedish, light or dark, the stored choice first.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { frame, launchBrowser, newContext, openMenu, pageLang, setTheme, signIn, watchPage } from "./lib/browser.mjs";
import { t as msg } from "./lib/env.mjs";
import { signedInPath } from "./lib/pages.mjs";
import { startFieldhub } from "./lib/server.mjs";

let browser, server;

before(async () => {
  [server, browser] = await Promise.all([startFieldhub(), launchBrowser()]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function pageAs(t, role, opts) {
  const context = await newContext(browser, server, opts);
  t.after(() => context.close());
  if (role) await signIn(context, role.email ? role : server.accounts.byRole[role]);
  const page = await context.newPage();
  return { context, page, watch: watchPage(page) };
}

async function loginPageIn(page, lang) {
  await page.goto("/login");
  assert.equal(await pageLang(page), lang, "<html lang>");
  await page.getByRole("heading", { level: 1, name: msg(lang, "page.login.title") }).waitFor();
  assert.equal((await frame(page).mainMenu.locator('a[href="/login"]').textContent()).trim(), msg(lang, "menu.login"));
}

describe("language", () => {
  test("a visitor gets the browser's language", async (t) => {
    const sv = await pageAs(t, null, { locale: "sv-SE" });
    await loginPageIn(sv.page, "sv");
    const en = await pageAs(t, null, { locale: "en-US" });
    await loginPageIn(en.page, "en");
    const other = await pageAs(t, null, { locale: "de-DE" });
    await other.page.goto("/login");
    assert.ok(["en", "sv"].includes(await pageLang(other.page)), "a language the portal lacks falls back to one it has");
  });

  test("a stored choice wins over the browser's language", async (t) => {
    const { context, page } = await pageAs(t, null, { locale: "sv-SE" });
    await context.addCookies([{ name: "lang", value: "en", url: server.baseURL }]);
    await loginPageIn(page, "en");
  });

  test("a user switches language in the settings; it is kept for the next session", async (t) => {
    const user = server.accounts.companies[1].user; // only this test changes this user's settings
    if (!(await server.routeExists("/settings"))) return t.skip("/settings does not exist yet");
    const { page, watch } = await pageAs(t, user, { locale: "en-GB" });
    await page.goto("/settings");
    const from = await pageLang(page); // the company's country (SE) decides until the user chooses
    assert.equal(from, "sv", "a user of a Swedish company starts in Swedish");
    const to = "en";
    await page.getByLabel(msg(from, "page.settings.language")).selectOption(to);
    await page.getByRole("button", { name: msg(from, "page.settings.submit") }).click();
    await page.waitForFunction((l) => document.documentElement.lang === l, to);
    await page.getByRole("heading", { level: 1, name: msg(to, "page.settings.title") }).waitFor();
    assert.equal((await frame(page).mainMenu.locator('a[href="/settings"]').textContent()).trim(), msg(to, "menu.settings"));

    // Another browser with another language: the stored choice wins.
    const next = await pageAs(t, user, { locale: "sv-SE" });
    await next.page.goto("/settings");
    assert.equal(await pageLang(next.page), to);

    // And back, with the keyboard only: focus the select, choose with the arrow keys, submit with Enter.
    const select = page.getByLabel(msg(to, "page.settings.language"));
    await select.focus();
    await page.keyboard.press(from < to ? "ArrowUp" : "ArrowDown");
    assert.equal(await select.inputValue(), from, "the arrow key chooses the other language");
    await page.getByRole("button", { name: msg(to, "page.settings.submit") }).focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction((l) => document.documentElement.lang === l, from);
    watch.check();
  });
});

describe("theme", () => {
  test("a visitor switches to dark in the menu; the page and the next load stay dark", async (t) => {
    const { page, watch } = await pageAs(t, null);
    await page.goto("/login");
    const html = page.locator("html");
    assert.equal(await html.getAttribute("data-theme"), "light");
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await setTheme(page, true);
    assert.notEqual(await background(), light, "the page's colours change at once");
    await page.reload();
    assert.equal(await html.getAttribute("data-theme"), "dark", "the server draws the stored theme (no flash of light)");
    assert.equal(await frame(page).themeToggle.isChecked(), true, "the switch shows the theme");
    await setTheme(page, false);
    await page.reload();
    assert.equal(await html.getAttribute("data-theme"), "light");
    watch.check();
  });

  test("a user's theme is stored in their settings and follows them to another browser", async (t) => {
    const user = server.accounts.companies[1].admin; // only this test changes this user's theme
    const first = await pageAs(t, user);
    await first.page.goto(await signedInPath(server));
    await setTheme(first.page, true);
    const second = await pageAs(t, user);
    await second.page.goto(await signedInPath(server));
    assert.equal(await second.page.locator("html").getAttribute("data-theme"), "dark");
    // The switch works with the keyboard too: Space on the focused check box.
    await openMenu(second.page);
    const toggle = frame(second.page).themeToggle;
    await toggle.focus();
    const stored = second.page.waitForResponse((r) => new URL(r.url()).pathname === "/api/settings");
    await second.page.keyboard.press("Space");
    assert.ok((await stored).ok());
    await second.page.waitForFunction(() => document.documentElement.dataset.theme === "light");
    first.watch.check();
    second.watch.check();
  });
});

describe("company switcher", () => {
  test("a SuperAdmin switches company from the menu; the pages show the chosen one", async (t) => {
    const { page, watch } = await pageAs(t, "SuperAdmin");
    const [acme, globex] = server.accounts.companies;
    const onCompanyPage = await server.routeExists("/company");
    await page.goto(onCompanyPage ? "/company" : await signedInPath(server));
    await openMenu(page);
    const switcher = frame(page).companySwitcher;
    const options = await switcher.locator("option").evaluateAll((os) => os.map((o) => ({ value: o.value, text: o.textContent.trim() })));
    for (const c of [acme, globex]) {
      assert.ok(options.some((o) => o.value === String(c.id) && o.text === c.name), `the switcher offers ${c.name}`);
    }
    // The label names the control.
    assert.equal(await page.getByLabel(msg(await pageLang(page), "frame.company")).count(), 1);

    const before = await switcher.inputValue();
    const target = before === String(globex.id) ? acme : globex;
    const reloaded = page.waitForEvent("load");
    await switcher.selectOption(String(target.id));
    await reloaded;
    assert.equal(await frame(page).companySwitcher.inputValue(), String(target.id), "the choice holds after the reload");
    if (onCompanyPage) await page.getByRole("heading", { level: 1, name: target.name }).waitFor();

    // With the keyboard: focus the select and choose with an arrow key.
    await openMenu(page);
    const back = target === globex ? acme : globex;
    const index = options.findIndex((o) => o.value === String(back.id)) - options.findIndex((o) => o.value === String(target.id));
    await frame(page).companySwitcher.focus();
    const reloadedAgain = page.waitForEvent("load");
    await page.keyboard.press(index < 0 ? "ArrowUp" : "ArrowDown");
    await reloadedAgain;
    if (Math.abs(index) === 1) {
      assert.equal(await frame(page).companySwitcher.inputValue(), String(back.id));
      if (onCompanyPage) await page.getByRole("heading", { level: 1, name: back.name }).waitFor();
    }
    watch.check();
  });

  test("from a dashboard, switching company goes to /dashboard", async (t) => {
    if (!(await server.routeExists("/dashboard"))) return t.skip("/dashboard does not exist yet");
    const { page } = await pageAs(t, "SuperAdmin");
    await page.goto("/dashboard");
    await openMenu(page);
    const switcher = frame(page).companySwitcher;
    const current = await switcher.inputValue();
    const target = server.accounts.companies.find((c) => String(c.id) !== current);
    const arrived = page.waitForEvent("load");
    await switcher.selectOption(String(target.id));
    await arrived;
    await page.waitForURL("/dashboard");
  });
});
