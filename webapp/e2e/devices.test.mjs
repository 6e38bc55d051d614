// The SuperAdmin's device repository page (/devices): an archive of the
// fixture repository (modules/decoders/testdata/devrepo, in
// lorawan-devices' layout) is chosen by keyboard and imported; the report
// gives the counts, marks the codec whose example disagrees and names the
// difference; the imported codecs are listed with their example results and
// the encoder; a file that is no archive is refused on the form; axe finds
// nothing serious in the light and the dark theme, in both languages.
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
    const codecs = page.locator("section", { has: page.getByRole("heading", { name: msg(lang, "devices.codecs.title") }) });
    await codecs.getByRole("row").filter({ hasText: "ttn/brightsens/co2x-codec" }).getByText(msg(lang, "devices.codec.failing")).waitFor();
    await codecs.getByRole("row").filter({ hasText: "ttn/acme/door-codec" }).getByText(msg(lang, "devices.codec.encoder")).waitFor();

    await checkA11y(page, "device repository report, light");
    await page.screenshot({ path: artifactPath("devices-report-light.png"), fullPage: true });
    await setTheme(page, true);
    await checkA11y(page, "device repository report, dark");
    await page.screenshot({ path: artifactPath("devices-report-dark.png"), fullPage: true });
    await setTheme(page, false);

    watch.check([/^HTTP 400: POST \/devices\/import$/]); // the refused file
  });

  test("a Swedish browser reads the imported codecs", async (t) => {
    const context = await newContext(browser, server, { locale: "sv-SE" });
    t.after(() => context.close());
    await signIn(context, server.accounts.superAdmin);
    const page = await context.newPage();
    await page.goto("/devices");
    const lang = await pageLang(page);
    await page.getByRole("heading", { name: msg(lang, "devices.codecs.title") }).waitFor();
    await page.getByText(msg(lang, "devices.codec.failing")).first().waitFor();
    await checkA11y(page, `device repository (${lang})`);
  });
});
