// Alarms end to end: a CompanyAdmin creates a HIGH alarm with a 2-minute
// delay (a minute is a second here: FIELDHUB_ALARM_DELAY_UNIT=1s) on
// /alarm/create, with its 24-hour preview; uplinks above the limit, two
// "minutes" apart in their own times, fire it once; a User sees it on
// /alarm/active (from the notification in the bell) and acknowledges it; the history says who and when; the
// e-mail reaches the test's SMTP server. axe-core in light and dark.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { checkA11y } from "./lib/axe.mjs";
import { launchBrowser, newContext, pageLang, setTheme, signIn, waitForIslands, waitForSwapSettled, watchPage } from "./lib/browser.mjs";
import { t as msg, tf } from "./lib/env.mjs";
import { startMailbox } from "./lib/mailbox.mjs";
import { startFieldhub } from "./lib/server.mjs";

let browser, server, mailbox;
let ingestToken;
const node = { name: "Freezer room", deveui: "70B3D57ED0000301" };
const alarmName = "Freezer too warm";
const contact = "oncall@acme.example";

before(async () => {
  mailbox = await startMailbox();
  [server, browser] = await Promise.all([startFieldhub({ mailbox, env: { FIELDHUB_ALARM_DELAY_UNIT: "1s" } }), launchBrowser()]);
  const acme = server.accounts.companies[0];
  const token = await server.token(acme.companyAdmin);
  const app = await server.api("POST", `/api/applications/${acme.id}`, { token, body: { name: "Cold store" } });
  await server.api("POST", `/api/applications/${app.id}/tag`, { token, body: { name: node.name, deveui: node.deveui } });
  ingestToken = (await server.api("POST", `/api/integration/tokens/${acme.id}`, { token, body: { label: "e2e alarms", isCompany: true } })).token;
  // A day of values for the preview to draw.
  const now = Date.now();
  for (let h = 20; h >= 1; h -= 4) await uplink(now - h * 3600 * 1000, 4 + h / 10);
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await mailbox?.close();
});

// uplink posts a generic uplink of the node with its own time.
async function uplink(at, temperature) {
  const res = await fetch(`${server.baseURL}/api/ingest/generic`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ingestToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ devEui: node.deveui, time: new Date(at).toISOString(), values: { temperature } }),
  });
  assert.equal(res.status, 200, `uplink: ${res.status} ${await res.text()}`);
}

test("a HIGH alarm fires once after its delay, a User acknowledges it, and the history says who", async (t) => {
  const admin = await newContext(browser, server);
  t.after(() => admin.close());
  await signIn(admin, server.accounts.byRole.CompanyAdmin);
  const page = await admin.newPage();
  const watch = watchPage(page);
  await page.goto("/alarm/create");
  const lang = await pageLang(page);
  await page.getByLabel(msg(lang, "alarms.field.name"), { exact: true }).fill(alarmName);
  await page.getByLabel(msg(lang, "alarms.field.tag"), { exact: true }).selectOption({ label: `${node.name} (${node.deveui})` });
  await page.getByLabel(msg(lang, "alarms.field.tagDataKey"), { exact: true }).fill("temperature");
  await page.getByLabel(msg(lang, "alarms.field.limitHigh"), { exact: true }).fill("10");
  await page.getByLabel(msg(lang, "alarms.field.limitHigh"), { exact: true }).press("Tab");
  await page.getByLabel(msg(lang, "alarms.field.alarmDelay"), { exact: true }).fill("2");
  await page.getByLabel(msg(lang, "alarms.field.priority"), { exact: true }).selectOption("2");
  await page.getByLabel(msg(lang, "alarms.field.alarmContacts"), { exact: true }).fill(contact);
  await page.getByLabel(msg(lang, "alarms.field.message"), { exact: true }).fill("{node}: {key} is {value}");
  // The preview follows the form: the key's values with the limit drawn.
  await page.locator(".alarm-preview__chart").getByText(tf(lang, "alarms.preview.high", { value: "10" })).waitFor();
  await waitForIslands(page);
  for (const dark of [false, true]) {
    await setTheme(page, dark);
    await checkA11y(page, `alarm form (${dark ? "dark" : "light"})`);
  }
  await setTheme(page, false);
  await page.getByRole("button", { name: msg(lang, "alarms.save"), exact: true }).click();
  await page.waitForURL("**/alarm");
  const row = page.getByRole("row").filter({ hasText: alarmName });
  await row.waitFor();
  assert.equal(await row.getByRole("switch").getAttribute("aria-checked"), "true");

  // Above the limit for two "minutes" of the uplinks' own time: one firing.
  const t0 = Date.now() - 60 * 1000;
  await uplink(t0, 12.5);
  await uplink(t0 + 1000, 13);
  await uplink(t0 + 2000, 14);
  await uplink(t0 + 3000, 15);
  const mail = await mailbox.waitFor((m) => m.envelope.to.includes(contact));
  assert.match(mail.subject, new RegExp(alarmName));
  assert.match(mail.text, new RegExp(`${node.name}: temperature is 14`));
  watch.check();

  const user = await newContext(browser, server);
  t.after(() => user.close());
  await signIn(user, server.accounts.byRole.User);
  const upage = await user.newPage();
  const uwatch = watchPage(upage);
  // The firing is in the User's bell; clicking it opens the open alarms.
  await upage.goto("/settings");
  const bell = upage.locator("details.notifications");
  await bell.locator("summary").click();
  const note = bell.locator(".notifications-list .notification").filter({ hasText: alarmName });
  await note.waitFor();
  assert.match(await note.innerText(), new RegExp(`${node.name}: temperature is 14`));
  await note.click();
  await upage.waitForURL((url) => url.pathname === "/alarm/active");
  const ulang = await pageLang(upage);
  const open = upage.getByRole("row").filter({ hasText: alarmName });
  await open.waitFor();
  assert.equal(await open.count(), 1, "one firing");
  for (const dark of [false, true]) {
    await setTheme(upage, dark);
    await checkA11y(upage, `active alarms (${dark ? "dark" : "light"})`);
  }
  // Acknowledged by keyboard.
  const ack = open.getByRole("button", { name: msg(ulang, "alarms.acknowledgeNamed").replace("{name}", alarmName) });
  await ack.focus();
  await upage.keyboard.press("Enter");
  const who = `${server.accounts.byRole.User.firstName} ${server.accounts.byRole.User.lastName}`;
  await upage.getByRole("status").filter({ hasText: who }).first().waitFor();
  await waitForSwapSettled(upage);

  await upage.goto("/alarm");
  await upage.getByRole("row").filter({ hasText: alarmName }).getByRole("link", { name: msg(ulang, "alarms.history.link") }).click();
  const entry = upage.getByRole("row").filter({ hasText: "14" });
  await entry.waitFor();
  assert.match(await entry.innerText(), new RegExp(who));
  uwatch.check();
});
