// Words and layout: the catalogs follow the glossary (webapp/locales/
// glossary.md) and the Swedish pages show its terms; the notifications list
// leaves the top bar and its bell in view; a new dashboard opens in edit
// mode with its Add button in view; /decoders without decoders has one "New
// decoder"; the node list has no sideways scroll at 390 px; a refused form
// leaves no "Failed to load resource" in the console.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { frame, launchBrowser, newContext, pageLang, readSnackbar, assertSnackbar, signIn, waitForIslands, waitForSwapSettled, watchPage } from "./lib/browser.mjs";
import { artifactPath, t as msg } from "./lib/env.mjs";
import { glossary, glossaryViolations } from "./lib/glossary.mjs";
import { startFieldhub } from "./lib/server.mjs";

let browser, server;

before(async () => {
  [server, browser] = await Promise.all([startFieldhub(), launchBrowser()]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// pageAs opens a page signed in as account; consoleErrors collects the
// console's error lines, which watchPage leaves to the response checks.
async function pageAs(t, account, options) {
  const context = await newContext(browser, server, options);
  t.after(() => context.close());
  await signIn(context, account);
  const page = await context.newPage();
  const consoleErrors = [];
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(m.text());
  });
  return { page, watch: watchPage(page), consoleErrors };
}

// The Swedish term of a concept of the glossary.
const swedish = (concept) => glossary().find((g) => g.en.includes(concept)).sv[0];

describe("glossary", () => {
  test("every catalog message that names a concept uses the glossary's term", () => {
    const terms = glossary();
    assert.ok(terms.length >= 10, `the glossary has ${terms.length} concepts`);
    for (const term of terms) assert.ok(term.en.length > 0 && term.sv.length > 0, `${term.concept}: an English and a Swedish term`);
    assert.equal(swedish("dashboard"), "instrumentpanel");
    assert.deepEqual(glossaryViolations(terms), []);
  });

  test("the Swedish menu and dashboard pages say the glossary's term", async (t) => {
    const { page, watch } = await pageAs(t, server.accounts.byRole.CompanyAdmin);
    await page.goto("/dashboard");
    assert.equal(await pageLang(page), "sv", "a user of a Swedish company sees Swedish");
    const term = swedish("dashboard");
    const entry = (await frame(page).mainMenu.locator('a[href="/dashboard"]').textContent()).trim();
    assert.equal(entry, msg("sv", "dashboards.menu"));
    assert.match(entry, new RegExp(term, "i"), "the menu entry");
    const heading = (await page.getByRole("heading", { level: 1 }).textContent()).trim();
    assert.match(heading, new RegExp(term, "i"), "the chooser's heading");
    await waitForIslands(page);
    const words = await page.locator("body").innerText();
    assert.doesNotMatch(words, /dashboard/i, "no English 'dashboard' on the Swedish page");
    assert.match(await page.getByRole("banner").getByRole("button", { name: msg("sv", "tree.open"), exact: true }).getAttribute("aria-label"), new RegExp(term, "i"));

    // The raw decoder's name, on the decoder page and in the node form.
    await page.goto("/decoders");
    const builtins = (await page.locator(".decoder-builtins").textContent()).replace(/\s+/g, " ");
    assert.match(builtins, /raw Rå nyttolast \(hex\)/);
    assert.doesNotMatch(builtins, /Raw payload/);
    watch.check();
  });
});

describe("layout", () => {
  for (const width of [1280, 390]) {
    test(`the notifications list leaves the top bar and the bell in view (${width} px)`, async (t) => {
      const { page, watch } = await pageAs(t, server.accounts.byRole.User, { viewport: { width, height: 800 } });
      await page.goto("/company");
      const bell = page.locator("details.notifications > summary");
      await bell.click();
      const panel = page.locator(".notifications-panel");
      await panel.waitFor();
      const [b, p, bar] = await Promise.all([bell.boundingBox(), panel.boundingBox(), page.locator("header.topbar").boundingBox()]);
      const overlap = b.x < p.x + p.width && p.x < b.x + b.width && b.y < p.y + p.height && p.y < b.y + b.height;
      assert.equal(overlap, false, `the bell ${JSON.stringify(b)} and the list ${JSON.stringify(p)} overlap`);
      assert.ok(p.y >= bar.y + bar.height - 1, `the list starts below the top bar (${p.y} < ${bar.y + bar.height})`);
      assert.ok(p.x >= 0 && p.x + p.width <= width, `the list is inside the window: ${p.x}..${p.x + p.width}`);
      assert.equal((await panel.innerText()).trim(), msg(await pageLang(page), "notifications.empty"));
      await page.screenshot({ path: artifactPath(`notifications-${width}.png`) });
      await bell.click();
      await panel.waitFor({ state: "hidden" });
      // Escape and a click elsewhere close it too; Escape gives the focus back to the bell.
      await bell.click();
      await panel.waitFor();
      await page.keyboard.press("Escape");
      await panel.waitFor({ state: "hidden" });
      assert.equal(await bell.evaluate((el) => el === document.activeElement), true, "the focus is on the bell");
      await bell.click();
      await panel.waitFor();
      await page.getByRole("main").click({ position: { x: 5, y: 300 } });
      await panel.waitFor({ state: "hidden" });
      watch.check();
    });
  }

  test("a new dashboard opens in edit mode with the Add button in view", async (t) => {
    const { page, watch } = await pageAs(t, server.accounts.byRole.CompanyAdmin);
    await page.goto("/dashboard");
    const lang = await pageLang(page);
    const m = (id) => msg(lang, id);
    await page.getByRole("main").getByRole("button", { name: m("tree.empty.create") }).click();
    const dialog = page.getByRole("dialog", { name: m("tree.dashboard.new") });
    await dialog.getByLabel(m("tree.dashboard.name")).fill("Boiler room");
    await dialog.getByRole("button", { name: m("tree.dialog.create") }).click();
    await page.waitForURL(/\/dashboard\/\d+$/);
    assertSnackbar(await readSnackbar(page), m("tree.dashboard.created"), "on the new dashboard");
    await waitForIslands(page);
    const edit = page.getByRole("switch", { name: m("dashboards.board.editMode") });
    assert.equal(await edit.isChecked(), true, "the new dashboard is in edit mode");
    const add = page.locator(".fh-dash__tools").getByRole("button", { name: m("dashboards.board.add") });
    const box = await add.boundingBox();
    const view = page.viewportSize();
    assert.ok(box && box.y >= 0 && box.y + box.height <= view.height && box.x + box.width <= view.width, `the Add button is in view: ${JSON.stringify(box)}`);
    await page.screenshot({ path: artifactPath("dashboard-new.png") });
    await add.click();
    await page.getByRole("dialog", { name: m("dashboards.edit.addTitle") }).waitFor();
    await page.keyboard.press("Escape");

    // Reloaded, it is seen as it is; the empty state offers Add itself.
    await page.reload();
    await waitForIslands(page);
    assert.equal(await page.getByRole("switch", { name: m("dashboards.board.editMode") }).isChecked(), false, "a reload leaves edit mode");
    await page.locator(".fh-dash-state").getByRole("button", { name: m("dashboards.board.add") }).click();
    await page.getByRole("dialog", { name: m("dashboards.edit.addTitle") }).waitFor();
    watch.check();
  });

  test("/decoders without decoders has one New decoder button", async (t) => {
    const { page, watch } = await pageAs(t, server.accounts.byRole.CompanyAdmin);
    await page.goto("/decoders");
    const lang = await pageLang(page);
    const buttons = page.getByRole("main").getByRole("link", { name: msg(lang, "decoders.page.new") });
    await buttons.first().waitFor();
    assert.equal(await buttons.count(), 1);
    watch.check();
  });

  test("the SuperAdmin's New company button sits with the other action at the head's end", async (t) => {
    const { page, watch } = await pageAs(t, server.accounts.superAdmin);
    await page.goto("/superadmin");
    const lang = await pageLang(page);
    const head = page.locator(".page-head").first();
    const [h, add, settings] = await Promise.all([
      head.boundingBox(),
      head.getByRole("link", { name: msg(lang, "page.superadmin.new") }).boundingBox(),
      head.getByRole("link", { name: msg(lang, "page.globalSettings.link") }).boundingBox(),
    ]);
    assert.ok(Math.abs(settings.x + settings.width - (h.x + h.width)) < 2, "the settings link ends the head");
    assert.ok(settings.x - (add.x + add.width) < 24, `New company sits beside it, not mid-header (gap ${settings.x - (add.x + add.width)} px)`);
    watch.check();
  });

  test("at 390 px the node list stacks its rows and does not scroll sideways", async (t) => {
    const company = server.accounts.companies[0];
    const token = await server.token(company.companyAdmin);
    const app = await server.api("POST", `/api/applications/${company.id}`, { token, body: { name: "Basement sensors" } });
    for (const [i, name] of ["Boiler room temperature and humidity", "Pump house door", "Water meter"].entries()) {
      await server.api("POST", `/api/applications/${app.id}/tag`, { token, body: { name, deveui: `70B3D57ED005C0${i}${i}` } });
    }
    const { page, watch } = await pageAs(t, company.user, { viewport: { width: 390, height: 800 } });
    await page.goto("/tag");
    const table = page.locator("#tag-list table");
    await table.waitFor();
    const widths = await page.evaluate(() => {
      const scroll = document.querySelector("#tag-list .table-scroll");
      return { page: [document.documentElement.scrollWidth, document.documentElement.clientWidth], list: [scroll.scrollWidth, scroll.clientWidth] };
    });
    assert.ok(widths.page[0] <= widths.page[1], `the page scrolls sideways: ${widths.page}`);
    assert.ok(widths.list[0] <= widths.list[1], `the node list scrolls sideways: ${widths.list}`);
    const lang = await pageLang(page);
    const cell = table.locator("tbody tr").first().locator("td").first();
    assert.equal(await cell.getAttribute("data-label"), msg(lang, "page.tag.col.deveui"));
    assert.equal(await cell.evaluate((el) => getComputedStyle(el, "::before").content), JSON.stringify(msg(lang, "page.tag.col.deveui")));
    await page.screenshot({ path: artifactPath("tag-list-390.png"), fullPage: true });
    watch.check();
  });
});

describe("refused forms", () => {
  test("a form error logs no failed load in the console", async (t) => {
    const { page, watch, consoleErrors } = await pageAs(t, server.accounts.companies[1].companyAdmin);
    await page.goto("/application/create");
    const lang = await pageLang(page);
    await page.getByRole("button", { name: msg(lang, "page.application.create.submit") }).click();
    await page.getByText(msg(lang, "nodes.application.name.required")).waitFor();
    await waitForSwapSettled(page);

    // The decoder test pane checks the payload before it sends it.
    await page.goto("/decoders/create");
    await waitForIslands(page);
    const island = page.locator('[data-island="decoder-editor"]');
    await island.getByLabel(msg(lang, "decoders.test.payloadLabel"), { exact: true }).fill("0x1");
    await island.getByRole("button", { name: msg(lang, "decoders.test.run"), exact: true }).click();
    await island.getByText(msg(lang, "decoders.test.hex")).waitFor();

    assert.deepEqual(consoleErrors.filter((e) => e.startsWith("Failed to load resource")), []);
    watch.check();
  });
});
