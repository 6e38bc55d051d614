// The bell of the top bar: notifications that `fieldhub notify` stores for
// a User (from outside the portal's process, as any module's would be)
// appear live, without a reload, with their count; the list shows label
// and message, newest first; a click marks one read and opens its route;
// "Mark all as read" empties it ("You are all up to date.") in every tab of
// the user; a failed load shows its error with a retry; Escape closes the
// list and gives the focus back to the bell, and a notification arriving
// while the user tabs through the list keeps their place; axe in light and
// dark.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { checkA11y } from "./lib/axe.mjs";
import { launchBrowser, newContext, pageLang, readSnackbar, setTheme, signIn, watchPage } from "./lib/browser.mjs";
import { artifactPath, t as msg, tf } from "./lib/env.mjs";
import { startFieldhub } from "./lib/server.mjs";

let browser, server;

before(async () => {
  [server, browser] = await Promise.all([startFieldhub(), launchBrowser()]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// notify stores a notification for account through the command line.
async function notify(account, label, message, route) {
  const out = await server.cli("notify", "--user", account.email, "--label", label, "--message", message, "--route", route);
  assert.match(out, /is notified/);
}

// bellOf is the bell of a page and its parts.
function bellOf(page) {
  const details = page.locator("details.notifications");
  return {
    details,
    summary: details.locator("summary"),
    badge: details.locator(".badge"),
    panel: details.locator(".notifications-panel"),
    items: details.locator(".notifications-list .notification"),
    // unread waits until the bell counts n, as the page shows it (no reload).
    unread: (n) => page.waitForFunction((n) => document.querySelector("details.notifications")?.dataset.unread === String(n), n),
  };
}

test("notifications arrive live in the bell, open their page when clicked, and are all marked read", async (t) => {
  const user = server.accounts.byRole.User;
  const context = await newContext(browser, server);
  t.after(() => context.close());
  await signIn(context, user);
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto("/settings");
  const lang = await pageLang(page);
  const m = (id) => msg(lang, id);
  const bell = bellOf(page);

  // Nothing yet: no badge, and the list says so.
  assert.equal(await bell.badge.isHidden(), true, "no badge without notifications");
  await bell.summary.click();
  await bell.panel.waitFor();
  assert.equal((await bell.panel.innerText()).trim(), m("notifications.empty"));
  await bell.summary.click();
  await bell.panel.waitFor({ state: "hidden" });

  // A second tab of the same user, to see the marking follow.
  const other = await context.newPage();
  await other.goto("/company");

  // Stored from outside, announced by the portal: the page learns it live.
  await notify(user, "Freezer too warm", "Cold room 2 at -12 °C since 02:00", "/company");
  await bell.unread(1);
  await notify(user, "Door open", "The back door has been open for 10 minutes", "/dashboard");
  await bell.unread(2);
  assert.equal((await bell.badge.textContent()).trim(), "2");
  assert.equal(await bell.summary.getAttribute("aria-label"), tf(lang, "frame.notifications", { count: 2 }));
  assert.equal(await page.locator("[data-notifications-news]").textContent(), tf(lang, "frame.notifications", { count: 2 }), "the new count is announced");
  await bellOf(other).unread(2);

  // The list: label and message of each, newest first.
  await bell.summary.click();
  await bell.items.first().waitFor();
  assert.equal(await bell.items.count(), 2);
  assert.equal((await bell.items.nth(0).locator("strong").textContent()).trim(), "Door open");
  assert.equal((await bell.items.nth(0).locator(".message").textContent()).trim(), "The back door has been open for 10 minutes");
  assert.equal((await bell.items.nth(1).locator("strong").textContent()).trim(), "Freezer too warm");
  assert.equal(await bell.items.nth(1).getAttribute("href"), "/company");
  await bell.panel.getByRole("button", { name: m("notifications.markAll") }).waitFor();
  const box = await bell.panel.boundingBox();
  assert.ok(box.height <= 600, `the list is at most 600 px high: ${box.height}`);

  // axe-core and screenshots in both themes, with the list open.
  for (const dark of [false, true]) {
    await setTheme(page, dark);
    if (!(await bell.details.evaluate((d) => d.open))) await bell.summary.click();
    await bell.items.first().waitFor();
    const theme = dark ? "dark" : "light";
    await checkA11y(page, `the notifications list (${theme})`);
    await page.screenshot({ path: artifactPath(`notifications-list-${theme}.png`) });
  }
  await setTheme(page, false);

  // Keyboard: the bell opens with Enter, Tab reaches the notifications,
  // Escape closes the list and gives the focus back to the bell.
  if (await bell.details.evaluate((d) => d.open)) await bell.summary.click();
  await bell.panel.waitFor({ state: "hidden" });
  await bell.summary.focus();
  await page.keyboard.press("Enter");
  await bell.items.first().waitFor();
  await page.keyboard.press("Tab");
  assert.equal(await bell.items.first().evaluate((el) => el === document.activeElement), true, "Tab reaches the newest notification");
  // A notification that arrives meanwhile leaves the focus where it was.
  await notify(user, "Pump stopped", "The irrigation pump stopped at 03:10", "/dashboard");
  await bell.unread(3);
  assert.equal(await page.evaluate(() => document.activeElement?.querySelector("strong")?.textContent), "Door open", "the focus stays on the notification");
  await page.keyboard.press("Escape");
  await bell.panel.waitFor({ state: "hidden" });
  assert.equal(await bell.summary.evaluate((el) => el === document.activeElement), true, "the focus is back on the bell");

  // A click marks the notification read and opens its route.
  await bell.summary.click();
  await bell.items.nth(2).click();
  await page.waitForURL((u) => new URL(u).pathname === "/company");
  const after = bellOf(page);
  await after.unread(2);
  assert.equal((await after.badge.textContent()).trim(), "2");
  await bellOf(other).unread(2);

  // Mark all as read: the list empties here and in the other tab.
  await after.summary.click();
  await after.items.first().waitFor();
  assert.deepEqual((await after.items.locator("strong").allTextContents()).map((x) => x.trim()), ["Pump stopped", "Door open"]);
  await after.panel.getByRole("button", { name: m("notifications.markAll") }).click();
  await after.unread(0);
  assert.equal((await after.panel.innerText()).trim(), m("notifications.empty"));
  assert.equal(await after.badge.isHidden(), true, "the badge is gone");
  assert.equal(await after.summary.evaluate((el) => el === document.activeElement), true, "the focus is back on the bell");
  await bellOf(other).unread(0);
  watch.check();
});

test("a list that cannot be loaded says so and loads again on Try again", async (t) => {
  const admin = server.accounts.byRole.CompanyAdmin;
  await notify(admin, "Gateway offline", "Gateway 1 has not been heard for an hour", "/company");
  const context = await newContext(browser, server);
  t.after(() => context.close());
  await signIn(context, admin);
  const page = await context.newPage();
  const watch = watchPage(page);
  // Every load fails until the route is released.
  await page.route("**/api/notification/*", (route) => route.fulfill({ status: 500, contentType: "application/json", body: '{"message":"boom"}' }));
  await page.goto("/settings");
  const lang = await pageLang(page);
  const bell = bellOf(page);
  assert.equal((await bell.badge.textContent()).trim(), "1", "the server counted it on the page");
  await bell.summary.click();
  const error = bell.panel.locator(".notifications-error");
  await error.waitFor();
  assert.match(await error.innerText(), new RegExp(msg(lang, "notifications.failed")));
  await checkA11y(page, "the notifications error");
  await page.unroute("**/api/notification/*");
  await error.getByRole("button", { name: msg(lang, "notifications.retry") }).click();
  await bell.items.first().waitFor();
  assert.equal(await error.isHidden(), true);
  assert.equal((await bell.items.first().locator("strong").textContent()).trim(), "Gateway offline");

  // A marking that fails shows the common error message and stays.
  await page.route("**/api/notification/deactivate/**", (route) => route.fulfill({ status: 500, contentType: "application/json", body: "{}" }));
  await bell.items.first().click();
  assert.equal(await readSnackbar(page), msg(lang, "error.generic"));
  assert.equal(new URL(page.url()).pathname, "/settings");
  watch.check([/^HTTP 500: (GET|PUT) \/api\/notification\//]);
});
