// Local time: a Swedish company's people see every time in Europe/Stockholm
// with the zone named, whatever the zone of their browser, on the node
// details page (the stored data table and the chart's tooltip), on the node
// list and in the CSV export; a user's own zone in /settings wins.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import { launchBrowser, newContext, pageLang, signIn, watchPage } from "./lib/browser.mjs";
import { checkA11y } from "./lib/axe.mjs";
import { t as msg, tf } from "./lib/env.mjs";
import { startFieldhub } from "./lib/server.mjs";

const DEVEUI = "70B3D57ED00000D1";
const ZONE = "Europe/Stockholm";
const HOUR = 3600_000;

let browser, server, admin, adminToken;
const times = [];

before(async () => {
  [server, browser] = await Promise.all([startFieldhub(), launchBrowser()]);
  const acme = server.accounts.companies[0];
  admin = acme.companyAdmin;
  adminToken = await server.token(admin);
  const call = (method, path, body) => server.api(method, path, { token: adminToken, body });
  const app = await call("POST", `/api/applications/${acme.id}`, { name: "Time field" });
  const tag = await call("POST", `/api/applications/${app.id}/tag`, { name: "Time node", deveui: DEVEUI });
  const { token } = await call("POST", `/api/integration/tokens/${acme.id}`, { label: "time uplinks", isCompany: true });
  // Three uplinks in the last hours, at whole seconds.
  const now = Math.floor(Date.now() / 1000) * 1000;
  for (const [i, ago] of [5, 3, 1].entries()) {
    const at = new Date(now - ago * HOUR - 17_000);
    times.push(at);
    await server.api("POST", "/api/ingest/generic", {
      token,
      body: { devEui: DEVEUI, time: at.toISOString(), values: { temperature: 20 + i } },
    });
  }
  await call("POST", "/api/tag/key/update", { tagId: tag.id, key: "temperature", label: "Temperature", unit: "°C", defaultKey: true });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// parts are the local date and time of d in zone.
function parts(d, zone) {
  const f = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
  });
  const p = Object.fromEntries(f.formatToParts(d).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}:${p.second}`, hm: `${p.hour}:${p.minute}`, zone: p.timeZoneName };
}

// shown is how the server's pages write d in zone: "2026-11-27 06:27:29 CET".
function shown(d, zone) {
  const p = parts(d, zone);
  return `${p.date} ${p.time} ${p.zone}`;
}

// farZone is a browser zone on another day than Stockholm for the next ten minutes,
// so that a calendar using the browser's zone marks another day as today:
// Pago Pago (UTC-11) is a day behind Stockholm from 23:00 to 11:00 UTC,
// Kiritimati (UTC+14) a day ahead from 10:00 to 23:00 UTC.
function farZone(now) {
  const later = new Date(now.getTime() + 10 * 60_000);
  const zones = ["Pacific/Pago_Pago", "Pacific/Kiritimati"];
  const apart = (d) => (z) => parts(d, z).date !== parts(d, ZONE).date;
  return zones.find((z) => apart(now)(z) && apart(later)(z)) ?? zones.find(apart(now));
}

// zonedMidnight is the instant 00:00 of the day date ("2026-11-27") begins
// in zone.
function zonedMidnight(date, zone) {
  const [y, m, d] = date.split("-").map(Number);
  for (let off = -14 * 60; off <= 14 * 60; off += 15) {
    const at = new Date(Date.UTC(y, m - 1, d) - off * 60_000);
    const p = parts(at, zone);
    if (p.date === date && p.time === "00:00:00") return at;
  }
  throw new Error(`no midnight of ${date} in ${zone}`);
}

describe("time zones", () => {
  test("a Swedish company sees Stockholm time, zone named, on /tagdetails, the node list and the export", async (t) => {
    // A browser on the other side of the world, on another day: the pages must not use its zone.
    const browserZone = farZone(new Date());
    const context = await newContext(browser, server, { timezoneId: browserZone, acceptDownloads: true });
    t.after(() => context.close());
    await signIn(context, admin);
    const page = await context.newPage();
    const watch = watchPage(page);
    await page.goto(`/tagdetails/${DEVEUI}`);
    const lang = await pageLang(page);
    assert.equal(await page.locator("html").getAttribute("data-time-zone"), ZONE);

    // The stored data table, newest first, to the second with the zone.
    const rows = page.locator("table.list caption#data-caption").locator("xpath=..").locator("tbody th time");
    assert.deepEqual(await rows.allInnerTexts(), [...times].reverse().map((d) => shown(d, ZONE)));
    const stockholm = parts(times[2], ZONE);
    assert.match(stockholm.zone, /^CES?T$/, `Stockholm's zone is named ${stockholm.zone}`);

    // The chart's tooltip names the zone and shows Stockholm's clock, not Los Angeles'.
    const chart = page.locator('[data-island="tag-chart"]');
    await chart.locator("svg path.fh-tag-chart__line").waitFor();
    const plot = chart.getByRole("group", { name: new RegExp(msg(lang, "picker.preset.24h")) });
    await plot.focus();
    await page.keyboard.press("End");
    const tip = chart.locator(".fh-tag-chart__tooltip-time");
    await tip.waitFor();
    const tipText = await tip.innerText();
    assert.ok(tipText.includes(stockholm.hm) && tipText.includes(stockholm.zone), `tooltip "${tipText}" shows ${stockholm.hm} ${stockholm.zone}`);
    assert.ok(!tipText.includes(parts(times[2], browserZone).hm), `tooltip "${tipText}" is not in the browser's zone`);

    // The export: the header names the zone, the rows are Stockholm time beside UTC.
    const link = page.getByRole("link", { name: tf(lang, "page.tag.details.export", { zone: ZONE }) });
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    assert.match(download.suggestedFilename(), new RegExp(`^${DEVEUI}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
    const csv = (await readFile(await download.path(), "utf8")).trim().split("\n");
    assert.equal(csv[0], `${tf(lang, "page.tag.details.export.time", { zone: ZONE })},UTC,temperature (°C)`);
    assert.deepEqual(
      csv.slice(1),
      times.map((d, i) => {
        const p = parts(d, ZONE);
        return `${p.date} ${p.time},${d.toISOString().replace(".000Z", "Z")},${20 + i}`;
      }),
    );
    await checkA11y(page, "node details with the export");

    // A custom range of one day runs from 00:00 to 23:59:59.999 in Stockholm, not in Los Angeles.
    const today = parts(new Date(), ZONE).date;
    const asked = page.waitForResponse((res) => {
      const url = new URL(res.url());
      return url.pathname === "/api/tag/tagdata" && url.searchParams.get("from") === zonedMidnight(today, ZONE).toISOString();
    });
    await chart.getByRole("button", { name: tf(lang, "picker.button", { range: msg(lang, "picker.preset.24h") }) }).click();
    const day = page.getByRole("dialog").locator("[data-today]");
    await day.click();
    await day.click();
    const q = new URL((await asked).url()).searchParams;
    const end = parts(new Date(q.get("to")), ZONE);
    assert.equal(`${end.date} ${end.time}`, `${today} 23:59:59`, `the day ends at ${q.get("to")}`);
    assert.equal(new Date(q.get("to")).getUTCMilliseconds(), 999);

    // The node list: the last uplink's time in the tooltip of its age.
    await page.goto("/tag");
    const age = page.locator(`time[title="${shown(times[2], ZONE)}"]`);
    await age.waitFor();
    watch.check();
  });

  test("a user's own zone in /settings wins over the company's", async (t) => {
    const context = await newContext(browser, server);
    t.after(() => context.close());
    await signIn(context, admin);
    const page = await context.newPage();
    const watch = watchPage(page);
    await page.goto("/settings");
    const lang = await pageLang(page);
    const field = page.getByLabel(msg(lang, "page.settings.timezone"), { exact: true });
    assert.equal(await field.getAttribute("placeholder"), ZONE);
    await field.fill("Europe/Atlantis");
    await page.getByRole("button", { name: msg(lang, "page.settings.submit") }).click();
    await page.getByText(msg(lang, "settings.timezone.invalid")).first().waitFor();
    await checkA11y(page, "settings with a refused time zone");

    await page.getByLabel(msg(lang, "page.settings.timezone"), { exact: true }).fill("Asia/Tokyo");
    await page.getByRole("button", { name: msg(lang, "page.settings.submit") }).click();
    await page.waitForURL("**/settings");
    await page.goto(`/tagdetails/${DEVEUI}`);
    assert.equal(await page.locator("html").getAttribute("data-time-zone"), "Asia/Tokyo");
    const tokyo = parts(times[2], "Asia/Tokyo");
    await page.getByText(`${tokyo.date} ${tokyo.time} JST`, { exact: true }).first().waitFor(); // Go names Tokyo's zone JST

    // Back to the company's.
    await server.api("POST", "/api/settings", { token: adminToken, body: { timezone: "" } });
    await page.reload();
    assert.equal(await page.locator("html").getAttribute("data-time-zone"), ZONE);
    watch.check([/HTTP 400: POST \/settings$/]); // the refused zone
  });
});
