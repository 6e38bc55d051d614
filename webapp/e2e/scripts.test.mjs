// Scripts: a CompanyAdmin writes a virtual sensor (the dew point of a node's
// temperature and humidity) in the script editor, tests it against the
// node's latest uplink (valid, the result and the write it would do, not
// done), enables it, and after the next uplink the node's page shows the
// dew point it wrote. axe in light and dark on the editor and the list.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { checkA11y } from "./lib/axe.mjs";
import { launchBrowser, newContext, readSnackbar, setTheme, signIn, tr, waitForIslands, watchPage } from "./lib/browser.mjs";
import { startFieldhub } from "./lib/server.mjs";

const NODE = { name: "Greenhouse", deveui: "70B3D57ED00000D1" };
const DEW_POINT = `var t = trigger.values.temperature, h = trigger.values.humidity;
var g = Math.log(h / 100) + 17.62 * t / (243.12 + t);
var dp = Math.round(243.12 * g / (17.62 - g) * 100) / 100;
write(trigger.tagId, {dew_point: dp}, trigger.time);
return dp;`;

let browser, server, acme, uplink;

before(async () => {
  [server, browser] = await Promise.all([startFieldhub(), launchBrowser()]);
  acme = server.accounts.companies[0];
  const adminToken = await server.token(acme.companyAdmin);
  const call = (method, path, body, token = adminToken) => server.api(method, path, { token, body });
  const app = await call("POST", `/api/applications/${acme.id}`, { name: "Scripts field" });
  const { token } = await call("POST", `/api/integration/tokens/${acme.id}`, { label: "script uplinks", isCompany: true });
  NODE.id = (await call("POST", `/api/applications/${app.id}/tag`, NODE)).id;
  uplink = (values) => call("POST", "/api/ingest/generic", { devEui: NODE.deveui, values }, token);
  await uplink({ temperature: 20, humidity: 50 });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function axe(page, what) {
  for (const dark of [false, true]) {
    await setTheme(page, dark);
    await checkA11y(page, `${what}, ${dark ? "dark" : "light"}`);
  }
  await setTheme(page, false);
}

describe("scripts", () => {
  test("write a virtual sensor, test it, enable it and see its value", async (t) => {
    const context = await newContext(browser, server);
    t.after(() => context.close());
    await signIn(context, acme.companyAdmin);
    const page = await context.newPage();
    const watch = watchPage(page);
    await page.goto("/script/create");
    await waitForIslands(page);
    const _ = await tr(page);
    await page.getByLabel(_("scripts.editor.name")).fill("Dew point");
    await page.getByLabel(_("scripts.editor.type")).selectOption("2");
    await page.getByLabel(_("scripts.editor.boundTag")).selectOption(String(NODE.id));
    await page.getByLabel(_("scripts.editor.code")).fill(DEW_POINT);
    await axe(page, "/script/create");

    await page.getByRole("button", { name: _("scripts.editor.test") }).click();
    const result = page.getByRole("region", { name: new RegExp(_("scripts.editor.testResult")) });
    await result.getByRole("heading", { name: new RegExp(_("scripts.result.valid")) }).waitFor();
    await result.getByText("9.26").first().waitFor();
    await result.getByText(/dew_point/).waitFor();
    const before = await server.api("GET", `/api/tag/meta/${NODE.id}/tagdata`, { token: await server.token(acme.companyAdmin) });
    assert.ok(!before.some((k) => k.key === "dew_point"), "the test wrote nothing");

    await page.getByLabel(_("scripts.editor.enabled")).check();
    await page.getByRole("button", { name: _("scripts.editor.create") }).click();
    await page.waitForURL("/script");
    assert.equal(await readSnackbar(page), _("scripts.editor.created"));
    const row = page.getByRole("row", { name: /Dew point/ });
    await row.getByText(_("scripts.type.2")).waitFor();
    assert.equal(await row.getByRole("switch").getAttribute("aria-checked"), "true");
    await axe(page, "/script");

    await uplink({ temperature: 20, humidity: 50 });
    await page.goto(`/tagdetails/${NODE.deveui}`);
    for (let i = 0; i < 20 && !(await page.getByText("dew_point").count()); i++) {
      await page.waitForTimeout(250);
      await page.reload();
    }
    await page.getByText("dew_point").first().waitFor();
    await page.getByText(/9[.,]26/).first().waitFor();
    watch.check();
  });
});
