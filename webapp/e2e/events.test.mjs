// The event hub panel: a User opens it from the top bar, sees "Waiting for
// new events...", and sees an uplink posted through the generic ingest appear
// with its node's name and data; the node filter narrows the feed; events
// that arrive while the panel is closed are counted on its button; axe-core
// finds nothing serious in either theme, and the keyboard opens and closes
// the panel.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { checkA11y } from "./lib/axe.mjs";
import { launchBrowser, newContext, pageLang, signIn, watchPage } from "./lib/browser.mjs";
import { artifactPath, t as msg } from "./lib/env.mjs";
import { startFieldhub } from "./lib/server.mjs";

let browser, server;
let ingestToken;
const nodes = {
  cellar: { name: "Cellar sensor", deveui: "70B3D57ED0000101" },
  roof: { name: "Roof sensor", deveui: "70B3D57ED0000102" },
};

before(async () => {
  [server, browser] = await Promise.all([startFieldhub(), launchBrowser()]);
  // Acme gets an application with two nodes and an integration token, as a
  // CompanyAdmin would set them up.
  const acme = server.accounts.companies[0];
  const token = await server.token(acme.companyAdmin);
  const app = await server.api("POST", `/api/applications/${acme.id}`, { token, body: { name: "Live feed" } });
  for (const n of Object.values(nodes)) {
    await server.api("POST", `/api/applications/${app.id}/tag`, { token, body: { name: n.name, deveui: n.deveui } });
  }
  const created = await server.api("POST", `/api/integration/tokens/${acme.id}`, {
    token,
    body: { label: "e2e network server", isCompany: true },
  });
  ingestToken = created.token;
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// uplink posts a generic uplink (README "Generic ingest JSON") of a node.
async function uplink(node, values) {
  const res = await fetch(`${server.baseURL}/api/ingest/generic`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ingestToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ devEui: node.deveui, values }),
  });
  assert.equal(res.status, 200, `uplink of ${node.name}: ${res.status} ${await res.text()}`);
}

test("a User opens the event hub, sees uplinks arrive and filters them by node", async (t) => {
  const context = await newContext(browser, server);
  t.after(() => context.close());
  await signIn(context, server.accounts.byRole.User);
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto("/settings");
  const lang = await pageLang(page);
  const button = page.getByRole("banner").getByRole("button", { name: msg(lang, "events.open"), exact: true });
  assert.equal(await button.getAttribute("aria-expanded"), "false");

  // Opened with the keyboard; the panel takes the focus.
  await button.focus();
  await page.keyboard.press("Enter");
  const panel = page.getByRole("dialog", { name: msg(lang, "events.title") });
  await panel.waitFor();
  await panel.getByText(msg(lang, "events.waiting"), { exact: true }).waitFor();
  await panel.locator('[data-status="live"]').waitFor();
  assert.equal(await button.getAttribute("aria-expanded"), "true");
  assert.ok(await panel.evaluate((el) => el.contains(document.activeElement)), "the focus is in the panel");
  const width = await panel.evaluate((el) => el.closest(".fh-event-hub__popover").getBoundingClientRect().width);
  assert.equal(Math.round(width), 650, "the panel is 650px wide");

  await uplink(nodes.cellar, { temperature: 21.5, door: { open: true } });
  const cellarEvents = panel.getByRole("listitem").filter({ hasText: nodes.cellar.name });
  await cellarEvents.first().waitFor();
  const text = await cellarEvents.first().innerText();
  assert.match(text, new RegExp(nodes.cellar.deveui), "the event names the DevEUI");
  assert.match(text, /"temperature": 21\.5/, "the data is formatted JSON");
  assert.match(text, /"door\.open": 1/);
  assert.equal(await panel.getByText(msg(lang, "events.waiting"), { exact: true }).count(), 0);

  await uplink(nodes.roof, { level: 3 });
  await panel.getByRole("listitem").filter({ hasText: nodes.roof.name }).waitFor();
  const order = await panel.getByRole("listitem").evaluateAll((items) => items.map((li) => li.textContent));
  assert.ok(order[0].includes(nodes.roof.name) && order[1].includes(nodes.cellar.name), `newest first: ${order.join(" | ")}`);

  for (const theme of ["light", "dark"]) {
    // The theme as the page shows it; the stored choice stays as it was.
    await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
    const { other } = await checkA11y(page, `the event hub panel (${theme})`);
    for (const v of other) t.diagnostic(`axe ${v.impact} (${theme}): ${v.id} – ${v.help} (${v.nodes.length} node(s))`);
    await page.screenshot({ path: artifactPath(`event-hub-${theme}.png`), animations: "disabled" });
  }
  await page.evaluate(() => (document.documentElement.dataset.theme = "light"));

  // The node filter: the roof sensor alone.
  await panel.getByRole("button", { name: new RegExp(msg(lang, "events.nodes")) }).click();
  const listbox = page.getByRole("listbox");
  await listbox.waitFor();
  assert.ok(
    await listbox.getByRole("option", { name: new RegExp(`${nodes.cellar.name}.*${nodes.cellar.deveui}`) }).isVisible(),
    "a node is listed by name and DevEUI",
  );
  await page.screenshot({ path: artifactPath("event-hub-filter.png"), animations: "disabled" });
  await page.keyboard.type("roof");
  await listbox.getByRole("option", { name: new RegExp(nodes.roof.name) }).click();
  // Escape clears the search text first, then closes the list.
  await page.keyboard.press("Escape");
  if (await listbox.isVisible()) await page.keyboard.press("Escape");
  await listbox.waitFor({ state: "hidden" });
  await panel.waitFor();
  await page.waitForFunction(
    (name) => ![...document.querySelectorAll('[role="dialog"] li')].some((li) => li.textContent.includes(name)),
    nodes.cellar.name,
  );
  assert.equal(await panel.getByRole("listitem").filter({ hasText: nodes.roof.name }).count(), 1);
  await panel.getByRole("button", { name: msg(lang, "events.nodes.showAll") }).click();
  await cellarEvents.first().waitFor();
  assert.ok(
    await panel.evaluate((el) => el.contains(document.activeElement) && document.activeElement !== el),
    "clearing the filter leaves the focus on a control of the panel",
  );

  // Escape closes the panel and gives the focus back to its button.
  await page.keyboard.press("Escape");
  await panel.waitFor({ state: "hidden" });
  assert.equal(await button.getAttribute("aria-expanded"), "false");
  // React Aria gives the focus back after the popover's exit; wait for it, bounded.
  await button.evaluate(
    (el) =>
      new Promise((resolve, reject) => {
        const started = performance.now();
        const poll = () => {
          if (el === document.activeElement) resolve(true);
          else if (performance.now() - started > 5000) reject(new Error("the focus is back on the button"));
          else requestAnimationFrame(poll);
        };
        poll();
      }),
  );

  // An event while the panel is closed is counted on the button.
  await uplink(nodes.cellar, { temperature: 22 });
  await page.locator("[data-event-hub-trigger] .badge").filter({ hasText: "1" }).waitFor();
  await button.or(page.locator("[data-event-hub-trigger]")).first().click();
  await panel.waitFor();
  await panel.getByText('"temperature": 22').waitFor();
  assert.equal(await page.locator("[data-event-hub-trigger] .badge").count(), 0, "the count goes once the panel is open");
  watch.check();
});

test("a visitor's pages have no event hub", async (t) => {
  const context = await newContext(browser, server);
  t.after(() => context.close());
  const page = await context.newPage();
  await page.goto("/login");
  assert.equal(await page.locator("[data-event-hub-trigger]").count(), 0);
});
