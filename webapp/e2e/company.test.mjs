// Company pages: a CompanyAdmin adds, opens and deletes a user and edits the
// company; a SuperAdmin registers a company, finds it and opens it.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { frame, launchBrowser, newContext, openMenu, pageLang, signIn, waitForSwapSettled, watchPage } from "./lib/browser.mjs";
import { t as msg, tf } from "./lib/env.mjs";
import { PASSWORD, startFieldhub } from "./lib/server.mjs";

let browser, server;

before(async () => {
  [server, browser] = await Promise.all([startFieldhub(), launchBrowser()]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function pageAs(t, account) {
  const context = await newContext(browser, server);
  t.after(() => context.close());
  await signIn(context, account);
  const page = await context.newPage();
  return { page, watch: watchPage(page) };
}

// Fields are found by their labels, in the page's language, inside one form.
function fill(form, lang) {
  return async (values) => {
    for (const [labelId, value] of Object.entries(values)) {
      const field = form.getByLabel(msg(lang, labelId), { exact: true });
      if ((await field.evaluate((el) => el.tagName)) === "SELECT") await field.selectOption(value);
      else await field.fill(value);
    }
  };
}

describe("CompanyAdmin", () => {
  test("adds a user, who can log in, sees them on the company page, and deletes them", async (t) => {
    if (!(await server.routeExists("/company/usercreate"))) return t.skip("/company/usercreate does not exist yet");
    const admin = server.accounts.companies[1].companyAdmin; // Globex: other tests use Acme
    const { page, watch } = await pageAs(t, admin);
    await page.goto("/company/usercreate");
    const lang = await pageLang(page);
    const form = page.locator('form[action="/company/usercreate"]');
    const person = { first: "Nils", last: "Nyman", email: "nils.nyman@globex.test" };
    await fill(form, lang)({
      "field.firstName": person.first,
      "field.lastName": person.last,
      "field.email": person.email,
      "field.phoneNumber": "46709876543",
      "field.password": PASSWORD,
      "field.confirmPassword": PASSWORD,
      "field.role": "User",
    });
    await form.getByRole("button", { name: msg(lang, "page.company.usercreate.submit") }).click();
    await page.waitForURL(/\/company\/user\/\d+$/);
    const fullName = `${person.first} ${person.last}`;
    await page.getByRole("heading", { level: 1, name: fullName }).waitFor();
    const userPath = new URL(page.url()).pathname;

    // The new account works.
    await server.api("POST", "/api/users/authenticate", { body: { email: person.email, password: PASSWORD } });

    await page.goto("/company");
    await page.getByRole("main").getByRole("link", { name: fullName }).waitFor();

    // Delete, confirming in the dialog that opens in place; the focus goes to its safe choice.
    await page.goto(userPath);
    await page.getByRole("link", { name: msg(lang, "page.user.delete") }).click();
    const dialog = page.getByRole("alertdialog", { name: msg(lang, "page.user.delete") });
    await dialog.waitFor();
    await page.waitForFunction(() => document.activeElement?.closest('[role="alertdialog"]') !== null, null, { timeout: 2000 }).catch(() => {});
    const focusInDialog = await page.evaluate(() => document.activeElement?.closest('[role="alertdialog"]') !== null);
    await dialog.getByRole("button", { name: msg(lang, "page.user.delete.yes") }).click();
    await page.waitForURL("/company");
    assert.equal(await page.getByRole("main").getByRole("link", { name: fullName }).count(), 0, "the deleted user is gone from the list");
    await server.api("POST", "/api/users/authenticate", { body: { email: person.email, password: PASSWORD }, expect: [400, 401, 404, 409] });
    assert.ok(focusInDialog, "the confirmation takes the focus when it opens (its Cancel link has autofocus)");
    watch.check();
  });

  test("edits the company; a name left empty is refused on the field", async (t) => {
    if (!(await server.routeExists("/company/edit"))) return t.skip("/company/edit does not exist yet");
    const admin = server.accounts.companies[1].companyAdmin;
    const { page, watch } = await pageAs(t, admin);
    await page.goto("/company/edit");
    const lang = await pageLang(page);
    const form = page.locator('form[action="/company/edit"]');
    const name = form.getByLabel(msg(lang, "field.companyName"), { exact: true });
    await name.fill("");
    await form.getByRole("button", { name: msg(lang, "page.company.edit.submit") }).click();
    await form.getByText(msg(lang, "accounts.company.name.required")).waitFor();
    await waitForSwapSettled(page);
    // The form was swapped: find the field again.
    const refused = page.locator('form[action="/company/edit"]').getByLabel(msg(lang, "field.companyName"), { exact: true });
    assert.equal(await refused.getAttribute("aria-invalid"), "true");

    await refused.fill(server.accounts.companies[1].name);
    await fill(page.locator('form[action="/company/edit"]'), lang)({ "field.contactPhonenumber": "46812345678" });
    await page.locator('form[action="/company/edit"]').getByRole("button", { name: msg(lang, "page.company.edit.submit") }).click();
    await page.waitForURL("/company");
    await page.getByRole("heading", { level: 1, name: server.accounts.companies[1].name }).waitFor();
    await page.getByRole("main").getByText("46812345678").waitFor();
    watch.check([/^HTTP 4\d\d: POST \/company\/edit$/]);
  });

  test("a User sees the company but not the admin actions", async (t) => {
    if (!(await server.routeExists("/company"))) return t.skip("/company does not exist yet");
    const { page } = await pageAs(t, server.accounts.byRole.User);
    await page.goto("/company");
    await page.getByRole("heading", { level: 1, name: server.accounts.companies[0].name }).waitFor();
    assert.equal(await page.locator('main a[href="/company/edit"], main a[href="/company/usercreate"]').count(), 0);
  });
});

describe("SuperAdmin", () => {
  test("registers a company, finds it in the list and opens it", async (t) => {
    if (!(await server.routeExists("/register")) || !(await server.routeExists("/superadmin"))) return t.skip("/register or /superadmin does not exist yet");
    const { page, watch } = await pageAs(t, server.accounts.superAdmin);
    await page.goto("/register");
    const lang = await pageLang(page);
    const form = page.locator('form[action="/register"]');
    const company = "Initech Sensors AB";
    const within = (legendId) => form.locator("fieldset").filter({ has: page.locator("legend", { hasText: msg(lang, legendId) }) });
    await fill(within("page.register.company"), lang)({
      "field.companyName": company,
      "field.orgNumber": "556677-8899",
      "field.invoiceAdress": "billing@initech.test",
      "field.country": "SE",
    });
    await fill(within("page.register.user"), lang)({
      "field.firstName": "Ingrid",
      "field.lastName": "Initech",
      "field.email": "ingrid@initech.test",
      "field.phoneNumber": "46701112233",
      "field.password": PASSWORD,
      "field.confirmPassword": PASSWORD,
    });
    await form.getByRole("button", { name: msg(lang, "page.register.submit") }).click();
    await page.waitForURL("/superadmin");

    // The search narrows the list as one types.
    await page.getByLabel(msg(lang, "page.superadmin.search")).pressSequentially("Initech");
    await page.waitForFunction(
      (name) => {
        const rows = [...document.querySelectorAll("#company-list tbody tr")];
        return rows.length === 1 && rows[0].textContent.includes(name);
      },
      company,
    );
    // The company switcher offers it too.
    await page.reload();
    await openMenu(page);
    const options = await frame(page).companySwitcher.locator("option").allTextContents();
    assert.ok(options.map((o) => o.trim()).includes(company), `the switcher offers ${company} (${options.join(", ")})`);

    await page.getByRole("button", { name: tf(lang, "page.superadmin.openLabel", { name: company }) }).click();
    await page.waitForURL("/company");
    await page.getByRole("heading", { level: 1, name: company }).waitFor();
    // The first user became its CompanyAdmin.
    const login = await server.api("POST", "/api/users/authenticate", { body: { email: "ingrid@initech.test", password: PASSWORD } });
    assert.equal(login.role, "CompanyAdmin");
    watch.check();
  });
});
