// Scripts: a CompanyAdmin writes a virtual sensor (the dew point of a node's
// temperature and humidity) in the script editor, tests it against the
// node's latest uplink (valid, the result and the write it would do, not
// done), enables it, and after the next uplink the node's page shows the
// dew point it wrote. axe in light and dark on the editor and the list.
// A compiled script: the example of sdk/script (examples/script), built
// here as compiled_test.go builds it, chosen as a .wasm file by keyboard,
// tested (the same dew point), saved, shown as compiled when opened again
// and tested from what was saved, then turned back into JavaScript.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { checkA11y } from "./lib/axe.mjs";
import { launchBrowser, newContext, readSnackbar, setTheme, signIn, tr, waitForIslands, watchPage } from "./lib/browser.mjs";
import { repoRoot } from "./lib/env.mjs";
import { startFieldhub } from "./lib/server.mjs";

const NODE = { name: "Greenhouse", deveui: "70B3D57ED00000D1" };
const DEW_POINT = `var t = trigger.values.temperature, h = trigger.values.humidity;
var g = Math.log(h / 100) + 17.62 * t / (243.12 + t);
var dp = Math.round(243.12 * g / (17.62 - g) * 100) / 100;
write(trigger.tagId, {dew_point: dp}, trigger.time);
return dp;`;

let browser, server, acme, uplink, wasmDir, wasmFile;

// buildExampleScript builds examples/script for GOOS=wasip1 into a
// temporary folder and returns the file's path.
async function buildExampleScript() {
  wasmDir = mkdtempSync(join(tmpdir(), "fieldhub-e2e-script-"));
  const out = join(wasmDir, "dew-point.wasm");
  try {
    await promisify(execFile)("go", ["build", "-buildmode=c-shared", "-o", out, "./examples/script"], {
      cwd: repoRoot,
      env: { ...process.env, GOOS: "wasip1", GOARCH: "wasm" },
      maxBuffer: 16 << 20,
    });
  } catch (err) {
    throw new Error(`build examples/script:\n${err.stderr || err.message}`);
  }
  return out;
}

before(async () => {
  [server, browser, wasmFile] = await Promise.all([startFieldhub(), launchBrowser(), buildExampleScript()]);
  acme = server.accounts.companies[0];
  const adminToken = await server.token(acme.companyAdmin);
  const call = (method, path, body, token = adminToken) => server.api(method, path, { token, body });
  const app = await call("POST", `/api/applications/${acme.id}`, { name: "Scripts field" });
  const { token } = await call("POST", `/api/integration/tokens/${acme.id}`, { label: "script uplinks", isCompany: true });
  NODE.id = (await call("POST", `/api/applications/${app.id}/tag`, NODE)).id;
  uplink = (values) => call("POST", "/api/ingest/generic", { devEui: NODE.deveui, values }, token);
  await uplink({ temperature: 20, humidity: 50 });
});

after(async () => {
  await browser?.close();
  await server?.stop();
  if (wasmDir) rmSync(wasmDir, { recursive: true, force: true });
});

async function axe(page, what) {
  for (const dark of [false, true]) {
    await setTheme(page, dark);
    await checkA11y(page, `${what}, ${dark ? "dark" : "light"}`);
  }
  await setTheme(page, false);
}

describe("scripts", () => {
  test("write a virtual sensor, test it, enable it and see its value", async (t) => {
    const context = await newContext(browser, server);
    t.after(() => context.close());
    await signIn(context, acme.companyAdmin);
    const page = await context.newPage();
    const watch = watchPage(page);
    await page.goto("/script/create");
    await waitForIslands(page);
    const _ = await tr(page);
    await page.getByLabel(_("scripts.editor.name")).fill("Dew point");
    await page.getByLabel(_("scripts.editor.type")).selectOption("2");
    await page.getByLabel(_("scripts.editor.boundTag")).selectOption(String(NODE.id));
    await page.getByLabel(_("scripts.editor.code")).fill(DEW_POINT);
    await axe(page, "/script/create");

    await page.getByRole("button", { name: _("scripts.editor.test") }).click();
    const result = page.getByRole("region", { name: new RegExp(_("scripts.editor.testResult")) });
    await result.getByRole("heading", { name: new RegExp(_("scripts.result.valid")) }).waitFor();
    await result.getByText("9.26").first().waitFor();
    await result.getByText(/dew_point/).waitFor();
    const before = await server.api("GET", `/api/tag/meta/${NODE.id}/tagdata`, { token: await server.token(acme.companyAdmin) });
    assert.ok(!before.some((k) => k.key === "dew_point"), "the test wrote nothing");

    await page.getByLabel(_("scripts.editor.enabled")).check();
    await page.getByRole("button", { name: _("scripts.editor.create") }).click();
    await page.waitForURL("/script");
    assert.equal(await readSnackbar(page), _("scripts.editor.created"));
    const row = page.getByRole("row", { name: /Dew point/ });
    await row.getByText(_("scripts.type.2")).waitFor();
    assert.equal(await row.getByRole("switch").getAttribute("aria-checked"), "true");
    await axe(page, "/script");

    await uplink({ temperature: 20, humidity: 50 });
    await page.goto(`/tagdetails/${NODE.deveui}`);
    for (let i = 0; i < 20 && !(await page.getByText("dew_point").count()); i++) {
      await page.waitForTimeout(250);
      await page.reload();
    }
    await page.getByText("dew_point").first().waitFor();
    await page.getByText(/9[.,]26/).first().waitFor();
    watch.check();
  });

  test("upload a compiled script, test it, save it, and go back to JavaScript", async (t) => {
    const context = await newContext(browser, server);
    t.after(() => context.close());
    await signIn(context, acme.companyAdmin);
    const page = await context.newPage();
    const watch = watchPage(page);
    const adminToken = await server.token(acme.companyAdmin);
    await page.goto("/script/create");
    await waitForIslands(page);
    const _ = await tr(page);
    await page.getByLabel(_("scripts.editor.name")).fill("Compiled dew point");
    await page.getByLabel(_("scripts.editor.type")).selectOption("2");
    await page.getByLabel(_("scripts.editor.boundTag")).selectOption(String(NODE.id));

    // The language by keyboard: the arrow key moves from JavaScript to compiled.
    await page.getByRole("radio", { name: _("scripts.editor.langJS") }).focus();
    await page.keyboard.press("ArrowDown");
    assert.ok(await page.getByRole("radio", { name: _("scripts.editor.langWasm") }).isChecked());
    const code = page.getByRole("textbox", { name: _("scripts.editor.code"), exact: true });
    assert.equal(await code.count(), 0, "no code editor for a compiled script");
    await page.getByText(_("scripts.editor.noModule")).waitFor();

    // The wait for the file chooser starts a few steps ahead of the key
    // press that opens it: the wait has the browser catch file choosers,
    // and a chooser opened before the browser was told so is missed (CI,
    // when the wait and the key press were sent together).
    const chosen = page.waitForEvent("filechooser", { timeout: 60_000 });
    chosen.catch(() => {}); // awaited below; a failure before then is the test's own
    // Testing without a file says what is missing.
    await page.getByRole("button", { name: _("scripts.editor.test") }).click();
    await page.getByRole("alert").getByText(_("scripts.editor.noModule")).waitFor();

    // The file chooser opened from the keyboard.
    const choose = page.getByRole("button", { name: _("scripts.editor.uploadWasm") });
    await choose.focus();
    await page.keyboard.press("Enter");
    const chooser = await chosen;
    await chooser.setFiles(wasmFile);
    const size = statSync(wasmFile).size;
    // The size as the page's language writes it.
    const sizeText = `${await page.evaluate((n) => new Intl.NumberFormat(document.documentElement.lang).format(n), size)} B`;
    await page.getByText(`dew-point.wasm, ${sizeText}`).waitFor();
    await axe(page, "/script/create, compiled");

    await page.getByRole("button", { name: _("scripts.editor.test") }).click();
    const result = page.getByRole("region", { name: new RegExp(_("scripts.editor.testResult")) });
    // The sandbox compiles the module (some MB of Go) for the test first.
    await result.waitFor({ timeout: 60_000 });
    await result.getByRole("heading", { name: new RegExp(_("scripts.result.valid")) }).waitFor();
    await result.getByText("9.26").first().waitFor();
    await result.getByText(/dew_point/).waitFor();

    await page.getByLabel(_("scripts.editor.enabled")).check();
    await page.getByRole("button", { name: _("scripts.editor.create") }).click();
    await page.waitForURL("/script");
    assert.equal(await readSnackbar(page), _("scripts.editor.created"));
    const link = page.getByRole("row", { name: /Compiled dew point/ }).getByRole("link", { name: "Compiled dew point" });
    const href = await link.getAttribute("href");
    const id = Number(href.split("/").pop());
    const saved = await server.api("GET", `/api/script/${id}`, { token: adminToken });
    assert.equal(Buffer.from(saved.module, "base64").length, size, "the module was saved whole");

    // Opened again: compiled, with the saved module's size; its test runs
    // the saved module.
    await link.click();
    await page.waitForURL(href);
    await waitForIslands(page);
    assert.ok(await page.getByRole("radio", { name: _("scripts.editor.langWasm") }).isChecked());
    await page.getByText(sizeText).waitFor();
    await page.getByRole("button", { name: _("scripts.editor.replaceWasm") }).waitFor();
    await page.getByRole("button", { name: _("scripts.editor.test") }).click();
    await page
      .getByRole("region", { name: new RegExp(_("scripts.editor.testResult")) })
      .getByText("9.26")
      .first()
      .waitFor({ timeout: 60_000 });
    await axe(page, "/script/{id}, compiled");

    // Back to JavaScript: the editor warns, and saving removes the module.
    await page.getByRole("radio", { name: _("scripts.editor.langJS") }).check();
    await page.getByText(_("scripts.editor.backToJS")).waitFor();
    await code.fill(DEW_POINT);
    await page.getByRole("button", { name: _("scripts.editor.save") }).click();
    await page.waitForURL("/script");
    const after = await server.api("GET", `/api/script/${id}`, { token: adminToken });
    assert.equal(after.module, undefined, "the module was removed");
    assert.equal(after.content, DEW_POINT);
    watch.check();
  });
});
