// What the browser is told not to allow: the pages' Content-Security-Policy
// and the other security headers, the harness's report of a violation,
// framing (no page may be framed but public dashboards, by the configured
// sites), and a state change another origin makes the browser send (logout
// is a POST from the portal's own pages only).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { frame, launchBrowser, newContext, openMenu, signIn, takeViolations, watchPage } from "./lib/browser.mjs";
import { startOutside } from "./lib/outside.mjs";
import { startFieldhub } from "./lib/server.mjs";

let browser, server, outside;

before(async () => {
  outside = await startOutside();
  [server, browser] = await Promise.all([
    // The outside site as "localhost" may frame public dashboards.
    startFieldhub({ env: { FIELDHUB_EMBED_ORIGINS: outside.otherSite } }),
    launchBrowser(),
  ]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await outside?.close();
});

async function freshPage(t) {
  const context = await newContext(browser, server);
  t.after(() => context.close());
  const page = await context.newPage();
  return { context, page, watch: watchPage(page) };
}

// publicLink shares a new dashboard of Acme and returns its /public/ path.
async function publicLink() {
  const acme = server.accounts.companies[0];
  const token = await server.token(acme.companyAdmin);
  const d = await server.api("POST", "/api/dashboards", { token, body: { name: "Shared" } });
  const expires = new Date(Date.now() + 24 * 3600 * 1000).toISOString();
  const link = await server.api("POST", `/api/dashboards/public/${acme.id}/${d.dashboardId}/${expires}`, { token });
  assert.match(link.token, /^pd_/);
  return `/public/${link.token}`;
}

test("pages carry the Content-Security-Policy and the other security headers", async () => {
  for (const path of ["/login", "/", "/api/users/authenticate"]) {
    const res = await fetch(server.baseURL + path);
    await res.arrayBuffer();
    const csp = res.headers.get("content-security-policy") ?? "";
    assert.match(csp, /script-src 'self' 'nonce-[A-Za-z0-9+/]{22}'/, `${path}: ${csp}`);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, `${path}: ${csp}`);
    assert.match(csp, /frame-ancestors 'none'$/, `${path}: ${csp}`);
    assert.equal(res.headers.get("x-content-type-options"), "nosniff", path);
    assert.equal(res.headers.get("referrer-policy"), "same-origin", path);
    assert.match(res.headers.get("permissions-policy") ?? "", /camera=\(\)/, path);
    // The portal under test is reached over http: no HSTS.
    assert.equal(res.headers.get("strict-transport-security"), null, path);
  }
});

test("the harness reports what the policy refuses: an inline script and a style attribute", async (t) => {
  const { page, watch } = await freshPage(t);
  await page.goto("/login");
  await page.evaluate(() => {
    const s = document.createElement("script");
    s.textContent = "window.injected = true";
    document.head.append(s);
    document.body.insertAdjacentHTML("beforeend", '<p style="color: red">styled</p>');
  });
  assert.equal(await page.evaluate(() => window.injected), undefined, "the inline script did not run");
  const got = await takeViolations(page);
  assert.ok(got.some((v) => /script-src-elem refused inline/.test(v)), `the inline script is reported: ${got.join("; ")}`);
  assert.ok(got.some((v) => /style-src-attr refused inline/.test(v)), `the style attribute is reported: ${got.join("; ")}`);
  watch.check();
});

test("no site may frame a page; the configured site may frame a public dashboard", async (t) => {
  const { page } = await freshPage(t);
  const path = await publicLink();
  const framedAt = async (site, target) => {
    await page.goto(`${site}/frame?src=${encodeURIComponent(server.baseURL + target)}`);
    await page.locator("iframe").waitFor();
    // A refused frame gets the browser's error page instead of the portal's.
    await page.waitForFunction(() => document.readyState === "complete");
    const f = page.frames().find((fr) => fr !== page.mainFrame());
    return f && f.url().startsWith(server.baseURL) ? f : null;
  };
  const allowedSite = outside.otherSite;
  const otherSite = outside.url;
  assert.equal(await framedAt(allowedSite, "/login"), null, "the login page is not framed, even by the allowed site");
  assert.equal(await framedAt(otherSite, path), null, "another site does not frame the public dashboard");
  const shown = await framedAt(allowedSite, path);
  assert.ok(shown, "the allowed site frames the public dashboard");
  await shown.locator('[data-island="dashboard"][data-mounted="true"]').waitFor();
  await takeViolations(page); // the outside pages are not the portal's
});

test("logout is a POST from the portal's own pages: not a GET, not another origin's form", async (t) => {
  const { context, page, watch } = await freshPage(t);
  await signIn(context, server.accounts.byRole.User);

  const get = await page.goto("/logout");
  assert.equal(get.status(), 405, "GET /logout is no logout");
  await page.goto("/settings");
  assert.equal(new URL(page.url()).pathname, "/settings", "still signed in after GET /logout");

  // A page of another origin on the same site (cookies go along) posts the
  // logout form: refused, and the session stays.
  await page.goto(`${outside.url}/post?action=${encodeURIComponent(`${server.baseURL}/logout`)}`);
  const [res] = await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === "/logout"), page.getByRole("button").click()]);
  assert.equal(res.status(), 403, "the other origin's logout is refused");
  await page.goto("/settings");
  assert.equal(new URL(page.url()).pathname, "/settings", "still signed in after the other origin's POST");

  // The menu's logout button works.
  await openMenu(page);
  await frame(page).logout.click();
  await page.waitForURL("/login");
  watch.check([/HTTP 405: GET \/logout/, /HTTP 403: POST \/logout/]);
});
