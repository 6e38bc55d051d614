#!/usr/bin/env node
// measure.mjs: /gateways with 10,000 gateways, in headless Chromium
// (docs/performance.md, "Gateways").
//
// Starts the portal with the browser tests' harness (webapp/e2e/lib/server.mjs,
// seeded companies), registers -gateways gateways (default 10,000) for the
// first company's CompanyAdmin through POST /api/gateway/{applicationId},
// spread over Sweden, has ChirpStack uplinks name half of them (so the
// list mixes online and never-heard gateways, with figures), then opens
// /gateways -runs times in a new browser context (cold cache) and takes
// performance.now() at the first animation frame in which the map has drawn
// its clustered markers for every gateway and the list its first rows.
// Tiles go to a port where nothing listens (the machine has no tile server).
//
// Needs webapp/dist built and Debian's full Chromium at /usr/bin/chromium; FIELDHUB_E2E_BIN
// names a built binary (else the harness builds one).
//
//   node bench/gateways-browser/measure.mjs [-runs 5] [-gateways 10000]
import { readFileSync } from "node:fs";
import { launchBrowser } from "../../webapp/e2e/lib/browser.mjs";
import { startFieldhub } from "../../webapp/e2e/lib/server.mjs";

const args = process.argv.slice(2);
const flag = (name, def) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : def);
const runs = flag("-runs", 5);
const count = flag("-gateways", 10000);
const eui = (i) => `BE0C${i.toString(16).toUpperCase().padStart(12, "0")}`;

const [server, browser] = await Promise.all([
  startFieldhub({ env: { FIELDHUB_MAP_TILE_URL: "http://127.0.0.1:9/tiles/{z}/{x}/{y}.png" } }),
  launchBrowser({ full: true }),
]);
try {
  const acme = server.accounts.companies[0];
  const token = await server.token(acme.companyAdmin);
  const call = (method, path, body) => server.api(method, path, { token, body });
  const app = await call("POST", `/api/applications/${acme.id}`, { name: "Bench gateways", networkServer: "chirpstack" });
  const deveui = "70B3D57ED0BE0C01";
  await call("POST", `/api/applications/${app.id}/tag`, { name: "Bench node", deveui });
  const { token: ingest } = await call("POST", `/api/integration/tokens/${acme.id}`, { label: "bench", isCompany: true });

  let started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < count) {
        const i = next++;
        // A pseudo-random spread over Sweden (55-68 °N, 11-24 °E).
        const lat = 55 + 13 * ((i * 0.6180339887) % 1);
        const lng = 11 + 13 * ((i * 0.7548776662) % 1);
        await call("POST", `/api/gateway/${app.id}`, { name: `Bench gateway ${i}`, macAddress: eui(i), latitude: lat, longitude: lng });
      }
    }),
  );
  console.log(`registered ${count} gateways in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  started = Date.now();
  const perUplink = 50;
  for (let u = 0; u * perUplink < count / 2; u++) {
    const rxInfo = Array.from({ length: perUplink }, (_, k) => ({ gatewayId: eui(u * perUplink + k).toLowerCase(), rssi: -60 - ((u + k) % 60), snr: 10 - ((u + k) % 25) }));
    const res = await fetch(`${server.baseURL}/api/ingest/chirpstack?event=up`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ingest}`, "Content-Type": "application/json" },
      body: JSON.stringify({ time: new Date().toISOString(), deviceInfo: { devEui: deveui.toLowerCase() }, fCnt: u, fPort: 1, data: "AQ==", rxInfo }),
    });
    if (!res.ok) throw new Error(`uplink: ${res.status} ${await res.text()}`);
  }
  console.log(`uplinks naming ${count / 2} of them posted in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const context = () =>
    browser.newContext({ baseURL: server.baseURL, viewport: { width: 1400, height: 900 }, locale: "en-GB" }).then(async (c) => {
      await c.request.post("/login", { form: { email: acme.companyAdmin.email, password: acme.companyAdmin.password, next: "/" }, headers: { Origin: server.baseURL }, maxRedirects: 0 });
      return c;
    });
  const drawn = (n) => {
    const map = document.querySelector(".fh-gw-map__canvas");
    const ok = map?.dataset.gateways === String(n) && Number(map.dataset.markers) > 0 && map.querySelector(".leaflet-marker-icon") && document.querySelector(".fh-gw-table tbody tr");
    return ok ? performance.now() : false;
  };
  const visit = async () => {
    const c = await context();
    const p = await c.newPage();
    await p.goto("/gateways", { waitUntil: "commit" });
    const t = await (await p.waitForFunction(drawn, count, { polling: "raf", timeout: 60000 })).jsonValue();
    const markers = await p.evaluate(() => document.querySelector(".fh-gw-map__canvas")?.dataset.markers);
    await c.close();
    return { t, markers };
  };
  await visit(); // warms the server and the OS caches
  const times = [];
  let markers = "";
  for (let i = 0; i < runs; i++) {
    const v = await visit();
    times.push(v.t);
    markers = v.markers;
  }
  const s = [...times].sort((a, b) => a - b);
  const med = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  console.log(`/gateways with ${count} gateways (${markers} markers after clustering), navigation to map and list drawn, new context (cold cache): ` +
    `median ${Math.round(med)} ms, min ${Math.round(s[0])} ms, max ${Math.round(s[s.length - 1])} ms (${s.length} loads)`);
  const listed = await fetch(`${server.baseURL}/api/gateway/company/${acme.id}`, { headers: { Authorization: `Bearer ${token}` } });
  console.log(`GET /api/gateway/company/{id}: ${(await listed.arrayBuffer()).byteLength} bytes`);
  console.log(`chromium ${browser.version()}, load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
} finally {
  await browser.close();
  await server.stop();
}
