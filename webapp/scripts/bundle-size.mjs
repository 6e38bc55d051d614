// bundle-size prints the gzip size (level 9, as the server sends it) of the
// JavaScript each entry of the Vite build loads: the server pages' script and
// the islands with all their chunks. The icon names list, fetched only when
// the icon selector opens, and the catalog of the other language are shown
// apart. Run after `npm run build`: node scripts/bundle-size.mjs
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const dist = new URL("../dist/", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL(".vite/manifest.json", dist), "utf8"));
const gz = (file) => gzipSync(readFileSync(new URL(file, dist)), { level: 9 }).length;
const kb = (n) => (n / 1024).toFixed(1) + " KB";

function chunks(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  const e = manifest[key];
  for (const k of [...(e.imports ?? []), ...(e.dynamicImports ?? [])]) chunks(k, seen);
  return seen;
}

for (const entry of ["src/page/main.ts", "src/islands/index.ts"]) {
  let total = 0;
  const apart = [];
  for (const key of chunks(entry)) {
    const file = manifest[key].file;
    if (!file.endsWith(".js")) continue;
    const size = gz(file);
    if (file.startsWith("mdi-names") || /catalog\/sv|^sv-/.test(key + " " + file)) apart.push(`${file} ${kb(size)}`);
    else total += size;
  }
  console.log(`${entry}: ${kb(total)} gzip${apart.length ? ` (loaded apart: ${apart.join(", ")})` : ""}`);
}
