// Page weight and first render, for docs/performance.md: the JavaScript a
// server page loads (uncompressed, gzip -9, and the bytes that went over the
// wire with the server's own encoding), and the
// first-contentful-paint of /login in Debian's full Chromium, headless
// (Performance API),
// median of 10 loads. Writes artifacts/performance.json and .md; the budgets
// below are loose on purpose: they catch a regression of kind (a framework
// pulled into every page), not noise.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { gzipSync } from "node:zlib";
import { launchBrowser, newContext, signIn } from "./lib/browser.mjs";
import { artifactPath } from "./lib/env.mjs";
import { startFieldhub } from "./lib/server.mjs";

const LOADS = 10;
const BUDGET_LOGIN_JS_GZIP = 60 * 1024; // bytes
const BUDGET_FCP_MEDIAN = 1500; // ms

let browser, server;
const results = { when: new Date().toISOString(), chromium: "", pages: [], firstPaint: null };

before(async () => {
  [server, browser] = await Promise.all([startFieldhub(), launchBrowser({ full: true })]);
  results.chromium = browser.version();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  writeFileSync(artifactPath("performance.json"), JSON.stringify(results, null, 2) + "\n");
  writeFileSync(artifactPath("performance.md"), markdown(results));
});

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// javascriptOf loads path in a fresh context and sums the scripts it fetched.
async function javascriptOf(path, role) {
  const context = await newContext(browser, server);
  try {
    if (role) await signIn(context, server.accounts.byRole[role]);
    const page = await context.newPage();
    const scripts = [];
    page.on("response", (res) => {
      if (res.request().resourceType() === "script") scripts.push(res);
    });
    await page.goto(path, { waitUntil: "networkidle" });
    const files = [];
    for (const res of scripts) {
      const body = await res.body(); // decoded
      const sizes = await res.request().sizes();
      files.push({
        url: new URL(res.url()).pathname,
        bytes: body.length,
        wire: sizes.responseBodySize,
        gzip: gzipSync(body, { level: 9 }).length,
        encoding: res.headers()["content-encoding"] ?? "identity",
      });
    }
    const sum = (k) => files.reduce((n, f) => n + f[k], 0);
    return { path, as: role ?? "visitor", files, bytes: sum("bytes"), gzip: sum("gzip"), wire: sum("wire") };
  } finally {
    await context.close();
  }
}

test("JavaScript a server page loads", async (t) => {
  const pages = [["/login", null]];
  for (const [p, role] of [["/", "User"], ["/settings", "User"], ["/superadmin", "SuperAdmin"]]) {
    if (await server.routeExists(p)) pages.push([p, role]);
  }
  for (const [p, role] of pages) {
    const r = await javascriptOf(p, role);
    results.pages.push(r);
    t.diagnostic(
      `${p} (${r.as}): ${r.files.length} script(s), ${kb(r.bytes)} uncompressed, ${kb(r.gzip)} gzip -9, ${kb(r.wire)} over the wire [${r.files.map((f) => `${f.url} ${kb(f.gzip)} (${f.encoding})`).join(", ")}]`,
    );
  }
  const login = results.pages[0];
  assert.ok(login.files.length > 0, "the login page loads its script");
  assert.ok(login.gzip <= BUDGET_LOGIN_JS_GZIP, `/login loads ${kb(login.gzip)} of JavaScript (gzip), budget ${kb(BUDGET_LOGIN_JS_GZIP)}`);
});

test(`first render of /login: first-contentful-paint, median of ${LOADS} loads`, async (t) => {
  const measure = async (page) => {
    await page.goto("/login");
    return page.evaluate(
      () =>
        new Promise((resolve) => {
          const done = (entries) => {
            const fcp = entries.find((e) => e.name === "first-contentful-paint");
            if (fcp) resolve(fcp.startTime);
          };
          done(performance.getEntriesByType("paint"));
          new PerformanceObserver((list) => done(list.getEntries())).observe({ type: "paint", buffered: true });
        }),
    );
  };
  // Cold: a new context each time (empty cache, new connection), the
  // browser process itself already running.
  const cold = [];
  for (let i = 0; i < LOADS; i++) {
    const context = await newContext(browser, server);
    try {
      cold.push(await measure(await context.newPage()));
    } finally {
      await context.close();
    }
  }
  // Warm: the same tab loading the page again (assets from the cache).
  const warm = [];
  const context = await newContext(browser, server);
  try {
    const page = await context.newPage();
    await page.goto("/login");
    for (let i = 0; i < LOADS; i++) warm.push(await measure(page));
  } finally {
    await context.close();
  }
  results.firstPaint = { path: "/login", loads: LOADS, cold: { median: median(cold), all: cold }, warm: { median: median(warm), all: warm } };
  t.diagnostic(`/login first-contentful-paint: cold median ${median(cold).toFixed(0)} ms [${cold.map((x) => x.toFixed(0)).join(", ")}]`);
  t.diagnostic(`/login first-contentful-paint: warm median ${median(warm).toFixed(0)} ms [${warm.map((x) => x.toFixed(0)).join(", ")}]`);
  assert.ok(median(cold) <= BUDGET_FCP_MEDIAN, `cold first-contentful-paint median ${median(cold).toFixed(0)} ms, budget ${BUDGET_FCP_MEDIAN} ms`);
});

function markdown(r) {
  const lines = [
    `Measured ${r.when} with \`npm --prefix webapp run e2e\` (webapp/e2e/perf.test.mjs), headless Chromium ${r.chromium}, the portal on loopback.`,
    "",
    "| page | viewer | scripts | JavaScript uncompressed | gzip -9 | over the wire (server's encoding) |",
    "| --- | --- | --- | --- | --- | --- |",
    ...r.pages.map(
      (p) =>
        `| ${p.path} | ${p.as} | ${p.files.length} | ${kb(p.bytes)} | ${kb(p.gzip)} | ${kb(p.wire)} (${[...new Set(p.files.map((f) => f.encoding))].join(", ")}) |`,
    ),
  ];
  if (r.firstPaint) {
    const f = r.firstPaint;
    lines.push(
      "",
      `First-contentful-paint of ${f.path}, median of ${f.loads} loads: cold (new browser context) ${f.cold.median.toFixed(0)} ms, warm (cached assets) ${f.warm.median.toFixed(0)} ms.`,
    );
  }
  return lines.join("\n") + "\n";
}
