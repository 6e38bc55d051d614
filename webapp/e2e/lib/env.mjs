// Paths and fixed settings the browser tests share.
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

export const e2eDir = resolve(here, "..");
export const webappDir = resolve(e2eDir, "..");
export const repoRoot = resolve(webappDir, "..");
export const artifactsDir = join(e2eDir, "artifacts");

// Debian's Chromium headless shell (scripts/ensure-chromium.sh installs it):
// the same engine as Debian's chromium, without the browser around it, in
// about 40 % less CPU per test on a machine that the portal, Node and two
// files share (docs/decisions.md, "Browser tests").
// FIELDHUB_E2E_CHROMIUM=/usr/bin/chromium runs the tests in the full browser.
// Playwright never downloads a browser of its own here.
export const chromiumPath = process.env.FIELDHUB_E2E_CHROMIUM || "/usr/bin/chromium-headless-shell";
// Debian's full Chromium, for what measures pages as users' browsers draw them.
export const fullChromiumPath = "/usr/bin/chromium";
export const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

// The message catalogs, so that tests compare against the same texts the
// server renders instead of repeating them.
const catalogs = {};
export function catalog(lang) {
  catalogs[lang] ??= JSON.parse(readFileSync(join(webappDir, "locales", `${lang}.json`), "utf8"));
  return catalogs[lang];
}

// t returns the text of message id in lang, failing loudly on a missing key.
export function t(lang, id) {
  const text = catalog(lang)[id];
  if (text === undefined) throw new Error(`locales/${lang}.json has no message ${id}`);
  return text;
}

/** tf is t with simple {placeholder} values (no plural or number formats). */
export function tf(lang, id, args) {
  return t(lang, id).replace(/\{(\w+)\}/g, (m, k) => (k in args ? String(args[k]) : m));
}

export function artifactPath(name) {
  mkdirSync(artifactsDir, { recursive: true });
  return join(artifactsDir, name);
}
