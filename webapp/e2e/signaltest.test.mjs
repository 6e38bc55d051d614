// A field signal test from start to completion: a User starts a test of a
// node on /signaltest, ChirpStack uplinks of the node (bodies shaped as
// modules/netservers/testdata/chirpstack_v4_up.json, with a decoded
// position in "object" and the gateways in "rxInfo") are posted through the
// ingest route, and each appears live on /signaltest/peek/{id}'s map and
// table without a reload; the test is completed ("Complete test"), the
// averages it shows equal those of its points, the CSV export downloads
// every point; the list shows it completed and deletes it after a
// confirmation. A second test of a node with an active one is refused
// with the server's reason. axe in light and dark on both pages.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { checkA11y } from "./lib/axe.mjs";
import { launchBrowser, newContext, pageLang, readSnackbar, assertSnackbar, signIn, waitForIslands, watchPage } from "./lib/browser.mjs";
import { artifactPath, repoRoot, t as msg, tf } from "./lib/env.mjs";
import { startFieldhub } from "./lib/server.mjs";

// Tiles go to a port where nothing listens: the test network has no tile
// server, and the points stand on the map's plain background.
const tileUrl = "http://127.0.0.1:9/tiles/{z}/{x}/{y}.png";
const allowed = [/request failed: GET http:\/\/127\.0\.0\.1:9\/tiles\//];

const node = { name: "Field walker", deveui: "70B3D57ED0000A01" };
const fixture = JSON.parse(readFileSync(join(repoRoot, "modules/netservers/testdata/chirpstack_v4_up.json"), "utf8"));

// The walk: positions north of Gothenburg with the gateways that heard each
// uplink; the best gateway is the one with the highest SNR. The last has no
// position (a GPS without a fix sends 0,0).
const walk = [
  { object: { latitude: 57.7089, longitude: 11.9746 }, rx: [["0016c001f153a14c", -97, 6.5], ["0016c001f153a14d", -108, 1.25]] },
  { object: { gps: { latitude: 57.7102, longitude: 11.9781 } }, rx: [["0016c001f153a14c", -112, -3]] },
  { object: { latitude: 57.7121, longitude: 11.9812 }, rx: [["0016c001f153a14d", -119, -11.5], ["0016c001f153a14c", -121, -12]] },
  { object: { latitude: 0, longitude: 0 }, rx: [["0016c001f153a14c", -88, 9]] },
];
// best is the best gateway of each uplink, as the points keep it.
const best = walk.map((u) => u.rx.reduce((b, r) => (r[2] > b[2] ? r : b)));

let browser, server, ingestToken, acme;

before(async () => {
  [server, browser] = await Promise.all([startFieldhub({ env: { FIELDHUB_MAP_TILE_URL: tileUrl } }), launchBrowser()]);
  acme = server.accounts.companies[0];
  const token = await server.token(acme.companyAdmin);
  const app = await server.api("POST", `/api/applications/${acme.id}`, { token, body: { name: "Coverage" } });
  await server.api("POST", `/api/applications/${app.id}/tag`, { token, body: { name: node.name, deveui: node.deveui } });
  ({ token: ingestToken } = await server.api("POST", `/api/integration/tokens/${acme.id}`, { token, body: { label: "field test", isCompany: true } }));
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// uplink posts the i-th uplink of the walk as ChirpStack's HTTP integration does.
async function uplink(i) {
  const u = walk[i];
  const body = {
    ...fixture,
    deduplicationId: `3ac7e3c4-4401-4b8d-9386-a5c90200000${i}`,
    time: new Date(Date.now() + i).toISOString(),
    deviceInfo: { ...fixture.deviceInfo, devEui: node.deveui.toLowerCase(), deviceName: "walker" },
    fCnt: 10 + i,
    object: u.object,
    rxInfo: u.rx.map(([gatewayId, rssi, snr], k) => ({ ...fixture.rxInfo[0], gatewayId, uplinkId: 100 * i + k, rssi, snr })),
  };
  delete body.data; // the decoded object is the values
  const res = await fetch(`${server.baseURL}/api/ingest/chirpstack?event=up`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ingestToken}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200, `uplink ${i}: ${res.status} ${await res.text()}`);
}

// number reads a number as the page shows it in either language.
const number = (s) => Number(s.replace(/[−–]/g, "-").replace(/\s/g, "").replace(",", ".").replace(/[^\d.-]/g, ""));

async function axeBothThemes(t, page, name) {
  for (const theme of ["light", "dark"]) {
    await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
    const { other } = await checkA11y(page, `${name} (${theme})`);
    for (const v of other) t.diagnostic(`axe ${v.impact} (${theme}): ${v.id} – ${v.help} (${v.nodes.length} node(s))`);
    await page.screenshot({ path: artifactPath(`${name}-${theme}.png`), animations: "disabled", fullPage: true });
  }
  await page.evaluate(() => (document.documentElement.dataset.theme = "light"));
}

test("a User runs a field test from start to completion, live on the map, and exports it", async (t) => {
  const context = await newContext(browser, server, { acceptDownloads: true });
  t.after(() => context.close());
  await signIn(context, server.accounts.byRole.User);
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto("/signaltest");
  await waitForIslands(page);
  const lang = await pageLang(page);
  await page.getByText(msg(lang, "signaltests.list.empty")).waitFor();

  // Start: the node, a description, the position keys left to detection.
  const select = page.getByLabel(msg(lang, "signaltests.start.node"), { exact: true });
  await page.locator("select option", { hasText: node.deveui }).waitFor({ state: "attached" });
  await select.selectOption({ label: `${node.name} (${node.deveui})` });
  await page.getByLabel(msg(lang, "signaltests.start.description"), { exact: true }).fill("North gate walk");
  await page.getByRole("button", { name: msg(lang, "signaltests.start.submit") }).click();
  await page.waitForURL(/\/signaltest\/peek\/\d+$/);
  const testId = Number(new URL(page.url()).pathname.split("/").pop());
  assertSnackbar(await readSnackbar(page), msg(lang, "signaltests.created"), "after starting");
  await waitForIslands(page);
  await page.getByText(msg(lang, "signaltests.peek.waiting")).first().waitFor();

  // A second test of the node while this one is active: refused, with why.
  const other = await context.newPage();
  const otherWatch = watchPage(other);
  await other.goto("/signaltest");
  await waitForIslands(other);
  await other.locator("select option", { hasText: node.deveui }).waitFor({ state: "attached" });
  await other.getByLabel(msg(lang, "signaltests.start.node"), { exact: true }).selectOption({ label: `${node.name} (${node.deveui})` });
  await other.getByRole("button", { name: msg(lang, "signaltests.start.submit") }).click();
  await other.getByRole("alert").filter({ hasText: msg(lang, "signaltests.error.active") }).waitFor();
  assertSnackbar(await readSnackbar(other), msg(lang, "error.generic"), "after a refused start");
  otherWatch.check([/^HTTP 409: POST \/api\/signaltest\//]);
  await other.close();

  // Each uplink appears on the map and in the table without a reload.
  const dots = page.locator(".fh-st-map .fh-st-dot");
  const rows = page.locator("table.fh-st-points tbody tr");
  for (let i = 0; i < walk.length; i++) {
    await uplink(i);
    await page.waitForFunction((n) => document.querySelectorAll("table.fh-st-points tbody tr").length === n, i + 1);
  }
  assert.equal(await dots.count(), 3, "the three points with a position are drawn");
  assert.equal(await rows.count(), 4);
  // Colours by quality: good, fair (SNR −3 dB), poor, and the legend.
  const qualities = await dots.evaluateAll((els) => els.map((el) => el.className.match(/fh-st-dot--(\w+)/)[1]));
  assert.deepEqual(qualities, ["good", "fair", "poor"]);
  for (const q of ["good", "fair", "poor", "none"]) await page.locator(".fh-st-legend").getByText(msg(lang, `signaltests.quality.${q}`), { exact: true }).waitFor();
  // A point's popup names the gateways that heard it, by keyboard.
  await page.getByRole("button", { name: `${tf(lang, "signaltests.peek.showLabel", { n: 1 })}:` }).focus();
  await page.keyboard.press("Enter");
  const popup = page.locator(".leaflet-popup-content");
  await popup.waitFor();
  assert.match(await popup.innerText(), /0016c001f153a14c.*\n?.*0016c001f153a14d|0016c001f153a14c[^]*0016c001f153a14d/);
  const gatewaysCell = await rows.first().locator(".fh-st-gateways").innerText();
  assert.match(gatewaysCell, /0016c001f153a14c/);
  assert.match(gatewaysCell, /0016c001f153a14d/);
  await axeBothThemes(t, page, "signaltest-peek");

  // Complete test, after a confirmation; polling stops, the state says so.
  await page.getByRole("button", { name: msg(lang, "signaltests.peek.complete") }).click();
  const dialog = page.getByRole("alertdialog", { name: msg(lang, "signaltests.peek.complete.title") });
  await dialog.waitFor();
  await dialog.getByRole("button", { name: msg(lang, "signaltests.peek.complete") }).click();
  assertSnackbar(await readSnackbar(page), msg(lang, "signaltests.completed"), "after completing");
  await page.locator('.fh-st-peek[data-active="false"]').waitFor();
  assert.equal(await page.getByRole("button", { name: msg(lang, "signaltests.peek.complete") }).count(), 0);

  // The averages shown equal those of the points: of the best gateways'
  // values the table shows, and of what the walk sent.
  const fmt = (v) => new Intl.NumberFormat(lang === "sv" ? "sv-SE" : "en-GB", { maximumFractionDigits: 1 }).format(v);
  const mean = (xs) => xs.reduce((a, v) => a + v, 0) / xs.length;
  const shownRssi = (await rows.locator('[data-col="rssi"]').allInnerTexts()).map(number);
  const shownSnr = (await rows.locator('[data-col="snr"]').allInnerTexts()).map(number);
  assert.deepEqual(shownRssi, best.map((b) => b[1]));
  assert.deepEqual(shownSnr, best.map((b) => b[2]));
  assert.equal(await page.locator('[data-summary="rssi"]').innerText(), `${fmt(mean(shownRssi))} dBm`);
  assert.equal(await page.locator('[data-summary="snr"]').innerText(), `${fmt(mean(shownSnr))} dB`);
  assert.equal(number(await page.locator('[data-summary="points"]').innerText()), 4);

  // The CSV export: a header and every point.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: msg(lang, "signaltests.peek.export") }).click()]);
  assert.match(download.suggestedFilename(), new RegExp(`^signaltest-${testId}-${node.deveui}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  const csv = readFileSync(await download.path(), "utf8").trim().split("\r\n");
  assert.equal(csv[0], "point,time,latitude,longitude,rssi,snr,gateway,spreadingFactor,fCnt,gateways");
  assert.equal(csv.length, 5, csv.join("\n"));
  assert.match(csv[1], /^1,[^,]+,57\.7089,11\.9746,-97,6\.5,0016c001f153a14c,11,10,"?0016c001f153a14c -97\/6\.5; 0016c001f153a14d -108\/1\.25"?$/);
  assert.match(csv[4], /^4,[^,]+,,,-88,9,/);

  // The list: completed, with the same averages; deleted after a confirmation.
  await page.getByRole("link", { name: msg(lang, "signaltests.page.back") }).click();
  await page.waitForURL(/\/signaltest$/);
  await waitForIslands(page);
  const row = page.locator(`tr[data-test-id="${testId}"]`);
  await row.waitFor();
  const rowText = await row.innerText();
  assert.match(rowText, new RegExp(msg(lang, "signaltests.state.completed")));
  assert.ok(rowText.includes(`${fmt(mean(shownRssi))} dBm`) && rowText.includes(`${fmt(mean(shownSnr))} dB`), rowText);
  await axeBothThemes(t, page, "signaltest-list");
  await row.getByRole("button", { name: tf(lang, "signaltests.deleteLabel", { name: node.name }) }).click();
  const confirm = page.getByRole("alertdialog", { name: msg(lang, "signaltests.delete.title") });
  await confirm.waitFor();
  // Cancel has the focus: Enter alone destroys nothing.
  assert.equal(await confirm.getByRole("button", { name: msg(lang, "signaltests.cancel") }).evaluate((el) => el === document.activeElement), true);
  await confirm.getByRole("button", { name: msg(lang, "signaltests.delete") }).click();
  assertSnackbar(await readSnackbar(page), msg(lang, "signaltests.deleted"), "after deleting");
  await page.getByText(msg(lang, "signaltests.list.empty")).waitFor();
  watch.check(allowed);
});
