#!/usr/bin/env node
// Runs the browser tests (`npm --prefix webapp run e2e`): builds the Go
// binary once, then runs every webapp/e2e/*.test.mjs with Node's test runner,
// one file at a time (each starts its own portal and Chromium). Arguments
// name test files to run instead of all of them. Exits with the runner's code.
// FIELDHUB_E2E_BIN names an already built binary to test instead.
//
// Needs the web assets built in webapp/dist and Chromium at /usr/bin/chromium
// (scripts/ensure-chromium.sh installs it).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { chromiumPath, e2eDir, webappDir } from "./lib/env.mjs";
import { goBuild } from "./lib/server.mjs";

if (!existsSync(chromiumPath)) {
  console.error(`e2e: ${chromiumPath} is missing; run scripts/ensure-chromium.sh`);
  process.exit(1);
}

// npm runs scripts in webapp/; names given on its command line are relative
// to where npm was started.
const cwd = process.env.INIT_CWD || process.cwd();
const files = process.argv.slice(2).length
  ? process.argv.slice(2).map((f) => resolve(cwd, f))
  : readdirSync(e2eDir)
      .filter((f) => f.endsWith(".test.mjs"))
      .sort()
      .map((f) => join(e2eDir, f));

const binDir = mkdtempSync(join(tmpdir(), "fieldhub-e2e-bin-"));
const cleanup = () => rmSync(binDir, { recursive: true, force: true });
let code = 1;
try {
  let bin = process.env.FIELDHUB_E2E_BIN;
  if (bin) {
    console.log(`e2e: testing ${bin}`);
  } else {
    bin = join(binDir, "fieldhub");
    const started = Date.now();
    await goBuild(bin);
    console.log(`e2e: built the portal in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  console.log(`e2e: running ${files.map((f) => relative(webappDir, f)).join(", ")}`);
  code = await new Promise((done) => {
    const child = spawn(
      process.execPath,
      ["--test", "--test-concurrency=1", "--test-reporter=spec", "--test-reporter-destination=stdout", ...files],
      { stdio: "inherit", env: { ...process.env, FIELDHUB_E2E_BIN: bin } },
    );
    for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
    child.on("exit", (c, signal) => done(c ?? (signal ? 1 : 0)));
  });
} catch (err) {
  console.error(`e2e: ${err.message}`);
} finally {
  cleanup();
}
process.exit(code);
