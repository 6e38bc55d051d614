// The portal under test: the Go binary built once from the repository root,
// started on a free loopback port with a fresh SQLite data folder, seeded
// with a SuperAdmin (admin subcommand) and, through the HTTP API, two
// companies that each have a CompanyAdmin, an Admin and a User.
import { spawn, execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./env.mjs";
import { licenseEnv } from "./license.mjs";

const run = promisify(execFile);

export const PASSWORD = "E2e-Passw0rd-1";

let built; // one build per process unless e2e/run.mjs built it already

// buildBinary returns the path of the fieldhub binary. e2e/run.mjs builds it
// once for the whole run and passes FIELDHUB_E2E_BIN; a test file run alone
// builds its own into a temp folder. The web assets must already be built in
// webapp/dist (the binary embeds them).
export function buildBinary() {
  const given = process.env.FIELDHUB_E2E_BIN;
  if (given) {
    if (!existsSync(given)) throw new Error(`FIELDHUB_E2E_BIN=${given} does not exist`);
    return Promise.resolve(given);
  }
  built ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), "fieldhub-e2e-bin-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    const bin = join(dir, "fieldhub");
    await goBuild(bin);
    return bin;
  })();
  return built;
}

export async function goBuild(bin) {
  if (!existsSync(join(repoRoot, "webapp", "dist", ".vite", "manifest.json"))) {
    throw new Error("webapp/dist is not built: run `npm --prefix webapp run build` (the Justfile's test recipe does) first");
  }
  try {
    await run("go", ["build", "-o", bin, "."], { cwd: repoRoot, maxBuffer: 16 << 20 });
  } catch (err) {
    throw new Error(`go build failed:\n${err.stderr || err.message}`);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// The portal refuses to start on an unknown FIELDHUB_* variable, and must
// not pick up a developer's database or mail server: start from a clean
// environment.
function cleanEnv(extra) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith("FIELDHUB_") || k.startsWith("SMTP_URL") || k.startsWith("DATABASE_URL")) continue;
    env[k] = v;
  }
  return { ...env, FIELDHUB_ACCESS_LOG: "false", FIELDHUB_LOG_LEVEL: "warn", ...extra };
}

/**
 * startFieldhub starts a portal for one test file.
 * @param {object} [opts]
 * @param {{url: string}} [opts.mailbox] an SMTP server from startMailbox()
 * @param {Record<string,string>} [opts.env] more configuration, e.g. licenseEnv({ whiteLabel: true });
 *   without FIELDHUB_LICENSE_FILE the portal runs under an unlimited test license
 * @param {boolean} [opts.seed] create the companies and users (default true)
 * @param {string[]} [opts.serveArgs] more arguments of `serve`, e.g. ["--demo"]
 */
export async function startFieldhub({ mailbox, env = {}, seed = true, serveArgs = [] } = {}) {
  const bin = await buildBinary();
  const dataDir = mkdtempSync(join(tmpdir(), "fieldhub-e2e-data-"));
  const superAdmin = { role: "SuperAdmin", email: "superadmin@fieldhub.test", password: PASSWORD, firstName: "Super", lastName: "Admin" }; // as admin create-superadmin names it
  const license = "FIELDHUB_LICENSE_FILE" in env ? {} : licenseEnv();
  const baseEnv = cleanEnv({ FIELDHUB_DATA: dataDir, ...license, ...(mailbox ? { SMTP_URL: mailbox.url } : {}), ...env });

  try {
    await run(bin, ["admin", "create-superadmin", "--email", superAdmin.email, "--password", superAdmin.password], {
      env: baseEnv,
    });
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`admin create-superadmin failed:\n${err.stderr || err.message}`);
  }

  let proc;
  let baseURL;
  const logs = [];
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    baseURL = `http://127.0.0.1:${port}`;
    try {
      proc = await launch(bin, baseEnv, port, baseURL, logs, serveArgs);
      break;
    } catch (err) {
      // Another process may take the port between freePort and listen.
      if (attempt < 3 && /address already in use/.test(String(err.message))) continue;
      rmSync(dataDir, { recursive: true, force: true });
      throw err;
    }
  }
  const killOnExit = () => proc.kill("SIGKILL");
  process.once("exit", killOnExit);

  const server = {
    baseURL,
    dataDir,
    mailbox,
    accounts: { superAdmin, companies: [] },
    /** Lines the server logged (JSON, level warn and above). */
    logs: () => logs.slice(),
    /** What serve printed until it listened (the demo's logins, with --demo). */
    startup: proc.startup,
    /** Logged errors: a page that failed with a 500 shows up here. */
    errors: () => logs.filter((l) => /"level":"ERROR"/.test(l)),
    api: (method, path, opts) => api(baseURL, method, path, opts),
    token: (account) => token(baseURL, account),
    routeExists: (path) => routeExists(baseURL, path),
    /** Runs another command of the binary on the portal's database (fieldhub notify ...); resolves to its output. */
    cli: async (...args) => (await run(bin, args, { env: baseEnv })).stdout,
    async stop() {
      process.off("exit", killOnExit);
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((resolve) => proc.once("exit", resolve));
        proc.kill("SIGTERM");
        const timer = setTimeout(() => proc.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  if (seed) {
    try {
      await seedCompanies(server);
    } catch (err) {
      await server.stop();
      throw err;
    }
  }
  return server;
}

function launch(bin, env, port, baseURL, logs, serveArgs = []) {
  return new Promise((resolve, reject) => {
    const proc = spawn(bin, ["serve", "--addr", `127.0.0.1:${port}`, ...serveArgs], {
      env: { ...env, FIELDHUB_PUBLIC_URL: baseURL },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const keep = (chunk) => {
      for (const line of chunk.toString().split("\n")) {
        if (!line.trim()) continue;
        logs.push(line);
        if (logs.length > 500) logs.shift();
      }
    };
    proc.stderr.on("data", keep);
    proc.stdout.on("data", (chunk) => {
      out += chunk;
      if (out.includes("Fieldhub is running at")) {
        proc.startup = out;
        resolve(proc);
      }
    });
    proc.once("error", reject);
    proc.once("exit", (code, signal) =>
      reject(new Error(`fieldhub serve exited (${code ?? signal}) before listening:\n${out}\n${logs.join("\n")}`)),
    );
  });
}

/** api calls the JSON API; it throws on an unexpected status. */
export async function api(baseURL, method, path, { token, body, expect = [200, 201, 202, 204] } = {}) {
  const res = await fetch(baseURL + path, {
    method,
    headers: {
      ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!expect.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function token(baseURL, account) {
  const ans = await api(baseURL, "POST", "/api/users/authenticate", {
    body: { email: account.email, password: account.password },
  });
  return ans.token;
}

// routeExists tells whether the server has a page at path (a fixed path,
// without an id): to a visitor such a page answers 200, or redirects to
// /login; a path without a route answers the 404 page.
async function routeExists(baseURL, path) {
  const res = await fetch(baseURL + path, { redirect: "manual" });
  await res.arrayBuffer();
  return res.status !== 404;
}

async function seedCompanies(server) {
  const saToken = await server.token(server.accounts.superAdmin);
  for (const [i, key] of ["acme", "globex"].entries()) {
    const name = key === "acme" ? "Acme Sensors AB" : "Globex Metering AB";
    const person = (role, first, last) => ({
      role,
      firstName: first,
      lastName: last,
      email: `${role.toLowerCase()}@${key}.test`,
      password: PASSWORD,
      phoneNumber: `4670123456${i}`,
    });
    const companyAdmin = person("CompanyAdmin", "Cora", "Admin");
    const admin = person("Admin", "Adam", "Admin");
    const user = person("User", "Ulla", "User");
    const created = await server.api("POST", "/api/users/create/company", {
      token: saToken,
      body: {
        company: { name, orgNumber: "556677-8899", invoiceAdress: `billing@${key}.test`, country: "SE" },
        user: {
          firstName: companyAdmin.firstName,
          lastName: companyAdmin.lastName,
          email: companyAdmin.email,
          phoneNumber: companyAdmin.phoneNumber,
          password: PASSWORD,
        },
      },
    });
    const companyId = created.company.companyId;
    companyAdmin.userId = created.user.userId;
    const body = (p) => ({ firstName: p.firstName, lastName: p.lastName, email: p.email, phoneNumber: p.phoneNumber, password: PASSWORD });
    admin.userId = (await server.api("POST", "/api/users", { token: saToken, body: { ...body(admin), role: "Admin", companyId } })).userId;
    const caToken = await server.token(companyAdmin);
    const createdUser = await server.api("POST", "/api/users", { token: caToken, body: body(user) });
    user.userId = createdUser.userId;
    if (createdUser.role && createdUser.role !== "User") throw new Error(`a CompanyAdmin created a ${createdUser.role}, want User`);
    for (const p of [companyAdmin, admin, user]) p.companyId = companyId;
    server.accounts.companies.push({ id: companyId, key, name, companyAdmin, admin, user });
  }
  const [acme] = server.accounts.companies;
  // The accounts of the first company, by role, for tests that need one of each.
  server.accounts.byRole = {
    SuperAdmin: server.accounts.superAdmin,
    Admin: acme.admin,
    CompanyAdmin: acme.companyAdmin,
    User: acme.user,
  };
}
