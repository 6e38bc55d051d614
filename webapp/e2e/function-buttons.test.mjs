// Function buttons (dashboard module type 12, docs/api/dashboards.md): the
// editor offers the company's invoked scripts, and adds a DOWNLINK button
// once it has marked what the kind lacks; a SCRIPT button runs its script
// after a confirmation and shows what it returned; a VALUEINPUT button
// writes a number to its node's key; a DOWNLINK button queues its downlink
// after a confirmation (by keyboard); a DASHBOARD button opens the other
// dashboard. A User sees the buttons that act disabled with the reason (in
// Swedish) and may still open the dashboard; a public link shows no button.
// axe-core in light and dark finds nothing serious.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { checkA11y } from "./lib/axe.mjs";
import { launchBrowser, newContext, pageLang, setTheme, signIn, waitForIslands, watchPage } from "./lib/browser.mjs";
import { t as msg, tf } from "./lib/env.mjs";
import { startFieldhub } from "./lib/server.mjs";

let browser, server, acme, adminToken, tagId, controls, cellar;
const node = { name: "Pump house", deveui: "70B3D57ED0000F12" };
const mods = {};

before(async () => {
  [server, browser] = await Promise.all([startFieldhub(), launchBrowser()]);
  acme = server.accounts.companies[0];
  adminToken = await server.token(acme.companyAdmin);
  const call = (method, path, body) => server.api(method, path, { token: adminToken, body });
  const app = await call("POST", `/api/applications/${acme.id}`, { name: "Pumps" });
  ({ id: tagId } = await call("POST", `/api/applications/${app.id}/tag`, { name: node.name, deveui: node.deveui }));
  ({ dashboardId: controls } = await call("POST", "/api/dashboards", { name: "Pump controls" }));
  ({ dashboardId: cellar } = await call("POST", "/api/dashboards", { name: "Cellar" }));
  const add = async (title, tag, attributes, content = "") =>
    (await call("POST", `/api/dashboards/${controls}/modules`, { type: 12, title, tag, content, attributes })).dashboardModuleId;
  mods.setpoint = await add("Setpoint", node.deveui, { function_type: "1", tagkey: "setpoint", input_type: "number", min_value: "0", max_value: "30" });
  mods.cellar = await add("To the cellar", "", { function_type: "2", dashboard_id: String(cellar), icon: "mdi-stairs-down" }, "Cellar");
  mods.flush = await add("Flush", node.deveui, { function_type: "3", downlink_port: "10", downlink_payload_type: "hex", downlink_payload: "01FF" });
  const script = await call("POST", `/api/script/${acme.id}`, { name: "Pump report", type: 1, interval: 0, content: "return 'pumps ok: ' + (40 + 2);" });
  mods.report = await add("Pump report", "", { function_type: "0", scriptid: String(script.id) });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const card = (page, id) => page.locator(`li.fh-dash-card[data-module-id="${id}"]`);

async function open(account, path = `/dashboard/${controls}`, locale = "en-GB") {
  const context = await newContext(browser, server, { locale });
  if (account) await signIn(context, account);
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto(path);
  await waitForIslands(page);
  return { context, page, watch, lang: await pageLang(page) };
}

test("the CompanyAdmin's buttons write a value, queue a downlink, run a script and open a dashboard", async (t) => {
  const { context, page, watch, lang } = await open(acme.companyAdmin);
  t.after(() => context.close());
  const tx = (id) => msg(lang, id);

  // VALUEINPUT: a number out of the range is refused in place; one in it
  // is stored, and the module's latest value reads it.
  const setpoint = card(page, mods.setpoint);
  await setpoint.getByText(tx("dashboards.fn.noValue")).waitFor();
  const field = setpoint.getByRole("textbox", { name: tf(lang, "dashboards.fn.newValue", { key: "setpoint" }) });
  await field.fill("45");
  await setpoint.getByRole("button", { name: tx("dashboards.fn.setValue") }).click();
  await setpoint.getByText(tf(lang, "dashboards.fn.badRange", { min: "0", max: "30" })).waitFor();
  await field.fill("21.5");
  await field.press("Enter");
  await setpoint.getByRole("status").filter({ hasText: tf(lang, "dashboards.fn.valueSaved", { value: "21.5" }) }).waitFor();
  const latest = await server.api("GET", `/api/dashboards/modules/${mods.setpoint}/tagdata/latest`, { token: adminToken });
  assert.equal(latest.series[0]?.value, 21.5, "the value is stored for the node's key");

  // DOWNLINK, by keyboard: the button asks first; Cancel has the focus.
  const flush = card(page, mods.flush);
  await flush.getByRole("button", { name: tx("dashboards.fn.sendDownlink") }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("alertdialog");
  await dialog.getByText(tf(lang, "dashboards.fn.confirmDownlink", { title: "Flush" })).waitFor();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await flush.getByRole("status").filter({ hasText: tx("dashboards.fn.downlinkQueued") }).waitFor();
  const queued = await server.api("GET", `/api/downlink/tag/${tagId}`, { token: adminToken });
  assert.ok(
    queued.some((d) => d.port === 10 && d.payload === "01FF"),
    `the configured downlink is queued: ${JSON.stringify(queued)}`,
  );

  // SCRIPT: the button asks first, then shows what the script returned.
  const report = card(page, mods.report);
  await report.getByRole("button", { name: tx("dashboards.fn.runScript") }).click();
  await dialog.getByText(tf(lang, "dashboards.fn.confirmScript", { title: "Pump report" })).waitFor();
  await dialog.getByRole("button", { name: tx("dashboards.fn.runScript") }).click();
  await report.getByRole("status").filter({ hasText: tf(lang, "dashboards.fn.scriptResult", { result: "pumps ok: 42" }) }).waitFor();

  for (const dark of [false, true]) {
    await setTheme(page, dark);
    await checkA11y(page, `function buttons (${dark ? "dark" : "light"})`);
  }

  // DASHBOARD: the link opens the other dashboard.
  await card(page, mods.cellar).getByRole("link", { name: "Cellar" }).click();
  await page.waitForURL(new RegExp(`/dashboard/${cellar}$`));
  watch.check();
});

test("the editor offers the company's scripts, and adds a DOWNLINK button once what its kind needs is filled in", async (t) => {
  const { context, page, watch, lang } = await open(acme.companyAdmin, `/dashboard/${cellar}`);
  t.after(() => context.close());
  const tx = (id) => msg(lang, id);
  const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const edit = page.getByRole("switch", { name: tx("dashboards.board.editMode") });
  await edit.focus();
  await page.keyboard.press("Space");
  await page.getByRole("button", { name: tx("dashboards.board.add"), exact: true }).click();
  const dialog = page.getByRole("dialog");
  const type = dialog.getByRole("radio", { name: new RegExp(`^${esc(tx("dashboards.type.12"))}`) });
  await type.focus();
  await page.keyboard.press("Space");
  await dialog.getByRole("button", { name: tx("dashboards.edit.next"), exact: true }).click();
  await dialog.getByRole("textbox", { name: tx("dashboards.edit.title"), exact: true }).fill("Open valve");
  // A new button runs a script: the company's invoked scripts are offered.
  await dialog.getByRole("button", { name: new RegExp(esc(tx("dashboards.fn.script"))) }).first().click();
  await page.getByRole("option", { name: "Pump report", exact: true }).click();
  await dialog.getByRole("button", { name: new RegExp(esc(tx("dashboards.fn.kind"))) }).first().click();
  await page.getByRole("option", { name: tx("dashboards.fn.kind.3"), exact: true }).click();

  // Saved empty: the node, port and payload are marked, nothing is sent.
  await dialog.getByRole("button", { name: tx("dashboards.edit.save"), exact: true }).click();
  await dialog.getByText(tx("dashboards.edit.fixErrors")).waitFor();
  await dialog.getByText(tx("dashboards.fn.badPort")).waitFor();
  assert.ok((await dialog.getByText(tx("dashboards.edit.required")).count()) >= 2, "the node and the payload are required");

  await dialog.getByRole("combobox", { name: tx("dashboards.edit.node"), exact: true }).fill(node.name);
  await page.getByRole("option", { name: new RegExp(node.deveui) }).first().click();
  await dialog.getByRole("textbox", { name: tx("dashboards.fn.port"), exact: true }).fill("12");
  await dialog.getByRole("textbox", { name: tx("dashboards.fn.payload"), exact: true }).fill("0a 0b");
  const created = page.waitForResponse((r) => /\/api\/dashboards\/\d+\/modules$/.test(new URL(r.url()).pathname) && r.request().method() === "POST");
  await dialog.getByRole("button", { name: tx("dashboards.edit.save"), exact: true }).click();
  const res = await created;
  assert.equal(res.status(), 201, `the button is created: ${await res.text()}`);
  const saved = await res.json();
  assert.deepEqual(
    [saved.tag, saved.attributes.function_type, saved.attributes.downlink_port, saved.attributes.downlink_payload],
    [node.deveui, "3", "12", "0A0B"],
  );
  await page.locator(`li.fh-dash-card[data-type="12"]`, { hasText: "Open valve" }).waitFor();
  watch.check();
});

test("a User may open a dashboard but not press the buttons that act (in Swedish)", async (t) => {
  const { context, page, watch, lang } = await open(server.accounts.byRole.User, `/dashboard/${controls}`, "sv-SE");
  t.after(() => context.close());
  assert.equal(lang, "sv");
  const tx = (id) => msg(lang, id);
  const flush = card(page, mods.flush);
  assert.ok(await flush.getByRole("button", { name: tx("dashboards.fn.sendDownlink") }).isDisabled(), "the downlink button is disabled");
  await flush.getByText(tx("dashboards.fn.deniedDownlink")).waitFor();
  const setpoint = card(page, mods.setpoint);
  assert.ok(await setpoint.getByRole("button", { name: tx("dashboards.fn.setValue") }).isDisabled(), "the value button is disabled");
  const report = card(page, mods.report);
  assert.ok(await report.getByRole("button", { name: tx("dashboards.fn.runScript") }).isDisabled(), "the script button is disabled");
  await report.getByText(tx("dashboards.fn.deniedScript")).waitFor();
  await setpoint.getByText(tx("dashboards.fn.deniedValue")).waitFor();
  assert.equal(await setpoint.getByRole("textbox").count(), 0, "no value field");
  await checkA11y(page, "function buttons of a User");
  await card(page, mods.cellar).getByRole("link", { name: "Cellar" }).click();
  await page.waitForURL(new RegExp(`/dashboard/${cellar}$`));
  watch.check();
});

test("a public link shows no button", async (t) => {
  const expires = new Date(Date.now() + 3600 * 1000).toISOString();
  const link = await server.api("POST", `/api/dashboards/public/${acme.id}/${controls}/${expires}`, { token: adminToken });
  const { context, page, watch, lang } = await open(null, `/public/${link.token}`);
  t.after(() => context.close());
  // The dashboard holds only buttons, so the public page has no module.
  await page.getByText(msg(lang, "dashboards.board.empty")).waitFor();
  assert.equal(await page.locator('li.fh-dash-card[data-type="12"]').count(), 0, "no function button on the public page");
  assert.equal(await page.locator("a.fh-dash-fn__button, .fh-dash-fn__button").count(), 0);
  watch.check();
});
