#!/usr/bin/env node
// measure.mjs: the dashboard island's weight and the time from navigation
// to every module drawn, in headless Chromium (docs/performance.md,
// "Dashboards", "The dashboard island").
//
// 1. Bundle: the gzip -9 size (as the server sends assets) of the
//    JavaScript /dashboard/{id} loads for the island: the islands loader,
//    the dashboard chunk and everything it imports, the page language's
//    messages; and, apart, the Leaflet chunk a map module adds.
// 2. Browser: starts `fieldhub serve --demo` (the browser tests' harness,
//    webapp/e2e/lib/server.mjs), gives a node of its own 24 hours of
//    one-minute values, builds a dashboard of 16 modules through the API
//    (every type but the weather forecast and the iframe, whose content
//    comes from other sites, and the function button), then opens it
//    `-runs` times in a new browser context (cold cache) and as many times
//    by reloading (warm cache), and takes performance.now() at the first
//    animation frame in which every module has drawn.
//
// Needs webapp/dist built and Debian's full Chromium at /usr/bin/chromium; FIELDHUB_E2E_BIN
// names a built binary (else the harness builds one).
//
//   node bench/dashboard-browser/measure.mjs [-runs 10] [-bundle-only]
import { readFileSync } from "node:fs";
import { gzipSync, deflateSync } from "node:zlib";
import { launchBrowser } from "../../webapp/e2e/lib/browser.mjs";
import { startFieldhub } from "../../webapp/e2e/lib/server.mjs";

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf("-runs") + 1]) || 10;
const bundleOnly = args.includes("-bundle-only");
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

// --- 1. Bundle -----------------------------------------------------------

const dist = new URL("../../webapp/dist/", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL(".vite/manifest.json", dist), "utf8"));
const gz = (file) => gzipSync(readFileSync(new URL(file, dist)), { level: 9 }).length;
// files collects the JavaScript of key and its static imports, and of the
// dynamic imports follow() accepts.
function files(key, follow, out = new Set()) {
  const e = manifest[key];
  if (!e || out.has(e.file)) return out;
  if (e.file.endsWith(".js")) out.add(e.file);
  for (const k of e.imports ?? []) files(k, follow, out);
  for (const k of e.dynamicImports ?? []) if (follow(k)) files(k, follow, out);
  return out;
}
const loader = "src/islands/index.ts";
const mount = "src/islands/dashboard/mount.tsx";
const mapView = "src/islands/dashboard/widgets/map-view.tsx";
// The loader's other islands are not fetched on a dashboard page; the
// English catalog stands for the page's language.
const noOtherIslands = (k) => !k.includes("/islands/") && !/catalog\/sv/.test(k);
const base = files(loader, noOtherIslands);
const island = files(mount, (k) => k !== mapView && !/catalog\/sv/.test(k), new Set(base));
const withMap = files(mapView, () => true, new Set(island));
const sum = (set) => [...set].reduce((n, f) => n + gz(f), 0);
const mapOnly = new Set([...withMap].filter((f) => !island.has(f)));
const css = (key) => (manifest[key]?.css ?? []).reduce((n, f) => n + gz(f), 0);
const bundle = {
  island: sum(island),
  islandFiles: island.size,
  map: sum(mapOnly),
  islandCss: css(mount),
  mapCss: css(mapView),
};
console.log(`dashboard island, gzip -9: ${kb(bundle.island)} JavaScript in ${bundle.islandFiles} files (loader, React, React Aria, react-intl, visx, messages), ${kb(bundle.islandCss)} CSS`);
console.log(`... plus with a map module: ${kb(bundle.map)} JavaScript (Leaflet and the map view), ${kb(bundle.mapCss)} CSS`);
if (bundleOnly) process.exit(0);

// --- 2. Browser ----------------------------------------------------------

const probe = "70B3D57ED0BE0001";
const [server, browser] = await Promise.all([startFieldhub({ seed: false, serveArgs: ["--demo"], env: { FIELDHUB_MAP_TILE_URL: "http://127.0.0.1:9/tiles/{z}/{x}/{y}.png" } }), launchBrowser({ full: true })]);
try {
  const login = /CompanyAdmin\s+(\S+@\S+)\s+(\S+)/.exec(server.startup);
  const admin = { email: login[1], password: login[2] };
  const token = await server.token(admin);
  const call = (method, path, body) => server.api(method, path, { token, body });
  let tags = [];
  for (let i = 0; i < 100 && tags.filter((t) => t.keys?.length).length < 12; i++) {
    tags = await call("GET", "/api/tag");
    await new Promise((r) => setTimeout(r, 200));
  }
  const companyId = tags[0].companyId;
  await call("POST", `/api/applications/${tags[0].applicationId}/tag`, { name: "Bench probe", deveui: probe });
  const { token: ingest } = await call("POST", `/api/integration/tokens/${companyId}`, { label: "bench", isCompany: true });
  const now = Date.now();
  const minutes = 24 * 60;
  for (let i = minutes; i >= 0; i -= 60) {
    // 60 uplinks a request would be faster, but the generic form takes one.
    await Promise.all(
      Array.from({ length: Math.min(60, i + 1) }, (_, j) => {
        const m = i - j;
        return fetch(`${server.baseURL}/api/ingest/generic`, {
          method: "POST",
          headers: { Authorization: `Bearer ${ingest}`, "Content-Type": "application/json" },
          body: JSON.stringify({
            devEui: probe,
            time: new Date(now - m * 60_000).toISOString(),
            values: { temperature: 20 + 3 * Math.sin(m / 90), humidity: 45 + 10 * Math.cos(m / 200), level: 50 + 20 * Math.sin(m / 300), tiltX: 3 * Math.sin(m / 50), tiltY: 2 },
          }),
        }).then((r) => r.arrayBuffer());
      }),
    );
  }
  const { dashboardId } = await call("POST", "/api/dashboards", { name: "Bench" });
  const demo = (n) => `F1E1D0DE${n.toString(16).toUpperCase().padStart(8, "0")}`;
  const modules = [
    { type: 0, title: "Chart", tag: probe, attributes: { tagkey: "temperature" } },
    { type: 0, title: "Chart, 2 keys", tag: probe, attributes: { tagkey: "temperature,humidity", so_chart_type: "area", zoom_slider: "true" } },
    { type: 10, title: "Multi-chart", attributes: { series: JSON.stringify([{ deveui: probe, key: "temperature" }, { deveui: demo(1), key: "temperature" }, { deveui: demo(2), key: "temperature" }]) } },
    { type: 14, title: "Trend", tag: probe, attributes: { tagkey: "temperature", resolution: "hour" } },
    { type: 9, title: "Table", tag: probe, attributes: { tagkey: "temperature,humidity" } },
    { type: 1, title: "Gauge", tag: probe, min: 0, max: 40, attributes: { tagkey: "temperature" } },
    { type: 8, title: "Latest", tag: probe, attributes: { tagkey: "temperature", so_single_sparkline: "true" } },
    { type: 17, title: "Tank", tag: probe, attributes: { tagkey: "level", min_value: "0", max_value: "100" } },
    { type: 16, title: "Tilt", tag: probe, attributes: { tagkey_x: "tiltX", tagkey_y: "tiltY" } },
    { type: 13, title: "Node", tag: demo(5) },
    { type: 15, title: "Overview" },
    { type: 4, title: "Map" },
    { type: 3, title: "Picture" },
    { type: 11, title: "Plan", attributes: { positions: JSON.stringify([{ deveui: probe, key: "temperature", x: 0.3, y: 0.3 }]), series: JSON.stringify([{ deveui: probe, key: "temperature" }]) } },
    { type: 2, title: "Text", content: "A note." },
    { type: 5, title: "Company" },
  ];
  const picture = png(480, 300);
  for (const m of modules) {
    const made = await call("POST", `/api/dashboards/${dashboardId}/modules`, { sizeSmall: "md", sizeMid: "sm", ...m });
    if (m.type === 3 || m.type === 11) {
      const res = await fetch(`${server.baseURL}/api/dashboards/modules/${made.dashboardModuleId}/image`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "image/png" },
        body: picture,
      });
      if (!res.ok) throw new Error(`upload: ${res.status}`);
    }
  }

  const context = () =>
    browser.newContext({ baseURL: server.baseURL, viewport: { width: 1400, height: 900 }, locale: "en-GB" }).then(async (c) => {
      await c.request.post("/login", { form: { email: admin.email, password: admin.password, next: "/" }, maxRedirects: 0 });
      return c;
    });
  const drawn = () => {
    const cards = [...document.querySelectorAll("li.fh-dash-card")];
    const done =
      cards.length > 0 &&
      cards.every((c) => {
        if (c.querySelector('[data-state="loading"], .mdi-loading')) return false;
        const t = c.dataset.type;
        if (t === "0" || t === "10" || t === "14") return !!c.querySelector("svg .fh-dash-chart__line");
        if (t === "3") return c.querySelector("img")?.complete === true;
        if (t === "4") return !!c.querySelector(".leaflet-marker-icon");
        if (t === "11") return c.querySelector("img")?.complete === true && !!c.querySelector(".fh-dash-sensor");
        return true;
      });
    return done ? performance.now() : false;
  };
  const url = `/dashboard/${dashboardId}`;
  const cold = [];
  const warm = [];
  // One visit to warm the server and the OS caches.
  {
    const c = await context();
    const p = await c.newPage();
    await p.goto(url);
    await p.waitForFunction(drawn, null, { polling: "raf", timeout: 30000 });
    await c.close();
  }
  for (let i = 0; i < runs; i++) {
    const c = await context();
    const p = await c.newPage();
    await p.goto(url, { waitUntil: "commit" });
    cold.push(await (await p.waitForFunction(drawn, null, { polling: "raf", timeout: 30000 })).jsonValue());
    await c.close();
  }
  const c = await context();
  const p = await c.newPage();
  await p.goto(url);
  await p.waitForFunction(drawn, null, { polling: "raf", timeout: 30000 });
  for (let i = 0; i < runs; i++) {
    await p.reload({ waitUntil: "commit" });
    warm.push(await (await p.waitForFunction(drawn, null, { polling: "raf", timeout: 30000 })).jsonValue());
  }
  await c.close();
  const stats = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const med = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    return `median ${Math.round(med)} ms, min ${Math.round(s[0])} ms, max ${Math.round(s[s.length - 1])} ms (${s.length} loads)`;
  };
  console.log(`${modules.length} modules, navigation to all drawn, new context (cold cache): ${stats(cold)}`);
  console.log(`${modules.length} modules, navigation to all drawn, reload (warm cache): ${stats(warm)}`);
  console.log(`chromium ${browser.version()}, load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
} finally {
  await browser.close();
  await server.stop();
}

// png is a plain PNG of w × h pixels with a grid, as a floor plan.
function png(w, h) {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = table[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, "ascii");
    data.copy(out, 8);
    out.writeUInt32BE(crc(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
  };
  const rows = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) rows.set(x % 40 && y % 40 ? [240, 244, 248] : [150, 170, 190], y * (w * 3 + 1) + 1 + x * 3);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]);
}

