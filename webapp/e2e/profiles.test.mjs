// Device profiles: the SuperAdmin imports the fixture device repository
// (modules/decoders/testdata/devrepo); a CompanyAdmin makes a profile of
// the Acme TH1 model in one step, labels its temperature key and gives it a
// dashboard module; a node created with the profile shows the labelled key
// on its page and has its own dashboard with the template's module. axe
// finds nothing serious on the profile pages in the light and dark theme.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { launchBrowser, newContext, pageLang, setTheme, signIn, watchPage, waitForSwapSettled } from "./lib/browser.mjs";
import { checkA11y } from "./lib/axe.mjs";
import { t as msg, tf } from "./lib/env.mjs";
import { startFieldhub } from "./lib/server.mjs";

const fixture = fileURLToPath(new URL("../../modules/decoders/testdata/devrepo", import.meta.url));

let browser, server, archive;

before(async () => {
  [server, browser] = await Promise.all([startFieldhub(), launchBrowser()]);
  const dir = mkdtempSync(join(tmpdir(), "fieldhub-profiles-"));
  archive = join(dir, "lorawan-devices.tar.gz");
  execFileSync("tar", ["-czf", archive, "-C", fixture, "vendor"]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function axeBothThemes(page, label) {
  await checkA11y(page, `${label}, light`);
  await setTheme(page, true);
  await checkA11y(page, `${label}, dark`);
  await setTheme(page, false);
}

describe("device profiles", () => {
  test("a profile from a model gives a new node its labelled keys and dashboard", async (t) => {
    // The SuperAdmin imports the repository.
    const sa = await newContext(browser, server);
    t.after(() => sa.close());
    await signIn(sa, server.accounts.superAdmin);
    const saPage = await sa.newPage();
    await saPage.goto("/devices");
    const saLang = await pageLang(saPage);
    await saPage.getByLabel(msg(saLang, "devices.import.archive")).setInputFiles(archive);
    await saPage.getByRole("button", { name: msg(saLang, "devices.import.submit") }).click();
    await saPage.getByRole("heading", { name: msg(saLang, "devices.report.title") }).waitFor();
    // Each imported model offers a profile made from it in one step.
    await saPage.locator('[data-create-profile="acme/th1"]').first().waitFor();

    const [company] = server.accounts.companies;
    const token = await server.token(company.companyAdmin);
    const app = await server.api("POST", `/api/applications/${company.id}`, { token, body: { name: "Offices" } });

    const context = await newContext(browser, server);
    t.after(() => context.close());
    await signIn(context, company.companyAdmin);
    const page = await context.newPage();
    const watch = watchPage(page);

    await page.goto("/profiles");
    const lang = await pageLang(page);
    await page.getByText(msg(lang, "profiles.page.empty")).waitFor();
    await axeBothThemes(page, "empty profile list");

    // From the model, in one step.
    await page.goto("/profiles/create");
    const models = page.locator("#models");
    await models.getByRole("row").filter({ hasText: "ttn/acme/th1-codec" }).getByRole("button").click();
    await page.waitForURL(/\/profiles\/\d+$/);
    const form = page.locator("form[data-profile-form]");
    assert.equal(await form.getByLabel(msg(lang, "profiles.form.decoder"), { exact: true }).inputValue(), "ttn/acme/th1-codec");
    await axeBothThemes(page, "profile form");

    // Its key label and dashboard template.
    const keyRow = form.getByRole("group", { name: tf(lang, "profiles.form.row", { n: 1 }) }).first();
    await keyRow.getByLabel(msg(lang, "profiles.form.key"), { exact: true }).fill("temperature");
    await keyRow.getByLabel(msg(lang, "profiles.form.label"), { exact: true }).fill("Air temperature");
    await keyRow.getByLabel(msg(lang, "profiles.form.unit"), { exact: true }).fill("°C");
    await form.locator('[name="defaultKey"]').fill("temperature");
    await form.locator('[name="dashboard[0].title"]').fill("Temperature");
    await form.locator('[name="dashboard[0].tagKey"]').fill("temperature");
    await form.getByRole("button", { name: msg(lang, "profiles.form.save") }).click();
    await page.getByRole("status").filter({ hasText: msg(lang, "profiles.updated") }).or(page.getByText(msg(lang, "profiles.updated"))).first().waitFor();
    await waitForSwapSettled(page);
    const profileURL = page.url();

    // A node created with the profile.
    await page.goto(`/tag/create?applicationId=${app.id}`);
    const tagForm = page.locator('form[action="/tag/create"]');
    await tagForm.getByLabel(msg(lang, "nodes.form.profile"), { exact: true }).selectOption({ label: "Acme TH1 Temperature and Humidity Sensor" });
    await tagForm.getByLabel(msg(lang, "page.tag.field.name"), { exact: true }).fill("Office TH1");
    await tagForm.getByLabel(msg(lang, "page.tag.field.deveui"), { exact: true }).fill("70B3D57ED0001234");
    await tagForm.getByRole("button", { name: msg(lang, "page.tag.create.submit") }).click();
    await page.waitForURL("/tagdetails/70B3D57ED0001234");
    const label = page.locator("#keys").getByLabel(tf(lang, "page.tag.key.labelOf", { key: "temperature" }), { exact: true });
    assert.equal(await label.inputValue(), "Air temperature");
    assert.equal(await page.locator("#keys").getByLabel(tf(lang, "page.tag.key.unitOf", { key: "temperature" }), { exact: true }).inputValue(), "°C");

    // Its dashboard, with the template's module.
    const boards = await server.api("GET", `/api/companies/${company.id}/dashboards`, { token });
    const board = boards.find((d) => d.name === "Office TH1");
    assert.ok(board, `the node's dashboard among ${JSON.stringify(boards)}`);
    await page.goto(`/dashboard/${board.dashboardId}`);
    await page.getByText("Temperature", { exact: true }).first().waitFor();

    // The profile offers to apply a change to its node.
    await page.goto(profileURL);
    await page.getByText(tf(lang, "profiles.apply.text", { count: 1 })).waitFor();
    watch.check();
  });
});
