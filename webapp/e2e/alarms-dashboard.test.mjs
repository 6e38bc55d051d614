// A dashboard module that names an alarm (alarm_id) shows its state: active
// and calm, triggered with the value after uplinks above the limit fire it
// (FIELDHUB_ALARM_DELAY_UNIT=1s), calm again once a User acknowledges it;
// a public link of the dashboard shows the state too. axe-core in light and
// dark with the triggered badge.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { checkA11y } from "./lib/axe.mjs";
import { launchBrowser, newContext, pageLang, setTheme, signIn, waitForIslands, watchPage } from "./lib/browser.mjs";
import { t as msg } from "./lib/env.mjs";
import { startFieldhub } from "./lib/server.mjs";

let browser, server, acme, adminToken, ingestToken, alarmId, dashboardId;
const node = { name: "Cold room", deveui: "70B3D57ED0000311" };

before(async () => {
  [server, browser] = await Promise.all([startFieldhub({ env: { FIELDHUB_ALARM_DELAY_UNIT: "1s" } }), launchBrowser()]);
  acme = server.accounts.companies[0];
  adminToken = await server.token(acme.companyAdmin);
  const token = adminToken;
  const app = await server.api("POST", `/api/applications/${acme.id}`, { token, body: { name: "Cold rooms" } });
  const tag = await server.api("POST", `/api/applications/${app.id}/tag`, { token, body: { name: node.name, deveui: node.deveui } });
  ingestToken = (await server.api("POST", `/api/integration/tokens/${acme.id}`, { token, body: { label: "e2e alarm state", isCompany: true } })).token;
  alarmId = (
    await server.api("POST", `/api/companies/${acme.id}/alarm`, {
      token,
      body: { name: "Cold room too warm", tag: tag.id, tagDataKey: "temperature", limitHigh: 10, priority: 2, contactType: 1, alarmContacts: ["ops@acme.example"], alarmDelay: 2, message: "{node}: {value}" },
    })
  ).id;
  dashboardId = (await server.api("POST", "/api/dashboards", { token, body: { name: "Cold room state" } })).dashboardId;
  await server.api("POST", `/api/dashboards/${dashboardId}/modules`, {
    token,
    body: { type: 8, title: "Cold room", tag: node.deveui, attributes: { tagkey: "temperature", alarm_id: String(alarmId) } },
  });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function uplink(at, temperature) {
  const res = await fetch(`${server.baseURL}/api/ingest/generic`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ingestToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ devEui: node.deveui, time: new Date(at).toISOString(), values: { temperature } }),
  });
  assert.equal(res.status, 200, `uplink: ${res.status} ${await res.text()}`);
}

// badge waits for the module's alarm badge in state, reloading the page
// until it shows it (the badge also re-reads on its own every 30 s).
async function badge(page, state) {
  const b = page.locator(`.fh-dash-alarm[data-alarm="${state}"]`);
  for (;;) {
    try {
      await b.waitFor({ timeout: 5000 });
      return b;
    } catch {
      await page.reload();
    }
  }
}

test("a module naming an alarm shows it calm, triggered with its value, and calm after the acknowledgement", async (t) => {
  const user = await newContext(browser, server);
  t.after(() => user.close());
  await signIn(user, server.accounts.byRole.User);
  const page = await user.newPage();
  const watch = watchPage(page);
  await page.goto(`/dashboard/${dashboardId}`);
  const lang = await pageLang(page);
  await waitForIslands(page);
  assert.equal(await (await badge(page, "ok")).innerText(), msg(lang, "dashboards.alarm.ok"));

  const t0 = Date.now() - 60 * 1000;
  for (const [i, v] of [12, 13, 14.5].entries()) await uplink(t0 + i * 1000, v);
  const firing = await badge(page, "firing");
  assert.match(await firing.innerText(), /14[.,]5/, "the triggering value");
  for (const dark of [false, true]) {
    await setTheme(page, dark);
    await checkA11y(page, `dashboard with a triggered alarm (${dark ? "dark" : "light"})`);
  }

  // The public link shows the same state, signed out.
  const expires = new Date(Date.now() + 3600 * 1000).toISOString();
  const link = await server.api("POST", `/api/dashboards/public/${acme.id}/${dashboardId}/${expires}`, { token: adminToken });
  const visitor = await newContext(browser, server);
  t.after(() => visitor.close());
  const pub = await visitor.newPage();
  await pub.goto(`/public/${link.token}`);
  await badge(pub, "firing");

  // A User acknowledges it on /alarm/active's API; the module is calm again.
  const userToken = await server.token(server.accounts.byRole.User);
  const [open] = await server.api("GET", `/api/companies/${acme.id}/alarm/active`, { token: userToken });
  await server.api("POST", `/api/alarms/history/${open.id}/reset`, { token: userToken });
  await badge(page, "ok");
  await badge(pub, "ok");
  watch.check();
});
