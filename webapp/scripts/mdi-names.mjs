// mdi-names.mjs writes the class names of the @mdi/font icons (mdi-account,
// mdi-shape-outline, ...) as one sorted JSON array to
// src/features/dashboards/utils/mdi-names.json, for the icon selector. Run it
// with `node scripts/mdi-names.mjs` from webapp/ after upgrading @mdi/font and
// commit the result.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const css = readFileSync(
  fileURLToPath(new URL("../node_modules/@mdi/font/css/materialdesignicons.css", import.meta.url)),
  "utf8",
);

// Every icon is a rule `.mdi-NAME::before { content: "\F...."; }`; the
// helper classes (mdi-spin, mdi-rotate-90, ...) use `:before` or none.
// mdi-blank is a glyph that is always hidden, so it is no choice.
const names = new Set();
for (const m of css.matchAll(/^\.(mdi-[a-z0-9-]+)::before\s*\{\s*content:/gm)) {
  if (m[1] !== "mdi-blank") names.add(m[1]);
}
if (names.size < 1000) {
  throw new Error(`found only ${names.size} icon names; has the CSS format changed?`);
}

const out = fileURLToPath(new URL("../src/features/dashboards/utils/mdi-names.json", import.meta.url));
// One name a line, so that an upgrade's diff shows the icons added and removed.
writeFileSync(out, `[\n  ${[...names].sort().map((n) => JSON.stringify(n)).join(",\n  ")}\n]\n`);
console.log(`wrote ${names.size} names to ${out}`);
