// The installation settings page (/superadmin/settings) of a white-label
// installation: the SuperAdmin names the product and chooses the brand icon
// with the icon selector island, by keyboard only; the side menu's brand
// shows both.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { checkA11y, FAILING_IMPACTS, formatViolations } from "./lib/axe.mjs";
import { assertSnackbar, frame, launchBrowser, newContext, openMenu, pageLang, readSnackbar, setTheme, signIn, waitForIslands, watchPage } from "./lib/browser.mjs";
import { artifactPath, t as msg } from "./lib/env.mjs";
import { licenseEnv } from "./lib/license.mjs";
import { startFieldhub } from "./lib/server.mjs";

let browser, server;

before(async () => {
  [server, browser] = await Promise.all([startFieldhub({ env: licenseEnv({ whiteLabel: true }) }), launchBrowser()]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const defaultIcon = "mdi-access-point-network";

// The icon selector's list scrolls, and its options are reached with the
// arrow keys from the search field (aria-activedescendant), as the test
// above does; axe-core's scrollable-region-focusable rule does not see that
// unless the input's role is combobox (axe-core issue 4914). The list gets
// every other rule on its own.
const iconList = ".fh-icon-selector__list";

async function checkIconList(page, theme) {
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
  return results.violations.filter((v) => !FAILING_IMPACTS.includes(v.impact));
}

test("a SuperAdmin chooses the brand icon with the keyboard; the side menu shows it", async (t) => {
  const context = await newContext(browser, server);
  t.after(() => context.close());
  await signIn(context, server.accounts.superAdmin);
  const page = await context.newPage();
  const watch = watchPage(page);

  await page.goto("/superadmin/settings");
  const lang = await pageLang(page);
  await page.getByRole("heading", { level: 1, name: msg(lang, "page.globalSettings.title") }).waitFor();
  await waitForIslands(page);
  const brand = frame(page).sideMenu.locator(".brand");
  const brandIcon = brand.locator(".mdi");
  assert.equal(await brandIcon.getAttribute("class"), `mdi ${defaultIcon}`, "the default brand icon");
  const chosen = page.locator('input[type="hidden"][name="brand_icon"]');
  assert.equal(await chosen.inputValue(), defaultIcon, "the selector starts at the stored icon");

  // The product name, typed.
  await page.getByLabel(msg(lang, "page.globalSettings.productName")).fill("Acme IoT");

  // The icon, by keyboard only: focus the search field, type, arrow down, Enter.
  const search = page.getByRole("searchbox", { name: msg(lang, "page.globalSettings.brandIcon") });
  await search.focus();
  await page.keyboard.type("shape out");
  const options = page.getByRole("listbox", { name: msg(lang, "page.globalSettings.brandIcon") }).getByRole("option");
  await page.waitForFunction(() => document.querySelectorAll('[role="listbox"] [role="option"]').length === 1);
  assert.equal((await options.first().textContent()).trim(), "mdi-shape-outline", "“shape out” finds mdi-shape-outline");
  await page.keyboard.press("ArrowDown");
  await page.waitForFunction(() => document.activeElement?.getAttribute("aria-activedescendant"));
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector('input[name="brand_icon"]')?.value === "mdi-shape-outline");
  assert.equal(new URL(page.url()).pathname, "/superadmin/settings", "Enter in the selector chooses, it does not send the form");
  assert.equal(await search.evaluate((el) => el === document.activeElement), true, "the focus stays in the search field");

  // Save: the next page shows the toast, and the brand in the side menu.
  const loaded = page.waitForEvent("load");
  await page.getByRole("button", { name: msg(lang, "page.globalSettings.submit") }).click();
  await loaded;
  const toast = await readSnackbar(page);
  assert.equal(new URL(page.url()).pathname, "/superadmin/settings");
  assertSnackbar(toast, msg(lang, "page.globalSettings.saved"), "after saving");
  assert.equal(await brandIcon.getAttribute("class"), "mdi mdi-shape-outline", "the chosen icon is the brand's");
  assert.equal((await brand.textContent()).trim(), "Acme IoT", "the branding is the brand's name");
  await waitForIslands(page);
  assert.equal(await chosen.inputValue(), "mdi-shape-outline", "the selector shows the stored icon");

  // Every page has the brand, a visitor's too.
  const visitor = await newContext(browser, server);
  t.after(() => visitor.close());
  const login = await visitor.newPage();
  await login.goto("/login");
  assert.equal(await frame(login).sideMenu.locator(".brand .mdi").getAttribute("class"), "mdi mdi-shape-outline");

  // axe-core and screenshots, light and dark, with the menu open to show the brand.
  await page.waitForFunction(() => !document.querySelector("#snackbar.visible"));
  await openMenu(page);
  for (const theme of ["light", "dark"]) {
    await setTheme(page, theme === "dark");
    const { other } = await checkA11y(page, `/superadmin/settings (${theme})`, { exclude: [iconList] });
    other.push(...(await checkIconList(page, theme)));
    for (const v of other) t.diagnostic(`axe ${v.impact} (${theme}): ${v.id} – ${v.help} (${v.nodes.length} node(s))`);
    await page.screenshot({ path: artifactPath(`global-settings-${theme}.png`), fullPage: true, animations: "disabled" });
  }
  await setTheme(page, false);
  watch.check();
});
