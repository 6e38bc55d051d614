// A node's battery means one thing: `battery` is percent (0-100) and
// `batteryVoltage` volts. An Elsys node's `vdd` of 3600 (millivolts) shows
// as volts on the node list, on /tagdetails and in the dashboard's node card
// and node overview modules, with the unit and the decimal sign of the
// viewer's language; no page shows a percent above 100.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { launchBrowser, newContext, pageLang, signIn, waitForIslands, watchPage } from "./lib/browser.mjs";
import { t as msg } from "./lib/env.mjs";
import { startFieldhub } from "./lib/server.mjs";

// The nodes and what their uplinks say of the battery.
const ELSYS = { name: "Elsys ERS", deveui: "A81758FFFE0400B1", values: { temperature: 21.5, humidity: 41, vdd: 3600 } };
const MILESIGHT = { name: "Milesight EM300", deveui: "24E124136B3200B2", values: { temperature: 20.1, battery: 92 } };
// A percent above 100 is no percent: only the voltage shows.
const ODD = { name: "Odd counter", deveui: "70B3D57ED00000B3", values: { count: 7, batteryLevel: 140, battery: 3.5 } };

// What each language shows of them (a no-break space before the unit).
const WANT = {
  sv: { [ELSYS.name]: "3,6\u00a0V", [MILESIGHT.name]: "92\u00a0%", [ODD.name]: "3,5\u00a0V" },
  en: { [ELSYS.name]: "3.6\u00a0V", [MILESIGHT.name]: "92\u00a0%", [ODD.name]: "3.5\u00a0V" },
};

let browser, server, acme, dashboardId;

before(async () => {
  [server, browser] = await Promise.all([startFieldhub(), launchBrowser()]);
  acme = server.accounts.companies[0];
  const adminToken = await server.token(acme.companyAdmin);
  const call = (method, path, body, token = adminToken) => server.api(method, path, { token, body });
  const app = await call("POST", `/api/applications/${acme.id}`, { name: "Battery field" });
  const { token } = await call("POST", `/api/integration/tokens/${acme.id}`, { label: "battery uplinks", isCompany: true });
  for (const node of [ELSYS, MILESIGHT, ODD]) {
    await call("POST", `/api/applications/${app.id}/tag`, { name: node.name, deveui: node.deveui });
    await call("POST", "/api/ingest/generic", { devEui: node.deveui, values: node.values }, token);
  }
  ({ dashboardId } = await call("POST", "/api/dashboards", { name: "Batteries" }));
  await call("POST", `/api/dashboards/${dashboardId}/modules`, { title: "Elsys card", type: 13, tag: ELSYS.deveui });
  await call("POST", `/api/dashboards/${dashboardId}/modules`, { title: "All nodes", type: 15 });
  // Acme is a Swedish company; its Admin reads English.
  await call("POST", "/api/settings", { language: "en" }, await server.token(acme.admin));
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// percents lists every "N %" in text, to check that none is above 100.
const percents = (text) =>
  [...text.matchAll(/(?<![\d.,])(\d+(?:[\u00a0\u202f]\d{3})*(?:[.,]\d+)?)[ \u00a0]?%/g)].map((m) => Number(m[1].replace(/[\u00a0\u202f]/g, "").replace(",", ".")));

function assertNoPercentAbove100(text, where) {
  for (const p of percents(text)) assert.ok(p <= 100, `${where} shows ${p} %: ${text}`);
}

// assertBattery checks one battery reading as shown: the unit and decimal
// sign of the language, never the raw millivolts or the refused percent.
function assertBattery(shown, want, where) {
  const norm = (s) => s.replace(/\u00a0/g, " ").trim();
  assert.equal(norm(shown), norm(want), where);
  assert.doesNotMatch(shown, /3[\s\u00a0.,]?600|140/, `${where} shows a raw reading`);
}

for (const [lang, who] of [
  ["sv", "companyAdmin"],
  ["en", "admin"],
]) {
  describe(`battery in ${lang}`, () => {
    test("the node list, /tagdetails and the dashboard's node modules show volts and percents with units", async (t) => {
      const context = await newContext(browser, server);
      t.after(() => context.close());
      await signIn(context, acme[who]);
      const page = await context.newPage();
      const watch = watchPage(page);
      const want = WANT[lang];

      // The node list: the battery column, found by its header.
      await page.goto("/tag");
      assert.equal(await pageLang(page), lang);
      const table = page.locator("main table");
      const headers = await table.locator("thead th").allInnerTexts();
      const column = headers.findIndex((h) => h.trim() === msg(lang, "page.tag.col.battery"));
      assert.ok(column >= 0, `the node list has a battery column: ${headers}`);
      for (const [name, shown] of Object.entries(want)) {
        const row = table.locator("tbody tr").filter({ has: page.locator("th", { hasText: name }) });
        const cell = await row.locator("th, td").nth(column).innerText();
        assertBattery(cell, shown, `${name} in the node list`);
      }

      // /tagdetails: the voltage under its own label; no percent is known.
      await page.goto(`/tagdetails/${ELSYS.deveui}`);
      const details = page.locator("dl.details");
      const voltage = details.locator("dt", { hasText: msg(lang, "page.tag.details.batteryVoltage") }).locator("xpath=following-sibling::dd[1]");
      assertBattery(await voltage.innerText(), want[ELSYS.name], "the battery voltage on /tagdetails");
      const percent = details.locator("dt", { hasText: new RegExp(`^${msg(lang, "page.tag.col.battery")}$`) }).locator("xpath=following-sibling::dd[1]");
      assert.equal((await percent.innerText()).trim(), msg(lang, "page.tag.details.noReading"));
      assertNoPercentAbove100(await details.innerText(), "/tagdetails");
      await page.goto(`/tagdetails/${ODD.deveui}`);
      assertNoPercentAbove100(await page.locator("dl.details").innerText(), "/tagdetails of the odd node");

      // The dashboard: the node card of the Elsys node and the overview.
      await page.goto(`/dashboard/${dashboardId}`);
      await waitForIslands(page);
      const card = page.locator('li.fh-dash-card[data-type="13"]');
      const battery = card.locator("dt", { hasText: msg(lang, "dashboards.node.battery") }).locator("xpath=following-sibling::dd[1]");
      await battery.waitFor();
      assertBattery(await battery.innerText(), want[ELSYS.name], "the node card's battery");
      const overview = page.locator('li.fh-dash-card[data-type="15"]');
      await overview.locator("tbody tr").first().waitFor();
      for (const [name, shown] of Object.entries(want)) {
        const row = overview.locator("tbody tr").filter({ hasText: name });
        assertBattery(await row.locator("td").first().innerText(), shown, `${name} in the node overview`);
      }
      assertNoPercentAbove100(await card.innerText(), "the node card");
      assertNoPercentAbove100(await overview.innerText(), "the node overview");
      watch.check();
    });
  });
}
