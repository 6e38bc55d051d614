// The dashboard category tree viewer: a CompanyAdmin builds a tree on
// /dashboard (categories, a sub-category, dashboards, edit, copy, remove with
// confirmation, the translated 400 of a category that is not empty) with the
// mouse, the context menu and the keyboard; reorders categories by drag and
// drop and by keyboard and finds the order again after a reload; a User opens
// a dashboard from the top bar's navigation dialog and has no edit switch.
// axe-core finds nothing serious in either theme. The tree model's drop rules
// and the places it saves are checked on their own first, compiled from
// features/dashboards/utils/category-tree.ts.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, test } from "node:test";
import { transformWithOxc } from "vite";
import { checkA11y, FAILING_IMPACTS, formatViolations } from "./lib/axe.mjs";
import { launchBrowser, newContext, pageLang, signIn, watchPage } from "./lib/browser.mjs";
import { artifactPath, t as msg, tf, webappDir } from "./lib/env.mjs";
import { startFieldhub } from "./lib/server.mjs";

let browser, server, acme;

before(async () => {
  [server, browser] = await Promise.all([startFieldhub(), launchBrowser()]);
  acme = server.accounts.companies[0];
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// The icon selector's list is reached with the arrow keys from its search
// field; axe-core's scrollable-region-focusable rule does not see that (see
// global-settings.test.mjs), so the list is checked without that one rule.
const iconList = ".fh-icon-selector__list";
// React Aria's live announcer (its own region at the start of <body>) keeps
// an announcement of the icon selector's focused option for a few seconds
// after the dialog with the option has closed; its aria-labelledby then
// points nowhere. That is the library's passing message, not the page.
const announcer = '[role="log"][aria-relevant="additions"]';

async function axe(page, t, label, { iconSelector = false } = {}) {
  for (const theme of ["light", "dark"]) {
    // The theme as the page shows it; the stored choice stays as it was.
    await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
    const exclude = iconSelector ? [announcer, iconList] : [announcer];
    const { other } = await checkA11y(page, `${label} (${theme})`, { exclude });
    for (const v of other) t.diagnostic(`axe ${v.impact} (${label}, ${theme}): ${v.id} – ${v.help} (${v.nodes.length} node(s))`);
    if (iconSelector) {
      const results = await page.evaluate(
        (selector) =>
          window.axe.run(document.querySelector(selector), {
            resultTypes: ["violations"],
            runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
            rules: { "scrollable-region-focusable": { enabled: false } },
          }),
        iconList,
      );
      const failing = results.violations.filter((v) => FAILING_IMPACTS.includes(v.impact));
      if (failing.length) throw new Error(`axe-core: the icon list (${theme}):\n${formatViolations(failing)}`);
    }
    await page.screenshot({ path: artifactPath(`category-tree-${label}-${theme}.png`), animations: "disabled" });
  }
  await page.evaluate(() => (document.documentElement.dataset.theme = "light"));
}

// expectSnackbar waits until the snackbar has shown text (it may still show
// the message of the step before for a moment, and clears a message after
// 3 s, possibly before a slow machine gets here): it looks in the record of
// lib/browser.mjs' newContext and marks the message read.
async function expectSnackbar(page, text, what) {
  try {
    await page.waitForFunction(
      (want) => {
        const m = (window.__fieldhubSnackbar ?? []).find((m) => !m.read && m.text === want);
        if (m) m.read = true;
        return m !== undefined;
      },
      text,
      { timeout: 15000 },
    );
  } catch {
    const got = await page.locator("#snackbar").textContent();
    await page.screenshot({ path: artifactPath("category-tree-snackbar-failure.png") });
    assert.fail(`snackbar ${what}: "${got?.trim()}", want "${text}"`);
  }
}

// seed makes categories and dashboards through the API as Acme's
// CompanyAdmin: spec is [{title, dashboards: [name], children: [...]}].
async function seed(spec) {
  const token = await server.token(acme.companyAdmin);
  const made = {};
  async function walk(nodes, parentGuid) {
    for (const n of nodes) {
      if (n.title) {
        const c = await server.api("POST", `/api/dashboards/categories/${acme.id}`, {
          token,
          body: parentGuid ? { title: n.title, parentGuid } : { title: n.title },
        });
        made[n.title] = c;
        for (const name of n.dashboards ?? []) {
          made[name] = await server.api("POST", "/api/dashboards", { token, body: { name, categoryId: c.dashboardCategoryId } });
        }
        await walk(n.children ?? [], c.guid);
      } else {
        made[n.name] = await server.api("POST", "/api/dashboards", { token, body: { name: n.name } });
      }
    }
  }
  await walk(spec, null);
  return made;
}

// clearTree removes every dashboard and category of Acme, so that each test
// starts from an empty tree.
async function clearTree() {
  const token = await server.token(acme.companyAdmin);
  const dashboards = await server.api("GET", `/api/companies/${acme.id}/dashboards`, { token });
  for (const d of dashboards) await server.api("DELETE", `/api/dashboards/${d.dashboardId}`, { token });
  const tree = await server.api("GET", `/api/dashboards/categories/${acme.id}`, { token });
  const ids = [];
  const walk = (nodes) => {
    for (const n of nodes) {
      if (n.isLeaf) continue;
      walk(n.children ?? []);
      ids.push(n.data.dashboardCategoryId); // children first
    }
  };
  walk(tree);
  for (const id of ids) await server.api("DELETE", `/api/dashboards/categories/${id}`, { token });
}

// treeTitles lists the tree as the server has it: "title" per node, indented
// by two spaces per level.
async function treeTitles() {
  const token = await server.token(acme.companyAdmin);
  const tree = await server.api("GET", `/api/dashboards/categories/${acme.id}`, { token });
  const out = [];
  const walk = (nodes, depth) => {
    for (const n of nodes) {
      out.push(`${"  ".repeat(depth)}${n.title}`);
      walk(n.children ?? [], depth + 1);
    }
  };
  walk(tree, 0);
  return out;
}

// rows lists the tree as the page shows it, in the same form.
async function rows(tree) {
  return tree.getByRole("row").evaluateAll((els) =>
    els
      .filter((el) => el.dataset.node)
      .map((el) => `${"  ".repeat(Number(el.getAttribute("aria-level")) - 1)}${el.querySelector(".fh-tree__title").textContent}`),
  );
}

function treeOf(scope, lang) {
  return scope.getByRole("treegrid", { name: msg(lang, "tree.label") });
}

function row(tree, title) {
  return tree.getByRole("row", { name: title, exact: true });
}

async function waitForTree(page, lang) {
  await page.locator(".fh-tree").waitFor();
  await page.waitForFunction(() => !document.querySelector(".fh-tree [role=status] .mdi-loading"));
  return treeOf(page, lang);
}

// openMenuFor opens the context menu of a row by right-clicking it.
async function contextMenu(page, tree, title) {
  await row(tree, title).click({ button: "right" });
  const menu = page.getByRole("menu");
  await menu.waitFor();
  return menu;
}

async function modalWidth(dialog) {
  return Math.round(await dialog.evaluate((el) => el.closest(".fh-tree-modal").getBoundingClientRect().width));
}

// loadModel compiles the category tree's model (TypeScript without
// imports) for Node.
async function loadModel() {
  const file = join(webappDir, "src", "features", "dashboards", "utils", "category-tree.ts");
  const { code } = await transformWithOxc(readFileSync(file, "utf8"), file, { lang: "ts" });
  const dir = mkdtempSync(join(tmpdir(), "fieldhub-tree-"));
  const out = join(dir, "model.mjs");
  writeFileSync(out, code);
  try {
    return await import(pathToFileURL(out).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// A tree as the server answers it: Greenhouse (Seedlings, Tomatoes,
// Cucumbers), Cellar (Wine), Office, and the dashboard Overview outside.
const category = (id, title, children = []) => ({
  title,
  isLeaf: false,
  data: { icon: "mdi-sprout", color: "#4CAF50", dashboardCategoryId: id, guid: `guid-${id}`, index: 0 },
  children,
});
const dashboard = (id, title, categoryId = null) => ({
  title,
  isLeaf: true,
  data: { icon: "mdi-view-dashboard", color: "#2196F3", dashboardCategoryId: categoryId, dashboardId: id, index: 0 },
  children: [],
});
const answer = [
  category(1, "Greenhouse", [category(4, "Seedlings"), dashboard(1, "Tomatoes", 1), dashboard(2, "Cucumbers", 1)]),
  category(2, "Cellar", [dashboard(3, "Wine", 2)]),
  category(3, "Office"),
  dashboard(4, "Overview"),
];

test("the tree model reads the server's tree and refuses drops that break it", async () => {
  const model = await loadModel();
  const tree = model.fromDTO([
    ...answer,
    { title: "no id", isLeaf: true, data: {} },
    { title: "bad colour", isLeaf: false, data: { dashboardCategoryId: 9, guid: "g9", color: "red", icon: "x y" }, children: [] },
  ]);
  const flat = (nodes, depth = 0) => nodes.flatMap((n) => [`${"  ".repeat(depth)}${n.key} ${n.title}`, ...(n.children ? flat(n.children, depth + 1) : [])]);
  assert.deepEqual(flat(tree), [
    "c1 Greenhouse", "  c4 Seedlings", "  d1 Tomatoes", "  d2 Cucumbers", "c2 Cellar", "  d3 Wine", "c3 Office", "c9 bad colour", "d4 Overview",
  ]);
  const bad = model.findNode(tree, "c9").node;
  assert.equal(bad.color, "#2196F3", "a colour that is not #rrggbb falls back to the default");
  assert.equal(bad.icon, "mdi-shape-outline", "an icon that is not an mdi name falls back to the default");

  const cases = [
    { name: "a category among the root categories", keys: ["c3"], target: { type: "item", key: "c1", dropPosition: "before" }, want: true },
    { name: "a category into another", keys: ["c3"], target: { type: "item", key: "c2", dropPosition: "on" }, want: true },
    { name: "a category into itself", keys: ["c1"], target: { type: "item", key: "c1", dropPosition: "on" }, want: false },
    { name: "a category into its own sub-category", keys: ["c1"], target: { type: "item", key: "c4", dropPosition: "on" }, want: false },
    { name: "a category next to its own child", keys: ["c1"], target: { type: "item", key: "d1", dropPosition: "after" }, want: false },
    { name: "anything onto a dashboard", keys: ["d3"], target: { type: "item", key: "d1", dropPosition: "on" }, want: false },
    { name: "a category between two dashboards", keys: ["c3"], target: { type: "item", key: "d2", dropPosition: "before" }, want: false },
    { name: "a category before the first dashboard of a level", keys: ["c3"], target: { type: "item", key: "d1", dropPosition: "before" }, want: true },
    { name: "a dashboard between two categories", keys: ["d4"], target: { type: "item", key: "c1", dropPosition: "after" }, want: false },
    { name: "a dashboard after the last category of a level", keys: ["d3"], target: { type: "item", key: "c4", dropPosition: "after" }, want: true },
    { name: "a dashboard among dashboards of another category", keys: ["d3"], target: { type: "item", key: "d1", dropPosition: "before" }, want: true },
    { name: "a node next to itself", keys: ["d1"], target: { type: "item", key: "d1", dropPosition: "after" }, want: false },
    { name: "a node on the empty tree", keys: ["d1"], target: { type: "root" }, want: true },
    { name: "an unknown node", keys: ["d99"], target: { type: "root" }, want: false },
  ];
  for (const c of cases) assert.equal(model.canDrop(tree, c.keys, c.target), c.want, c.name);
});

test("the tree model moves nodes and lists the places to save", async () => {
  const model = await loadModel();
  const tree = model.fromDTO(answer);
  const cases = [
    {
      name: "a root category first",
      keys: ["c3"],
      target: { type: "item", key: "c1", dropPosition: "before" },
      order: ["c3", "c1", "c4", "d1", "d2", "c2", "d3", "d4"],
      payload: {
        categories: [
          { dashboardCategoryId: 3, index: 0, parentGuid: null },
          { dashboardCategoryId: 1, index: 1, parentGuid: null },
          { dashboardCategoryId: 2, index: 2, parentGuid: null },
        ],
        dashboards: [{ dashboardId: 4, dashboardCategoryId: null, index: 0 }],
      },
    },
    {
      name: "a category into another goes last among its categories",
      keys: ["c2"],
      target: { type: "item", key: "c1", dropPosition: "on" },
      order: ["c1", "c4", "c2", "d3", "d1", "d2", "c3", "d4"],
      payload: {
        categories: [
          { dashboardCategoryId: 1, index: 0, parentGuid: null },
          { dashboardCategoryId: 3, index: 1, parentGuid: null },
          { dashboardCategoryId: 4, index: 0, parentGuid: "guid-1" },
          { dashboardCategoryId: 2, index: 1, parentGuid: "guid-1" },
        ],
        dashboards: [
          { dashboardId: 4, dashboardCategoryId: null, index: 0 },
          { dashboardId: 1, dashboardCategoryId: 1, index: 0 },
          { dashboardId: 2, dashboardCategoryId: 1, index: 1 },
        ],
      },
    },
    {
      name: "a dashboard into another category, between its dashboards",
      keys: ["d3"],
      target: { type: "item", key: "d2", dropPosition: "before" },
      order: ["c1", "c4", "d1", "d3", "d2", "c2", "c3", "d4"],
      payload: {
        categories: [{ dashboardCategoryId: 4, index: 0, parentGuid: "guid-1" }],
        dashboards: [
          { dashboardId: 1, dashboardCategoryId: 1, index: 0 },
          { dashboardId: 3, dashboardCategoryId: 1, index: 1 },
          { dashboardId: 2, dashboardCategoryId: 1, index: 2 },
        ],
      },
    },
    {
      name: "a dashboard out of its category onto the empty tree",
      keys: ["d1"],
      target: { type: "root" },
      order: ["c1", "c4", "d2", "c2", "d3", "c3", "d4", "d1"],
      payload: {
        categories: [
          { dashboardCategoryId: 4, index: 0, parentGuid: "guid-1" },
          { dashboardCategoryId: 1, index: 0, parentGuid: null },
          { dashboardCategoryId: 2, index: 1, parentGuid: null },
          { dashboardCategoryId: 3, index: 2, parentGuid: null },
        ],
        dashboards: [
          { dashboardId: 2, dashboardCategoryId: 1, index: 0 },
          { dashboardId: 4, dashboardCategoryId: null, index: 0 },
          { dashboardId: 1, dashboardCategoryId: null, index: 1 },
        ],
      },
    },
  ];
  const keys = (nodes) => nodes.flatMap((n) => [n.key, ...(n.children ? keys(n.children) : [])]);
  for (const c of cases) {
    const { tree: moved, levels } = model.moveNodes(tree, c.keys, c.target);
    assert.deepEqual(keys(moved), c.order, `${c.name}: the order`);
    assert.deepEqual(model.indexPayload(moved, levels), c.payload, `${c.name}: what is saved`);
  }
  assert.deepEqual(keys(tree), ["c1", "c4", "d1", "d2", "c2", "d3", "c3", "d4"], "the tree moved from is left as it was");
});

test("a CompanyAdmin builds, edits, copies and removes in the tree on /dashboard", async (t) => {
  await clearTree();
  const context = await newContext(browser, server);
  t.after(() => context.close());
  await signIn(context, acme.companyAdmin);
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto("/dashboard");
  const lang = await pageLang(page);
  const m = (id) => msg(lang, id);
  let tree = await waitForTree(page, lang);

  // The empty state offers to create the first dashboard.
  await page.getByText(m("tree.empty"), { exact: true }).waitFor();
  assert.ok(await page.getByRole("button", { name: m("tree.empty.create") }).isVisible());
  await axe(page, t, "empty");

  // A category from the toolbar: the title is required; colour and icon are chosen.
  await page.getByRole("button", { name: m("tree.toolbar.newCategory") }).click();
  let dialog = page.getByRole("dialog", { name: m("tree.category.new") });
  await dialog.waitFor();
  assert.equal(await modalWidth(dialog), 600, "the category dialog is 600 wide");
  await dialog.getByRole("button", { name: m("tree.dialog.create") }).click();
  await dialog.getByText(m("validation.required"), { exact: true }).waitFor();
  await dialog.getByLabel(m("tree.category.title")).fill("Greenhouse");
  await dialog.getByRole("listbox", { name: m("tree.color.suggested") }).getByRole("option").nth(9).click(); // #4CAF50
  await dialog.getByRole("searchbox").fill("sprout");
  await dialog.getByRole("option", { name: "mdi-sprout", exact: true }).click();
  await axe(page, t, "category-dialog", { iconSelector: true });
  await dialog.getByRole("button", { name: m("tree.dialog.create") }).click();
  await expectSnackbar(page, m("tree.category.created"), "after creating a category");
  await dialog.waitFor({ state: "hidden" });
  await row(tree, "Greenhouse").waitFor();
  const icon = row(tree, "Greenhouse").locator(".fh-tree__icon");
  assert.match(await icon.getAttribute("class"), /\bmdi-sprout\b/);
  assert.equal(await icon.evaluate((el) => getComputedStyle(el).color), "rgb(76, 175, 80)");

  // A second category, with the defaults.
  await page.getByRole("button", { name: m("tree.toolbar.newCategory") }).click();
  dialog = page.getByRole("dialog", { name: m("tree.category.new") });
  await dialog.getByLabel(m("tree.category.title")).fill("Cellar");
  await page.keyboard.press("Enter");
  await row(tree, "Cellar").waitFor();
  assert.match(await row(tree, "Cellar").locator(".fh-tree__icon").getAttribute("class"), /\bmdi-shape-outline\b/);
  assert.equal(await row(tree, "Cellar").locator(".fh-tree__icon").evaluate((el) => getComputedStyle(el).color), "rgb(33, 150, 243)");

  // A sub-category through the right-click menu.
  let menu = await contextMenu(page, tree, "Greenhouse");
  assert.deepEqual(await menu.getByRole("menuitem").allInnerTexts(), [
    m("tree.menu.createCategory"),
    m("tree.menu.editCategory"),
    m("tree.menu.createDashboard"),
    m("tree.menu.remove"),
  ]);
  await axe(page, t, "menu");
  await menu.getByRole("menuitem", { name: m("tree.menu.createCategory") }).click();
  dialog = page.getByRole("dialog", { name: tf(lang, "tree.category.newIn", { parent: "Greenhouse" }) });
  await dialog.getByLabel(m("tree.category.title")).fill("Seedlings");
  await dialog.getByRole("button", { name: m("tree.dialog.create") }).click();
  await row(tree, "Seedlings").waitFor();
  assert.equal(await row(tree, "Seedlings").getAttribute("aria-level"), "2");

  // A dashboard in Greenhouse through the row's "more" button; its name is
  // required. The keyboard reaches the button with the right arrow; Escape
  // closes the menu and gives the focus back to the row.
  const more = row(tree, "Greenhouse").getByRole("button", { name: tf(lang, "tree.more", { title: "Greenhouse" }) });
  await row(tree, "Greenhouse").focus();
  await page.keyboard.press("ArrowRight");
  assert.equal(await more.evaluate((el) => el === document.activeElement), true, "the right arrow reaches the more button");
  await page.keyboard.press("Enter");
  await page.getByRole("menu").waitFor();
  await page.keyboard.press("Escape");
  await page.getByRole("menu").waitFor({ state: "detached" });
  await page.waitForFunction(() => document.activeElement?.closest("[data-node]")?.getAttribute("aria-label") === "Greenhouse");
  await more.click();
  await page.getByRole("menuitem", { name: m("tree.menu.createDashboard") }).click();
  dialog = page.getByRole("dialog", { name: tf(lang, "tree.dashboard.newIn", { parent: "Greenhouse" }) });
  assert.equal(await modalWidth(dialog), 450, "the dashboard dialog is 450 wide");
  await dialog.getByRole("button", { name: m("tree.dialog.create") }).click();
  await dialog.getByText(m("validation.required"), { exact: true }).waitFor();
  await dialog.getByLabel(m("tree.dashboard.name")).fill("Tomatoes");
  await dialog.getByRole("button", { name: m("tree.dialog.create") }).click();
  // A new dashboard opens, in edit mode (words.test.mjs); back to the tree.
  await page.waitForURL(/\/dashboard\/\d+$/);
  await expectSnackbar(page, m("tree.dashboard.created"), "after creating a dashboard");
  await page.goto("/dashboard");
  tree = await waitForTree(page, lang);
  await row(tree, "Tomatoes").waitFor();

  // A dashboard in Cellar with the keyboard only: Shift+F10 on the row opens its menu.
  await row(tree, "Cellar").focus();
  await page.keyboard.press("Shift+F10");
  menu = page.getByRole("menu");
  await menu.waitFor();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  dialog = page.getByRole("dialog", { name: tf(lang, "tree.dashboard.newIn", { parent: "Cellar" }) });
  await dialog.waitFor();
  await page.keyboard.type("Wine");
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/dashboard\/\d+$/);
  await page.goto("/dashboard");
  tree = await waitForTree(page, lang);
  await row(tree, "Wine").waitFor();

  assert.deepEqual(await rows(tree), ["Greenhouse", "  Seedlings", "  Tomatoes", "Cellar", "  Wine"]);
  assert.deepEqual(await treeTitles(), ["Greenhouse", "  Seedlings", "  Tomatoes", "Cellar", "  Wine"]);

  // Edit a category.
  menu = await contextMenu(page, tree, "Cellar");
  await menu.getByRole("menuitem", { name: m("tree.menu.editCategory") }).click();
  dialog = page.getByRole("dialog", { name: m("tree.category.edit") });
  assert.equal(await dialog.getByLabel(m("tree.category.title")).inputValue(), "Cellar");
  await dialog.getByLabel(m("tree.category.title")).fill("Wine cellar");
  await dialog.getByLabel(m("tree.color.hex")).fill("#795548");
  await dialog.getByRole("button", { name: m("tree.dialog.save") }).click();
  await expectSnackbar(page, m("tree.category.updated"), "after editing a category");
  await row(tree, "Wine cellar").waitFor();
  assert.equal(await row(tree, "Wine cellar").locator(".fh-tree__icon").evaluate((el) => getComputedStyle(el).color), "rgb(121, 85, 72)");

  // Copy a dashboard: the name is proposed.
  menu = await contextMenu(page, tree, "Tomatoes");
  assert.deepEqual(await menu.getByRole("menuitem").allInnerTexts(), [m("tree.menu.copyDashboard"), m("tree.menu.remove")]);
  await menu.getByRole("menuitem", { name: m("tree.menu.copyDashboard") }).click();
  dialog = page.getByRole("dialog", { name: m("tree.dashboard.copy") });
  assert.equal(await dialog.getByLabel(m("tree.dashboard.name")).inputValue(), tf(lang, "tree.dashboard.copyOf", { name: "Tomatoes" }));
  await dialog.getByLabel(m("tree.dashboard.name")).fill("Tomatoes 2");
  await dialog.getByRole("button", { name: m("tree.dialog.copy") }).click();
  await expectSnackbar(page, m("tree.dashboard.copied"), "after copying a dashboard");
  await row(tree, "Tomatoes 2").waitFor();
  assert.deepEqual(await treeTitles(), ["Greenhouse", "  Seedlings", "  Tomatoes", "  Tomatoes 2", "Wine cellar", "  Wine"]);

  // Removing a category that is not empty is refused with the server's translated message.
  menu = await contextMenu(page, tree, "Greenhouse");
  await menu.getByRole("menuitem", { name: m("tree.menu.remove") }).click();
  dialog = page.getByRole("dialog", { name: m("tree.remove.categoryTitle") });
  assert.equal(await modalWidth(dialog), 450, "the confirmation is 450 wide");
  await dialog.getByText(tf(lang, "tree.remove.categoryText", { title: "Greenhouse" })).waitFor();
  await dialog.getByRole("button", { name: m("tree.dialog.remove") }).click();
  const refusal = dialog.getByRole("alert");
  await refusal.waitFor();
  assert.equal((await refusal.innerText()).trim(), m("dashboards.categoryNotEmpty"));
  await axe(page, t, "remove-refused");
  await dialog.getByRole("button", { name: m("tree.dialog.cancel") }).click();
  await dialog.waitFor({ state: "hidden" });
  assert.ok(await row(tree, "Greenhouse").isVisible());

  // Removing a dashboard, and then an empty category, after confirmation.
  menu = await contextMenu(page, tree, "Tomatoes 2");
  await menu.getByRole("menuitem", { name: m("tree.menu.remove") }).click();
  dialog = page.getByRole("dialog", { name: m("tree.remove.dashboardTitle") });
  await dialog.getByRole("button", { name: m("tree.dialog.remove") }).click();
  await expectSnackbar(page, m("tree.dashboard.removed"), "after removing a dashboard");
  await row(tree, "Tomatoes 2").waitFor({ state: "detached" });
  menu = await contextMenu(page, tree, "Seedlings");
  await menu.getByRole("menuitem", { name: m("tree.menu.remove") }).click();
  await page.getByRole("dialog", { name: m("tree.remove.categoryTitle") }).getByRole("button", { name: m("tree.dialog.remove") }).click();
  await expectSnackbar(page, m("tree.category.removed"), "after removing a category");
  await row(tree, "Seedlings").waitFor({ state: "detached" });
  assert.deepEqual(await treeTitles(), ["Greenhouse", "  Tomatoes", "Wine cellar", "  Wine"]);

  // The tree is the same after a reload; edit mode makes rows selectable and draggable.
  await page.reload();
  tree = await waitForTree(page, lang);
  assert.deepEqual(await rows(tree), ["Greenhouse", "  Tomatoes", "Wine cellar", "  Wine"]);
  assert.equal(await row(tree, "Tomatoes").getAttribute("draggable"), null, "edit mode off: not draggable");
  assert.equal(await row(tree, "Tomatoes").getAttribute("aria-selected"), null, "edit mode off: not selectable");
  await page.locator(".fh-tree__switch").click();
  await row(tree, "Tomatoes").locator(".fh-tree__handle").waitFor();
  assert.equal(await row(tree, "Tomatoes").getAttribute("draggable"), "true");
  await row(tree, "Tomatoes").click();
  assert.equal(await row(tree, "Tomatoes").getAttribute("aria-selected"), "true", "edit mode on: a click selects");
  assert.equal(new URL(page.url()).pathname, "/dashboard", "edit mode on: a click does not open the dashboard");
  await axe(page, t, "edit-mode");

  // With edit mode off a click on a leaf opens its dashboard.
  await page.locator(".fh-tree__switch").click();
  const wine = (await seedIds())["Wine"];
  await row(tree, "Wine").click();
  await page.waitForURL(`**/dashboard/${wine}`);
  watch.check([/HTTP 400: DELETE \/api\/dashboards\/categories\/\d+/]);
});

// seedIds maps the names of Acme's dashboards to their ids.
async function seedIds() {
  const token = await server.token(acme.companyAdmin);
  const list = await server.api("GET", `/api/companies/${acme.id}/dashboards`, { token });
  return Object.fromEntries(list.map((d) => [d.name, d.dashboardId]));
}

test("categories and dashboards are reordered by drag and drop and by keyboard; the order stays after a reload", async (t) => {
  await clearTree();
  await seed([{ title: "Alpha" }, { title: "Bravo" }, { title: "Charlie", dashboards: ["Lobby"] }, { title: "Delta" }]);
  const context = await newContext(browser, server);
  t.after(() => context.close());
  await signIn(context, acme.companyAdmin);
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto("/dashboard");
  const lang = await pageLang(page);
  const m = (id) => msg(lang, id);
  let tree = await waitForTree(page, lang);
  assert.deepEqual(await rows(tree), ["Alpha", "Bravo", "Charlie", "  Lobby", "Delta"]);

  // Edit mode off: dragging does nothing.
  await dragRow(page, row(tree, "Delta"), row(tree, "Alpha"), "top");
  assert.deepEqual(await rows(tree), ["Alpha", "Bravo", "Charlie", "  Lobby", "Delta"]);

  await page.locator(".fh-tree__switch").click();
  await row(tree, "Alpha").locator(".fh-tree__handle").waitFor();

  // The mouse: Delta above Alpha.
  let saved = waitForIndexes(page);
  await dragRow(page, row(tree, "Delta"), row(tree, "Alpha"), "top");
  assert.equal((await saved).status(), 204);
  assert.deepEqual(await rows(tree), ["Delta", "Alpha", "Bravo", "Charlie", "  Lobby"]);

  // The mouse: the dashboard Lobby into the category Bravo.
  saved = waitForIndexes(page);
  await dragRow(page, row(tree, "Lobby"), row(tree, "Bravo"), "middle");
  assert.equal((await saved).status(), 204);
  assert.deepEqual(await rows(tree), ["Delta", "Alpha", "Bravo", "  Lobby", "Charlie"]);

  // The keyboard: the right arrow reaches Alpha's handle, Enter picks it up,
  // End goes to the last place and Enter drops it there.
  await row(tree, "Alpha").focus();
  await page.keyboard.press("ArrowRight");
  assert.equal(
    await page.evaluate(() => document.activeElement?.classList.contains("fh-tree__handle")),
    true,
    "the right arrow focuses the drag handle",
  );
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.activeElement?.getAttribute("aria-roledescription") !== null);
  saved = waitForIndexes(page);
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  assert.equal((await saved).status(), 204);
  assert.deepEqual(await rows(tree), ["Delta", "Bravo", "  Lobby", "Charlie", "Alpha"]);

  // The mouse: the category Charlie into the category Delta.
  saved = waitForIndexes(page);
  await dragRow(page, row(tree, "Charlie"), row(tree, "Delta"), "middle");
  assert.equal((await saved).status(), 204);
  const order = ["Delta", "  Charlie", "Bravo", "  Lobby", "Alpha"];
  assert.deepEqual(await rows(tree), order);
  await page.screenshot({ path: artifactPath("category-tree-reordered.png"), animations: "disabled" });

  // The server keeps the order.
  await page.reload();
  tree = await waitForTree(page, lang);
  assert.deepEqual(await rows(tree), order);
  assert.deepEqual(await treeTitles(), order);
  watch.check();
});

// dragRow drags a row by the mouse onto the top edge or the middle of another.
async function dragRow(page, from, to, where) {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  await page.mouse.move(a.x + 80, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + 90, a.y + a.height / 2 - 8, { steps: 4 });
  const y = where === "top" ? b.y + 3 : b.y + b.height / 2;
  await page.mouse.move(b.x + 80, y, { steps: 12 });
  await page.mouse.move(b.x + 82, y, { steps: 2 });
  await page.mouse.up();
}

function waitForIndexes(page) {
  return page.waitForResponse(
    (r) => new URL(r.url()).pathname === "/api/dashboards/categories/indexes" && r.request().method() === "PUT",
  );
}

test("a User opens a dashboard from the top bar's dialog and cannot edit the tree", async (t) => {
  await clearTree();
  const made = await seed([{ title: "Greenhouse", dashboards: ["Tomatoes", "Cucumbers"] }, { name: "Overview" }]);
  const context = await newContext(browser, server);
  t.after(() => context.close());
  await signIn(context, acme.user);
  // This User reads English (the others of the file Swedish, their company's language).
  await server.api("POST", "/api/settings", { token: await server.token(acme.user), body: { language: "en" } });
  const page = await context.newPage();
  const watch = watchPage(page);

  // The home route hides the top bar and with it the button.
  await page.goto("/");
  assert.equal(await page.locator("[data-category-tree-trigger]").count(), 0);

  await page.goto("/settings");
  const lang = await pageLang(page);
  assert.equal(lang, "en");
  const m = (id) => msg(lang, id);
  const button = page.getByRole("banner").getByRole("button", { name: m("tree.open"), exact: true });
  assert.equal(await button.getAttribute("aria-expanded"), "false");
  // The island waits, as the server drew it, until the button is used; only
  // then is its code fetched.
  const island = page.locator('[data-island="category-tree"]');
  assert.equal(await island.getAttribute("data-mounted"), "deferred");
  const scripts = () => page.evaluate(() => performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".js")).length);
  const before = await scripts();

  // Opened with the keyboard: a modal at most 600 wide with the tree.
  await button.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: m("tree.dialog.title") });
  await dialog.waitFor();
  assert.equal(Math.round(await dialog.evaluate((el) => el.closest(".fh-tree-modal").getBoundingClientRect().width)), 600);
  const tree = treeOf(dialog, lang);
  await row(tree, "Tomatoes").waitFor();
  assert.equal(await island.getAttribute("data-mounted"), "true");
  assert.ok((await scripts()) > before, "the island's code came with the first use");
  assert.deepEqual(await rows(tree), ["Greenhouse", "  Tomatoes", "  Cucumbers", "Overview"]);
  assert.equal(await dialog.getByRole("switch").count(), 0, "no edit switch for a User");
  assert.equal(await dialog.locator(".fh-tree__more").count(), 0, "no menu button for a User");
  assert.equal(await dialog.getByRole("button", { name: m("tree.toolbar.newCategory") }).count(), 0);
  await row(tree, "Tomatoes").click({ button: "right" });
  await row(tree, "Tomatoes").focus();
  await page.keyboard.press("Shift+F10");
  assert.equal(await page.getByRole("menu").count(), 0, "no context menu for a User");
  await axe(page, t, "dialog");

  // Escape closes the dialog and gives the focus back to the button.
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  assert.equal(await button.getAttribute("aria-expanded"), "false");
  await page.waitForFunction(() => document.activeElement?.hasAttribute("data-category-tree-trigger"));

  // The keyboard opens a dashboard: arrows to the row, Enter.
  await page.keyboard.press("Enter");
  await row(tree, "Tomatoes").waitFor();
  await row(tree, "Greenhouse").focus();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await page.waitForURL(`**/dashboard/${made.Tomatoes.dashboardId}`);

  // On that dashboard the tree marks it; choosing it again reloads the page.
  await page.evaluate(() => (window.__treeMarker = true));
  await page.getByRole("banner").getByRole("button", { name: m("tree.open"), exact: true }).click();
  await row(tree, "Tomatoes").getByText(m("tree.current"), { exact: true }).waitFor();
  await row(tree, "Tomatoes").click();
  await page.waitForFunction(() => window.__treeMarker === undefined && document.readyState === "complete");
  assert.equal(new URL(page.url()).pathname, `/dashboard/${made.Tomatoes.dashboardId}`);
  assert.equal(await page.getByRole("dialog", { name: m("tree.dialog.title") }).count(), 0, "the viewer closed");

  // The chooser page has no edit switch for a User either.
  await page.goto("/dashboard");
  const chooser = await waitForTree(page, lang);
  await row(chooser, "Tomatoes").waitFor();
  assert.equal(await page.getByRole("switch").count(), 0);
  watch.check();
});

test("a SuperAdmin makes a dashboard in the company chosen in the switcher from the top bar's dialog", async (t) => {
  await clearTree();
  const context = await newContext(browser, server);
  t.after(() => context.close());
  await signIn(context, server.accounts.superAdmin);
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto("/settings");
  const lang = await pageLang(page);
  const m = (id) => msg(lang, id);
  // The SuperAdmin belongs to no company; the dialog works on the chosen one.
  const chosen = Number(await page.locator("select#company-switcher").inputValue());
  const company = server.accounts.companies.find((c) => c.id === chosen);
  assert.ok(company, `the switcher shows a seeded company (${chosen})`);
  await page.getByRole("banner").getByRole("button", { name: m("tree.open"), exact: true }).click();
  const dialog = page.getByRole("dialog", { name: m("tree.dialog.title") });
  await dialog.getByRole("button", { name: m("tree.toolbar.newDashboard") }).click();
  const create = page.getByRole("dialog", { name: m("tree.dashboard.new") });
  await create.getByLabel(m("tree.dashboard.name")).fill("Fleet overview");
  await create.getByRole("button", { name: m("tree.dialog.create") }).click();
  await page.waitForURL(/\/dashboard\/\d+$/);
  await expectSnackbar(page, m("tree.dashboard.created"), "after creating a dashboard");
  const token = await server.token(company.companyAdmin);
  const list = await server.api("GET", `/api/companies/${company.id}/dashboards`, { token });
  assert.deepEqual(
    list.map((d) => d.name),
    ["Fleet overview"],
    `the dashboard belongs to ${company.name}`,
  );
  watch.check();
});

test("the tree tells when it cannot be loaded and loads again on request", async (t) => {
  const context = await newContext(browser, server);
  t.after(() => context.close());
  await signIn(context, acme.admin);
  const page = await context.newPage();
  const watch = watchPage(page);
  const categories = new RegExp(`/api/dashboards/categories/${acme.id}$`);
  await page.route(categories, (route) => route.fulfill({ status: 500, contentType: "application/json", body: "{}" }));
  await page.goto("/dashboard");
  const lang = await pageLang(page);
  const m = (id) => msg(lang, id);
  const alert = page.locator(".fh-tree").getByRole("alert");
  await alert.getByText(m("tree.failed")).waitFor();
  await page.unroute(categories);
  await alert.getByRole("button", { name: m("tree.retry") }).click();
  await treeOf(page, lang).waitFor();
  watch.check([new RegExp(`HTTP 500: GET /api/dashboards/categories/${acme.id}`), /console error: category-tree: loading the tree failed/]);
});
