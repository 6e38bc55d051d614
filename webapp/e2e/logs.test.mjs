// The live log list: the event hub's Log tab.
// The list reducer of webapp/src/lib/live-feed/logs.ts is checked on its
// own (newest first, capped at 200, each entry once); then a User opens the
// event hub, takes the Log tab by keyboard, sees the company's entries
// loaded and a ChirpStack `join` and `log` event posted through the ingest
// API appear live with their type badge, node and message, narrows the list
// by type (and sees the empty state), and axe-core finds nothing serious in
// either theme.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, test } from "node:test";
import { transformWithOxc } from "vite";
import { checkA11y } from "./lib/axe.mjs";
import { launchBrowser, newContext, pageLang, signIn, watchPage } from "./lib/browser.mjs";
import { artifactPath, t as msg, tf, webappDir } from "./lib/env.mjs";
import { startFieldhub } from "./lib/server.mjs";

// loadLogs compiles the live feed's list module (TypeScript without
// imports) for Node.
async function loadLogs() {
  const file = join(webappDir, "src", "lib", "live-feed", "logs.ts");
  const { code } = await transformWithOxc(readFileSync(file, "utf8"), file, { lang: "ts" });
  const dir = mkdtempSync(join(tmpdir(), "fieldhub-logs-"));
  const out = join(dir, "logs.mjs");
  writeFileSync(out, code);
  try {
    return await import(pathToFileURL(out).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const at = (i) => new Date(Date.UTC(2026, 0, 1, 12, 0, i)).toISOString();
const entry = (id, i, type = "APP") => ({ id, type, message: `m${id}`, messageId: "", deveui: "", data: {}, createdAt: at(i) });

test("the live log list keeps the newest 200 entries, newest first, each once", async () => {
  const logs = await loadLogs();
  assert.equal(logs.maxLogEntries, 200);

  // Pushed one by one, oldest first: the list holds the newest 200, newest first.
  let list = [];
  for (let i = 1; i <= 250; i++) list = logs.addEntry(list, entry(i, i));
  assert.equal(list.length, 200);
  assert.deepEqual(
    list.slice(0, 3).map((e) => e.id),
    [250, 249, 248],
  );
  assert.equal(list.at(-1).id, 51);

  // The same entry again (a reconnect) changes nothing; an old one is not kept.
  assert.equal(logs.addEntry(list, entry(250, 250)), list);
  assert.equal(logs.addEntry(list, entry(10, 10)).at(-1).id, 51);

  // The load and the pushed entries merge: one each, by time, then by id.
  const pushed = [entry(7, 30), entry(6, 30)];
  const loaded = [entry(6, 30), entry(5, 20), entry(4, 20)];
  assert.deepEqual(
    logs.mergeEntries(pushed, loaded).map((e) => e.id),
    [7, 6, 5, 4],
  );

  // The type filter: none chosen keeps all.
  assert.ok(logs.matchesTypes(entry(1, 1, "ERROR"), new Set()));
  assert.ok(logs.matchesTypes(entry(1, 1, "ERROR"), new Set(["ERROR", "WARNING"])));
  assert.ok(!logs.matchesTypes(entry(1, 1, "APP"), new Set(["ERROR"])));
});

test("the feed's messages and GET /api/logs are read strictly", async () => {
  const logs = await loadLogs();
  const raw = { id: 9, companyId: 3, userId: null, type: "ERROR", message: "x", deveui: "70b3d57ed0000001", data: { n: 1 }, createdAt: at(1) };
  assert.deepEqual(logs.parseLogMessage({ type: "LogEntry", entry: raw }), {
    id: 9,
    type: "ERROR",
    message: "x",
    messageId: "",
    deveui: "70B3D57ED0000001",
    data: { n: 1 },
    createdAt: at(1),
  });
  assert.equal(logs.parseLogMessage({ type: "BroadcastEvent", event: raw }), null);
  assert.equal(logs.parseLogMessage({ type: "LogEntry", entry: { ...raw, type: "DEBUG" } }), null);
  assert.equal(logs.parseLogMessage({ type: "LogEntry", entry: { ...raw, createdAt: "yesterday" } }), null);
  assert.equal(logs.parseLogList([raw, { id: "x" }, null]).length, 1);
  assert.deepEqual(logs.parseLogList({ not: "a list" }), []);
  assert.deepEqual(logs.entryValues({ ...entry(1, 1), data: { id: 4, gateway: "g", list: [1] } }), { id: 4, gateway: "g", list: "[1]" });
});

test("an audit entry's fields before and after are read from its data", async () => {
  const logs = await loadLogs();
  const audit = {
    ...entry(1, 1, "USEREVENT"),
    data: { kind: "audit", company: "Acme", before: { theme: "Colors", sms: "" }, after: { theme: "Scientific", sms: "••••••", n: 2 } },
  };
  assert.deepEqual(logs.auditChanges(audit), [
    { field: "n", before: "", after: "2" },
    { field: "sms", before: "", after: "••••••" },
    { field: "theme", before: "Colors", after: "Scientific" },
  ]);
  assert.equal(logs.auditCompany(audit), "Acme");
  assert.deepEqual(logs.auditChanges({ ...audit, data: { ...audit.data, kind: "tagMoved" } }), [], "only audit entries");
  assert.deepEqual(logs.auditChanges({ ...audit, data: { kind: "audit" } }), [], "none without before and after");
});

let browser, server;
let ingestToken;
const node = { name: "Boiler room", deveui: "70B3D57ED0000301" };

before(async () => {
  [server, browser] = await Promise.all([startFieldhub(), launchBrowser()]);
  const acme = server.accounts.companies[0];
  const token = await server.token(acme.companyAdmin);
  const app = await server.api("POST", `/api/applications/${acme.id}`, { token, body: { name: "Log tab" } });
  await server.api("POST", `/api/applications/${app.id}/tag`, { token, body: { name: node.name, deveui: node.deveui } });
  const created = await server.api("POST", `/api/integration/tokens/${acme.id}`, {
    token,
    body: { label: "e2e ChirpStack", isCompany: true },
  });
  ingestToken = created.token;
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// chirpstack posts a ChirpStack v4 event of the node through the HTTP integration.
async function chirpstack(event, body) {
  const res = await fetch(`${server.baseURL}/api/ingest/chirpstack?event=${event}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ingestToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ deviceInfo: { devEui: node.deveui.toLowerCase(), deviceName: "boiler" }, ...body }),
  });
  assert.equal(res.status, 204, `${event}: ${res.status} ${await res.text()}`);
}

test("a User follows the live log list in the event hub's Log tab", async (t) => {
  const context = await newContext(browser, server);
  t.after(() => context.close());
  await signIn(context, server.accounts.byRole.User);
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto("/settings");
  const lang = await pageLang(page);
  const button = page.getByRole("banner").getByRole("button", { name: msg(lang, "events.open"), exact: true });
  await button.focus();
  await page.keyboard.press("Enter");
  const panel = page.getByRole("dialog", { name: msg(lang, "events.title") });
  await panel.waitFor();
  await panel.locator('[data-status="live"]').waitFor();

  // The tabs, by keyboard: the Events tab is chosen; the right arrow takes the Log tab.
  const eventsTab = panel.getByRole("tab", { name: msg(lang, "logs.tab.events") });
  const logTab = panel.getByRole("tab", { name: msg(lang, "logs.tab.log") });
  assert.equal(await eventsTab.getAttribute("aria-selected"), "true");
  await eventsTab.focus();
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction((el) => el.getAttribute("aria-selected") === "true", await logTab.elementHandle());
  const list = panel.getByRole("region", { name: msg(lang, "logs.list") });
  await list.waitFor();

  // Loaded first: the sign-ins of the company's users while the test portal was seeded.
  const entries = list.getByRole("listitem");
  await entries.first().waitFor();
  const signedIn = tf(lang, "logs.entry.login", { user: "Ulla User" });
  await list.getByText(signedIn).first().waitFor();

  // Then live: a join and a network server's error, newest first.
  await chirpstack("join", { devAddr: "00189440" });
  const joined = entries.filter({ hasText: msg(lang, "logs.entry.join") });
  await joined.first().waitFor();
  const joinText = await joined.first().innerText();
  assert.match(joinText, new RegExp(node.name), "the entry names the node");
  assert.match(joinText, new RegExp(node.deveui), "and its DevEUI");
  assert.match(joinText, new RegExp(msg(lang, "logs.type.APP")), "its type badge");
  await chirpstack("log", { level: "ERROR", code: "UPLINK_MIC", description: "MIC of the uplink is wrong" });
  const failed = entries.filter({ hasText: "UPLINK_MIC: MIC of the uplink is wrong" });
  await failed.first().waitFor();
  const order = await entries.evaluateAll((items) => items.map((li) => li.textContent));
  assert.ok(order[0].includes("UPLINK_MIC") && order[1].includes(msg(lang, "logs.entry.join")), `newest first: ${order.slice(0, 3).join(" | ")}`);
  const badge = failed.first().locator(".fh-log-badge");
  assert.equal(await badge.getAttribute("data-log-type"), "ERROR");
  assert.equal(await badge.innerText(), msg(lang, "logs.type.ERROR"));

  for (const theme of ["light", "dark"]) {
    await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
    const { other } = await checkA11y(page, `the event hub's Log tab (${theme})`);
    for (const v of other) t.diagnostic(`axe ${v.impact} (${theme}): ${v.id} – ${v.help} (${v.nodes.length} node(s))`);
    await page.screenshot({ path: artifactPath(`event-hub-log-${theme}.png`), animations: "disabled" });
  }
  await page.evaluate(() => (document.documentElement.dataset.theme = "light"));

  // The type filter, by keyboard: Error alone.
  const types = panel.getByRole("toolbar", { name: msg(lang, "logs.types") });
  const errorToggle = types.getByRole("button", { name: msg(lang, "logs.type.ERROR") });
  await errorToggle.focus();
  await page.keyboard.press("Space");
  assert.equal(await errorToggle.getAttribute("aria-pressed"), "true");
  await page.waitForFunction(
    (text) => ![...document.querySelectorAll('[role="dialog"] li')].some((li) => li.textContent.includes(text)),
    msg(lang, "logs.entry.join"),
  );
  assert.equal(await entries.filter({ hasText: "UPLINK_MIC" }).count(), 1);

  // A type without entries: the empty state.
  await page.keyboard.press("Space"); // Error off again
  const smsToggle = types.getByRole("button", { name: msg(lang, "logs.type.SMS") });
  await smsToggle.click();
  await list.getByText(msg(lang, "logs.empty.filtered"), { exact: true }).waitFor();
  await panel.getByRole("button", { name: msg(lang, "logs.types.showAll") }).click();
  await joined.first().waitFor();

  // The Events tab still shows the feed of uplinks.
  await eventsTab.click();
  await panel.getByText(msg(lang, "events.waiting"), { exact: true }).waitFor();
  watch.check();
});
