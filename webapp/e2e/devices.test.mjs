// The device catalog (/devices): the SuperAdmin chooses an archive of the
// fixture repository (modules/decoders/testdata/devrepo, in lorawan-devices'
// layout) by keyboard and imports it; the report gives the counts, marks the
// codec whose example disagrees and names the difference; the catalog lists
// the models by vendor with their codecs' example results, the search
// (typed, no mouse) narrows them, and a model's page shows every example; a
// file that is no archive is refused on the form; a Swedish CompanyAdmin
// reads the catalog without the upload; axe finds nothing serious in the
// light and the dark theme, in both languages.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { launchBrowser, newContext, pageLang, setTheme, signIn, watchPage } from "./lib/browser.mjs";
import { checkA11y } from "./lib/axe.mjs";
import { artifactPath, t as msg, tf } from "./lib/env.mjs";
import { startFieldhub } from "./lib/server.mjs";

const fixture = fileURLToPath(new URL("../../modules/decoders/testdata/devrepo", import.meta.url));

let browser, server, archive, notArchive;

before(async () => {
  [server, browser] = await Promise.all([startFieldhub(), launchBrowser()]);
  const dir = mkdtempSync(join(tmpdir(), "fieldhub-devrepo-"));
  archive = join(dir, "lorawan-devices.tar.gz");
  execFileSync("tar", ["-czf", archive, "-C", fixture, "vendor"]);
  notArchive = join(dir, "notes.txt");
  writeFileSync(notArchive, "not an archive");
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

describe("device repository page", () => {
  test("import an archive, read the report, see the codecs", async (t) => {
    const context = await newContext(browser, server);
    t.after(() => context.close());
    await signIn(context, server.accounts.superAdmin);
    const page = await context.newPage();
    const watch = watchPage(page);

    await page.goto("/devices");
    const lang = await pageLang(page);
    await page.getByText(msg(lang, "devices.codecs.empty")).waitFor();

    // A file that is no archive: the form says so, at its field.
    const field = page.getByLabel(msg(lang, "devices.import.archive"));
    await field.setInputFiles(notArchive);
    await page.getByRole("button", { name: msg(lang, "devices.import.submit") }).click();
    await page.getByText(msg(lang, "decoders.repo.archive")).waitFor();

    // The archive, submitted from the keyboard.
    await page.getByLabel(msg(lang, "devices.import.archive")).setInputFiles(archive);
    await page.getByRole("button", { name: msg(lang, "devices.import.submit") }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: msg(lang, "devices.report.title") }).waitFor();
    const summary = tf(lang, "devices.report.summary", { vendors: 3, models: 5, codecs: 5, failing: 1, passed: 8, failed: 1 });
    await page.getByText(summary).waitFor();
    const report = page.locator("#import-report");
    const co2 = report.getByRole("row").filter({ hasText: "ttn/brightsens/co2x-codec" });
    await co2.getByText("data.tvoc: want 7, got 0.07").waitFor();
    assert.equal(await report.getByRole("row").count(), 6, "a header and a row per codec");

    await page.getByText(tf(lang, "devices.codecs.summary", { vendors: 3, models: 5, codecs: 5 }), { exact: true }).waitFor();
    const codecs = page.locator("section.codecs");
    await codecs.getByRole("row").filter({ hasText: "ttn/brightsens/co2x-codec" }).getByText(msg(lang, "devices.codec.failing"), { exact: true }).waitFor();
    await codecs.getByRole("row").filter({ hasText: "ttn/acme/door-codec" }).getByText(msg(lang, "devices.codec.encoder")).waitFor();
    await page.locator("#model-brightsens-co2x").getByText(msg(lang, "devices.codec.failing"), { exact: false }).waitFor();
    await checkA11y(page, "device repository report, light");
    await page.screenshot({ path: artifactPath("devices-report-light.png"), fullPage: true });
    await setTheme(page, true);
    await checkA11y(page, "device repository report, dark");
    await page.screenshot({ path: artifactPath("devices-report-dark.png"), fullPage: true });
    await setTheme(page, false);

    // The search, typed: the list narrows to the matching model.
    await page.getByLabel(msg(lang, "devices.search.label")).focus();
    await page.keyboard.type("buzzer");
    await page.getByText(tf(lang, "devices.search.found", { found: 1, models: 5, query: "buzzer" })).waitFor();
    assert.equal(await page.locator("#device-results tr[data-model]").count(), 1, "one model matches");
    await page.locator("#model-acme-door2").waitFor();

    // A model's page, opened from its row: the codec's examples, each with its result.
    await page.getByRole("link", { name: tf(lang, "devices.model.openLabel", { model: "Acme Door2 Contact Sensor" }) }).click();
    await page.getByRole("heading", { name: "Acme Door2 Contact Sensor" }).waitFor();
    const examples = page.locator('section[id="codec-ttn/acme/door-codec"]');
    await examples.getByRole("row").filter({ hasText: "Buzzer on for 5 seconds" }).getByText(msg(lang, "devices.example.passed")).waitFor();
    await checkA11y(page, "device model, light");
    await setTheme(page, true);
    await checkA11y(page, "device model, dark");
    await setTheme(page, false);

    await page.goto("/devices/brightsens/co2x");
    await page.getByText("data.tvoc: want 7, got 0.07").waitFor();
    await page.getByText(msg(lang, "devices.example.failed"), { exact: true }).waitFor();

    watch.check([/^HTTP 400: POST \/devices\/import$/]); // the refused file
  });

  test("a Swedish CompanyAdmin reads the catalog, without the upload", async (t) => {
    const context = await newContext(browser, server, { locale: "sv-SE" });
    t.after(() => context.close());
    await signIn(context, server.accounts.byRole.CompanyAdmin);
    const page = await context.newPage();
    await page.goto("/devices");
    const lang = await pageLang(page);
    await page.getByRole("heading", { name: msg(lang, "devices.catalog.title") }).waitFor();
    await page.getByText(msg(lang, "devices.codec.failing")).first().waitFor();
    assert.equal(await page.getByLabel(msg(lang, "devices.import.archive")).count(), 0, "no upload for a CompanyAdmin");
    await page.locator("#model-acme-th1").waitFor();
    await checkA11y(page, `device catalog (${lang})`);
    await setTheme(page, true);
    await checkA11y(page, `device catalog (${lang}), dark`);
    await setTheme(page, false);
  });
});
