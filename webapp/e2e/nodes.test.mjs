// Node pages: a CompanyAdmin makes an application and a node with the forms,
// filters the node list, looks after the node on its details page and takes
// back a downlink; makes an integration token and copies it; a SuperAdmin
// creates a node from the node pool, and moves a node that another company
// claimed to that company. The filled-in pages get the axe-core check in
// both themes, which the menu walk of a11y.test.mjs sees only empty.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { checkA11y } from "./lib/axe.mjs";
import { launchBrowser, newContext, pageLang, readSnackbar, assertSnackbar, setTheme, signIn, waitForSwapSettled, watchPage } from "./lib/browser.mjs";
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

async function pageAs(t, account, options) {
  const context = await newContext(browser, server, options);
  t.after(() => context.close());
  await signIn(context, account);
  const page = await context.newPage();
  return { context, page, watch: watchPage(page) };
}

// axeBothThemes checks the page, its chart drawn, in the light and the dark
// theme, with a screenshot of each, and leaves it light.
async function axeBothThemes(page, label) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-island="tag-chart"]')].every((el) => el.dataset.mounted === "true" && el.childElementCount > 0),
  );
  for (const dark of [false, true]) {
    const theme = dark ? "dark" : "light";
    await setTheme(page, dark);
    await checkA11y(page, `${label} (${theme})`);
    await page.screenshot({ path: artifactPath(`${label.replaceAll(" ", "-")}-${theme}.png`), fullPage: true, animations: "disabled" });
  }
  await setTheme(page, false);
}

// uplink sends values of a node through the generic ingest with a token of
// the company.
async function uplink(company, deveui, values) {
  const token = await server.token(company.companyAdmin);
  const made = await server.api("POST", `/api/integration/tokens/${company.id}`, { token, body: { label: `e2e ${deveui}`, isCompany: true } });
  await server.api("POST", "/api/ingest/generic", { token: made.token, body: { devEui: deveui, values, rssi: -80, snr: 6.5 } });
}

describe("CompanyAdmin", () => {
  test("makes an application and a node, filters the list, and looks after the node", async (t) => {
    if (!(await server.routeExists("/application/create"))) return t.skip("/application/create does not exist yet");
    const company = server.accounts.companies[1]; // Globex: other tests use Acme
    const { page, watch } = await pageAs(t, company.companyAdmin);

    // The application form refuses an empty name in place, then creates.
    await page.goto("/application/create");
    const lang = await pageLang(page);
    const appForm = page.locator('form[action="/application/create"]');
    await appForm.getByRole("button", { name: msg(lang, "page.application.create.submit") }).click();
    await appForm.getByText(msg(lang, "nodes.application.name.required")).waitFor();
    await waitForSwapSettled(page);
    await appForm.getByLabel(msg(lang, "page.application.field.name"), { exact: true }).fill("Greenhouse");
    // Generic: the downlink worker hands on only ChirpStack's and The Things
    // Stack's downlinks, and the one below must stay queued.
    await appForm.getByLabel(msg(lang, "page.application.field.networkServer"), { exact: true }).selectOption("generic");
    await appForm.getByRole("button", { name: msg(lang, "page.application.create.submit") }).click();
    await page.waitForURL(/\/application\/\d+$/);
    const appId = new URL(page.url()).pathname.split("/").pop();
    await page.getByRole("heading", { level: 1, name: "Greenhouse" }).waitFor();
    await axeBothThemes(page, "application");

    // The node form: a DevEUI conflict shows on its field.
    await page.goto(`/tag/create?applicationId=${appId}`);
    const tagForm = page.locator('form[action="/tag/create"]');
    const field = (id) => tagForm.getByLabel(msg(lang, id), { exact: true });
    await field("page.tag.field.name").fill("Vent");
    await field("page.tag.field.deveui").fill("70 b3 d5 7e d0 05 a1 c3");
    await field("page.tag.field.location").fill("Roof");
    await tagForm.getByRole("button", { name: msg(lang, "page.tag.create.submit") }).click();
    await page.waitForURL("/tagdetails/70B3D57ED005A1C3");
    await page.getByRole("heading", { level: 1, name: "Vent" }).waitFor();
    await page.goto(`/tag/create?applicationId=${appId}`);
    await field("page.tag.field.name").fill("Twin");
    await field("page.tag.field.deveui").fill("70B3D57ED005A1C3");
    await tagForm.getByRole("button", { name: msg(lang, "page.tag.create.submit") }).click();
    await tagForm.locator("#e-deveui", { hasText: msg(lang, "nodes.deveui.taken") }).waitFor();
    await waitForSwapSettled(page);
    assert.equal(await field("page.tag.field.deveui").getAttribute("aria-invalid"), "true");
    await axeBothThemes(page, "node form with errors");

    // The list filters as one types (htmx), without a reload.
    await server.api("POST", `/api/applications/${appId}/tag`, { token: await server.token(company.companyAdmin), body: { name: "Boiler", deveui: "0004A30B001C1452" } });
    await page.goto("/tag");
    const list = page.locator("#tag-list");
    await list.getByRole("link", { name: "Boiler" }).waitFor();
    await page.getByLabel(msg(lang, "page.tag.search"), { exact: true }).pressSequentially("vent");
    await page.waitForURL(/\/tag\?q=vent$/);
    await list.getByRole("link", { name: "Vent" }).waitFor();
    assert.equal(await list.getByRole("link", { name: "Boiler" }).count(), 0, "the filter leaves Boiler out");
    await axeBothThemes(page, "node list");

    // The details page with data, keys and a downlink.
    await uplink(company, "70B3D57ED005A1C3", { temperature: 21.5, humidity: 40 });
    await page.goto("/tagdetails/70B3D57ED005A1C3");
    const downlinks = page.locator("#downlinks");
    const port = downlinks.getByLabel(msg(lang, "page.tag.downlink.port"), { exact: true });
    await port.fill("0");
    await downlinks.getByLabel(msg(lang, "page.tag.downlink.payload"), { exact: true }).fill("01FF");
    await downlinks.getByRole("button", { name: msg(lang, "page.tag.downlink.submit") }).click();
    await downlinks.getByText(msg(lang, "nodes.downlink.port.min")).waitFor();
    await waitForSwapSettled(page);
    await port.fill("5");
    await downlinks.getByRole("button", { name: msg(lang, "page.tag.downlink.submit") }).click();
    await downlinks.locator(".pill", { hasText: msg(lang, "page.tag.downlink.status.queued") }).waitFor();
    const keys = page.locator("#keys");
    await keys.getByLabel(tf(lang, "page.tag.key.labelOf", { key: "temperature" }), { exact: true }).fill("Air");
    await keys.getByLabel(tf(lang, "page.tag.key.unitOf", { key: "temperature" }), { exact: true }).fill("°C");
    await keys.locator("form", { has: page.locator('input[value="temperature"]') }).getByRole("button", { name: msg(lang, "page.tag.save") }).click();
    await page.getByText("21.5 °C").waitFor();
    await axeBothThemes(page, "node details");

    // Taking the downlink back asks first, in place.
    await downlinks.getByRole("link", { name: /01FF/ }).click();
    const dialog = page.getByRole("alertdialog", { name: msg(lang, "page.tag.downlink.delete") });
    await dialog.waitFor();
    await checkA11y(page, "downlink confirmation");
    await dialog.getByRole("button", { name: msg(lang, "page.tag.downlink.deleteYes") }).click();
    await downlinks.getByText(msg(lang, "page.tag.downlink.empty")).waitFor();
    watch.check([/^HTTP 400: POST \/tag\/create$/, /^HTTP 400: POST \/application\/create$/, /^HTTP 400: POST \/tagdetails\/70B3D57ED005A1C3\/downlinks$/]);
  });

  test("makes an integration token, sees it once and copies it", async (t) => {
    if (!(await server.routeExists("/company/tokens"))) return t.skip("/company/tokens does not exist yet");
    const company = server.accounts.companies[1];
    const { context, page, watch } = await pageAs(t, company.admin);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseURL });
    await page.goto("/company/tokens");
    const lang = await pageLang(page);
    await page.getByLabel(msg(lang, "page.tokens.field.label"), { exact: true }).fill("ChirpStack");
    await page.getByRole("button", { name: msg(lang, "page.tokens.submit") }).click();
    const shown = page.locator("#new-token");
    await shown.waitFor();
    const token = await shown.inputValue();
    assert.match(token, /^fh_/);
    assertSnackbar(await readSnackbar(page), tf(lang, "page.tokens.created", { label: "ChirpStack" }), "after creating");
    await page.getByRole("button", { name: msg(lang, "page.tokens.copy") }).click();
    await page.locator("#snackbar.visible", { hasText: msg(lang, "page.tokens.copied") }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), token);
    await axeBothThemes(page, "tokens with a new token");
    await page.reload();
    assert.equal(await page.locator("#new-token").count(), 0, "the token is shown only once");
    assert.equal(await page.getByText(token).count(), 0);
    watch.check();
  });
});

describe("SuperAdmin", () => {
  test("creates a node from the node pool", async (t) => {
    if (!(await server.routeExists("/tag/pool"))) return t.skip("/tag/pool does not exist yet");
    const company = server.accounts.companies[0];
    await uplink(company, "A1B2C3D4E5F60718", { temperature: 1 }); // no such node: it goes to the pool
    await server.api("POST", `/api/applications/${company.id}`, { token: await server.token(company.companyAdmin), body: { name: "Pool field" } });
    const { page, watch } = await pageAs(t, server.accounts.superAdmin);
    // The pages show the chosen company: choose Acme.
    await page.request.post("/company/switch", { form: { companyId: String(company.id), from: "/tag/pool" } });
    await page.goto("/tag/pool");
    const lang = await pageLang(page);
    const row = page.getByRole("row", { name: /A1B2C3D4E5F60718/ });
    await row.waitFor();
    await axeBothThemes(page, "node pool");
    await row.getByRole("link", { name: tf(lang, "page.pool.createLabel", { deveui: "A1B2C3D4E5F60718" }) }).click();
    await page.waitForURL("/tag/create/A1B2C3D4E5F60718");
    const form = page.locator('form[action="/tag/create"]');
    assert.equal(await form.getByLabel(msg(lang, "page.tag.field.deveui"), { exact: true }).inputValue(), "A1B2C3D4E5F60718");
    await form.getByLabel(msg(lang, "page.tag.field.name"), { exact: true }).fill("Found");
    await form.getByLabel(msg(lang, "page.tag.field.application"), { exact: true }).selectOption({ label: "Pool field" });
    await form.getByRole("button", { name: msg(lang, "page.tag.create.submit") }).click();
    await page.waitForURL("/tagdetails/A1B2C3D4E5F60718");
    await page.goto("/tag/pool?status=taken");
    await page.getByRole("row", { name: /A1B2C3D4E5F60718/ }).waitFor();
    watch.check();
  });

  test("moves a node that another company claimed to that company, after asking", async (t) => {
    const [acme, globex] = server.accounts.companies;
    const deveui = "70B3D57ED00C1A11";
    const appKey = "2B7E151628AED2A6ABF7158809CF4F3C";
    const acmeToken = await server.token(acme.companyAdmin);
    const globexToken = await server.token(globex.companyAdmin);
    const acmeApp = await server.api("POST", `/api/applications/${acme.id}`, { token: acmeToken, body: { name: "Claimed field" } });
    await server.api("POST", `/api/applications/${acmeApp.id}/tag`, { token: acmeToken, body: { name: "Claimed", deveui, appKey } });
    const globexApp = await server.api("POST", `/api/applications/${globex.id}`, { token: globexToken, body: { name: "Own field" } });
    // Globex's claim is refused.
    await server.api("POST", `/api/applications/${globexApp.id}/tag`, { token: globexToken, body: { name: "Ours", deveui }, expect: [400] });
    await uplink(acme, deveui, { temperature: 7 });
    const points = (await server.api("GET", `/api/companies/${acme.id}/tags`, { token: acmeToken })).find((n) => n.deveui === deveui).dataPoints24h;
    assert.ok(points > 0, "the node has stored data");

    const { page, watch } = await pageAs(t, server.accounts.superAdmin);
    await page.goto("/tag/pool");
    const lang = await pageLang(page);
    const row = page.getByRole("row", { name: new RegExp(deveui) }).filter({ hasText: globex.name });
    await row.waitFor();
    await axeBothThemes(page, "node pool with a refused claim");
    await row.getByRole("link", { name: tf(lang, "page.pool.claims.openLabel", { deveui }) }).click();
    await page.waitForURL(`/tagdetails/${deveui}#tag-move`);
    const move = page.locator("#tag-move");
    await move.getByLabel(msg(lang, "page.tag.move.application"), { exact: true }).selectOption({ label: `${globex.name} · Own field` });
    await move.getByLabel(msg(lang, "page.tag.move.appKey"), { exact: true }).fill("00000000000000000000000000000000");
    await move.getByRole("button", { name: msg(lang, "page.tag.move.submit") }).click();
    await move.getByText(msg(lang, "nodes.move.appKeyMismatch")).waitFor();
    await waitForSwapSettled(page);
    await axeBothThemes(page, "node move refused");
    await move.getByLabel(msg(lang, "page.tag.move.appKey"), { exact: true }).fill(appKey.toLowerCase());
    await move.getByRole("button", { name: msg(lang, "page.tag.move.submit") }).click();
    const dialog = page.getByRole("alertdialog", { name: msg(lang, "page.tag.move") });
    await dialog.getByText(msg(lang, "page.tag.move.proven")).waitFor();
    await axeBothThemes(page, "node move confirmation");
    await dialog.getByRole("button", { name: msg(lang, "page.tag.move.yes") }).click();
    assertSnackbar(await readSnackbar(page), tf(lang, "page.tag.moved", { name: "Claimed", to: globex.name, points }), "after the move");
    const moved = await server.api("GET", `/api/companies/${globex.id}/tags`, { token: globexToken });
    assert.ok(moved.some((n) => n.deveui === deveui && n.dataPoints24h === points), "Globex has the node with its data");
    watch.check([new RegExp(`^HTTP 400: POST /tagdetails/${deveui}/move$`)]);
  });
});
