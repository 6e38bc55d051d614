// The news page and the license: a portal whose feed works and whose license
// allows white-label, against one whose feed is down (a closed port) and which
// runs under the free license. The feed is an RSS document served by this
// test on loopback.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { checkA11y } from "./lib/axe.mjs";
import { assertSnackbar, launchBrowser, menuEntries, newContext, pageLang, readSnackbar, setTheme, signIn, watchPage } from "./lib/browser.mjs";
import { artifactPath, repoRoot, t as msg } from "./lib/env.mjs";
import { licenseEnv } from "./lib/license.mjs";
import { startFieldhub } from "./lib/server.mjs";

let browser, feed, working, failing;

// A 1×1 PNG.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** listen starts an HTTP server on a free loopback port and returns its base address. */
function listen(server) {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${server.address().port}`)));
}

before(async () => {
  const rss = readFileSync(join(repoRoot, "modules/news/internal/feed/testdata/rss.xml"));
  feed = createServer((_, res) => {
    res.writeHead(200, { "Content-Type": "application/rss+xml" });
    res.end(rss);
  });
  const feedURL = `${await listen(feed)}/feed.xml`;
  // A port that was free a moment ago and is closed now: the failing provider.
  const closed = createServer();
  const closedURL = `${await listen(closed)}/feed.xml`;
  await new Promise((resolve) => closed.close(resolve));
  [working, failing, browser] = await Promise.all([
    startFieldhub({ env: { ...licenseEnv({ name: "Acme AB", maxCompanies: 10, whiteLabel: true }), FIELDHUB_NEWS_FEED_URL: feedURL } }),
    startFieldhub({ env: { FIELDHUB_LICENSE_FILE: "", FIELDHUB_NEWS_FEED_URL: closedURL } }),
    launchBrowser(),
  ]);
});

after(async () => {
  await browser?.close();
  await Promise.all([working?.stop(), failing?.stop()]);
  await new Promise((resolve) => (feed ? feed.close(resolve) : resolve()));
});

/** a11y runs axe-core in light and dark and saves screenshots. */
async function a11y(t, page, name) {
  for (const theme of ["light", "dark"]) {
    await setTheme(page, theme === "dark");
    const { other } = await checkA11y(page, `${name} (${theme})`);
    for (const v of other) t.diagnostic(`axe ${v.impact} (${theme}): ${v.id} – ${v.help}`);
    await page.screenshot({ path: artifactPath(`${name}-${theme}.png`), fullPage: true, animations: "disabled" });
  }
  await setTheme(page, false);
}

test("a visitor reads the provider's news after the page loads", async (t) => {
  const context = await newContext(browser, working);
  t.after(() => context.close());
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto("/news");
  const lang = await pageLang(page);
  await page.getByRole("heading", { level: 1, name: msg(lang, "page.news.title") }).waitFor();
  assert.ok(await page.getByText(msg(lang, "page.news.localEmpty")).isVisible(), "the empty state of the local news");
  // The feed's section replaces its loading state with the entries, newest first.
  const feedSection = page.locator("[data-news-feed]");
  await feedSection.waitFor();
  assert.equal(await feedSection.getByRole("heading", { level: 2 }).textContent(), "Fieldhub & friends");
  const titles = await feedSection.locator("li h3").allTextContents();
  assert.deepEqual(titles.map((s) => s.replace(msg(lang, "page.news.newTab"), "").trim()),
    ["New LoRaWAN node", "A link that runs code", "Older gateway firmware", "Undated"]);
  const link = feedSection.getByRole("link", { name: /New LoRaWAN node/ });
  assert.equal(await link.getAttribute("target"), "_blank");
  assert.match(await link.getAttribute("href"), /\/2026\/node$/);
  assert.equal(await feedSection.getByRole("link", { name: /A link that runs code/ }).count(), 0, "a javascript: link is not a link");
  assert.equal(await feedSection.locator("script, img, b").count(), 0, "the feed's markup is text");
  assert.equal(await feedSection.getByRole("alert").count(), 0);
  // The feed's links are reached by keyboard.
  await link.focus();
  assert.equal(await link.evaluate((el) => el === document.activeElement), true);
  await a11y(t, page, "news-feed");
  watch.check();
});

test("a failing feed says so, beside the local news", async (t) => {
  const token = await failing.token(failing.accounts.superAdmin);
  await failing.api("POST", "/api/news", { token, body: { title: "Portal maintenance", body: "Tonight 22:00." } });
  const context = await newContext(browser, failing, { locale: "sv-SE" });
  t.after(() => context.close());
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto("/news");
  const lang = await pageLang(page);
  assert.equal(lang, "sv");
  await page.getByRole("heading", { level: 3, name: "Portal maintenance" }).waitFor();
  const alert = page.locator("[data-news-feed]").getByRole("alert");
  await alert.waitFor();
  assert.equal((await alert.textContent()).trim(), "Det gick inte att hämta nyheterna från leverantören.");
  assert.equal(msg("en", "news.feed.failed"), "Could not fetch the news from the provider.");
  await a11y(t, page, "news-failing");
  watch.check();
});

test("a SuperAdmin posts, edits and deletes local news", async (t) => {
  const context = await newContext(browser, working);
  t.after(() => context.close());
  await signIn(context, working.accounts.superAdmin);
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto("/news");
  const lang = await pageLang(page);
  const m = (id) => msg(lang, id);

  // A refused form says what is missing, in place.
  await page.getByRole("button", { name: m("page.news.post") }).click();
  await page.getByText(m("news.title.required")).waitFor();

  // Posted by keyboard.
  await page.getByLabel(m("page.news.entryTitle")).fill("Firmware 2.1 for the gateways");
  await page.getByLabel(m("page.news.body")).fill("Update before Friday.\n\n<b>Not bold</b>");
  await page.getByLabel(m("page.news.body")).press("Tab");
  await page.keyboard.press("Tab"); // past the publication time to Post
  const loaded = page.waitForEvent("load");
  await page.keyboard.press("Enter");
  await loaded;
  assertSnackbar(await readSnackbar(page), m("news.created"), "after posting");
  const entry = page.locator("[data-news-local] article").first();
  assert.equal(await entry.getByRole("heading", { level: 3 }).textContent(), "Firmware 2.1 for the gateways");
  assert.match(await entry.textContent(), /<b>Not bold<\/b>/, "the body is text");
  await a11y(t, page, "news-posted");

  // Edited.
  await entry.getByRole("link", { name: new RegExp(m("page.news.editEntry")) }).click();
  await page.getByLabel(m("page.news.entryTitle")).fill("Firmware 2.2 for the gateways");
  await page.getByRole("button", { name: m("page.news.save") }).click();
  await page.waitForURL("**/news");
  assertSnackbar(await readSnackbar(page), m("news.updated"), "after editing");
  assert.equal(await entry.getByRole("heading", { level: 3 }).textContent(), "Firmware 2.2 for the gateways");

  // Deleted after a confirmation; Cancel first keeps it.
  await entry.getByRole("link", { name: new RegExp(m("page.news.deleteEntry")) }).click();
  const dialog = page.getByRole("alertdialog");
  await dialog.waitFor();
  assert.match(await dialog.textContent(), /Firmware 2.2 for the gateways/);
  await a11y(t, page, "news-delete");
  await dialog.getByRole("link", { name: m("page.news.cancel") }).click();
  await page.waitForURL("**/news");
  assert.equal(await page.locator("[data-news-local] article").count(), 1);
  await entry.getByRole("link", { name: new RegExp(m("page.news.deleteEntry")) }).click();
  await page.getByRole("button", { name: m("page.news.deleteYes") }).click();
  await page.waitForURL("**/news");
  assertSnackbar(await readSnackbar(page), m("news.deleted"), "after deleting");
  await page.getByText(m("page.news.localEmpty")).waitFor();
  watch.check();
});

test("a white-label license hides Contact and unlocks the branding and logo; the free license does not", async (t) => {
  for (const [server, whiteLabel] of [[working, true], [failing, false]]) {
    const context = await newContext(browser, server);
    t.after(() => context.close());
    await signIn(context, server.accounts.byRole.User);
    const page = await context.newPage();
    await page.goto("/news");
    const hrefs = (await menuEntries(page)).map((e) => e.href);
    assert.equal(hrefs.includes("/contact"), !whiteLabel, `Contact in the menu of ${whiteLabel ? "a white-label" : "the free"} license: ${hrefs.join(", ")}`);
    assert.ok(hrefs.includes("/news"));

    const admin = await newContext(browser, server);
    t.after(() => admin.close());
    await signIn(admin, server.accounts.superAdmin);
    const settings = await admin.newPage();
    await settings.goto("/superadmin/settings");
    const lang = await pageLang(settings);
    const productName = settings.getByLabel(msg(lang, "page.globalSettings.productName"));
    assert.equal(await productName.isEditable(), whiteLabel, "the product name is editable only under white-label");
    const logoInput = settings.getByLabel(msg(lang, "field.logo"));
    if (whiteLabel) {
      // The installation's logo, uploaded: every page's brand shows it.
      await logoInput.setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from(PNG, "base64") });
      const loaded = settings.waitForEvent("load");
      await settings.getByRole("button", { name: msg(lang, "page.company.logo.upload") }).click();
      await loaded;
      assertSnackbar(await readSnackbar(settings), msg(lang, "page.company.logo.uploaded"), "after the upload");
      const logo = settings.locator("#side-menu .brand img[data-brand-logo]");
      await logo.waitFor({ state: "attached" });
      assert.equal(await logo.evaluate((img) => img.complete && img.naturalWidth), 1, "the logo loads");
    } else {
      assert.equal(await logoInput.count(), 0, "no logo upload without white-label");
      assert.ok(await settings.getByText(msg(lang, "page.globalSettings.logo.locked")).isVisible());
    }
    const terms = await admin.newPage();
    await terms.goto("/superadmin");
    const card = terms.locator("[data-license]");
    await card.waitFor();
    assert.equal((await card.locator('[data-term="whiteLabel"]').textContent()).trim(), msg(lang, whiteLabel ? "license.yes" : "license.no"));
    assert.equal((await card.locator('[data-term="maxCompanies"]').textContent()).trim(), whiteLabel ? "10" : "3");
    if (!whiteLabel) await a11y(t, terms, "superadmin-license");
  }
  // The free license's limit: a third company is allowed, a fourth is not.
  const token = await failing.token(failing.accounts.superAdmin);
  const company = (n) => ({ name: `Extra ${n} AB`, orgNumber: "556677-8899", invoiceAdress: `billing@extra${n}.example`, country: "SE" });
  await failing.api("POST", "/api/companies", { token, body: company(3) });
  const refused = await failing.api("POST", "/api/companies", { token, body: company(4), expect: [403] });
  assert.equal(refused.id, "accounts.company.limit");
  assert.match(refused.message, /3/);
});
