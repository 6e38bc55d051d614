// Forwarding on the application page: a CompanyAdmin adds a webhook target
// (to a local server; the portal runs with FIELDHUB_OUTBOUND_PRIVATE), sends
// a test and sees it delivered, then an uplink arrives at the webhook signed
// and the target's delivery state says so; a refused address shows the
// catalog's message on its field; the target is deleted after the
// confirmation. axe-core finds nothing serious in either theme.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import { after, before, test } from "node:test";
import { checkA11y } from "./lib/axe.mjs";
import { launchBrowser, newContext, pageLang, signIn, watchPage } from "./lib/browser.mjs";
import { artifactPath, t as msg, tf } from "./lib/env.mjs";
import { startFieldhub } from "./lib/server.mjs";

const secret = "e2e-signing-secret";
const received = [];
let browser, server, hook, hookURL, acme, app, ingestToken;
const node = { name: "Silo level", deveui: "70B3D57ED0000F01" };

before(async () => {
  hook = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const ts = req.headers["x-fieldhub-timestamp"];
      const want = createHmac("sha256", secret).update(`${ts}.${body}`).digest("hex");
      received.push({ body: JSON.parse(body), signed: req.headers["x-fieldhub-signature"] === want, tenant: req.headers["x-tenant"] });
      res.end("ok");
    });
  });
  await new Promise((done) => hook.listen(0, "127.0.0.1", done));
  hookURL = `http://127.0.0.1:${hook.address().port}/in`;
  [server, browser] = await Promise.all([startFieldhub({ env: { FIELDHUB_OUTBOUND_PRIVATE: "true" } }), launchBrowser()]);
  acme = server.accounts.companies[0];
  const token = await server.token(acme.companyAdmin);
  app = await server.api("POST", `/api/applications/${acme.id}`, { token, body: { name: "Silos" } });
  await server.api("POST", `/api/applications/${app.id}/tag`, { token, body: { name: node.name, deveui: node.deveui } });
  ingestToken = (await server.api("POST", `/api/integration/tokens/${acme.id}`, { token, body: { label: "e2e forwarding", isCompany: true } })).token;
});

after(async () => {
  await browser?.close();
  await server?.stop();
  hook?.close();
});

test("a webhook target is added on the application page, tested, fed and deleted", async (t) => {
  const context = await newContext(browser, server);
  t.after(() => context.close());
  await signIn(context, acme.companyAdmin);
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto(`/application/${app.id}`);
  const lang = await pageLang(page);
  const section = page.getByRole("region", { name: msg(lang, "page.application.forwarding.title") });
  await section.locator('[data-island="forwarding"] [data-ready="true"]').waitFor();
  await section.getByText(msg(lang, "page.application.forwarding.none")).waitFor();

  // An address on a private network is refused where the portal may not
  // send; here the installation allows it, so a bad scheme shows the message.
  await section.getByRole("button", { name: msg(lang, "page.application.forwarding.add") }).click();
  const dialog = page.getByRole("dialog", { name: msg(lang, "page.application.forwarding.addTitle") });
  await dialog.waitFor();
  await dialog.locator("#fwd-name").fill("Warehouse");
  await dialog.locator("#fwd-url").fill("ftp://example.com/in");
  await dialog.locator("#fwd-secret").fill(secret);
  await dialog.getByRole("button", { name: msg(lang, "page.application.forwarding.save") }).click();
  await dialog.locator("#fwd-url-error").getByText(msg(lang, "forwarding.url.invalid")).waitFor();
  assert.equal(await dialog.locator("#fwd-url").getAttribute("aria-invalid"), "true");
  for (const theme of ["light", "dark"]) {
    await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
    await checkA11y(page, `the forwarding form (${theme})`);
    await page.screenshot({ path: artifactPath(`forwarding-form-${theme}.png`), animations: "disabled" });
  }
  await page.evaluate(() => (document.documentElement.dataset.theme = "light"));
  await dialog.locator("#fwd-url").fill(hookURL);
  await dialog.locator("#fwd-headers").fill("X-Tenant: acme");
  await dialog.getByRole("button", { name: msg(lang, "page.application.forwarding.save") }).click();
  await dialog.waitFor({ state: "detached" });

  // The target with its state; the test goes out at once and says so.
  const target = section.locator('[data-target="Warehouse"]');
  await target.waitFor();
  assert.equal(await target.getByRole("switch", { name: tf(lang, "page.application.forwarding.enable", { name: "Warehouse" }) }).isChecked(), true);
  await target.getByRole("button", { name: msg(lang, "page.application.forwarding.test") }).click();
  await target.getByRole("status").getByText(msg(lang, "page.application.forwarding.testOk")).waitFor();
  assert.equal(received.length, 1);
  assert.equal(received[0].body.test, true);
  assert.ok(received[0].signed, "the test is signed");

  // An uplink of the application's node reaches the webhook, and the
  // target's state counts it.
  const res = await fetch(`${server.baseURL}/api/ingest/generic`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ingestToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ devEui: node.deveui, values: { level: 3.5 } }),
  });
  assert.equal(res.status, 200, await res.text());
  await target.locator('[data-field="delivered"]', { hasText: "1" }).waitFor({ timeout: 20_000 });
  const up = received.find((r) => !r.body.test);
  assert.ok(up, "the uplink arrived");
  assert.equal(up.body.devEui, node.deveui);
  assert.equal(up.body.data.level, 3.5);
  assert.ok(up.signed, "the uplink is signed");
  assert.equal(up.tenant, "acme", "the company's header goes with it");
  assert.notEqual(await target.locator('[data-field="lastSuccess"]').innerText(), msg(lang, "page.application.forwarding.never"));
  for (const theme of ["light", "dark"]) {
    await page.evaluate((th) => (document.documentElement.dataset.theme = th), theme);
    await checkA11y(page, `the forwarding targets (${theme})`);
    await section.screenshot({ path: artifactPath(`forwarding-targets-${theme}.png`), animations: "disabled" });
  }
  await page.evaluate(() => (document.documentElement.dataset.theme = "light"));

  // Delete, after the confirmation.
  await target.getByRole("button", { name: msg(lang, "page.application.forwarding.delete") }).click();
  const confirm = page.getByRole("alertdialog", { name: tf(lang, "page.application.forwarding.deleteTitle", { name: "Warehouse" }) });
  await confirm.waitFor();
  await confirm.getByRole("button", { name: msg(lang, "page.application.forwarding.delete") }).click();
  await target.waitFor({ state: "detached" });
  await section.getByText(msg(lang, "page.application.forwarding.none")).waitFor();
  watch.check([/HTTP 400: POST \/api\/applications\/\d+\/forwarding/]); // the refused address
});
