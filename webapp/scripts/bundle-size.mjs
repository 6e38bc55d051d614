// bundle-size prints the gzip size (level 9, as the server sends assets) of
// the JavaScript a page loads: the server pages' script, and for each island
// the loader with every chunk the island pulls in (shared chunks included).
// The last line adds up the date-range picker and the icon selector on one
// page, the combination the web-shell issue sets a budget for. Lazily loaded
// data (the icon names) and the other language's messages are left out.
// Run after `npm run build`: node scripts/bundle-size.mjs
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const dist = new URL("../dist/", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL(".vite/manifest.json", dist), "utf8"));
const kb = (n) => (n / 1024).toFixed(1) + " KB";
const size = new Map();
const gz = (file) => {
  if (!size.has(file)) size.set(file, gzipSync(readFileSync(new URL(file, dist)), { level: 9 }).length);
  return size.get(file);
};
const apart = (key) => /mdi-names|catalog\/sv|\/sv\.json/.test(key) || /^sv-/.test(manifest[key].file);

// files returns the JavaScript files key loads: its static imports always,
// its dynamic imports only when follow says so.
function files(key, follow, out = new Set()) {
  const e = manifest[key];
  if (!e || out.has(e.file) || apart(key)) return out;
  if (e.file.endsWith(".js")) out.add(e.file);
  for (const k of e.imports ?? []) files(k, follow, out);
  for (const k of e.dynamicImports ?? []) if (follow(k)) files(k, follow, out);
  return out;
}
const total = (set) => [...set].reduce((n, f) => n + gz(f), 0);

const page = files("src/page/main.ts", () => true);
console.log(`server page script: ${kb(total(page))}`);
const loaderKey = "src/islands/index.ts";
// An island's chunk is its feature's mount file, src/features/<feature>/mount-<island>.tsx.
const mountOf = /\/mount-([\w-]+)\.tsx$/;
const base = files(loaderKey, (k) => !mountOf.test(k));
const islands = (manifest[loaderKey].dynamicImports ?? []).filter((k) => mountOf.test(k));
const sets = {};
for (const k of islands) {
  const name = mountOf.exec(k)[1];
  sets[name] = files(k, () => true, new Set(base));
  console.log(`island ${name}: ${kb(total(sets[name]))} with the loader`);
}
const both = new Set([...(sets["date-range-picker"] ?? []), ...(sets["icon-selector"] ?? [])]);
console.log(`date-range picker + icon selector on one page: ${kb(total(both))}`);
