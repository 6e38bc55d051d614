// What the tests expect of the screens: the route table with each route's
// roles, the side menu per role, and the main pages the accessibility test
// and the screenshots go through.
//
// The portal grows a module at a time, so every table here lists the whole
// product and the tests skip (and name) the routes the server does not have
// yet (server.routeExists). A page that lands is covered without touching
// the tests; one that needs more than a visit (a form to fill in) gets its
// own test in its own file.

export const ROLES = ["SuperAdmin", "Admin", "CompanyAdmin", "User"];
const CompanyOrUser = ["User", "CompanyAdmin", "Admin", "SuperAdmin"];
const AdminOrCompanyAdmin = ["CompanyAdmin", "Admin", "SuperAdmin"];
const SuperAdmin = ["SuperAdmin"];

/** Open pages: anyone, signed in or not, may see them. */
export const OPEN_ROUTES = ["/", "/login", "/contact", "/news", "/forgot"];

/**
 * Guarded pages with the roles allowed (open routes and routes that need an
 * id of an existing thing are left out): a visitor with no role is sent to
 * /login, a signed-in role that is not allowed to /.
 */
export const GUARDED_ROUTES = [
  { path: "/settings", roles: CompanyOrUser },
  { path: "/dashboard", roles: CompanyOrUser },
  { path: "/alarm", roles: CompanyOrUser },
  { path: "/alarm/active", roles: CompanyOrUser },
  { path: "/alarm/create", roles: AdminOrCompanyAdmin },
  { path: "/gateways", roles: CompanyOrUser },
  { path: "/gateways/create", roles: AdminOrCompanyAdmin },
  { path: "/profiles", roles: AdminOrCompanyAdmin },
  { path: "/profiles/create", roles: AdminOrCompanyAdmin },
  { path: "/signaltest", roles: CompanyOrUser },
  { path: "/script", roles: AdminOrCompanyAdmin },
  { path: "/script/create", roles: AdminOrCompanyAdmin },
  { path: "/company", roles: CompanyOrUser },
  { path: "/company/applications", roles: CompanyOrUser },
  { path: "/company/edit", roles: AdminOrCompanyAdmin },
  { path: "/company/usercreate", roles: AdminOrCompanyAdmin },
  { path: "/company/create", roles: ["Admin"] },
  { path: "/application", roles: CompanyOrUser },
  { path: "/application/create", roles: AdminOrCompanyAdmin },
  { path: "/superadmin", roles: SuperAdmin },
  { path: "/report", roles: AdminOrCompanyAdmin },
  { path: "/report/create", roles: AdminOrCompanyAdmin },
  { path: "/tag", roles: CompanyOrUser },
  { path: "/tag/create", roles: AdminOrCompanyAdmin },
  { path: "/tag/import", roles: AdminOrCompanyAdmin },
  { path: "/tag/pool", roles: SuperAdmin },
  { path: "/devices", roles: AdminOrCompanyAdmin },
  { path: "/register", roles: SuperAdmin },
];

/**
 * The side menu, in its order. label is the message id of the entry's text
 * (checked when the catalog has it); guest marks the entries a visitor sees;
 * roles the signed-in roles that see it.
 */
export const MENU = [
  { href: "/", label: "menu.home", roles: CompanyOrUser, guest: true },
  { href: "/superadmin", label: "menu.superadmin", roles: SuperAdmin },
  { href: "/news", label: "menu.news", roles: CompanyOrUser, guest: true },
  { href: "/company", label: "menu.company", roles: CompanyOrUser },
  { href: "/dashboard", label: "menu.dashboard", roles: CompanyOrUser },
  { href: "/alarm", label: "menu.alarm", roles: CompanyOrUser },
  { href: "/signaltest", label: "menu.signaltest", roles: CompanyOrUser },
  { href: "/application", label: "menu.application", roles: AdminOrCompanyAdmin },
  { href: "/tag", label: "menu.tag", roles: AdminOrCompanyAdmin },
  // The decoder page of issue 5 (docs/decisions.md "Decoder pages").
  { href: "/decoders", label: "decoders.menu", roles: AdminOrCompanyAdmin },
  // The device catalog of issue 21 (docs/decisions.md "Device repository import").
  { href: "/devices", label: "devices.menu", roles: AdminOrCompanyAdmin },
  // The device profiles of issue 21 (docs/decisions.md "Device profiles").
  { href: "/profiles", label: "menu.profiles", roles: AdminOrCompanyAdmin },
  { href: "/gateways", label: "menu.gateways", roles: AdminOrCompanyAdmin },
  { href: "/script", label: "menu.script", roles: AdminOrCompanyAdmin },
  { href: "/report", label: "menu.report", roles: AdminOrCompanyAdmin },
  { href: "/tag/pool", label: "menu.tagPool", roles: SuperAdmin },
  { href: "/register", label: "menu.register", roles: SuperAdmin },
  { href: "/settings", label: "menu.settings", roles: CompanyOrUser },
  { href: "/contact", label: "menu.contact", roles: CompanyOrUser, hiddenInWhiteLabel: true },
  { href: "/login", label: "menu.login", roles: [], guest: true },
  { href: "POST /logout", label: "menu.logout", roles: CompanyOrUser },
];

/** menuFor is the side menu of role (null: a visitor), in menu order. */
export function menuFor(role, { whiteLabel = false } = {}) {
  return MENU.filter((e) => (role ? e.roles.includes(role) : e.guest) && !(whiteLabel && e.hiddenInWhiteLabel));
}

/**
 * The main pages: each gets an axe-core check, a keyboard walk and a
 * screenshot in light and dark. as is the role that views it (null: a
 * visitor); path is a string or a function of the test's server; status
 * the page's HTTP status when it is not 200.
 * menuOpen also shows (and checks) the side menu open.
 */
export const PAGES = [
  { name: "home", path: "/", as: null },
  { name: "login", path: "/login", as: null, menuOpen: true },
  { name: "forgot", path: "/forgot", as: null },
  { name: "reset", path: (server) => resetLink(server), as: null },
  { name: "reset-invalid", path: "/forgot/3f1d2c4b-0000-4000-8000-000000000000", as: null, status: 404 },
  { name: "news", path: "/news", as: null },
  { name: "news-superadmin", path: "/news", as: "SuperAdmin" },
  // The API reference (the OpenAPI document rendered), open to visitors.
  { name: "api", path: "/api", as: null },
  { name: "contact", path: "/contact", as: "User" },
  { name: "contact-visitor", path: "/contact", as: null },
  { name: "settings", path: "/settings", as: "User" },
  { name: "company", path: "/company", as: "CompanyAdmin" },
  { name: "company-applications", path: "/company/applications", as: "CompanyAdmin" },
  { name: "company-edit", path: "/company/edit", as: "CompanyAdmin" },
  { name: "company-usercreate", path: "/company/usercreate", as: "CompanyAdmin" },
  { name: "company-user", path: (server) => `/company/user/${server.accounts.byRole.User.userId}`, as: "CompanyAdmin" },
  { name: "company-create", path: "/company/create", as: "Admin" },
  { name: "superadmin", path: "/superadmin", as: "SuperAdmin" },
  // The installation settings, here without white-label (branding disabled).
  { name: "superadmin-settings", path: "/superadmin/settings", as: "SuperAdmin" },
  { name: "register", path: "/register", as: "SuperAdmin" },
  // The decoder pages (docs/decisions.md "Decoder pages").
  { name: "decoders", path: "/decoders", as: "CompanyAdmin" },
  { name: "decoders-create", path: "/decoders/create", as: "CompanyAdmin" },
  // The field signal tests: the list with its start form, and a test just
  // started (no points yet; signaltest.test.mjs checks the map with points).
  { name: "signaltest", path: "/signaltest", as: "User" },
  { name: "signaltest-peek-new", path: (server) => signalTestPath(server), as: "User" },
  // The gateway pages (issue 20).
  { name: "gateways", path: "/gateways", as: "User" },
  { name: "gateways-create", path: "/gateways/create", as: "CompanyAdmin" },
  // The device profile pages (docs/api/profiles.md).
  { name: "profiles", path: "/profiles", as: "CompanyAdmin" },
  { name: "profiles-create", path: "/profiles/create", as: "CompanyAdmin" },
  // The alarm pages (docs/api/alarms.md).
  { name: "alarms", path: "/alarm", as: "User" },
  { name: "alarms-active", path: "/alarm/active", as: "User" },
  { name: "alarms-create", path: "/alarm/create", as: "CompanyAdmin" },
  // The report pages (docs/api/reports.md).
  { name: "reports", path: "/report", as: "CompanyAdmin" },
  { name: "reports-create", path: "/report/create", as: "CompanyAdmin" },
  // The script pages (docs/decisions.md "Scripts").
  { name: "scripts", path: "/script", as: "CompanyAdmin" },
  { name: "scripts-create", path: "/script/create", as: "CompanyAdmin" },
  // The device catalog (empty: nothing imported in this server), with the
  // SuperAdmin's upload and without it.
  { name: "devices", path: "/devices", as: "SuperAdmin" },
  { name: "devices-companyadmin", path: "/devices", as: "CompanyAdmin" },
  // The signed-in frame with its menu open: company switcher, logout, bell.
  { name: "frame-superadmin", path: (server) => firstExisting(server, ["/superadmin", "/", "/forgot"]), as: "SuperAdmin", menuOpen: true },
  { name: "frame-user", path: (server) => firstExisting(server, ["/settings", "/", "/forgot"]), as: "User", menuOpen: true },
];

/**
 * signedInPath is a page every role may see, to look at the signed-in frame:
 * home once it exists, until then the forgot form, which is open to all.
 */
export function signedInPath(server) {
  return firstExisting(server, ["/", "/settings", "/forgot"]);
}

async function firstExisting(server, paths) {
  for (const p of paths) if (await server.routeExists(p)) return p;
  throw new Error(`none of ${paths.join(", ")} exists`);
}

// signalTestPath gives Acme a node with an active field test, once per
// server, and returns the test's live page.
const signalTests = new WeakMap();
function signalTestPath(server) {
  if (!signalTests.has(server)) {
    signalTests.set(
      server,
      (async () => {
        const acme = server.accounts.companies[0];
        const token = await server.token(acme.companyAdmin);
        const app = await server.api("POST", `/api/applications/${acme.id}`, { token, body: { name: "Coverage walk" } });
        await server.api("POST", `/api/applications/${app.id}/tag`, { token, body: { name: "Walker", deveui: "70B3D57ED0000B01" } });
        const test = await server.api("POST", `/api/signaltest/${acme.id}/70B3D57ED0000B01`, { token, body: { description: "Car park" } });
        return `/signaltest/peek/${test.testId}`;
      })(),
    );
  }
  return signalTests.get(server);
}

// resetLink asks for a password reset of the User and returns the link's
// path from the mail (the server must have been started with a mailbox).
async function resetLink(server) {
  const user = server.accounts.byRole.User;
  const since = server.mailbox.messages.length;
  await server.api("POST", `/api/users/forgot/${encodeURIComponent(user.email)}`);
  const mail = await server.mailbox.waitFor((m, i = server.mailbox.messages.indexOf(m)) => i >= since && m.envelope.to.includes(user.email));
  return new URL(linkIn(mail.text)).pathname;
}

/** linkIn returns the first http(s) link of a mail's text. */
export function linkIn(text) {
  const m = text.match(/https?:\/\/\S+/);
  if (!m) throw new Error(`no link in mail:\n${text}`);
  return m[0];
}
