#!/usr/bin/env node
// Runs the browser tests (`npm --prefix webapp run e2e`): builds the Go
// binary once, then runs every webapp/e2e/*.test.mjs with Node's test runner,
// FIELDHUB_E2E_CONCURRENCY files at a time (default 2). Each file runs in its
// own Node process with its own portal (free port, fresh data folder),
// Chromium and temp folders, and spends most of its time waiting on the
// network, timers and rendering rather than on the CPU, so two files side by
// side take about half the wall time. The files in ALONE run after the
// others, one at a time: they measure, and a neighbour's load would be in
// their figures. Arguments name test files to run instead of all of them.
// Exits with the first failing runner's code. FIELDHUB_E2E_BIN names an
// already built binary to test instead.
//
// Needs the web assets built in webapp/dist, Debian's Chromium headless shell
// (lib/env.mjs's chromiumPath) and, for perf.test.mjs, its full Chromium
// (fullChromiumPath); scripts/ensure-chromium.sh installs both.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative, resolve } from "node:path";
import { chromiumPath, e2eDir, fullChromiumPath, webappDir } from "./lib/env.mjs";
import { goBuild } from "./lib/server.mjs";

// perf.test.mjs records first-contentful-paint and page weight for
// docs/performance.md and holds them to budgets.
const ALONE = new Set(["perf.test.mjs"]);

for (const path of [chromiumPath, fullChromiumPath]) {
  if (!existsSync(path)) {
    console.error(`e2e: ${path} is missing; run scripts/ensure-chromium.sh`);
    process.exit(1);
  }
}

const concurrencyText = process.env.FIELDHUB_E2E_CONCURRENCY || "2";
const concurrency = Number(concurrencyText);
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`e2e: FIELDHUB_E2E_CONCURRENCY=${concurrencyText} is not a whole number of at least 1`);
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
const together = files.filter((f) => !ALONE.has(basename(f)));
const alone = files.filter((f) => ALONE.has(basename(f)));

const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const names = (list) => list.map((f) => relative(webappDir, f)).join(", ");

let child; // the runner now running, which a signal to this process goes to
let stopped = false;
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    stopped = true;
    child?.kill(sig);
  });
}

// runFiles runs list with Node's test runner, n files at a time, and
// resolves to its exit code.
function runFiles(list, n, bin) {
  return new Promise((done) => {
    child = spawn(
      process.execPath,
      ["--test", `--test-concurrency=${n}`, "--test-reporter=spec", "--test-reporter-destination=stdout", ...list],
      { stdio: "inherit", env: { ...process.env, FIELDHUB_E2E_BIN: bin } },
    );
    child.on("exit", (c, signal) => {
      child = undefined;
      done(c ?? (signal ? 1 : 0));
    });
  });
}

const binDir = mkdtempSync(join(tmpdir(), "fieldhub-e2e-bin-"));
let code = 1;
const startedRun = Date.now();
try {
  let bin = process.env.FIELDHUB_E2E_BIN;
  if (bin) {
    console.log(`e2e: testing ${bin}`);
  } else {
    bin = join(binDir, "fieldhub");
    const started = Date.now();
    await goBuild(bin);
    console.log(`e2e: built the portal in ${seconds(started)}`);
  }
  code = 0;
  if (together.length) {
    const n = Math.min(concurrency, together.length);
    const started = Date.now();
    console.log(`e2e: running ${n} at a time: ${names(together)}`);
    code = await runFiles(together, n, bin);
    console.log(`e2e: ${together.length} file(s), ${n} at a time, took ${seconds(started)} (exit code ${code})`);
  }
  if (alone.length && !stopped) {
    const started = Date.now();
    console.log(`e2e: running alone: ${names(alone)}`);
    const aloneCode = await runFiles(alone, 1, bin);
    console.log(`e2e: ${alone.length} file(s) alone took ${seconds(started)} (exit code ${aloneCode})`);
    code ||= aloneCode;
  }
} catch (err) {
  console.error(`e2e: ${err.message}`);
  code = 1;
} finally {
  rmSync(binDir, { recursive: true, force: true });
}
console.log(`e2e: the whole run took ${seconds(startedRun)}`);
process.exit(code);
