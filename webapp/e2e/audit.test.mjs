// The audit trail in the event hub's Log tab: a CompanyAdmin changes a
// setting on the /settings page and finds the change among the company's
// USEREVENT entries, in the page's language, naming who made it, with the
// setting's value before and after; axe-core finds nothing serious in
// either theme. A User of the same company is not shown the audit trail.
// The SuperAdmin finds every company's latest changes on /superadmin.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { checkA11y } from "./lib/axe.mjs";
import { launchBrowser, newContext, pageLang, signIn, watchPage } from "./lib/browser.mjs";
import { artifactPath, t as msg, tf } from "./lib/env.mjs";
import { startFieldhub } from "./lib/server.mjs";

let browser, server;

before(async () => {
  [server, browser] = await Promise.all([startFieldhub(), launchBrowser()]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// openLog opens the event hub's Log tab and returns the panel and its list.
async function openLog(page, lang) {
  await page.getByRole("banner").getByRole("button", { name: msg(lang, "events.open"), exact: true }).click();
  const panel = page.getByRole("dialog", { name: msg(lang, "events.title") });
  await panel.waitFor();
  await panel.getByRole("tab", { name: msg(lang, "logs.tab.log") }).click();
  const list = panel.getByRole("region", { name: msg(lang, "logs.list") });
  await list.waitFor();
  return { panel, list };
}

test("a CompanyAdmin changes a setting and finds it in the audit trail with its value before and after", async (t) => {
  const admin = server.accounts.byRole.CompanyAdmin;
  const context = await newContext(browser, server);
  t.after(() => context.close());
  await signIn(context, admin);
  const page = await context.newPage();
  const watch = watchPage(page);

  await page.goto("/settings");
  let lang = await pageLang(page);
  await page.getByLabel(msg(lang, "page.settings.theme"), { exact: true }).selectOption("Scientific");
  await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: msg(lang, "page.settings.submit") }).click()]);
  lang = await pageLang(page);

  const { panel, list } = await openLog(page, lang);
  await panel.getByRole("toolbar", { name: msg(lang, "logs.types") }).getByRole("button", { name: msg(lang, "logs.type.USEREVENT") }).click();
  const what = tf(lang, "audit.settings.user", { user: admin.email });
  const entry = list.getByRole("listitem").filter({ hasText: what }).first();
  await entry.waitFor();
  assert.equal(await entry.locator(".fh-log-badge").getAttribute("data-log-type"), "USEREVENT");
  const table = entry.getByRole("table", { name: msg(lang, "logs.audit.changes") });
  const headers = await table.getByRole("columnheader").allInnerTexts();
  assert.deepEqual(headers, [msg(lang, "logs.audit.field"), msg(lang, "logs.audit.before"), msg(lang, "logs.audit.after")]);
  const theme = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "theme", exact: true }) });
  assert.deepEqual(await theme.getByRole("cell").allInnerTexts(), ["Colors", "Scientific"], "the theme before and after");

  for (const th of ["light", "dark"]) {
    await page.evaluate((v) => (document.documentElement.dataset.theme = v), th);
    const { other } = await checkA11y(page, `an audit entry in the Log tab (${th})`);
    for (const v of other) t.diagnostic(`axe ${v.impact} (${th}): ${v.id} – ${v.help} (${v.nodes.length} node(s))`);
    await page.screenshot({ path: artifactPath(`audit-entry-${th}.png`), animations: "disabled" });
  }
  watch.check();
});

test("a User of the company is not shown the audit trail", async (t) => {
  const admin = server.accounts.byRole.CompanyAdmin;
  const adminToken = await server.token(admin);
  await server.api("POST", `/api/applications/${admin.companyId}`, { token: adminToken, body: { name: "Audited application" } });
  const context = await newContext(browser, server);
  t.after(() => context.close());
  await signIn(context, server.accounts.byRole.User);
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto("/settings");
  const lang = await pageLang(page);
  const { list } = await openLog(page, lang);
  await list.getByRole("listitem").first().waitFor(); // the company's sign-ins
  assert.equal(await list.locator('[data-log-type="USEREVENT"]').count(), 0, "no audit entry is listed for a User");
  assert.equal(await list.getByText("Audited application").count(), 0);
  watch.check();
});

test("the SuperAdmin finds the latest changes of every company on /superadmin", async (t) => {
  const admin = server.accounts.byRole.CompanyAdmin;
  const token = await server.token(admin);
  const app = await server.api("POST", `/api/applications/${admin.companyId}`, { token, body: { name: "Greenhouse" } });
  await server.api("PUT", `/api/applications/${app.id}`, { token, body: { name: "Glasshouse" } });
  const context = await newContext(browser, server);
  t.after(() => context.close());
  await signIn(context, server.accounts.superAdmin);
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto("/superadmin");
  const lang = await pageLang(page);
  const section = page.getByRole("region", { name: msg(lang, "logs.audit.latest") });
  await section.waitFor();
  const row = section.getByRole("row").filter({ hasText: tf(lang, "audit.application.edited", { user: admin.email, name: "Glasshouse" }) });
  await row.waitFor();
  const cells = await row.getByRole("cell").allInnerTexts();
  const company = server.accounts.companies.find((c) => c.id === admin.companyId);
  assert.equal(cells[1], company.name, "the company");
  assert.equal(cells[2], admin.email, "who");
  assert.match(cells[4], /name\s+Greenhouse → Glasshouse/, "the name before and after");
  for (const th of ["light", "dark"]) {
    await page.evaluate((v) => (document.documentElement.dataset.theme = v), th);
    const { other } = await checkA11y(page, `the latest changes on /superadmin (${th})`);
    for (const v of other) t.diagnostic(`axe ${v.impact} (${th}): ${v.id} – ${v.help} (${v.nodes.length} node(s))`);
    await page.screenshot({ path: artifactPath(`audit-superadmin-${th}.png`), animations: "disabled", fullPage: true });
  }
  watch.check();
});
