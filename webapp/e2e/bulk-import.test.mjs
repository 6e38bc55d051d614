// The bulk import of nodes (/tag/import): a CompanyAdmin reaches it from
// the node list, checks an XLSX of 52 rows whose dry run refuses two (a
// DevEUI that is not one, and one that is in an earlier row), imports the
// file without them by keyboard (50 nodes), downloads the export and checks
// it: every row unchanged. A file that is no spreadsheet is said at once.
// axe finds nothing serious in the light and the dark theme, and the page
// speaks Swedish to a Swedish browser.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { checkA11y } from "./lib/axe.mjs";
import { launchBrowser, newContext, pageLang, setTheme, signIn, waitForSwapSettled, watchPage } from "./lib/browser.mjs";
import { artifactPath, t as msg, tf } from "./lib/env.mjs";
import { startFieldhub } from "./lib/server.mjs";

let browser, server, dir;

before(async () => {
  [server, browser] = await Promise.all([startFieldhub(), launchBrowser()]);
  const acme = server.accounts.companies[0];
  await server.api("POST", `/api/applications/${acme.id}`, { token: await server.token(acme.companyAdmin), body: { name: "Bulk field" } });
  dir = mkdtempSync(join(tmpdir(), "fieldhub-bulk-"));
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const escapeXML = (s) => String(s).replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

// writeXLSX writes a workbook of one sheet of text cells, as the zip of
// SpreadsheetML parts a spreadsheet program saves.
function writeXLSX(name, rows) {
  const root = mkdtempSync(join(dir, "xlsx-"));
  const put = (path, text) => {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${text}`);
  };
  const col = (i) => String.fromCharCode(65 + i);
  const sheet = rows
    .map((cells, r) => `<row r="${r + 1}">${cells.map((c, i) => `<c r="${col(i)}${r + 1}" t="inlineStr"><is><t>${escapeXML(c)}</t></is></c>`).join("")}</row>`)
    .join("");
  put("[Content_Types].xml", `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`);
  put("_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`);
  put("xl/workbook.xml", `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Nodes" sheetId="1" r:id="rId1"/></sheets></workbook>`);
  put("xl/_rels/workbook.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`);
  put("xl/worksheets/sheet1.xml", `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheet}</sheetData></worksheet>`);
  const file = join(dir, name);
  execFileSync("zip", ["-X", "-q", "-r", file, "."], { cwd: root });
  return file;
}

const header = ["name", "devEUI", "joinEUI", "appKey", "application", "decoder", "latitude", "longitude", "label:temperature"];
const good = Array.from({ length: 50 }, (_, i) => [
  `Bulk ${String(i + 1).padStart(2, "0")}`,
  `70B3D57ED00B${(i + 1).toString(16).toUpperCase().padStart(4, "0")}`,
  "70B3D57ED0000001",
  (i + 1).toString(16).toUpperCase().padStart(32, "0"),
  "Bulk field",
  "raw",
  String(59.3 + i / 1000),
  "18.07",
  i % 2 ? "" : "Temperature",
]);
// Two bad rows: rows 27 and 53 of the sheet.
const bad = [...good.slice(0, 25), ["Broken", "NOT-A-DEVEUI", "", "", "Bulk field", "raw", "", "", ""], ...good.slice(25), ["Twin", good[0][1], "", "", "Bulk field", "raw", "", "", ""]];

describe("bulk import", () => {
  test("a dry run refuses two rows; the file without them imports 50 nodes; the export imports unchanged", async (t) => {
    const acme = server.accounts.companies[0];
    const context = await newContext(browser, server, { acceptDownloads: true });
    t.after(() => context.close());
    await signIn(context, acme.companyAdmin);
    const page = await context.newPage();
    const watch = watchPage(page);

    await page.goto("/tag");
    const lang = await pageLang(page);
    await page.getByRole("link", { name: msg(lang, "page.tag.import") }).click();
    await page.getByRole("heading", { name: msg(lang, "page.tag.import.title") }).waitFor();
    const file = page.getByLabel(msg(lang, "page.tag.import.file"));
    const check = page.getByRole("button", { name: msg(lang, "page.tag.import.check") });
    const result = page.locator("#import-result");

    // Not a spreadsheet: said at once, nothing else.
    const notes = join(dir, "notes.txt");
    writeFileSync(notes, Buffer.from([0, 1, 2, 255]));
    await file.setInputFiles(notes);
    await check.click();
    await result.getByRole("alert").getByText(msg(lang, "nodes.import.fileType")).waitFor();

    // The dry run of 52 rows, submitted from the keyboard.
    await file.setInputFiles(writeXLSX("bad.xlsx", [header, ...bad]));
    await check.focus();
    await page.keyboard.press("Enter");
    await result.getByText(tf(lang, "page.tag.import.summary", { created: 50, changed: 0, unchanged: 0, refused: 2 })).waitFor();
    const refused = result.locator('tr[data-action="refused"]');
    assert.equal(await refused.count(), 2, "two refused rows");
    await refused.filter({ hasText: "Broken" }).getByText(msg(lang, "nodes.deveui.format")).waitFor();
    await refused.filter({ hasText: "Twin" }).getByText(tf(lang, "nodes.import.duplicate", { row: 2 })).waitFor();
    assert.equal(await refused.first().locator("th").textContent(), "27", "rows are numbered as the sheet shows them");
    assert.equal(await result.getByRole("button").count(), 0, "no import while rows are refused");
    await result.getByText(msg(lang, "page.tag.import.refusedHint")).waitFor();
    for (const dark of [false, true]) {
      const theme = dark ? "dark" : "light";
      await setTheme(page, dark);
      await checkA11y(page, `bulk import dry run (${theme})`);
      await page.screenshot({ path: artifactPath(`bulk-import-${theme}.png`), fullPage: true, animations: "disabled" });
    }
    await setTheme(page, false);

    // The bad rows dropped: checked, then imported by keyboard.
    await file.setInputFiles(writeXLSX("good.xlsx", [header, ...good]));
    await check.click();
    const apply = result.getByRole("button", { name: tf(lang, "page.tag.import.apply", { created: 50, changed: 0 }) });
    await apply.focus();
    await page.keyboard.press("Enter");
    await result.getByText(tf(lang, "page.tag.import.done", { created: 50, changed: 0 })).first().waitFor();
    await waitForSwapSettled(page);
    const tags = await server.api("GET", `/api/companies/${acme.id}/tags`, { token: await server.token(acme.companyAdmin) });
    assert.equal(tags.filter((n) => n.name.startsWith("Bulk ")).length, 50, "50 nodes stored");

    // The export, checked again: nothing to do.
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: msg(lang, "page.tag.import.exportXLSX") }).click();
    const exported = await download;
    assert.match(exported.suggestedFilename(), /^nodes-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const path = join(dir, "export.xlsx");
    await exported.saveAs(path);
    assert.equal(readFileSync(path).subarray(0, 2).toString(), "PK", "the export is a workbook");
    await file.setInputFiles(path);
    await check.click();
    await result.getByText(tf(lang, "page.tag.import.summary", { created: 0, changed: 0, unchanged: 50, refused: 0 })).waitFor();
    await result.getByText(msg(lang, "page.tag.import.nothing")).waitFor();

    watch.check();
    assert.deepEqual(server.errors(), []);
  });

  test("a Swedish browser's import page", async (t) => {
    const acme = server.accounts.companies[0];
    const context = await newContext(browser, server, { locale: "sv-SE" });
    t.after(() => context.close());
    await signIn(context, acme.admin);
    const page = await context.newPage();
    await page.goto("/tag/import");
    const lang = await pageLang(page);
    await page.getByRole("heading", { name: msg(lang, "page.tag.import.title") }).waitFor();
    await checkA11y(page, `bulk import (${lang})`);
  });
});
