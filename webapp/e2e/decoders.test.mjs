// The decoder pages (/decoders, /decoders/create, /decoders/{id}) and their
// decoder-editor island: a CompanyAdmin writes a JavaScript codec (Tab
// indents), tests a payload (decoded JSON, console log, time taken; a throw
// shows as errors), saves it, saves a second version and rolls back, picks
// the decoder on a node, and an uplink of the node is decoded by it; axe
// finds nothing serious in the light and the dark theme.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { launchBrowser, newContext, pageLang, setTheme, signIn, waitForIslands, watchPage } from "./lib/browser.mjs";
import { checkA11y } from "./lib/axe.mjs";
import { artifactPath, t as msg, tf } from "./lib/env.mjs";
import { startFieldhub } from "./lib/server.mjs";

const DEVEUI = "70B3D57ED00000D1";

let browser, server, acme, admin, adminToken, ingestToken;

before(async () => {
  [server, browser] = await Promise.all([startFieldhub(), launchBrowser()]);
  acme = server.accounts.companies[0];
  admin = acme.companyAdmin;
  adminToken = await server.token(admin);
  const call = (method, path, body) => server.api(method, path, { token: adminToken, body });
  const app = await call("POST", `/api/applications/${acme.id}`, { name: "Tank field" });
  await call("POST", `/api/applications/${app.id}/tag`, { name: "Tank node", deveui: DEVEUI });
  ({ token: ingestToken } = await call("POST", `/api/integration/tokens/${acme.id}`, { label: "tank uplinks", isCompany: true }));
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const CODEC = [
  "function decodeUplink(input) {",
  'console.log("port " + input.fPort);',
  "return { data: { level: input.bytes[0] * 2 } };",
  "}",
].join("\n");

describe("decoder page", () => {
  test("write a codec, test a payload, save, version and roll back, pick it on a node", async (t) => {
    const context = await newContext(browser, server);
    t.after(() => context.close());
    await signIn(context, admin);
    const page = await context.newPage();
    const watch = watchPage(page);

    // The menu entry leads to the list, whose empty state offers a new decoder.
    await page.goto("/decoders");
    const lang = await pageLang(page);
    await page.getByText(msg(lang, "decoders.page.empty")).waitFor();
    await page.locator("main").getByRole("link", { name: msg(lang, "decoders.page.new") }).first().click();
    await page.waitForURL("**/decoders/create");
    await waitForIslands(page);
    const island = page.locator('[data-island="decoder-editor"]');

    // The name and the codec; Tab in the editor indents instead of leaving it.
    await island.getByLabel(msg(lang, "decoders.editor.name"), { exact: true }).fill("Tank level");
    const editor = island.getByRole("textbox", { name: msg(lang, "decoders.editor.source"), exact: true });
    await editor.fill(CODEC);
    await editor.focus();
    await page.keyboard.press("Control+Home");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Home");
    await page.keyboard.press("Tab");
    assert.ok((await editor.inputValue()).includes('\n  console.log("port "'), "Tab indents the line");
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), "TEXTAREA", "Tab stays in the editor");
    await page.keyboard.press("Escape");
    await page.keyboard.press("Tab");
    assert.notEqual(await page.evaluate(() => document.activeElement?.tagName), "TEXTAREA", "Escape, then Tab leaves the editor");
    assert.equal(await island.locator(".fh-code__gutter").innerText(), "1\n2\n3\n4", "a line number per line");

    // Test a payload: the decoded JSON, the console log and the time taken.
    await island.getByLabel(msg(lang, "decoders.test.fPortLabel"), { exact: true }).fill("7");
    await island.getByLabel(msg(lang, "decoders.test.payloadLabel"), { exact: true }).fill("15");
    const testCall = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/decoder/test");
    await island.getByRole("button", { name: msg(lang, "decoders.test.run"), exact: true }).click();
    assert.equal((await testCall).status(), 200);
    const output = island.locator(".fh-decoder__output");
    await output.locator(".fh-decoder__json").getByText('"level": 42').waitFor();
    assert.equal(await output.locator(".fh-decoder__log").innerText(), "port 7");
    assert.match(await output.locator(".fh-decoder__took").innerText(), /\d+(\.\d+)? (µs|ms)/);

    // Base64, and a codec that throws: 200 with the error shown, no data.
    await island.locator(".fh-radio", { hasText: msg(lang, "decoders.test.formatBase64") }).click();
    assert.ok(await island.getByRole("radio", { name: msg(lang, "decoders.test.formatBase64") }).isChecked());
    await island.getByLabel(msg(lang, "decoders.test.payloadLabel"), { exact: true }).fill("FQ==");
    await editor.fill("function decodeUplink(input) { throw new RangeError('bad frame ' + input.bytes[0]) }");
    await island.getByRole("button", { name: msg(lang, "decoders.test.run"), exact: true }).click();
    await output.locator(".fh-decoder__list--error").getByText(/RangeError: bad frame 21/).waitFor();
    await output.getByText(msg(lang, "decoders.test.noData")).waitFor();

    // Save: the decoder page with version 1 active.
    await editor.fill(CODEC);
    await island.getByRole("button", { name: msg(lang, "decoders.editor.create"), exact: true }).click();
    await page.waitForURL(/\/decoders\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split("/").pop());
    await waitForIslands(page);
    const versions = page.locator(".fh-decoder__versions");
    await versions.getByText(msg(lang, "decoders.versions.active")).waitFor();
    assert.equal(await versions.locator("tbody tr").count(), 1);

    // A second version, then a roll back to the first.
    const saved = page.locator('[data-island="decoder-editor"]');
    await saved.getByRole("textbox", { name: msg(lang, "decoders.editor.source"), exact: true }).fill(CODEC.replace("* 2", "* 3"));
    await saved.getByRole("button", { name: msg(lang, "decoders.editor.save"), exact: true }).click();
    await saved.getByText(tf(lang, "decoders.editor.saved", { version: 2 })).waitFor();
    assert.equal(await versions.locator("tbody tr").count(), 2);
    await saved.getByRole("button", { name: tf(lang, "decoders.versions.activate", { version: 1 }) }).click();
    await saved.getByText(tf(lang, "decoders.versions.activated", { version: 1 })).waitFor();
    const dec = await server.api("GET", `/api/decoders/${id}`, { token: adminToken });
    assert.equal(dec.activeVersion, 1);

    // Light and dark: nothing serious for axe.
    await checkA11y(page, "decoder page, light");
    await page.screenshot({ path: artifactPath("decoder-light.png"), fullPage: true });
    await setTheme(page, true);
    await waitForIslands(page);
    await checkA11y(page, "decoder page, dark");
    await page.screenshot({ path: artifactPath("decoder-dark.png"), fullPage: true });
    await setTheme(page, false);

    // Pick it on the node; the node's next uplink is decoded by version 1.
    await page.goto(`/tagdetails/${DEVEUI}`);
    const decoderSelect = page.getByLabel(msg(lang, "page.tag.field.decoder"), { exact: true });
    await decoderSelect.selectOption({ label: tf(lang, "decoders.option.custom", { name: "Tank level" }) });
    await page.getByRole("button", { name: msg(lang, "page.tag.save"), exact: true }).click();
    // The save leads back to this very URL, so waiting for the URL returns at
    // once; the toast comes with the page the save led to. Navigating on
    // before it interrupted that navigation (a CI failure).
    await page.locator("#snackbar.visible").getByText(tf(lang, "page.tag.updated", { name: "Tank node" })).waitFor();
    await page.waitForLoadState("load");
    const tags = await server.api("GET", `/api/tag/company/${acme.id}`, { token: adminToken });
    assert.equal(tags.find((n) => n.deveui === DEVEUI)?.decoder, `custom:${id}`);
    const up = await server.api("POST", "/api/ingest/generic", { token: ingestToken, body: { devEui: DEVEUI, fPort: 1, data: "BQ==" } });
    assert.deepEqual(up.keys, ["level"]);
    const level = await server.api("GET", `/api/tag/latest/${tags.find((n) => n.deveui === DEVEUI).id}/level`, { token: adminToken });
    assert.equal(level.value, 10, "version 1 decoded the uplink (5 * 2)");
    await page.goto(`/decoders/${id}`);
    await page.locator("main").getByRole("link", { name: "Tank node" }).waitFor();
    watch.check();
  });
});
