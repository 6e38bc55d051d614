// The gateways pages. A CompanyAdmin registers a gateway by placing it with
// a click on the create form's map, sees it on /gateways and deletes it
// after confirming; a ChirpStack uplink naming a gateway nobody registered
// lists it under the unknown gateways, and one click on "Add" registers it;
// a gateway heard once turns offline after the portal's short silence
// (FIELDHUB_GATEWAY_OFFLINE_AFTER=15s here). The form shows the address of
// the position from a Nominatim-compatible service (FIELDHUB_GEOCODE_URL, a
// fake here answering as EXTERNAL-APIS.md section 5 documents). axe-core
// finds nothing serious in either theme.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, test } from "node:test";
import { checkA11y } from "./lib/axe.mjs";
import { assertSnackbar, launchBrowser, newContext, pageLang, readSnackbar, signIn, watchPage } from "./lib/browser.mjs";
import { artifactPath, t as msg, tf } from "./lib/env.mjs";
import { startFieldhub } from "./lib/server.mjs";

// Tiles go to a port where nothing listens: the test network has no tile
// server, and the markers stand without tiles.
const tileUrl = "http://127.0.0.1:9/tiles/{z}/{x}/{y}.png";
const allowed = [/\/tiles\//];

// nominatim answers /reverse with an address for any position; the server
// asks it, not the browser.
let nominatim, nominatimURL;
const geocodeAsked = [];
function startNominatim() {
  nominatim = createServer((req, res) => {
    const q = new URL(req.url, "http://x").searchParams;
    geocodeAsked.push(`${q.get("lat")},${q.get("lon")}`);
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify({ place_id: 1, lat: q.get("lat"), lon: q.get("lon"), display_name: `Vattentornsvägen 1, Testby (${q.get("accept-language")})` }));
  });
  return new Promise((done) => nominatim.listen(0, "127.0.0.1", () => done(`http://127.0.0.1:${nominatim.address().port}`)));
}

let browser, server, acme, adminToken, ingestToken, appId;
// Short, so that a gateway goes offline within the test, yet long enough
// that a loaded machine (other test files run beside this one) shows the
// page before a gateway just heard counts as silent.
const OFFLINE_AFTER_SECONDS = 15;
const node = { name: "Mast tester", deveui: "70B3D57ED0000C01" };

before(async () => {
  nominatimURL = await startNominatim();
  [server, browser] = await Promise.all([
    startFieldhub({ env: { FIELDHUB_GATEWAY_OFFLINE_AFTER: `${OFFLINE_AFTER_SECONDS}s`, FIELDHUB_MAP_TILE_URL: tileUrl, FIELDHUB_GEOCODE_URL: nominatimURL } }),
    launchBrowser(),
  ]);
  acme = server.accounts.companies[0];
  adminToken = await server.token(acme.companyAdmin);
  const app = await server.api("POST", `/api/applications/${acme.id}`, { token: adminToken, body: { name: "Gateways field", networkServer: "chirpstack" } });
  appId = app.id;
  await server.api("POST", `/api/applications/${app.id}/tag`, { token: adminToken, body: { name: node.name, deveui: node.deveui } });
  ingestToken = (await server.api("POST", `/api/integration/tokens/${acme.id}`, { token: adminToken, body: { label: "e2e gateways", isCompany: true } })).token;
});

after(async () => {
  await browser?.close();
  await server?.stop();
  nominatim?.close();
});

// uplink posts a ChirpStack uplink of the node heard by the gateway eui.
async function uplink(eui, rssi, snr) {
  const res = await fetch(`${server.baseURL}/api/ingest/chirpstack?event=up`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ingestToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      time: new Date().toISOString(),
      deviceInfo: { devEui: node.deveui.toLowerCase() },
      fPort: 1,
      data: "AQ==",
      rxInfo: [{ gatewayId: eui.toLowerCase(), rssi, snr }],
    }),
  });
  assert.equal(res.status, 200, `uplink: ${res.status} ${await res.text()}`);
}

async function open(t, path) {
  const context = await newContext(browser, server);
  t.after(() => context.close());
  await signIn(context, acme.companyAdmin);
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto(path);
  return { page, watch, lang: await pageLang(page) };
}

async function axeBothThemes(t, page, label, shot) {
  for (const theme of ["light", "dark"]) {
    await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
    const { other } = await checkA11y(page, `${label} (${theme})`);
    for (const v of other) t.diagnostic(`axe ${v.impact} (${theme}): ${v.id} – ${v.help}`);
    await page.screenshot({ path: artifactPath(`${shot}-${theme}.png`), animations: "disabled", fullPage: true });
  }
  await page.evaluate(() => (document.documentElement.dataset.theme = "light"));
}

test("a gateway placed with a click on the map is registered, listed and deleted after confirming", async (t) => {
  const { page, watch, lang } = await open(t, "/gateways/create");
  const form = page.locator('form.fh-gw-form[data-ready="true"]');
  await form.waitFor();
  await page.getByLabel(msg(lang, "gateways.form.name")).fill("Water tower");
  await page.getByLabel(msg(lang, "gateways.form.eui")).fill("0016c001f153a14c");
  // A click on the map places the marker and fills the position in.
  const map = page.locator(".fh-gw-map__canvas--form");
  await map.click({ position: { x: 220, y: 160 } });
  await page.locator('.fh-gw-map__canvas--form[data-placed="true"] .fh-gw--new').waitFor();
  const lat = Number(await page.getByLabel(msg(lang, "gateways.form.latitude")).inputValue());
  const lng = Number(await page.getByLabel(msg(lang, "gateways.form.longitude")).inputValue());
  assert.ok(Math.abs(lat) <= 90 && Math.abs(lng) <= 180 && lat !== 0, `position from the click: ${lat}, ${lng}`);
  // The address of the position, looked up through the server.
  await page.locator('.fh-gw-address[data-state="found"]', { hasText: `Vattentornsvägen 1, Testby (${lang})` }).waitFor();
  assert.ok(geocodeAsked.length >= 1, "the server asked the geocoding service");
  await axeBothThemes(t, page, "the gateway form", "gateway-create");

  await page.getByRole("button", { name: msg(lang, "gateways.form.save") }).click();
  await page.waitForURL("**/gateways");
  assertSnackbar(await readSnackbar(page), msg(lang, "gateways.created"), "after creating");
  const row = page.locator('.fh-gw-table tr[data-eui="0016C001F153A14C"]');
  await row.waitFor();
  assert.equal(await row.getAttribute("data-state"), "never");
  assert.ok((await row.innerText()).includes("Water tower"));
  const created = await server.api("GET", `/api/gateway/company/${acme.id}`, { token: adminToken });
  const gw = created.find((g) => g.macAddress === "0016C001F153A14C");
  assert.ok(Math.abs(gw.latitude - lat) < 1e-6 && Math.abs(gw.longitude - lng) < 1e-6, `stored where placed: ${JSON.stringify(gw)}`);
  await page.locator('.fh-gw-map__canvas[data-gateways="1"]').first().waitFor();
  await axeBothThemes(t, page, "the gateway list", "gateways-list");

  // Delete asks first; Cancel keeps it, the confirmation deletes it.
  await row.getByRole("button", { name: `${msg(lang, "gateways.delete")} Water tower` }).click();
  const dialog = page.locator("dialog.fh-gw-dialog[open]");
  await dialog.getByText(tf(lang, "gateways.delete.confirm", { name: "Water tower" })).waitFor();
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
  assert.equal(await row.count(), 1, "Escape keeps the gateway");
  await row.getByRole("button", { name: `${msg(lang, "gateways.delete")} Water tower` }).click();
  await dialog.getByRole("button", { name: msg(lang, "gateways.delete.yes") }).click();
  assertSnackbar(await readSnackbar(page), msg(lang, "gateways.deleted"), "after deleting");
  await row.waitFor({ state: "detached" });
  watch.check(allowed);
});

test("an unknown gateway named by an uplink becomes a registered one with one click", async (t) => {
  await uplink("AA555A000000B0B0", -97, 4.5);
  const { page, watch, lang } = await open(t, "/gateways");
  const unknown = page.locator('.fh-gw-unknown tr[data-eui="AA555A000000B0B0"]');
  await unknown.waitFor();
  await unknown.getByRole("button", { name: tf(lang, "gateways.unknown.addLabel", { eui: "AA555A000000B0B0" }) }).click();
  const shown = await readSnackbar(page);
  assert.ok(shown.startsWith(msg(lang, "gateways.created")), `snackbar after adding: ${shown}`);
  const row = page.locator('.fh-gw-table tr[data-eui="AA555A000000B0B0"]');
  await row.waitFor();
  await unknown.waitFor({ state: "detached" });
  const text = await row.innerText();
  assert.ok(text.includes(tf(lang, "gateways.unknown.name", { eui: "AA555A000000B0B0" })), `named after its EUI: ${text}`);
  assert.ok(/-97/.test(text.replace("−", "-")), `its median RSSI: ${text}`);
  await page.locator(".fh-gw-unknown").getByText(msg(lang, "gateways.unknown.empty")).waitFor();

  // Placed at the map's centre, its marker is dragged to where it stands.
  const before = (await server.api("GET", `/api/gateway/company/${acme.id}`, { token: adminToken })).find((g) => g.macAddress === "AA555A000000B0B0");
  const marker = page.locator(".fh-gw-map__canvas .fh-gw-pin__wrap").first();
  const box = await marker.boundingBox();
  const moved = page.waitForResponse((r) => r.request().method() === "PUT" && r.url().endsWith("/pos"));
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 40, { steps: 8 });
  await page.mouse.up();
  assert.equal((await moved).status(), 200, "the position is stored");
  const after = (await server.api("GET", `/api/gateway/company/${acme.id}`, { token: adminToken })).find((g) => g.macAddress === "AA555A000000B0B0");
  assert.ok(after.longitude > before.longitude && after.latitude < before.latitude, `moved east and south: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`);
  watch.check(allowed);
});

test("a gateway heard once turns offline after the configured silence", async (t) => {
  await server.api("POST", `/api/gateway/${appId}`, {
    token: adminToken,
    body: { name: "Silent mast", macAddress: "AA555A000000C0C0", latitude: 59.3, longitude: 18.1 },
  });
  // The page is open before the uplink, so that only a reload lies between
  // hearing the gateway and looking at it.
  const { page, watch } = await open(t, "/gateways");
  await uplink("AA555A000000C0C0", -80, 8);
  await page.reload();
  const row = page.locator('.fh-gw-table tr[data-eui="AA555A000000C0C0"]');
  await row.waitFor();
  const states = [await row.getAttribute("data-state")];
  // The list is what the server says now: reload until the silence is over.
  const deadline = Date.now() + OFFLINE_AFTER_SECONDS * 1000 + 30_000;
  while ((await row.getAttribute("data-state")) !== "offline" && Date.now() < deadline) {
    await page.reload();
    await row.waitFor();
    states.push(await row.getAttribute("data-state"));
  }
  assert.equal(states[0], "online", `first online: ${states.join(", ")}`);
  assert.equal(await row.getAttribute("data-state"), "offline", `then offline: ${states.join(", ")}`);
  await row.locator(".fh-gw--offline").first().waitFor();
  watch.check(allowed);
});
