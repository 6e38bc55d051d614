// Reports: a CompanyAdmin creates a monthly report in the report editor,
// sends it now from the list, the mail arrives at a real SMTP server with
// the .xlsx and the CSV file attached, and an export of the last 24 hours
// downloads as .xlsx from the export dialog; an export of a node without
// data says so (a real 404). axe in light and dark on the list and the editor.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { checkA11y } from "./lib/axe.mjs";
import { launchBrowser, newContext, readSnackbar, setTheme, signIn, tr, waitForIslands, watchPage } from "./lib/browser.mjs";
import { startMailbox } from "./lib/mailbox.mjs";
import { startFieldhub } from "./lib/server.mjs";

const TANK = { name: "Rain tank", deveui: "70B3D57ED00000C1" };
const SILENT = { name: "Silent node", deveui: "70B3D57ED00000C2" };
const CONTACT = "inspector@acme-reports.example";

let browser, server, mailbox, acme;

before(async () => {
  mailbox = await startMailbox();
  [server, browser] = await Promise.all([startFieldhub({ mailbox }), launchBrowser()]);
  acme = server.accounts.companies[0];
  const adminToken = await server.token(acme.companyAdmin);
  const call = (method, path, body, token = adminToken) => server.api(method, path, { token, body });
  const app = await call("POST", `/api/applications/${acme.id}`, { name: "Reports field" });
  const { token } = await call("POST", `/api/integration/tokens/${acme.id}`, { label: "report uplinks", isCompany: true });
  for (const node of [TANK, SILENT]) node.id = (await call("POST", `/api/applications/${app.id}/tag`, node)).id;
  await call("POST", "/api/ingest/generic", { devEui: TANK.deveui, values: { level: 120.5 } }, token);
  // The silent node has the key but never reported.
  await call("POST", "/api/tag/key/add", { tagId: SILENT.id, key: "level" });
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await mailbox?.close();
});

async function freshPage(t, opts) {
  const context = await newContext(browser, server, opts);
  t.after(() => context.close());
  await signIn(context, acme.companyAdmin);
  const page = await context.newPage();
  return { page, watch: watchPage(page) };
}

async function axe(page, what) {
  for (const dark of [false, true]) {
    await setTheme(page, dark);
    await checkA11y(page, `${what}, ${dark ? "dark" : "light"}`);
  }
  await setTheme(page, false);
}

describe("reports", () => {
  test("create a report, send it now, receive the mail with its files", async (t) => {
    const { page, watch } = await freshPage(t);
    await page.goto("/report/create");
    await waitForIslands(page);
    const _ = await tr(page);
    await axe(page, "/report/create");
    await page.getByLabel(_("reports.editor.name")).fill("Tank levels");
    await page.getByLabel(_("reports.editor.tempo")).selectOption("2");
    await page.getByLabel(new RegExp(TANK.name)).check();
    await page.getByRole("checkbox", { name: /level/ }).check();
    await page.getByLabel(_("reports.editor.contacts")).fill(CONTACT);
    await page.getByRole("button", { name: _("reports.editor.showPreview") }).click();
    await page.getByRole("heading", { name: _("reports.editor.preview") }).waitFor();
    assert.ok(await page.getByRole("cell", { name: /120[.,]5/ }).count(), "the preview shows the stored level");
    await page.getByRole("button", { name: _("reports.editor.create") }).click();
    await page.waitForURL("/report");
    assert.equal(await readSnackbar(page), _("reports.editor.created"));
    await waitForIslands(page);
    await axe(page, "/report");
    const row = page.getByRole("row", { name: /Tank levels/ });
    await row.getByText(_("reports.tempo.2")).waitFor();
    await row.getByRole("button", { name: new RegExp(_("reports.sendNow")) }).click();
    await page.waitForURL("/report");
    const mail = await mailbox.waitFor((m) => m.envelope.to.includes(CONTACT));
    assert.match(mail.subject, /Tank levels/);
    const names = mail.attachments.map((a) => a.name);
    assert.ok(names.some((n) => /\.xlsx$/.test(n)) && names.some((n) => /\.csv$/.test(n)), `attachments ${names}`);
    const xlsx = mail.attachments.find((a) => a.name.endsWith(".xlsx"));
    assert.equal(xlsx.data.subarray(0, 2).toString(), "PK", "the .xlsx is a zip");
    assert.equal(await page.getByRole("row", { name: /Tank levels/ }).getByText(_("reports.never")).count(), 0, "lastSent shows");
    watch.check();
  });

  test("export the last 24 hours as .xlsx; a node without the key has no data", async (t) => {
    const { page, watch } = await freshPage(t);
    await page.goto("/report");
    await waitForIslands(page);
    const _ = await tr(page);
    await page.getByRole("button", { name: _("reports.export.open") }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: _("reports.export.title") }).waitFor();
    await dialog.getByLabel(new RegExp(TANK.name)).check();
    await dialog.getByRole("checkbox", { name: /level/ }).check();
    const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: _("reports.export.download") }).click()]);
    assert.match(download.suggestedFilename(), /^report-\d{4}-\d{2}-\d{2}\.xlsx$/);
    await dialog.waitFor({ state: "detached" });

    // The silent node never reported: the no-data message of a real 404.
    await page.getByRole("button", { name: _("reports.export.open") }).click();
    await dialog.getByLabel(new RegExp(TANK.name)).uncheck(); // the dialog keeps the last choice
    await dialog.getByLabel(new RegExp(SILENT.name)).check();
    await dialog.getByRole("checkbox", { name: /level/ }).check();
    await dialog.getByLabel(_("reports.export.format")).selectOption("csv");
    await dialog.getByRole("button", { name: _("reports.export.download") }).click();
    await dialog.getByRole("alert").getByText(_("reports.noData")).waitFor();
    await page.keyboard.press("Escape"); // the focus stayed on Download, in the dialog
    await dialog.waitFor({ state: "detached" });
    watch.check([/^HTTP 404: POST \/api\/report\/multiexport$/]);
  });
});
