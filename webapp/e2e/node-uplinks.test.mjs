// What a node's uplinks tell beside their values: an uplink the decoder
// could not read shows on /tagdetails (reason, time, payload) and marks the
// node in the list; a node whose only uplink carries a time years in the
// past says its clock is off and still charts its data, opening on the
// measurement rather than the battery; a trend module over the last 24 hours
// draws hourly buckets up to now, even when it was saved with day buckets.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { launchBrowser, newContext, pageLang, signIn, watchPage } from "./lib/browser.mjs";
import { checkA11y } from "./lib/axe.mjs";
import { artifactPath, t as msg, tf } from "./lib/env.mjs";
import { startFieldhub } from "./lib/server.mjs";

const BROKEN = "70B3D57ED00000D1"; // its decoder fails on the second uplink
const OLD = "70B3D57ED00000D2"; // its only uplink is five years old
const TREND = "70B3D57ED00000D3"; // an uplink every 20 minutes for a day
const HOUR = 3600_000;
const YEAR = 365 * 24 * HOUR;

let browser, server, admin, adminToken, token, acme;

// uplink posts a generic uplink of a node.
function uplink(body) {
  return server.api("POST", "/api/ingest/generic", { token, body });
}

before(async () => {
  // A device may post its history: this portal takes times up to ten years back.
  [server, browser] = await Promise.all([startFieldhub({ env: { FIELDHUB_INGEST_MAX_AGE_DAYS: "3650" } }), launchBrowser()]);
  acme = server.accounts.companies[0];
  admin = acme.companyAdmin;
  adminToken = await server.token(admin);
  const call = (method, path, body) => server.api(method, path, { token: adminToken, body });
  const app = await call("POST", `/api/applications/${acme.id}`, { name: "Uplink field" });
  await call("POST", `/api/applications/${app.id}/tag`, { name: "Broken decode", deveui: BROKEN, decoder: "elsys" });
  await call("POST", `/api/applications/${app.id}/tag`, { name: "Old clock", deveui: OLD });
  await call("POST", `/api/applications/${app.id}/tag`, { name: "Trend node", deveui: TREND });
  ({ token } = await call("POST", `/api/integration/tokens/${acme.id}`, { label: "uplinks", isCompany: true }));

  const now = Date.now();
  // Elsys: temperature 22.6 °C, then a payload cut short.
  await uplink({ devEui: BROKEN, time: new Date(now - 2 * HOUR).toISOString(), fPort: 5, data: "AQDiAik=", rssi: -80 });
  await uplink({ devEui: BROKEN, time: new Date(now - HOUR).toISOString(), fPort: 5, data: "AQA=", rssi: -81 });
  await uplink({ devEui: OLD, time: new Date(now - 5 * YEAR - 3 * HOUR).toISOString(), values: { battery: 97, temperature: 21.5 } });
  for (let i = 71; i >= 0; i--) {
    await uplink({ devEui: TREND, time: new Date(now - i * 20 * 60_000 - 30_000).toISOString(), values: { level: 100 + i } });
  }
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(t, path) {
  const context = await newContext(browser, server);
  t.after(() => context.close());
  await signIn(context, admin);
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto(path);
  return { page, watch, lang: await pageLang(page) };
}

describe("node uplinks", () => {
  test("a decoding failure shows on /tagdetails with reason, time and payload, and marks the node in the list", async (t) => {
    const { page, watch, lang } = await open(t, `/tagdetails/${BROKEN}`);
    const section = page.locator("#decode-error");
    await section.getByRole("heading", { name: msg(lang, "page.tag.details.decodeError.title") }).waitFor();
    await section.getByText(msg(lang, "page.tag.details.decodeError.latest")).waitFor();
    assert.equal(await section.locator("code.payload").innerText(), "0100");
    const reason = await section.locator("ul.plain li").first().innerText();
    assert.ok(reason.trim().length > 0, "the reason is shown");
    const when = await section.locator("time").getAttribute("datetime");
    assert.ok(Math.abs(new Date(when) - (Date.now() - HOUR)) < 5 * 60_000, `the failed uplink's time: ${when}`);
    await checkA11y(page, "decode error, light");
    await page.screenshot({ path: artifactPath("decode-error-light.png"), fullPage: true });

    await page.goto("/tag");
    const marker = page.getByRole("img", { name: msg(lang, "page.tag.decodeFailed") });
    await marker.waitFor();
    assert.equal(await marker.count(), 1, "only the node whose latest uplink failed is marked");
    const row = page.getByRole("row").filter({ has: marker });
    assert.match(await row.innerText(), /Broken decode/);
    await checkA11y(page, "node list with a marker, light");
    watch.check();
  });

  test("a node whose only uplink is years old says its clock is off and charts its data", async (t) => {
    const { page, watch, lang } = await open(t, `/tagdetails/${OLD}`);
    const warning = page.locator("#clock-warning");
    await warning.getByText(tf(lang, "page.tag.details.clock.offBy", { offset: tf(lang, "page.tag.offset.years", { n: 5 }) })).waitFor();
    const chart = page.locator('[data-island="tag-chart"]');
    // The chart opens on the measurement, not the battery that sorts first.
    const select = chart.getByRole("button", { name: new RegExp(msg(lang, "chart.key")) });
    await select.waitFor();
    assert.match(await select.innerText(), /temperature/);
    // Nothing in the last 24 hours: the day up to the latest value instead.
    await chart.locator(".fh-tag-chart__shifted").waitFor();
    await chart.locator(".fh-tag-chart__summary").getByText(/\b1\b/).waitFor();
    assert.equal(await chart.getByText(msg(lang, "chart.noData"), { exact: true }).count(), 0);
    await checkA11y(page, "clock warning, light");
    await page.screenshot({ path: artifactPath("clock-warning-light.png"), fullPage: true });

    // The dark theme.
    await server.api("POST", "/api/settings", { token: adminToken, body: { darkMode: true } });
    t.after(() => server.api("POST", "/api/settings", { token: adminToken, body: { darkMode: false } }));
    await page.reload();
    await page.locator('html[data-theme="dark"]').waitFor({ state: "attached" });
    await chart.locator(".fh-tag-chart__shifted").waitFor();
    await checkA11y(page, "clock warning, dark");
    await page.screenshot({ path: artifactPath("clock-warning-dark.png"), fullPage: true });
    await page.goto(`/tagdetails/${BROKEN}`);
    await page.locator("#decode-error").waitFor();
    await checkA11y(page, "decode error, dark");
    await page.screenshot({ path: artifactPath("decode-error-dark.png"), fullPage: true });
    watch.check();
  });

  test("a 24-hour trend chart has hourly buckets ending at now", async (t) => {
    const d = await server.api("POST", "/api/dashboards", { token: adminToken, body: { name: "Trends" } });
    // Saved with day buckets, as trend modules were made before.
    await server.api("POST", `/api/dashboards/${d.dashboardId}/modules`, {
      token: adminToken,
      body: { title: "Level trend", type: 14, tag: TREND, attributes: { tagkey: "level", resolution: "day" } },
    });
    const context = await newContext(browser, server);
    t.after(() => context.close());
    await signIn(context, admin);
    const page = await context.newPage();
    const watch = watchPage(page);
    const answer = page.waitForResponse((res) => /\/api\/dashboards\/modules\/\d+\/tagdata\?/.test(res.url()) && res.status() === 200);
    const opened = Date.now();
    await page.goto(`/dashboard/${d.dashboardId}`);
    const data = await (await answer).json();
    assert.equal(data.resolution, "hour");
    const to = new Date(data.to).getTime();
    assert.ok(to >= opened - 60_000 && to <= Date.now() + 1000, `the window ends now: ${data.to}`);
    const buckets = data.series[0].buckets;
    assert.ok(buckets.length >= 24, `${buckets.length} buckets`);
    const last = buckets[buckets.length - 1];
    assert.equal(new Date(last.end).getTime(), to, "the last bucket ends at now");
    for (const b of buckets.slice(1, -1)) {
      assert.equal(new Date(b.end) - new Date(b.t), HOUR, `a whole hour: ${b.t} to ${b.end}`);
    }
    await page.getByText("Level trend").waitFor();
    await page.locator(".fh-dash-card svg.fh-dash-chart__svg path").first().waitFor();
    watch.check();
  });
});
