// The tag chart island on a node's details page (/tagdetails/{deveui}): the
// chart of a node with data is drawn, the key and the date range change by
// keyboard, the arrow keys read the values, and axe finds nothing serious,
// in the light and the dark theme.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { launchBrowser, newContext, pageLang, signIn, watchPage } from "./lib/browser.mjs";
import { checkA11y } from "./lib/axe.mjs";
import { artifactPath, t as msg, tf } from "./lib/env.mjs";
import { startFieldhub } from "./lib/server.mjs";

const DEVEUI = "70B3D57ED00000C1";
const HOUR = 3600_000;

let browser, server, admin, adminToken;

before(async () => {
  [server, browser] = await Promise.all([startFieldhub(), launchBrowser()]);
  const acme = server.accounts.companies[0];
  admin = acme.companyAdmin;
  adminToken = await server.token(admin);
  const call = (method, path, body) => server.api(method, path, { token: adminToken, body });
  const app = await call("POST", `/api/applications/${acme.id}`, { name: "Chart field" });
  const tag = await call("POST", `/api/applications/${app.id}/tag`, { name: "Chart node", deveui: DEVEUI });
  const { token } = await call("POST", `/api/integration/tokens/${acme.id}`, { label: "chart uplinks", isCompany: true });
  // An uplink every 30 minutes for the last day, and one a day for the
  // week before: the default range holds 48 values, the last 7 days 54.
  const now = Date.now();
  const times = [];
  for (let i = 47; i >= 0; i--) times.push(now - i * 0.5 * HOUR - 60_000);
  for (let d = 6; d >= 1; d--) times.unshift(now - d * 24 * HOUR - 3 * HOUR);
  for (const [i, at] of times.entries()) {
    await server.api("POST", "/api/ingest/generic", {
      token,
      body: {
        devEui: DEVEUI,
        time: new Date(at).toISOString(),
        values: { temperature: Math.round((20 + 5 * Math.sin(i / 6)) * 10) / 10, humidity: 40 + (i % 12) * 2 },
      },
    });
  }
  await call("POST", "/api/tag/key/update", { tagId: tag.id, key: "temperature", label: "Temperature", unit: "°C", defaultKey: true });
  await call("POST", "/api/tag/key/update", { tagId: tag.id, key: "humidity", label: "Humidity", unit: "%" });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// chartRequest waits for the chart's next data call that matches want.
function chartRequest(page, want) {
  return page.waitForResponse((res) => {
    const url = new URL(res.url());
    return url.pathname === "/api/tag/tagdata" && want(url.searchParams) && res.status() === 200;
  });
}

async function lineOf(chart) {
  const line = chart.locator("svg path.fh-tag-chart__line");
  await line.waitFor();
  const d = (await line.getAttribute("d")) ?? "";
  return { line, d, segments: (d.match(/[LC]/g) ?? []).length };
}

describe("tag chart", () => {
  test("draws the default key, switches key and range by keyboard, reads values, passes axe in both themes", async (t) => {
    const context = await newContext(browser, server);
    t.after(() => context.close());
    await signIn(context, admin);
    const page = await context.newPage();
    const watch = watchPage(page);
    const first = chartRequest(page, (q) => q.get("key") === "temperature");
    await page.goto(`/tagdetails/${DEVEUI}`);
    const chart = page.locator('[data-island="tag-chart"]');
    if ((await chart.count()) === 0) return t.skip("the /tagdetails page does not render the tag-chart island yet");
    const lang = await pageLang(page);

    // The default key over the last 24 hours, about one point per pixel asked for.
    const res = await first;
    const asked = new URL(res.url()).searchParams;
    const width = await chart.locator(".fh-tag-chart__plot").evaluate((el) => el.clientWidth);
    assert.ok(Number(asked.get("max")) >= width && Number(asked.get("max")) <= width + 100, `max ${asked.get("max")} for ${width} px`);
    assert.ok(Math.abs(new Date(asked.get("to")) - new Date(asked.get("from")) - 24 * HOUR) < 60_000, "the default range is 24 hours");
    let { d, segments } = await lineOf(chart);
    assert.ok(segments >= 40, `the line has ${segments} segments: ${d.slice(0, 80)}`);
    const summary = chart.locator(".fh-tag-chart__summary");
    await summary.getByText(/\b48\b/).waitFor(); // the summary counts the values
    const select = chart.getByRole("button", { name: new RegExp(msg(lang, "chart.key")) });
    assert.match(await select.innerText(), /Temperature/);

    // Another key, by keyboard: open the list, type to Humidity, choose it.
    const humidity = chartRequest(page, (q) => q.get("key") === "humidity");
    await select.focus();
    await page.keyboard.press("Enter");
    const listbox = page.getByRole("listbox");
    await listbox.waitFor();
    await page.keyboard.type("Humidity");
    await page.keyboard.press("Enter");
    await humidity;
    await listbox.waitFor({ state: "hidden" });
    assert.match(await select.innerText(), /Humidity/);
    await page.waitForFunction((before) => document.querySelector('[data-island="tag-chart"] path.fh-tag-chart__line')?.getAttribute("d") !== before, d);

    // Another range, by keyboard: open the picker, step from "Last 24 hours" to "Last 7 days".
    const week = chartRequest(page, (q) => new Date(q.get("to")) - new Date(q.get("from")) > 6 * 24 * HOUR);
    const picker = chart.getByRole("button", { name: tf(lang, "picker.button", { range: msg(lang, "picker.preset.24h") }) });
    await picker.focus();
    await page.keyboard.press("Enter");
    await page.getByRole("dialog").waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), msg(lang, "picker.preset.24h"));
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), msg(lang, "picker.preset.7d"));
    await page.keyboard.press("Enter");
    await week;
    await chart.getByRole("button", { name: tf(lang, "picker.button", { range: msg(lang, "picker.preset.7d") }) }).waitFor();
    await summary.getByText(/\b54\b/).waitFor();

    // The arrow keys step through the values; the tooltip and the live text show each.
    const plot = chart.getByRole("group", { name: new RegExp(msg(lang, "picker.preset.7d")) });
    await plot.focus();
    await page.keyboard.press("End");
    const tooltip = page.locator(".fh-tag-chart__tooltip");
    await tooltip.waitFor();
    assert.match(await tooltip.innerText(), /%/);
    await page.screenshot({ path: artifactPath("tag-chart-tooltip.png"), clip: await chart.boundingBox() });
    const live = chart.locator(".fh-tag-chart__live");
    const last = await live.innerText();
    assert.match(last, /%$/);
    await page.keyboard.press("Home");
    await page.waitForFunction((before) => document.querySelector(".fh-tag-chart__live")?.textContent !== before, last);

    await checkA11y(page, "tag chart, light");
    await page.screenshot({ path: artifactPath("tag-chart-light.png"), fullPage: true });
    const lightStroke = await chart.locator("svg path.fh-tag-chart__line").evaluate((el) => getComputedStyle(el).stroke);

    // The dark theme: the line takes the dark theme's colour, the chart stays transparent.
    await server.api("POST", "/api/settings", { token: adminToken, body: { darkMode: true } });
    await page.reload();
    await page.locator('html[data-theme="dark"]').waitFor({ state: "attached" });
    await lineOf(chart);
    const darkStroke = await chart.locator("svg path.fh-tag-chart__line").evaluate((el) => getComputedStyle(el).stroke);
    assert.notEqual(darkStroke, lightStroke, "the line colour follows the theme");
    const background = await chart.locator(".fh-tag-chart__plot-area > svg").evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.equal(background, "rgba(0, 0, 0, 0)", "the chart has no background of its own");
    await checkA11y(page, "tag chart, dark");
    await page.screenshot({ path: artifactPath("tag-chart-dark.png"), fullPage: true });
    watch.check();
  });

  test("says No data found for a range without data", async (t) => {
    const context = await newContext(browser, server);
    t.after(() => context.close());
    await signIn(context, admin);
    const page = await context.newPage();
    await page.route(/\/api\/tag\/tagdata\?/, (route) => route.fulfill({ status: 200, contentType: "application/json", body: "[]" }));
    await page.goto(`/tagdetails/${DEVEUI}`);
    const chart = page.locator('[data-island="tag-chart"]');
    if ((await chart.count()) === 0) return t.skip("the /tagdetails page does not render the tag-chart island yet");
    const lang = await pageLang(page);
    await chart.getByText(msg(lang, "chart.noData"), { exact: true }).waitFor();
    assert.equal(await chart.locator("svg path.fh-tag-chart__line").count(), 0);

    // A failing call shows the common error message and a retry.
    await page.unroute(/\/api\/tag\/tagdata\?/);
    await page.route(/\/api\/tag\/tagdata\?/, (route) => route.fulfill({ status: 500, contentType: "application/json", body: "{}" }));
    await page.reload();
    await chart.getByRole("alert").getByText(msg(lang, "error.generic")).waitFor();
    await page.unroute(/\/api\/tag\/tagdata\?/);
    await chart.getByRole("button", { name: msg(lang, "chart.retry") }).click();
    await lineOf(chart);
  });
});
