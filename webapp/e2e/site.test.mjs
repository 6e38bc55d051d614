// The home landing and the contact form, both open to anyone, signed in or
// not.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { assertSnackbar, frame, launchBrowser, menuEntries, newContext, pageLang, readSnackbar, signIn, watchPage } from "./lib/browser.mjs";
import { t as msg, tf } from "./lib/env.mjs";
import { startMailbox } from "./lib/mailbox.mjs";
import { ROLES } from "./lib/pages.mjs";
import { startFieldhub } from "./lib/server.mjs";

const CONTACT = "operators@fieldhub.test";
let browser, server, mailbox;

before(async () => {
  mailbox = await startMailbox();
  [server, browser] = await Promise.all([
    startFieldhub({ mailbox, env: { FIELDHUB_CONTACT_EMAIL: CONTACT } }),
    launchBrowser(),
  ]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await mailbox?.close();
});

async function pageAs(t, role, opts) {
  const context = await newContext(browser, server, opts);
  t.after(() => context.close());
  if (role) await signIn(context, server.accounts.byRole[role]);
  const page = await context.newPage();
  return { page, watch: watchPage(page) };
}

describe("home", () => {
  test("a visitor sees the landing without a top bar and can go to the login", async (t) => {
    if (!(await server.routeExists("/"))) return t.skip("/ does not exist yet");
    const { page, watch } = await pageAs(t, null);
    await page.goto("/");
    const lang = await pageLang(page);
    await page.getByRole("heading", { level: 1, name: "Fieldhub" }).waitFor();
    assert.equal(await page.locator("header.topbar").count(), 0, "the home route hides the top bar");
    assert.equal(await frame(page).menuToggle.count(), 1, "the menu can still be opened");
    await page.getByRole("main").getByRole("link", { name: msg(lang, "page.home.login") }).click();
    await page.waitForURL("/login");
    watch.check();
  });

  for (const role of ROLES) {
    test(`${role} is greeted by name, and the shortcuts are entries of their menu`, async (t) => {
      if (!(await server.routeExists("/"))) return t.skip("/ does not exist yet");
      const { page, watch } = await pageAs(t, role);
      await page.goto("/");
      const lang = await pageLang(page);
      const a = server.accounts.byRole[role];
      await page.getByRole("heading", { level: 1, name: tf(lang, "page.home.greeting", { name: `${a.firstName} ${a.lastName}` }) }).waitFor();
      const menu = (await menuEntries(page)).map((e) => e.href);
      const shortcuts = await page.locator("main .shortcut-list a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
      for (const s of shortcuts) assert.ok(menu.includes(s), `shortcut ${s} is in ${role}'s menu (${menu.join(", ")})`);
      watch.check();
    });
  }
});

describe("contact", () => {
  test("a signed-in user writes to the operators; the mail names them and carries the message", async (t) => {
    const { page, watch } = await pageAs(t, "User");
    const user = server.accounts.byRole.User;
    await page.goto("/contact");
    const lang = await pageLang(page);
    await page.getByText(user.email).waitFor(); // the form says who writes
    const subject = `Gateway offline ${Date.now()}`;
    await page.getByLabel(msg(lang, "page.contact.subject")).fill(subject);
    await page.getByLabel(msg(lang, "page.contact.message")).fill("The gateway in building B stopped sending.\nCan you look?");
    await page.getByRole("button", { name: msg(lang, "page.contact.submit") }).click();
    const snackbar = await readSnackbar(page);
    const mail = await mailbox.waitFor((m) => m.subject.endsWith(subject));
    assert.deepEqual(mail.envelope.to, [CONTACT]);
    assert.match(mail.text, /The gateway in building B stopped sending\.\nCan you look\?/);
    assert.ok(mail.text.includes(user.email), "the mail says whom to answer");
    // The form is cleared for the next message.
    assert.equal(await page.getByLabel(msg(lang, "page.contact.subject")).inputValue(), "");
    assertSnackbar(snackbar, msg(lang, "page.contact.sent"), "after sending");
    watch.check();
  });

  test("a visitor must give name, e-mail, subject and message; refused fields are marked invalid", async (t) => {
    const { page, watch } = await pageAs(t, null);
    await page.goto("/contact");
    const lang = await pageLang(page);
    await page.getByRole("button", { name: msg(lang, "page.contact.submit") }).click();
    const required = {
      name: msg(lang, "page.contact.name"),
      email: msg(lang, "field.email"),
      subject: msg(lang, "page.contact.subject"),
      message: msg(lang, "page.contact.message"),
    };
    await page.locator(".field .error").first().waitFor();
    const problems = [];
    for (const [name, label] of Object.entries(required)) {
      const field = page.getByLabel(label, { exact: true });
      const invalid = await field.getAttribute("aria-invalid");
      const described = await field.getAttribute("aria-describedby");
      const error = described ? (await page.locator(`#${described}`).textContent()).trim() : "";
      if (invalid !== "true") problems.push(`${name}: aria-invalid is ${invalid === null ? "missing" : `"${invalid}"`}, want "true"`);
      if (!error) problems.push(`${name}: no error message tied to the field with aria-describedby`);
    }
    assert.equal(problems.length, 0, `the refused contact form:\n  ${problems.join("\n  ")}`);
    // Filled in, it goes.
    await page.getByLabel(required.name, { exact: true }).fill("Vera Visitor");
    await page.getByLabel(required.email, { exact: true }).fill("vera@example.test");
    await page.getByLabel(required.subject, { exact: true }).fill("Pricing question");
    await page.getByLabel(required.message, { exact: true }).fill("How much is a gateway?");
    await page.getByRole("button", { name: msg(lang, "page.contact.submit") }).click();
    const mail = await mailbox.waitFor((m) => m.subject.endsWith("Pricing question"));
    assert.ok(mail.text.includes("vera@example.test"));
    watch.check([/^HTTP 4\d\d: POST \/contact$/]);
  });
});
