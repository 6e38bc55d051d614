// Sign in and out, and the forgot-password round trip through a real SMTP
// server.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { assertSnackbar, focusFromTop, frame, launchBrowser, newContext, openMenu, readSnackbar, signIn, tr, waitForSwapSettled, watchPage } from "./lib/browser.mjs";
import { t } from "./lib/env.mjs";
import { startMailbox } from "./lib/mailbox.mjs";
import { linkIn } from "./lib/pages.mjs";
import { PASSWORD, startFieldhub } from "./lib/server.mjs";

const en = (id) => t("en", id);
// A message in any language: the page after a redirect may be drawn in the
// user's own language (their company's country), not the visitor's.
const anyLang = (id) => [t("en", id), t("sv", id)];

let browser, server, mailbox;

before(async () => {
  mailbox = await startMailbox();
  [server, browser] = await Promise.all([startFieldhub({ mailbox }), launchBrowser()]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await mailbox?.close();
});

// A test gets a fresh context (no cookies) and a page that records script
// errors; the context closes when the test ends.
async function freshPage(t, opts) {
  const context = await newContext(browser, server, opts);
  t.after(() => context.close());
  const page = await context.newPage();
  return { context, page, watch: watchPage(page) };
}

async function submitLogin(page, email, password) {
  await page.getByLabel(en("field.email")).fill(email);
  await page.getByLabel(en("field.password"), { exact: true }).fill(password);
  await page.getByRole("button", { name: en("page.login.submit") }).click();
}

describe("login and logout", () => {
  test("a user logs in with the form, lands on home with the snackbar, and logs out from the menu", async (t) => {
    const { context, page, watch } = await freshPage(t);
    const user = server.accounts.byRole.CompanyAdmin;
    await page.goto("/login");
    assert.equal(await page.title(), `${en("page.login.title")} · Fieldhub`);
    await page.getByRole("heading", { level: 1, name: en("page.login.title") }).waitFor();

    await submitLogin(page, user.email, user.password);
    await page.waitForURL("/");
    const loggedIn = await readSnackbar(page);
    const cookies = await context.cookies();
    assert.ok(cookies.some((c) => c.httpOnly), `an HttpOnly session cookie is set (got ${cookies.map((c) => c.name)})`);
    const f = frame(page);
    assert.equal(await f.logout.count(), 1, "the menu offers Logout");

    // Signed in, /login sends the user on instead of showing the form.
    await page.goto("/login");
    await page.waitForURL("/");

    await openMenu(page);
    await f.logout.click();
    await page.waitForURL("/login");
    const loggedOut = await readSnackbar(page);
    const _ = await tr(page);
    await page.getByRole("heading", { level: 1, name: _("page.login.title") }).waitFor();
    await f.mainMenu.locator('a[href="/login"]').waitFor({ state: "attached" });
    assert.equal(await f.logout.count(), 0, "no logout entry once logged out");
    // The session is gone on the server too: a guarded page asks to log in.
    await page.goto("/settings");
    await page.waitForURL(/\/login\?next=/);
    watch.check();
    assertSnackbar(loggedIn, anyLang("accounts.login.ok"), "after logging in");
    assertSnackbar(loggedOut, anyLang("page.logout.done"), "after logging out");
  });

  test("logging in from a guarded page returns to it", async (t) => {
    const target = (await server.routeExists("/settings")) ? "/settings" : null;
    if (!target) return t.skip("no guarded GET page exists yet (/settings answers 404)");
    const { page, watch } = await freshPage(t);
    await page.goto(target);
    await page.waitForURL(`/login?next=${encodeURIComponent(target)}`);
    const user = server.accounts.byRole.User;
    await submitLogin(page, user.email, user.password);
    await page.waitForURL(target);
    watch.check();
  });

  test("a wrong password is refused with the message of the error catalogue and no session", async (t) => {
    const { context, page, watch } = await freshPage(t);
    const user = server.accounts.companies[1].user; // not used by other tests: failures count towards a lockout
    await page.goto("/login");
    await submitLogin(page, user.email, "not-the-password");
    // Whatever the page shows first: the refused form's message, or a snackbar.
    await page.locator('form [role="alert"], #snackbar.visible').first().waitFor();
    const snackbar = (await frame(page).snackbar.textContent()).trim();
    const formAlert = page.locator('form [role="alert"]');
    assert.equal(await formAlert.count(), 1, `the form shows why the login was refused (instead the snackbar says "${snackbar}")`);
    assert.equal((await formAlert.textContent()).trim(), en("accounts.login.failed"));
    assert.equal(new URL(page.url()).pathname, "/login");
    // The form keeps the address and clears the password.
    assert.equal(await page.getByLabel(en("field.email")).inputValue(), user.email);
    assert.equal(await page.getByLabel(en("field.password"), { exact: true }).inputValue(), "");
    assert.ok(!(await context.cookies()).some((c) => c.httpOnly), "no session cookie after a failed login");
    // The refused form comes back with a 4xx status; that is expected.
    watch.check([/^HTTP 4\d\d: POST \/login$/]);
  });

  test("the keyboard alone: Tab to the fields, type, submit with Enter", async (t) => {
    const { page, watch } = await freshPage(t);
    const user = server.accounts.byRole.Admin;
    await page.goto("/login");
    // Start from the top of the document, not from the autofocused field.
    await focusFromTop(page);
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute("name") ?? document.activeElement?.tagName);
    let steps = 0;
    while ((await focused()) !== "email") {
      assert.ok(++steps <= 20, "Tab reaches the e-mail field within 20 steps");
      await page.keyboard.press("Tab");
    }
    await page.keyboard.type(user.email);
    await page.keyboard.press("Tab");
    assert.equal(await focused(), "password", "Tab goes from the e-mail field to the password field");
    await page.keyboard.type(user.password);
    await page.keyboard.press("Enter");
    await page.waitForURL("/");
    const snackbar = await readSnackbar(page);
    watch.check();
    assertSnackbar(snackbar, anyLang("accounts.login.ok"), "after logging in with the keyboard");
  });

  test("the skip link is the first stop and moves focus to the content", async (t) => {
    const { page } = await freshPage(t);
    await page.goto("/login");
    await focusFromTop(page);
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: en("frame.skip") });
    assert.ok(await skip.evaluate((el) => el === document.activeElement), "the first Tab focuses the skip link");
    const box = await skip.boundingBox();
    assert.ok(box && box.x >= 0 && box.y >= 0, "the focused skip link is on screen");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.activeElement?.id === "main");
  });
});

describe("forgot password", () => {
  test("round trip: ask for a link, read the mail, set a new password, log in with it", async (t) => {
    const { page, watch } = await freshPage(t);
    const user = server.accounts.companies[1].companyAdmin;
    const since = mailbox.messages.length;

    await page.goto("/login");
    await page.getByRole("link", { name: en("page.login.forgot") }).click();
    await page.waitForURL("/forgot");
    await page.getByLabel(en("field.email")).fill(user.email);
    await page.getByRole("button", { name: en("page.forgot.submit") }).click();
    await page.getByRole("status").getByText(en("accounts.forgot.sent")).waitFor();

    const mail = await mailbox.waitFor((m) => mailbox.messages.indexOf(m) >= since && m.envelope.to.includes(user.email));
    assert.equal(mail.subject, en("accounts.forgot.mail.subject"));
    assert.match(mail.text, new RegExp(`^Hello ${user.firstName}\\b`));
    const link = linkIn(mail.text);
    assert.match(link, new RegExp(`^${server.baseURL}/forgot/[0-9a-f-]{36}$`), "the link points at this portal's reset page");

    await page.goto(link);
    await page.getByRole("heading", { level: 1, name: en("page.reset.title") }).waitFor();
    const newPassword = "N3w-Passw0rd-after-reset";
    // Two different passwords are refused on the confirmation field.
    await page.getByLabel(en("field.newPassword")).fill(newPassword);
    await page.getByLabel(en("field.confirmPassword")).fill(newPassword + "x");
    await page.getByRole("button", { name: en("page.reset.submit") }).click();
    await page.getByText(en("accounts.password.mismatch")).waitFor();
    await waitForSwapSettled(page);
    const confirm = page.getByLabel(en("field.confirmPassword"));
    assert.equal(await confirm.getAttribute("aria-invalid"), "true", "the refused field is marked invalid");

    await page.getByLabel(en("field.newPassword")).fill(newPassword);
    await confirm.fill(newPassword);
    await page.getByRole("button", { name: en("page.reset.submit") }).click();
    // If this times out, say where the page was and what the form showed.
    await page.waitForURL("/login", { timeout: 30000 }).catch(async (err) => {
      const form = await page.locator("main").innerText().catch(() => "(unreadable)");
      throw new Error(`the reset did not lead to /login: the page is ${page.url()} and shows ${JSON.stringify(form)}`, { cause: err });
    });
    const saved = await readSnackbar(page);

    // The old password no longer works (the form's refusal is tested above), the new one does.
    await server.api("POST", "/api/users/authenticate", { body: { email: user.email, password: PASSWORD }, expect: [400, 401, 409] });
    await submitLogin(page, user.email, newPassword);
    await page.waitForURL("/");

    // The link works once.
    const again = await freshPage(t);
    await again.page.goto(link);
    await again.page.getByRole("alert").getByText(en("accounts.forgot.invalidLink")).waitFor();
    await again.page.getByRole("link", { name: en("page.reset.again") }).waitFor();
    watch.check([/^HTTP 4\d\d: POST \/forgot\//]);
    assertSnackbar(saved, anyLang("accounts.forgot.done"), "after the new password was saved");
  });

  test("an address without an account gets the same answer and no mail", async (t) => {
    const { page } = await freshPage(t);
    await page.goto("/forgot");
    await page.getByLabel(en("field.email")).fill("nobody@nowhere.test");
    await page.getByRole("button", { name: en("page.forgot.submit") }).click();
    await page.getByRole("status").getByText(en("accounts.forgot.sent")).waitFor();
    // A mail for a real account, asked for afterwards, arrives first: the
    // outbox sends in order, so none was queued for the unknown address.
    const user = server.accounts.companies[1].admin;
    await server.api("POST", `/api/users/forgot/${encodeURIComponent(user.email)}`);
    await mailbox.waitFor((m) => m.envelope.to.includes(user.email));
    assert.ok(!mailbox.messages.some((m) => m.envelope.to.includes("nobody@nowhere.test")), "no mail to an unknown address");
  });

  test("a malformed reset link says so", async (t) => {
    const { page } = await freshPage(t);
    await page.goto("/forgot/not-a-guid");
    await page.getByRole("alert").getByText(en("accounts.forgot.badGuid")).waitFor();
  });
});

test("signing in through the form POST helper gives a working session", async (t) => {
  // Guards the helper the other files rely on.
  const { context, page } = await freshPage(t);
  await signIn(context, server.accounts.byRole.User);
  await page.goto("/login");
  await page.waitForURL("/");
});
