// From token to first uplink: the network server setup of an application
// page. A CompanyAdmin opens a ChirpStack application: the page shows the
// address to paste (the portal's public URL and the ingest route) and the
// header, whose copy buttons work by keyboard, and waits for the first
// uplink; an uplink posted through the address the page shows turns the
// status green live, without a reload. On a The Things Stack application
// without nodes, an uplink of a DevEUI nobody added turns it green too,
// saying "a DevEUI you have not added sent data", with a link that adds it. axe-core finds
// nothing serious in either theme.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, test } from "node:test";
import { transformWithOxc } from "vite";
import { checkA11y } from "./lib/axe.mjs";
import { launchBrowser, newContext, pageLang, signIn, watchPage } from "./lib/browser.mjs";
import { artifactPath, t as msg, tf, webappDir } from "./lib/env.mjs";
import { startFieldhub } from "./lib/server.mjs";

// loadModel compiles the island's model (TypeScript with type imports
// only) for Node.
async function loadModel() {
  const file = join(webappDir, "src", "features", "netservers", "utils", "first-uplink.ts");
  const { code } = await transformWithOxc(readFileSync(file, "utf8"), file, { lang: "ts" });
  const dir = mkdtempSync(join(tmpdir(), "fieldhub-first-uplink-"));
  const out = join(dir, "first-uplink.mjs");
  writeFileSync(out, code);
  try {
    return await import(pathToFileURL(out).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("the first-uplink model: the application's uplinks, and the pooled DevEUIs worth adding", async () => {
  const m = await loadModel();
  const ev = (id, deveui, name) => ({ id, date: "2026-11-27T10:00:00Z", tag: { name, deveui }, data: {} });
  const own = ["70B3D57ED0000A01"];
  assert.equal(m.liveUplink([ev("2", "70B3D57ED0000FFF", "Other")], own), null, "another application's node does not count");
  assert.deepEqual(m.liveUplink([ev("3", "70b3d57ed0000a01", "Cellar"), ev("1", "70B3D57ED0000A01", "Old")], own), {
    name: "Cellar",
    deveui: "70B3D57ED0000A01",
    time: "2026-11-27T10:00:00Z",
  });

  const now = Date.parse("2026-11-27T12:00:00Z");
  const pool = (id, deveui, createdAt, messageId = m.poolMessageId) => ({ id, type: "WARNING", message: "", messageId, deveui, data: {}, createdAt });
  const log = [
    pool(9, "A1A2A3A4A5A6A7A8", "2026-11-27T11:59:00Z"),
    pool(8, "a1a2a3a4a5a6a7a8", "2026-11-27T11:00:00Z"),
    pool(7, "70B3D57ED0000A01", "2026-11-27T11:00:00Z"),
    pool(6, "B1B2B3B4B5B6B7B8", "2026-11-27T10:00:00Z", "logs.entry.join"),
    pool(5, "C1C2C3C4C5C6C7C8", "2026-11-25T10:00:00Z"),
    pool(4, "D1D2D3D4D5D6D7D8", "2026-11-27T09:00:00Z"),
  ];
  assert.deepEqual(m.pooledDevEUIs(log, own, now), ["A1A2A3A4A5A6A7A8", "D1D2D3D4D5D6D7D8"], "each once, not a node, not another entry, not older than a day");
  const many = Array.from({ length: 8 }, (_, i) => pool(i, `E${i}E2E3E4E5E6E7E8`, "2026-11-27T11:00:00Z"));
  assert.equal(m.pooledDevEUIs(many, [], now).length, m.maxPooled);

  assert.equal(m.addNodePath("A1A2A3A4A5A6A7A8", 7), "/tag/create/A1A2A3A4A5A6A7A8?applicationId=7");
  assert.equal(m.readProps({ deveuis: [] }), null, "an application is needed");
  assert.deepEqual(m.readProps({ applicationId: 7, companyId: 0, deveuis: ["70b3d57ed0000a01", 5], last: { name: "x", deveui: "ab", time: "soon" } }), {
    applicationId: 7,
    deveuis: ["70B3D57ED0000A01"],
  });
});

let browser, server, acme, ingestToken;
let chirpstackApp, ttsApp;
const node = { name: "Cellar sensor", deveui: "70B3D57ED0000A01" };
const stranger = "70B3D57ED0000B02";

before(async () => {
  [server, browser] = await Promise.all([startFieldhub(), launchBrowser()]);
  acme = server.accounts.companies[0];
  const token = await server.token(acme.companyAdmin);
  chirpstackApp = await server.api("POST", `/api/applications/${acme.id}`, { token, body: { name: "Cellar", networkServer: "chirpstack" } });
  await server.api("POST", `/api/applications/${chirpstackApp.id}/tag`, { token, body: { name: node.name, deveui: node.deveui } });
  ttsApp = await server.api("POST", `/api/applications/${acme.id}`, { token, body: { name: "Field", networkServer: "tts" } });
  const created = await server.api("POST", `/api/integration/tokens/${acme.id}`, { token, body: { label: "e2e network server", isCompany: true } });
  ingestToken = created.token;
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// post sends a network server's body to an address the page showed.
async function post(url, body, status) {
  const res = await fetch(url, {
    method: "POST",
    headers: { Authorization: `Bearer ${ingestToken}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, status, `${url}: ${res.status} ${await res.text()}`);
}

// openApplication signs the CompanyAdmin in (with the clipboard) and opens
// an application's page, once its first-uplink island follows the feed.
async function openApplication(t, app) {
  const context = await newContext(browser, server);
  t.after(() => context.close());
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseURL });
  await signIn(context, acme.companyAdmin);
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto(`/application/${app.id}`);
  await page.locator('.first-uplink [data-feed="live"]').waitFor();
  // Set on this document only: a reload would lose it.
  await page.evaluate(() => (window.stillThisPage = true));
  return { page, watch, lang: await pageLang(page) };
}

// copyByKeyboard tabs from a value to its copy button, presses key, and
// checks the snackbar and the clipboard.
async function copyByKeyboard(page, inputId, key, copied, want) {
  await page.locator(`#${inputId}`).focus();
  await page.keyboard.press("Tab");
  const focused = await page.evaluate(() => document.activeElement?.dataset.copy ?? "");
  assert.equal(focused, inputId, `Tab from #${inputId} reaches its copy button`);
  await page.keyboard.press(key);
  await page.locator("#snackbar.visible", { hasText: copied }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), want);
}

test("a ChirpStack application shows where to send uplinks and turns green on the first one", async (t) => {
  const { page, watch, lang } = await openApplication(t, chirpstackApp);
  const setup = page.getByRole("region", { name: msg(lang, "page.application.ingest.title.chirpstack") });
  await setup.waitFor();

  // The address: the portal's public URL and the route; ChirpStack adds ?event=up itself.
  const url = await page.locator("#ingest-url").inputValue();
  assert.equal(url, `${server.baseURL}/api/ingest/chirpstack`);
  await setup.getByText(msg(lang, "page.application.ingest.urlHint.chirpstack")).waitFor();
  assert.equal(await page.locator("#ingest-header").inputValue(), "Authorization");
  await copyByKeyboard(page, "ingest-url", "Enter", msg(lang, "page.application.ingest.urlCopied"), url);
  await copyByKeyboard(page, "ingest-header", "Space", msg(lang, "page.application.ingest.headerCopied"), "Authorization");

  // The checklist of ChirpStack's own settings, and the token the company has.
  for (const step of [1, 2, 3, 4, 5]) {
    await setup.getByText(msg(lang, `page.application.ingest.step.chirpstack.${step}`)).waitFor();
  }
  await setup.getByText(tf(lang, "page.application.ingest.tokenSome", { count: 1 })).waitFor();
  const waiting = setup.locator(".uplink-status.waiting");
  await waiting.getByText(msg(lang, "page.application.ingest.waiting")).waitFor();

  for (const theme of ["light", "dark"]) {
    await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
    const { other } = await checkA11y(page, `the application page waiting (${theme})`);
    for (const v of other) t.diagnostic(`axe ${v.impact} (${theme}): ${v.id} – ${v.help} (${v.nodes.length} node(s))`);
    await page.screenshot({ path: artifactPath(`application-ingest-waiting-${theme}.png`), animations: "disabled", fullPage: true });
  }
  await page.evaluate(() => (document.documentElement.dataset.theme = "light"));

  // ChirpStack posts to the address it was given, with its event parameter.
  const now = new Date().toISOString();
  await post(`${url}?event=up`, { time: now, deviceInfo: { devEui: node.deveui.toLowerCase(), deviceName: "cellar" }, fPort: 1, data: "AQ==", object: { temperature: 21.5 } }, 200);
  const green = setup.locator('.uplink-status.received[data-live="true"]');
  await green.waitFor();
  const text = await green.innerText();
  assert.ok(text.includes(node.name) && text.includes(node.deveui), `the status names the node: ${text}`);
  assert.equal(await waiting.count(), 0, "no longer waiting");
  assert.equal(await page.evaluate(() => window.stillThisPage), true, "the page turned green without a reload");
  assert.equal(await green.getAttribute("role"), "status", "the change is announced");

  for (const theme of ["light", "dark"]) {
    await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
    await checkA11y(page, `the application page after the first uplink (${theme})`);
    await page.screenshot({ path: artifactPath(`application-ingest-received-${theme}.png`), animations: "disabled" });
  }
  watch.check();
});

test("a DevEUI nobody added shows on a The Things Stack application, with a link that adds it", async (t) => {
  const { page, watch, lang } = await openApplication(t, ttsApp);
  const setup = page.getByRole("region", { name: msg(lang, "page.application.ingest.title.tts") });
  await setup.waitFor();
  const url = await page.locator("#ingest-url").inputValue();
  assert.equal(url, `${server.baseURL}/api/ingest/tts`);
  for (const step of [1, 2, 3, 4, 5]) {
    await setup.getByText(msg(lang, `page.application.ingest.step.tts.${step}`)).waitFor();
  }

  // The Things Stack posts the webhook's uplink message to its base URL.
  const now = new Date().toISOString();
  await post(
    url,
    {
      end_device_ids: { device_id: "stray", dev_eui: stranger.toLowerCase() },
      received_at: now,
      uplink_message: { f_port: 1, frm_payload: "AQ==", received_at: now },
    },
    202,
  );
  const pooled = setup.locator(".uplink-status.pooled", { hasText: tf(lang, "page.application.ingest.pooled", { deveui: stranger }) });
  await pooled.waitFor();
  assert.ok((await pooled.getAttribute("class")).includes("received"), "a pooled DevEUI turns the status green too");
  assert.equal(await setup.locator(".uplink-status.waiting").count(), 0, "no longer waiting");
  assert.equal(await page.evaluate(() => window.stillThisPage), true, "shown without a reload");
  for (const theme of ["light", "dark"]) {
    await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
    await checkA11y(page, `the application page with a pooled DevEUI (${theme})`);
    await pooled.screenshot({ path: artifactPath(`application-ingest-pooled-${theme}.png`), animations: "disabled" });
  }

  // "Add it", by keyboard: the node form for that DevEUI in this application.
  const add = pooled.getByRole("link", { name: tf(lang, "page.application.ingest.addItLabel", { deveui: stranger }) });
  await add.focus();
  await page.keyboard.press("Enter");
  await page.waitForURL(`**/tag/create/${stranger}?applicationId=${ttsApp.id}`);
  assert.equal(await page.locator('input[name="deveui"]').inputValue(), stranger);
  watch.check();
});
